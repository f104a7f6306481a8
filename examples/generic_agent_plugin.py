"""pivot-detector as a plugin for agents that call `agent_before` on each new user message.

Modelled on GenericAgent's `plugins/*.py`: the agent passes its own objects and only in-place
changes count. `messages` is the chat list (dicts with role and content); `handler.working` is a
dict whose `key_info` string the agent re-injects every turn; `handler.history_info` is a list.

On each new user message the plugin asks the hook whether the checkpoint needs an update. When it
does, it appends the [SEMANTIC CONVERGENCE] block to the newest user message, and merges the
short form (one line per rejected alternative) into `working['key_info']`, keeping what the agent
wrote there. Drop this file into the agent's plugins/ folder; `pip install pivot-detector` first.
"""

from __future__ import annotations

from typing import Any

from detector.hook import PreTurnHook

MARK_START = "<!-- pivot-detector:key_info -->"
MARK_END = "<!-- /pivot-detector:key_info -->"

_hook: PreTurnHook | None = None


def _get_hook() -> PreTurnHook:
    """One hook per process: loading the model once keeps each turn in the millisecond range."""
    global _hook
    if _hook is None:
        _hook = PreTurnHook()
    return _hook


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def merge_key_info(existing: str, short_form: str) -> str:
    """Replace our own section of key_info, leave everything the agent wrote untouched."""
    ours = f"{MARK_START}\n{short_form}\n{MARK_END}" if short_form else ""
    if MARK_START in existing and MARK_END in existing:
        head, rest = existing.split(MARK_START, 1)
        tail = rest.split(MARK_END, 1)[1]
        return (head.rstrip("\n") + ("\n" if head.strip() and ours else "") + ours + tail).strip("\n")
    return (existing.rstrip("\n") + "\n" + ours).strip("\n") if ours else existing


def agent_before(messages: list[dict[str, Any]], handler: Any, hook: PreTurnHook | None = None, **_: Any) -> None:
    """Called by the agent before each model call on a new user message; changes things in place."""
    hook = hook or _get_hook()
    conversation_id = str(getattr(handler, "session_id", None) or id(handler))
    newest = next((m for m in reversed(messages) if m.get("role") == "user"), None)
    if newest is None:
        return
    # Feed the assistant's last reply first, so its proposals are known when the user answers it.
    previous = next((m for m in reversed(messages[: messages.index(newest)]) if m.get("role") == "assistant"), None)
    if previous is not None and _text(previous.get("content")):
        hook.after_turn(conversation_id, _text(previous.get("content")))
    suggestion = hook.before_turn(conversation_id, _text(newest.get("content")))
    if suggestion is None:
        return
    addition = f"\n\n{suggestion.instruction}\n{suggestion.block}"
    if isinstance(newest.get("content"), list):
        newest["content"].append({"type": "text", "text": addition})
    else:
        newest["content"] = _text(newest.get("content")) + addition
    working = getattr(handler, "working", None)
    if isinstance(working, dict):
        working["key_info"] = merge_key_info(working.get("key_info", "") or "", suggestion.key_info)
    history = getattr(handler, "history_info", None)
    if isinstance(history, list):
        history.append(f"[pivot-detector] turn {suggestion.turn}: {suggestion.trigger}")
