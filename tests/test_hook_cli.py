"""`pivot hook` over stdin/stdout, as agents call it: generic JSON and Claude Code's form."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def hook(store: Path, payload: dict | str, *extra: str) -> subprocess.CompletedProcess[str]:
    data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return subprocess.run(
        [sys.executable, "-m", "detector.cli", "hook", "--store", str(store), *extra],
        input=data, capture_output=True, text=True, timeout=120, check=False,
    )


def test_generic_form_round_trip(tmp_path: Path) -> None:
    store = tmp_path / "state.db"
    out = hook(store, {"conversation_id": "g", "turn": {"role": "user", "text": "想加缓存"}}, "--mode", "rules")
    assert out.returncode == 0 and json.loads(out.stdout) == {}
    out = hook(store, {"conversation_id": "g", "turn": {"role": "assistant", "text": "方案A：Redis。\n方案B：本地 LRU。"}}, "--mode", "rules")
    assert json.loads(out.stdout)["verdict"] == "OK"
    out = hook(store, {"conversation_id": "g", "turn": {"role": "user", "text": "A 不行，换 B"}}, "--mode", "rules")
    suggestion = json.loads(out.stdout)
    assert suggestion["trigger"] == "pivot" and "[SEMANTIC CONVERGENCE]" in suggestion["block"]
    out = hook(store, {"conversation_id": "g", "turn": {"role": "assistant", "text": "也可以考虑 Redis 集群"}}, "--mode", "rules")
    assert json.loads(out.stdout)["verdict"] == "RELAPSE"


def test_claude_code_user_prompt_submit(tmp_path: Path) -> None:
    store = tmp_path / "state.db"
    base = {"session_id": "cc", "hook_event_name": "UserPromptSubmit", "cwd": "/tmp", "transcript_path": "/tmp/t.jsonl"}
    out = hook(store, {**base, "prompt": "what caching options do we have?"}, "--mode", "rules")
    assert out.returncode == 0 and out.stdout == ""
    out = hook(store, {**base, "prompt": "scrap the Redis idea, use an in-process cache instead"}, "--mode", "rules")
    reply = json.loads(out.stdout)["hookSpecificOutput"]
    assert reply["hookEventName"] == "UserPromptSubmit"
    assert "[SEMANTIC CONVERGENCE]" in reply["additionalContext"] and "Redis" in reply["additionalContext"]


@pytest.mark.parametrize("payload, message", [
    ("{oops", "malformed JSON"),
    ("[" * 100_000, "nested too deep"),  # json.loads raises RecursionError, not a decode error
    ('["list"]', "expected one JSON object"),
    ('{"conversation_id": "x"}', "expected {"),
    ('{"conversation_id": "x", "turn": {"role": "tool", "text": "t"}}', "turn.role"),
])
def test_bad_hook_input_is_one_line_error(tmp_path: Path, payload: str, message: str) -> None:
    out = hook(tmp_path / "s.db", payload, "--mode", "rules")
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_state_show_and_reset(tmp_path: Path) -> None:
    store = tmp_path / "state.db"
    hook(store, {"conversation_id": "s", "turn": {"role": "user", "text": "drop the Redis idea"}}, "--mode", "rules")
    shown = subprocess.run([sys.executable, "-m", "detector.cli", "state", "show", "s", "--store", str(store), "--form", "full"],
                           capture_output=True, text=True, check=True)
    assert "[SEMANTIC CONVERGENCE]" in shown.stdout and "Redis" in shown.stdout
    subprocess.run([sys.executable, "-m", "detector.cli", "state", "reset", "s", "--store", str(store)], check=True, capture_output=True)
    missing = subprocess.run([sys.executable, "-m", "detector.cli", "state", "show", "s", "--store", str(store)],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 2 and "no state" in missing.stderr


def test_claude_code_hook_reads_the_reply_the_prompt_answers_from_the_transcript(tmp_path: Path) -> None:
    """The prompt hook never sees the assistant: the options it listed come from the session's
    transcript, so "drop the second one" rejects the in-process cache, by name."""
    transcript = tmp_path / "session.jsonl"
    lines = [
        {"type": "user", "message": {"role": "user", "content": "how should we cache the API?"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "Options:\n1. Redis cluster\n2. In-process LRU cache\n3. CDN edge cache"}]}},
    ]
    transcript.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    base = {"session_id": "cc", "hook_event_name": "UserPromptSubmit", "transcript_path": str(transcript)}
    hook(tmp_path / "state.db", {**base, "prompt": "how should we cache the API?"}, "--mode", "rules")
    out = hook(tmp_path / "state.db", {**base, "prompt": "drop the second one, it won't survive restarts"}, "--mode", "rules")
    context = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "In-process LRU cache" in context
