"""Where convergence states live between turns: SQLite by default, memory for tests.

One small interface: `get`, `update`, `delete`, `ids`. `update` is a read-modify-write done in
one transaction, so hooks and server workers in several processes can update the same
conversation at once without losing an update: SQLite's `BEGIN IMMEDIATE` takes the write lock
before reading, so the second writer reads what the first one wrote.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol, TypeVar

from pydantic import ValidationError

from detector.errors import StateError
from detector.paths import state_dir
from detector.schema import ConvergenceState

Result = TypeVar("Result")
Updater = Callable[[ConvergenceState | None], tuple[ConvergenceState, Result]]


class StateStore(Protocol):
    """Persistence of convergence states, one per conversation id.

    `update` hands the updater the stored state (or None) and keeps the state it returns; the
    updater's result must hold no part of that state, which the store may hand, as it is, to the
    next update of the conversation (`KeptStates`).
    """

    def get(self, conversation_id: str) -> ConvergenceState | None: ...

    def update(self, conversation_id: str, updater: Updater[Result]) -> Result: ...

    def delete(self, conversation_id: str) -> bool: ...

    def ids(self) -> list[str]: ...


class KeptStates:
    """The state a store last wrote for each of its most recent conversations, beside the JSON it
    wrote, so that the next update can take the object back instead of decoding the JSON again.

    Decoding is most of what a store costs, and it grows with the conversation (48 KB of JSON,
    0.5 ms, at 300 user turns). The kept object counts only while the stored JSON is still the one
    written with it: another writer's JSON differs, and is decoded. `take` hands the object out and
    forgets it, so an updater that fails half-way leaves no half-changed object behind.
    """

    def __init__(self, limit: int = 32) -> None:
        self._limit = limit  # a hook server serves a few conversations at once
        self._kept: OrderedDict[str, tuple[str, ConvergenceState]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, conversation_id: str, stored: str | None, decode: Callable[[str], ConvergenceState]) -> ConvergenceState | None:
        """The state an update starts from: the kept object while `stored` is the JSON written with
        it, else `stored` decoded (None when nothing is stored)."""
        with self._lock:
            kept = self._kept.pop(conversation_id, None)
        if stored is None:
            return None
        return kept[1] if kept is not None and kept[0] == stored else decode(stored)

    def keep(self, conversation_id: str, written: str, state: ConvergenceState) -> None:
        with self._lock:
            self._kept[conversation_id] = (written, state)
            while len(self._kept) > self._limit:
                self._kept.popitem(last=False)

    def forget(self, conversation_id: str) -> None:
        with self._lock:
            self._kept.pop(conversation_id, None)


class MemoryStore:
    """States in a dict, behind a lock: for tests and single-process embedding.

    By default states are kept as JSON, so a caller holding a returned state cannot change the
    stored one and an updater that raises half-way leaves nothing behind; the updater is handed
    the object written last (`KeptStates`), not a decoding of its JSON. A scan owns each
    conversation's tracker alone and drops it on any error: `isolate=False` keeps the live
    objects and skips the conversions per turn, which were a third of a scan's time.
    """

    def __init__(self, isolate: bool = True) -> None:
        self._isolate = isolate
        self._states: dict[str, str | ConvergenceState] = {}
        self._lock = threading.Lock()
        self._kept = KeptStates()

    def get(self, conversation_id: str) -> ConvergenceState | None:
        raw = self._states.get(conversation_id)
        if raw is None or isinstance(raw, ConvergenceState):
            return raw
        return ConvergenceState.model_validate_json(raw)

    def update(self, conversation_id: str, updater: Updater[Result]) -> Result:
        with self._lock:
            if not self._isolate:
                state, result = updater(self.get(conversation_id))
                self._states[conversation_id] = state
                return result
            stored = self._states.get(conversation_id)
            assert stored is None or isinstance(stored, str)  # isolated: states are kept as JSON
            state, result = updater(self._kept.take(conversation_id, stored, ConvergenceState.model_validate_json))
            written = state.model_dump_json()
            self._states[conversation_id] = written
            self._kept.keep(conversation_id, written, state)
            return result

    def delete(self, conversation_id: str) -> bool:
        with self._lock:
            self._kept.forget(conversation_id)
            return self._states.pop(conversation_id, None) is not None

    def ids(self) -> list[str]:
        return sorted(self._states)


def default_store_path() -> Path:
    """The SQLite file used when no --store is given: in the user's state folder."""
    return state_dir() / "state.sqlite3"


class SQLiteStore:
    """States as JSON rows in one SQLite file (WAL journal, one transaction per update).

    The updater is handed the state this process wrote last while the row still holds its JSON
    (`KeptStates`); the row is read inside the transaction, so a write by another process is
    always decoded.
    """

    def __init__(self, path: Path | str | None = None, timeout_seconds: float = 30.0) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self._timeout = timeout_seconds
        self._local = threading.local()
        self._kept = KeptStates()
        try:
            with self._connection() as connection:
                connection.execute(
                    "CREATE TABLE IF NOT EXISTS conversation_state ("
                    " conversation_id TEXT PRIMARY KEY, state TEXT NOT NULL,"
                    " updated_at REAL NOT NULL DEFAULT (julianday('now')))"
                )
        except sqlite3.DatabaseError as exc:
            raise StateError(
                f"{self.path}: not a usable state database ({exc}); move it aside or delete it to start fresh"
            ) from exc

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: we issue BEGIN IMMEDIATE ourselves.
            connection = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            self._local.connection = connection
        return connection

    def _decode(self, conversation_id: str, raw: str) -> ConvergenceState:
        try:
            return ConvergenceState.model_validate_json(raw)
        except ValidationError as exc:
            raise StateError(
                f"{self.path}: the stored state of conversation {conversation_id!r} is invalid "
                f"({exc.errors()[0]['msg']}); reset it with `pivot state reset {conversation_id} --store {self.path}`"
            ) from exc

    def get(self, conversation_id: str) -> ConvergenceState | None:
        try:
            row = self._connection().execute(
                "SELECT state FROM conversation_state WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise StateError(f"{self.path}: cannot read state ({exc}); move the file aside to start fresh") from exc
        return self._decode(conversation_id, row[0]) if row else None

    def update(self, conversation_id: str, updater: Updater[Result]) -> Result:
        connection = self._connection()
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                row = connection.execute(
                    "SELECT state FROM conversation_state WHERE conversation_id = ?", (conversation_id,)
                ).fetchone()
                stored = row[0] if row else None
                state, result = updater(self._kept.take(conversation_id, stored, partial(self._decode, conversation_id)))
                written = state.model_dump_json()
                connection.execute(
                    "INSERT INTO conversation_state (conversation_id, state) VALUES (?, ?) "
                    "ON CONFLICT(conversation_id) DO UPDATE SET state = excluded.state, updated_at = julianday('now')",
                    (conversation_id, written),
                )
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise StateError(f"{self.path}: cannot write state ({exc}); move the file aside to start fresh") from exc
        self._kept.keep(conversation_id, written, state)
        return result

    def delete(self, conversation_id: str) -> bool:
        self._kept.forget(conversation_id)
        try:
            cursor = self._connection().execute(
                "DELETE FROM conversation_state WHERE conversation_id = ?", (conversation_id,)
            )
        except sqlite3.DatabaseError as exc:
            raise StateError(f"{self.path}: cannot write state ({exc}); move the file aside to start fresh") from exc
        return cursor.rowcount > 0

    def ids(self) -> list[str]:
        try:
            rows = self._connection().execute("SELECT conversation_id FROM conversation_state ORDER BY 1").fetchall()
        except sqlite3.DatabaseError as exc:
            raise StateError(f"{self.path}: cannot read state ({exc}); move the file aside to start fresh") from exc
        return [row[0] for row in rows]
