"""The reply a Claude Code prompt answers, read from the session transcript (claude_transcript.py)."""

from __future__ import annotations

import json
from pathlib import Path

from detector.claude_transcript import last_reply

OPTIONS = "Options:\n1. Redis cluster\n2. In-process LRU cache\n3. CDN edge cache"


def _write(path: Path, records: list[dict | str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _user(content: object, **extra: object) -> dict:
    return {"type": "user", "uuid": "u", "message": {"role": "user", "content": content}, **extra}


def _assistant(*blocks: dict) -> dict:
    return {"type": "assistant", "uuid": "a", "message": {"role": "assistant", "content": list(blocks)}}


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


SESSION = [
    {"type": "summary", "summary": "caching", "leafUuid": "x"},
    _user("how should we cache the API?"),
    _assistant({"type": "thinking", "thinking": "…", "signature": "s"}, _text("Let me look at the code.")),
    _assistant({"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "api.py"}}),
    _user([{"type": "tool_result", "tool_use_id": "t1", "content": "def get(): ..."}]),
    "{not json",
    _assistant(_text(OPTIONS), {"type": "tool_use", "id": "t2", "name": "update_working_checkpoint", "input": {}}),
    {"type": "system", "subtype": "turn_duration"},
]


def test_the_reply_is_every_assistant_line_after_the_last_prompt(tmp_path: Path) -> None:
    """Tool results are user lines too, but no prompt: the reply runs across them. Thinking,
    bookkeeping and malformed lines are skipped."""
    reply = last_reply(_write(tmp_path / "t.jsonl", SESSION), "drop the second one")
    assert reply is not None and reply.role == "assistant"
    assert reply.text == "Let me look at the code.\n\n" + OPTIONS
    assert [call.name for call in reply.tool_calls] == ["Read", "update_working_checkpoint"]


def test_a_prompt_already_written_to_the_transcript_is_not_the_boundary(tmp_path: Path) -> None:
    records = SESSION + [_user([_text("drop the second one")])]
    reply = last_reply(_write(tmp_path / "t.jsonl", records), "drop the second one")
    assert reply is not None and reply.text.endswith(OPTIONS)


def test_only_the_tail_is_read(tmp_path: Path) -> None:
    """A long session's transcript is read from its end: a reply within the tail is found whole."""
    records = [_user("old prompt"), _assistant(_text("x" * 5000))] + SESSION
    path = _write(tmp_path / "t.jsonl", records)
    reply = last_reply(path, "next", tail_bytes=2000)
    assert reply is not None and reply.text.endswith(OPTIONS) and "xxxx" not in reply.text


def test_no_reply_and_no_file_give_nothing(tmp_path: Path) -> None:
    assert last_reply(_write(tmp_path / "t.jsonl", [_user("first prompt")]), "second prompt") is None
    assert last_reply(tmp_path / "missing.jsonl", "a prompt") is None
    assert last_reply(tmp_path, "a directory") is None


def test_a_previous_prompt_with_the_same_words_is_not_this_one(tmp_path: Path) -> None:
    """"yes" answered earlier, then options, then "yes" again: the reply is the options."""
    records = [_user("set up caching"), _assistant(_text("Should I look at the API first?")), _user("yes"), _assistant(_text(OPTIONS))]
    reply = last_reply(_write(tmp_path / "t.jsonl", records), "yes")
    assert reply is not None and reply.text == OPTIONS


def test_hostile_transcripts_give_nothing_and_never_hang(tmp_path: Path) -> None:
    """A device, a path with a NUL byte, and lines nested too deep for the JSON parser."""
    assert last_reply(Path("/dev/zero"), "x") is None
    assert last_reply(Path("bad\x00path"), "x") is None
    deep = _write(tmp_path / "deep.jsonl", [_user("go"), "[" * 100_000, _assistant(_text(OPTIONS))])
    assert last_reply(deep, "next") is not None
