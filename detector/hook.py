"""The pre-turn hook: the tracker behind a small API for agents, in-process or over stdin/stdout.

`PreTurnHook.before_turn` is called with each user turn before the model is; it returns a
Suggestion when the agent should update its checkpoint, else None (fast: no rendering happens
then). `after_turn` is called with the assistant's reply; it records the reply's proposals and
returns the relapse verdict.

`pivot hook` speaks two JSON dialects on stdin/stdout: the generic one
(`{"conversation_id", "turn": {"role", "text"}}` → the Suggestion, the verdict, or `{}`) and
Claude Code's `UserPromptSubmit` hook (→ `hookSpecificOutput.additionalContext`, or nothing).
That hook never sees the assistant's replies, so the reply a prompt answers is read first from
the session transcript Claude Code names (`transcript_path`, claude_transcript.py).
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from detector.claude_transcript import last_reply
from detector.errors import InputError
from detector.formats import validation_message
from detector.hook_client import read_hook_request
from detector.loading import build_detector
from detector.schema import RelapseVerdict, Suggestion, Turn
from detector.store import SQLiteStore, StateStore
from detector.tracker import ConvergenceTracker, TrackerConfig


class PreTurnHook:
    """The tracker with a detector and a store, ready to sit in front of every model call."""

    def __init__(
        self,
        store: StateStore | None = None,
        store_path: Path | str | None = None,
        mode: str | None = None,
        model_path: Path | str | None = None,
        config: TrackerConfig = TrackerConfig(),
        allow_untrusted_model: bool = False,
        tracker: ConvergenceTracker | None = None,
    ) -> None:
        # An existing tracker (the HTTP service's) is used as it is; otherwise one is built, with
        # its detector (and model) loaded when the first user turn arrives.
        self.tracker = tracker or ConvergenceTracker(
            partial(build_detector, mode=mode, model_path=model_path, allow_untrusted=allow_untrusted_model),
            store if store is not None else SQLiteStore(store_path),
            config,
        )

    def before_turn(self, conversation_id: str, turn: Turn | dict[str, Any] | str) -> Suggestion | None:
        """A user turn arrives: update the state; a Suggestion when the checkpoint needs updating."""
        return self.tracker.observe_user(conversation_id, _as_turn(turn, "user").text)

    def after_turn(self, conversation_id: str, turn: Turn | dict[str, Any] | str) -> RelapseVerdict:
        """The assistant replied: record its proposals and checkpoint calls; the relapse verdict."""
        return self.tracker.observe_assistant(conversation_id, _as_turn(turn, "assistant"))

    def catch_up(self, conversation_id: str, turn: Turn) -> bool:
        """An assistant reply read after the fact (Claude Code's transcript): record its options
        and checkpoint calls, unless it is the last one recorded. Not judged: it is already out."""
        return self.tracker.record_assistant(conversation_id, turn)

    def mark_checkpoint(self, conversation_id: str, turn: int | None = None) -> None:
        """The agent updated its checkpoint: the reminder counts from here."""
        self.tracker.mark_checkpoint(conversation_id, turn)


def _as_turn(turn: Turn | dict[str, Any] | str, role: str) -> Turn:
    if isinstance(turn, Turn):
        return turn
    if isinstance(turn, str):
        return Turn(role=role, text=turn)  # type: ignore[arg-type]
    try:
        return Turn.model_validate({"role": role, **turn})
    except ValidationError as exc:
        raise InputError(f"turn: {validation_message(exc)}") from None


def handle_hook_input(hook: PreTurnHook, raw: str) -> str:
    """One JSON object in, the text to print out ('' when there is nothing to add)."""
    request = read_hook_request(raw)
    if request.get("hook_event_name") == "UserPromptSubmit":
        session = request.get("session_id")
        prompt = request.get("prompt")
        if not isinstance(session, str) or not isinstance(prompt, str):
            raise InputError("stdin: UserPromptSubmit needs string fields session_id and prompt")
        transcript = request.get("transcript_path")
        if isinstance(transcript, str) and transcript:
            reply = last_reply(Path(transcript), prompt)
            if reply is not None:
                hook.catch_up(session, reply)
        suggestion = hook.before_turn(session, prompt)
        if suggestion is None:
            return ""
        context = f"{suggestion.instruction}\n\n{suggestion.block}"
        return json.dumps(
            {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": context}},
            ensure_ascii=False,
        )
    conversation_id = request.get("conversation_id")
    turn = request.get("turn")
    if not isinstance(conversation_id, str) or not conversation_id or not isinstance(turn, dict):
        raise InputError("stdin: expected {\"conversation_id\": str, \"turn\": {\"role\", \"text\"}}")
    role = turn.get("role")
    if role == "assistant":
        return hook.after_turn(conversation_id, turn).model_dump_json()
    if role != "user":
        raise InputError(f"turn.role: must be 'user' or 'assistant', got {role!r}")
    suggestion = hook.before_turn(conversation_id, turn)
    return suggestion.model_dump_json() if suggestion is not None else "{}"
