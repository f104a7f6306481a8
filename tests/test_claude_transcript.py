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


def test_side_chains_and_command_lines_neither_end_the_reply_nor_join_it(tmp_path: Path) -> None:
    """As `pivot scan` reads a session: a subagent's lines are not the reply, and a slash
    command's wrapper or a local command's output after the reply is no prompt that ends it."""
    records = SESSION + [
        {**_user("subagent: survey the cache layer"), "isSidechain": True},
        {**_assistant(_text("subagent notes")), "isSidechain": True},
        _user("<command-name>/cost</command-name>"),
        _user("<local-command-stdout>Total cost: $0.12</local-command-stdout>"),
    ]
    reply = last_reply(_write(tmp_path / "t.jsonl", records), "drop the second one")
    assert reply is not None and reply.text == "Let me look at the code.\n\n" + OPTIONS


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


def _write_session(path: Path, lines: list[object]) -> Path:
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


LOGGED_SESSION = [
    {"type": "summary", "summary": "Caching for the pricing service", "leafUuid": "u9"},
    {"type": "user", "sessionId": "s-42", "message": {"role": "user", "content": "pricing p95 is 800ms, options?"}},
    {"type": "assistant", "sessionId": "s-42", "message": {"role": "assistant", "content": [
        {"type": "text", "text": "Option 1: a Redis cache in front of the pricing service.\nOption 2: an in-process LRU cache."},
        {"type": "tool_use", "name": "Read", "input": {"file_path": "pricing.py"}},
    ]}},
    {"type": "user", "sessionId": "s-42", "message": {"role": "user", "content": [{"type": "tool_result", "content": "def price(): ..."}]}},
    {"type": "assistant", "sessionId": "s-42", "isSidechain": True, "message": {"role": "assistant", "content": [{"type": "text", "text": "subagent notes"}]}},
    {"type": "user", "sessionId": "s-42", "isMeta": True, "message": {"role": "user", "content": "Caveat: local commands below"}},
    {"type": "user", "sessionId": "s-42", "message": {"role": "user", "content": "<command-name>/clear</command-name>"}},
    "{not json",
    {"type": "user", "sessionId": "s-42", "message": {"role": "user", "content": "drop the Redis idea, too much ops for us"}},
    {"type": "assistant", "sessionId": "s-42", "message": {"role": "assistant", "content": [{"type": "text", "text": "OK, the in-process LRU then."}]}},
]


def test_a_session_file_is_one_conversation_of_prompts_and_replies(tmp_path: Path) -> None:
    from detector.formats import BadRecord, Record, iter_file

    items = list(iter_file(_write_session(tmp_path / "s-42.jsonl", LOGGED_SESSION)))
    bad = [item for item in items if isinstance(item, BadRecord)]
    records = [item for item in items if isinstance(item, Record)]
    assert [b.line for b in bad] == [8] and "malformed JSON" in bad[0].error  # reported, and the session goes on
    assert len(records) == 1 and records[0].transcript.id == "s-42"
    turns = records[0].transcript.turns
    assert [(t.role, t.text[:20]) for t in turns] == [
        ("user", "pricing p95 is 800ms"),
        ("assistant", "Option 1: a Redis ca"),
        ("user", "drop the Redis idea,"),
        ("assistant", "OK, the in-process L"),
    ]
    assert [call.name for call in turns[1].tool_calls] == ["Read"]


def test_pivot_scan_reads_claude_code_sessions(tmp_path: Path) -> None:
    """A folder of session files, as Claude Code keeps them, scanned like any other log."""
    import gzip
    import subprocess
    import sys

    logs = tmp_path / "projects"
    logs.mkdir()
    _write_session(logs / "s-42.jsonl", LOGGED_SESSION)
    (logs / "old.jsonl.gz").write_bytes(gzip.compress((logs / "s-42.jsonl").read_bytes().replace(b"s-42", b"s-41")))
    ours = {"id": "c1", "turns": [{"role": "user", "text": "hi"}]}
    (logs / "ours.jsonl").write_text(json.dumps(ours) + "\n", encoding="utf-8")
    out = tmp_path / "found.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "detector.cli", "scan", str(logs), "--mode", "rules", "--workers", "1", "--quiet", "--out", str(out),
         "--summary", str(tmp_path / "summary.json")],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    found = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    rejected = {(f["conversation_id"], f["label"]) for f in found if f.get("label")}
    assert rejected == {("s-42", "REJECT"), ("s-41", "REJECT")}
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["conversations"] == 3 and summary["bad_records"]["count"] == 2  # the malformed line, once per session


def test_a_session_with_no_prompt_is_a_bad_record(tmp_path: Path) -> None:
    from detector.formats import BadRecord, iter_file

    path = _write_session(tmp_path / "empty.jsonl", [LOGGED_SESSION[0], LOGGED_SESSION[3]])
    items = list(iter_file(path))
    assert len(items) == 1 and isinstance(items[0], BadRecord) and "no prompt" in items[0].error
    assert list(iter_file(path, "ours")) and all(isinstance(item, BadRecord) for item in iter_file(path, "ours"))
