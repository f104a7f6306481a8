"""Claude Code's session transcripts: the reply a prompt answers, and whole sessions as turns.

Claude Code's `UserPromptSubmit` hook receives the user's prompt and the path of the session's
transcript, never the assistant's replies. Without them the tracker has no options to resolve
"drop the second one" or "A 不行" to, and the detector loses the context that tells a rejection
of a proposal from a plain "no". So before each prompt the hook reads the reply the user is
answering: the assistant lines after the last real prompt, their text blocks and tool calls.

`pivot scan` reads whole session files the same way (`SessionTurns`): every prompt a user turn,
the assistant lines between two prompts one assistant turn.

The transcript format is Claude Code's own and not a published contract: one JSON object per
line, `{"type": "user" | "assistant" | ..., "message": {"role", "content": str | [blocks]}}`,
with `text`, `tool_use` and `tool_result` blocks. Anything else (summaries, bookkeeping lines,
malformed lines, thinking blocks) is skipped, and a transcript that cannot be read yields no
reply: the hook goes on with the prompt alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from detector.schema import ToolCall, Turn

# A reply is read from the end of the file: a long session's transcript holds megabytes of tool
# output, and the hook runs before every prompt.
TAIL_BYTES = 1 << 20


def last_reply(path: Path, prompt: str, tail_bytes: int = TAIL_BYTES) -> Turn | None:
    """The assistant turn the prompt answers: the text and tool calls of the assistant lines
    after the last real user prompt, or before this prompt when Claude Code has already written
    it to the transcript. None when there is none, or the file cannot be read.

    Lines are parsed from the end back to that prompt only: what came before it is never needed,
    and parsing a megabyte of tool output took about 7 ms of every prompt."""
    reply: list[dict[str, Any]] = []  # newest first
    passed_this_prompt = False
    for record in _records_from_end(path, tail_bytes):
        if record.get("isSidechain"):
            continue
        said = _typed_prompt(record)
        if said is not None:
            if not reply and not passed_this_prompt and said == prompt.strip():
                # This prompt is in the file already (nothing answers it yet): the reply is before
                # it. A previous prompt with the same words ("yes", "continue") has its answer after it.
                passed_this_prompt = True
                continue
            break
        if record.get("type") == "assistant":
            reply.append(record)
    texts: list[str] = []
    calls: list[ToolCall] = []
    for record in reversed(reply):
        _read_reply_line(record, texts, calls)
    return _reply_turn(texts, calls)


def _read_reply_line(record: dict[str, Any], texts: list[str], calls: list[ToolCall]) -> None:
    """Add an assistant line's words and tool calls to the reply being read."""
    for block in _blocks(record):
        if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
            texts.append(block["text"].strip())
        elif block.get("type") == "tool_use" and isinstance(block.get("name"), str):
            calls.append(ToolCall(name=block["name"]))


def _reply_turn(texts: list[str], calls: list[ToolCall]) -> Turn | None:
    """The assistant turn those lines make, or None when they said and did nothing."""
    return Turn(role="assistant", text="\n\n".join(texts), tool_calls=calls) if texts or calls else None


def _records_from_end(path: Path, tail_bytes: int) -> Iterator[dict[str, Any]]:
    """The JSON objects of the file's last `tail_bytes` bytes, last first (the first, cut line
    dropped), each parsed only when asked for.

    Only a regular file is read, and never more than `tail_bytes` of it: the path comes from the
    hook's input, and a device or a growing pipe would otherwise be read without end."""
    try:
        if not path.is_file():
            return
        with path.open("rb") as handle:
            size = handle.seek(0, 2)
            handle.seek(max(0, size - tail_bytes))
            data = handle.read(tail_bytes)
    except (OSError, ValueError):  # ValueError: a path with a NUL byte
        return
    lines = data.split(b"\n")
    if size > tail_bytes:
        lines = lines[1:]
    for line in reversed(lines):
        try:
            record = json.loads(line)
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: "[[[[…" nested deep
            continue
        if isinstance(record, dict):
            yield record


def _blocks(record: dict[str, Any]) -> list[dict[str, Any]]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []


# What Claude Code writes as a user line but nobody typed: a slash command's wrapper and the
# output of a local command.
_COMMAND_WRAPPER_RE = re.compile(r"^\s*<(?:command-(?:name|message|args)|local-command-(?:stdout|stderr))>")


def _typed_prompt(record: dict[str, Any]) -> str | None:
    """The words of a user line the person typed; None for tool results (which Claude Code also
    writes as user lines), meta lines, a slash command's wrapper, a local command's output and
    anything else. The hook and the scan read prompts through this one test: a command's output
    after a reply had ended the hook's reply there, and the scan read on past it."""
    if record.get("type") != "user" or record.get("isMeta"):
        return None
    blocks = _blocks(record)
    if not blocks or any(block.get("type") == "tool_result" for block in blocks):
        return None
    text = "\n".join(block["text"] for block in blocks if block.get("type") == "text" and isinstance(block.get("text"), str))
    text = text.strip()
    return text if text and not _COMMAND_WRAPPER_RE.match(text) else None
# A line of a session file: an event with the session's id, or a summary of the session.
_SESSION_LINE_RE = re.compile(rb'"sessionId"\s*:|"type"\s*:\s*"summary"')
_CONVERSATION_RE = re.compile(rb'"(?:turns|messages|conversations)"\s*:\s*\[')


def looks_like_session(head: bytes) -> bool:
    """Does a file that begins with these bytes hold a Claude Code session, one event per line?
    One of its first lines is an event of the session (or its summary), and none is a whole
    conversation (`turns`, `messages`, `conversations`)."""
    lines = [line.strip() for line in head.split(b"\n")[:20] if line.strip()]
    return (
        bool(lines)
        and lines[0].startswith(b"{")
        and any(_SESSION_LINE_RE.search(line) for line in lines)
        and not any(_CONVERSATION_RE.search(line) for line in lines)
    )


class SessionTurns:
    """The turns of one Claude Code session, built one transcript line at a time (a session file
    can hold megabytes of tool output; only prompts and the assistant's words are kept).

    Side chains (a subagent's own conversation) are not the user's; meta lines, tool results,
    slash-command wrappers and local command output are not prompts."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.session_id: str | None = None
        self._texts: list[str] = []
        self._calls: list[ToolCall] = []

    def add(self, record: dict[str, Any]) -> None:
        if self.session_id is None and isinstance(record.get("sessionId"), str):
            self.session_id = record["sessionId"]
        if record.get("isSidechain"):
            return
        said = _typed_prompt(record)
        if said is not None:
            self._close_reply()
            self.turns.append(Turn(role="user", text=said))
        elif record.get("type") == "assistant":
            _read_reply_line(record, self._texts, self._calls)

    def finish(self) -> list[Turn]:
        """The session's turns, the last reply included."""
        self._close_reply()
        return self.turns

    def _close_reply(self) -> None:
        if (reply := _reply_turn(self._texts, self._calls)) is not None:
            self.turns.append(reply)
        self._texts, self._calls = [], []
