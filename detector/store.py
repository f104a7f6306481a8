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
from pathlib import Path
from typing import Protocol, TypeVar

from pydantic import ValidationError

from detector.errors import StateError
from detector.paths import state_dir
from detector.schema import ConvergenceState

Result = TypeVar("Result")
Updater = Callable[[ConvergenceState | None], tuple[ConvergenceState, Result]]


class StateStore(Protocol):
    """Persistence of convergence states, one per conversation id."""

    def get(self, conversation_id: str) -> ConvergenceState | None: ...

    def update(self, conversation_id: str, updater: Updater[Result]) -> Result: ...

    def delete(self, conversation_id: str) -> bool: ...

    def ids(self) -> list[str]: ...


class MemoryStore:
    """States in a dict, behind a lock: for tests and single-process embedding.

    By default states are kept as JSON, so a caller holding a returned state cannot change the
    stored one and an updater that raises half-way leaves nothing behind. A scan owns each
    conversation's tracker alone and drops it on any error: `isolate=False` keeps the live
    objects and skips the two conversions per turn, which were a third of a scan's time.
    """

    def __init__(self, isolate: bool = True) -> None:
        self._isolate = isolate
        self._states: dict[str, str | ConvergenceState] = {}
        self._lock = threading.Lock()

    def get(self, conversation_id: str) -> ConvergenceState | None:
        raw = self._states.get(conversation_id)
        if raw is None or isinstance(raw, ConvergenceState):
            return raw
        return ConvergenceState.model_validate_json(raw)

    def update(self, conversation_id: str, updater: Updater[Result]) -> Result:
        with self._lock:
            state, result = updater(self.get(conversation_id))
            self._states[conversation_id] = state.model_dump_json() if self._isolate else state
            return result

    def delete(self, conversation_id: str) -> bool:
        with self._lock:
            return self._states.pop(conversation_id, None) is not None

    def ids(self) -> list[str]:
        return sorted(self._states)


def default_store_path() -> Path:
    """The SQLite file used when no --store is given: in the user's state folder."""
    return state_dir() / "state.sqlite3"


class SQLiteStore:
    """States as JSON rows in one SQLite file (WAL journal, one transaction per update).

    Decoding a state is most of what a store costs, and it grows with the conversation (60 KB of
    JSON, 0.6 ms, at 300 user turns). So the process keeps the state it last wrote for each of
    its most recent conversations beside the JSON it wrote, and an update whose row still holds
    that very JSON takes the kept object instead of decoding it again. The row is read inside the
    transaction as before, so a write by another process (its JSON differs) is always decoded.
    """

    # Conversations whose last written state the process keeps: a hook server serves a few at once.
    KEPT_STATES = 32

    def __init__(self, path: Path | str | None = None, timeout_seconds: float = 30.0) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self._timeout = timeout_seconds
        self._local = threading.local()
        self._kept: OrderedDict[str, tuple[str, ConvergenceState]] = OrderedDict()
        self._kept_lock = threading.Lock()
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
                state, result = updater(self._stored(conversation_id, row[0]) if row else None)
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
        self._keep(conversation_id, written, state)
        return result

    def _stored(self, conversation_id: str, raw: str) -> ConvergenceState:
        """The state the row holds: the kept object when the row is what this process wrote last
        (taken out, so an updater that fails half-way leaves no half-changed object behind)."""
        with self._kept_lock:
            kept = self._kept.pop(conversation_id, None)
        return kept[1] if kept is not None and kept[0] == raw else self._decode(conversation_id, raw)

    def _keep(self, conversation_id: str, written: str, state: ConvergenceState) -> None:
        with self._kept_lock:
            self._kept[conversation_id] = (written, state)
            while len(self._kept) > self.KEPT_STATES:
                self._kept.popitem(last=False)

    def delete(self, conversation_id: str) -> bool:
        with self._kept_lock:
            self._kept.pop(conversation_id, None)
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
