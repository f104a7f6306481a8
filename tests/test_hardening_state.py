"""Corrupt state: a damaged SQLite file or an invalid stored state gives a clear StateError.

The error names the file and what to do (move the file aside; or `pivot state reset ID` for one
bad conversation), other conversations stay readable, and on the command line it is one line on
stderr with exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from detector.detect import Detector
from detector.errors import StateError
from detector.store import SQLiteStore
from detector.tracker import ConvergenceTracker

ROOT = Path(__file__).resolve().parent.parent
PIVOT = [sys.executable, "-m", "detector.cli"]
CONVERSATIONS = 40


def pivot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PIVOT, *args], check=False, cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("pivot: error: "), result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a checkpointed store holding CONVERSATIONS conversations of a few turns."""
    path = tmp_path_factory.mktemp("healthy") / "state.sqlite3"
    store = SQLiteStore(path)
    tracker = ConvergenceTracker(Detector("rules"), store)
    for c in range(CONVERSATIONS):
        tracker.observe_assistant(f"c{c}", "方案A：Redis 缓存\n方案B：本地 LRU")
        for i in range(3):
            tracker.observe_user(f"c{c}", f"这个方向不对，换成方案B ({i}) " + "padding " * 40)
    connection = store._connection()
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return path.read_bytes()


def write_store(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


# -- a damaged file ----------------------------------------------------------------------------

DAMAGES = {
    "random-bytes": lambda data: random.Random(1).randbytes(len(data)),
    "truncated-half": lambda data: data[: len(data) // 2],
    "truncated-header": lambda data: data[:50],
    "zeroed-after-header": lambda data: data[:100] + bytes(len(data) - 100),
    "text-file": lambda data: b"this is not a database\n" * 100,
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_file_is_a_state_error_naming_the_file_and_the_remedy(
    tmp_path: Path, healthy: bytes, damage: str
) -> None:
    path = write_store(tmp_path / "state.sqlite3", DAMAGES[damage](healthy))
    with pytest.raises(StateError) as failed:
        store = SQLiteStore(path)
        store.get("c0")
    message = str(failed.value)
    assert str(path) in message and ("move" in message or "delete" in message)
    line = assert_one_line_error(pivot("state", "show", "c0", "--store", str(path)))
    assert str(path) in line
    assert str(path) in assert_one_line_error(hook_turn(path, "c0", "drop it"))


def hook_turn(path: Path, conversation_id: str, text: str) -> subprocess.CompletedProcess[str]:
    """`pivot hook --store PATH --mode rules` with one user turn on stdin."""
    payload = json.dumps({"conversation_id": conversation_id, "turn": {"role": "user", "text": text}})
    return pivot("hook", "--store", str(path), "--mode", "rules", stdin=payload)


def _pages_damaged(healthy: bytes) -> bytes:
    """Header intact (the file opens), pages after the first overwritten with noise."""
    return healthy[:4096] + random.Random(2).randbytes(len(healthy) - 4096)


def test_a_file_with_damaged_pages_gives_state_errors_on_read_and_write(
    tmp_path: Path, healthy: bytes
) -> None:
    path = write_store(tmp_path / "state.sqlite3", _pages_damaged(healthy))
    store = SQLiteStore(path)
    with pytest.raises(StateError, match="move the file aside"):
        store.get("c0")
    with pytest.raises(StateError, match="move the file aside"):
        ConvergenceTracker(Detector("rules"), store).observe_user("c0", "drop it")
    line = assert_one_line_error(pivot("state", "show", "c0", "--store", str(path)))
    assert str(path) in line


@pytest.mark.parametrize("operation", ["ids", "delete"])
def test_listing_or_resetting_a_damaged_file_is_a_state_error(
    tmp_path: Path, healthy: bytes, operation: str
) -> None:
    path = write_store(tmp_path / "state.sqlite3", _pages_damaged(healthy))
    store = SQLiteStore(path)
    with pytest.raises(StateError):
        store.ids() if operation == "ids" else store.delete("c0")


@pytest.mark.parametrize("action", [["list"], ["reset", "c0"]])
def test_state_list_and_reset_on_a_damaged_file_are_one_line_errors(
    tmp_path: Path, healthy: bytes, action: list[str]
) -> None:
    path = write_store(tmp_path / "state.sqlite3", _pages_damaged(healthy))
    assert str(path) in assert_one_line_error(pivot("state", *action, "--store", str(path)))


def test_an_empty_file_is_a_fresh_store(tmp_path: Path) -> None:
    path = write_store(tmp_path / "state.sqlite3", b"")
    assert SQLiteStore(path).ids() == []


# -- a stored state that fails validation ------------------------------------------------------

BAD_STATES = {
    "wrong-type": '{"conversation_id": "bad", "turn": "many"}',
    "not-json": "{{{ not json",
    "unknown-status": '{"conversation_id": "bad", "alternatives": [{"id": "alt-1", "label": "A", "summary": "A", '
    '"first_turn": 1, "proposed_by": "user", "status": "maybe"}]}',
    "invalid-turn": '{"conversation_id": "bad", "recent_turns": [{"role": "robot", "text": 3}]}',
    "json-array": "[1, 2, 3]",
    "empty": "",
}


@pytest.mark.parametrize("bad", sorted(BAD_STATES))
def test_an_invalid_stored_state_names_the_file_and_the_reset_command(
    tmp_path: Path, healthy: bytes, bad: str
) -> None:
    path = write_store(tmp_path / "state.sqlite3", healthy)
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO conversation_state (conversation_id, state) VALUES ('bad', ?)", (BAD_STATES[bad],)
        )
    store = SQLiteStore(path)
    with pytest.raises(StateError) as failed:
        store.get("bad")
    message = str(failed.value)
    assert str(path) in message and "pivot state reset bad" in message
    with pytest.raises(StateError, match="pivot state reset bad"):
        ConvergenceTracker(Detector("rules"), store).observe_user("bad", "drop it")
    # Other conversations stay readable and writable, and the list still has everything.
    assert all(store.get(f"c{c}") is not None for c in range(CONVERSATIONS))
    ConvergenceTracker(Detector("rules"), store).observe_user("c1", "drop it")
    assert store.get("c1").turn == 4  # type: ignore[union-attr]
    assert len(store.ids()) == CONVERSATIONS + 1
    # On the command line: one line, and the reset it names works.
    line = assert_one_line_error(pivot("state", "show", "bad", "--store", str(path)))
    assert str(path) in line and "pivot state reset bad" in line
    assert pivot("state", "show", "c2", "--store", str(path)).returncode == 0
    assert "pivot state reset bad" in assert_one_line_error(hook_turn(path, "bad", "ok"))
    reset = pivot("state", "reset", "bad", "--store", str(path))
    assert reset.returncode == 0, reset.stderr
    assert SQLiteStore(path).get("bad") is None
    assert pivot("state", "list", "--store", str(path)).stdout.split() == sorted(
        f"c{c}" for c in range(CONVERSATIONS)
    )


def test_the_file_is_left_as_it_was_after_a_failed_read(tmp_path: Path, healthy: bytes) -> None:
    path = write_store(tmp_path / "state.sqlite3", healthy)
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO conversation_state (conversation_id, state) VALUES ('bad', '{')")
    before = os.path.getsize(path)
    with pytest.raises(StateError):
        ConvergenceTracker(Detector("rules"), SQLiteStore(path)).observe_user("bad", "drop it")
    with sqlite3.connect(path) as connection:
        assert connection.execute(
            "SELECT state FROM conversation_state WHERE conversation_id = 'bad'"
        ).fetchone() == ("{",)
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert os.path.getsize(path) >= before


def test_an_unwritable_cache_folder_falls_back_and_an_unwritable_state_folder_says_what_to_do(tmp_path) -> None:
    """A read-only home (a sandbox, a container) must not stop detection: caches only speed up
    start-up. The state store is not a cache: its folder failing is a one-line error naming the
    folder and the remedy, with exit status 2 (as every command-line error)."""
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("", encoding="utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(blocked), "TMPDIR": str(tmp_path / "tmp")}
    (tmp_path / "tmp").mkdir()
    detected = subprocess.run(
        [*PIVOT, "detect", "--json", "I don't want redis, 不用 Redis 了"], capture_output=True, text=True, cwd=ROOT, env=env, check=False
    )
    assert detected.returncode == 0, detected.stderr
    assert json.loads(detected.stdout)["label"] != "NONE"
    assert any((tmp_path / "tmp").glob("pivot-detector-*/*.json"))  # the caches went to the fallback

    env = {**os.environ, "XDG_STATE_HOME": str(blocked)}
    hooked = subprocess.run(
        [*PIVOT, "hook"], input=json.dumps({"conversation_id": "c", "turn": {"role": "user", "text": "ok"}}),
        capture_output=True, text=True, cwd=ROOT, env=env, check=False,
    )
    assert hooked.returncode == 2 and "state folder" in hooked.stderr and "--store" in hooked.stderr
    assert "Traceback" not in hooked.stderr
