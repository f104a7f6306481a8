"""State persistence: SQLite and memory behind one interface; real processes lose no update."""

from __future__ import annotations

import multiprocessing
import sqlite3
import tempfile
from pathlib import Path

import pytest

from detector.errors import StateError
from detector.schema import ConvergenceState
from detector.store import MemoryStore, SQLiteStore


def _fresh_sqlite_store() -> SQLiteStore:
    return SQLiteStore(Path(tempfile.mkdtemp()) / "s.db")


def _bump(state: ConvergenceState | None, conversation_id: str) -> tuple[ConvergenceState, int]:
    state = state or ConvergenceState(conversation_id=conversation_id)
    state.turn += 1
    state.constraints.append(f"c{state.turn}")
    return state, state.turn


@pytest.mark.parametrize("make", [MemoryStore, lambda: MemoryStore(isolate=False), _fresh_sqlite_store])
def test_store_interface(make) -> None:  # type: ignore[no-untyped-def]
    store = make()
    assert store.get("x") is None
    assert store.update("x", lambda s: _bump(s, "x")) == 1
    assert store.update("x", lambda s: _bump(s, "x")) == 2
    assert store.get("x").constraints == ["c1", "c2"]
    assert store.ids() == ["x"]
    assert store.delete("x") and store.get("x") is None


@pytest.mark.parametrize("make", [MemoryStore, _fresh_sqlite_store])
def test_a_store_keeps_state_when_an_updater_fails(make) -> None:  # type: ignore[no-untyped-def]
    """Nothing of a failed update stays: not in the stored state, nor in the object the store
    hands the next update."""
    store = make()
    store.update("x", lambda s: _bump(s, "x"))

    def failing(state: ConvergenceState | None) -> tuple[ConvergenceState, int]:
        assert state is not None
        state.constraints.append("half-done")
        raise RuntimeError("updater failed")

    with pytest.raises(RuntimeError):
        store.update("x", failing)
    assert store.get("x").constraints == ["c1"]
    assert store.update("x", lambda s: _bump(s, "x")) == 2
    assert store.get("x").constraints == ["c1", "c2"]


def test_sqlite_store_decodes_a_row_only_when_another_writer_changed_it(tmp_path: Path) -> None:
    """The process keeps the state it wrote and takes it back while the row still holds that
    JSON; a write by another store (another process) is read, never shadowed by the kept one."""
    mine, theirs = SQLiteStore(tmp_path / "s.db"), SQLiteStore(tmp_path / "s.db")
    given: list[ConvergenceState | None] = []
    returned: list[ConvergenceState] = []

    def bump_and_see(state: ConvergenceState | None) -> tuple[ConvergenceState, int]:
        given.append(state)
        returned.append(_bump(state, "x")[0])
        return returned[-1], returned[-1].turn

    mine.update("x", bump_and_see)
    mine.update("x", bump_and_see)
    assert given[1] is returned[0]  # the row was unchanged: the kept state, not decoded again
    theirs.update("x", lambda s: _bump(s, "x"))
    assert mine.update("x", bump_and_see) == 4
    assert mine.get("x").constraints == ["c1", "c2", "c3", "c4"]


def test_an_isolating_memory_store_hands_back_the_state_it_wrote_and_gives_callers_a_copy() -> None:
    store = MemoryStore()
    returned: list[ConvergenceState] = []

    def bump_and_keep(state: ConvergenceState | None) -> tuple[ConvergenceState, int]:
        returned.append(_bump(state, "x")[0])
        return returned[-1], returned[-1].turn

    store.update("x", bump_and_keep)
    assert store.update("x", lambda state: (state, state is returned[0])) is True  # not decoded again
    copy = store.get("x")
    assert copy is not returned[0] and copy.constraints == ["c1"]
    copy.constraints.append("changed by a caller")
    assert store.get("x").constraints == ["c1"]


def _worker(path: str, conversation_id: str, count: int) -> None:
    store = SQLiteStore(path)
    for _ in range(count):
        store.update(conversation_id, lambda s: _bump(s, conversation_id))


def test_concurrent_processes_lose_no_update(tmp_path: Path) -> None:
    path = str(tmp_path / "state.db")
    SQLiteStore(path)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_worker, args=(path, "shared", 40)) for _ in range(6)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(60)
        assert process.exitcode == 0
    state = SQLiteStore(path).get("shared")
    assert state.turn == 240
    assert sorted(state.constraints, key=lambda c: int(c[1:])) == [f"c{i}" for i in range(1, 241)]


def test_invalid_stored_state_names_the_file_and_the_reset_command(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    store.update("good", lambda s: _bump(s, "good"))
    with sqlite3.connect(tmp_path / "s.db") as connection:
        connection.execute("INSERT INTO conversation_state (conversation_id, state) VALUES ('bad', '{\"turn\": \"x\"}')")
    with pytest.raises(StateError, match=r"pivot state reset bad"):
        store.get("bad")
    assert store.get("good").turn == 1


def test_a_file_that_is_not_sqlite_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StateError, match="move it aside or delete it"):
        SQLiteStore(path)


@pytest.mark.parametrize("make", [MemoryStore, _fresh_sqlite_store])
def test_the_state_mark_checkpoint_returns_is_not_changed_by_later_turns(make) -> None:  # type: ignore[no-untyped-def]
    """The store hands the state it wrote last to the next update; what a caller was given must
    not be that object."""
    from detector.tracker import ConvergenceTracker

    tracker = ConvergenceTracker(lambda: None, make())  # type: ignore[arg-type,return-value]
    marked = tracker.mark_checkpoint("c")
    tracker.mark_checkpoint("c")
    assert len(marked.history) == 1
