"""Patterns already proven linear and their anchors, remembered across processes.

Every lexicon pattern is parsed to prove it linear-time and parsed again to read its literal
anchors; with about 460 patterns that was a third of a `pivot hook` process's start-up. Both
results depend only on the pattern's text and on the Python version's regex parser, so they are
kept in the user cache under a digest of the two, and a pattern is checked once per machine.
Anyone who can write the user's cache can already change the user's code; a pattern not in the
memo (an edited lexicon, a user's own) is checked in full.
"""

from __future__ import annotations

import hashlib
import json
import platform
import threading
from functools import lru_cache
from pathlib import Path

from detector.paths import write_atomically


class PatternMemo:
    """Digests of patterns proven safe, and of cue patterns with their anchors."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._safe: set[str] = set()
        self._anchors: dict[str, list[str] | None] = {}
        self._changed = False
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            self._safe = set(loaded["safe"])
            self._anchors = dict(loaded["anchors"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # no memo yet, or an unreadable one: check everything, write a new one

    @staticmethod
    def digest(pattern: str) -> str:
        return hashlib.sha1(f"{platform.python_version()}\0{pattern}".encode()).hexdigest()

    def is_safe(self, pattern: str) -> bool:
        return self.digest(pattern) in self._safe

    def mark_safe(self, pattern: str) -> None:
        with self._lock:
            self._safe.add(self.digest(pattern))
            self._changed = True

    def anchors(self, pattern: str) -> tuple[bool, frozenset[str] | None]:
        """(found, anchors): whether the memo holds the pattern's anchors, and what they are."""
        key = self.digest(pattern)
        if key not in self._anchors:
            return False, None
        value = self._anchors[key]
        return True, (frozenset(value) if value is not None else None)

    def remember_anchors(self, pattern: str, anchors: frozenset[str] | None) -> None:
        with self._lock:
            self._anchors[self.digest(pattern)] = sorted(anchors) if anchors is not None else None
            self._changed = True

    def save(self) -> None:
        """Write what was learnt; a failure to write only costs the next process the checks."""
        with self._lock:
            if not self._changed:
                return
            try:
                write_atomically(self.path, json.dumps({"safe": sorted(self._safe), "anchors": self._anchors}))
            except OSError:
                return
            self._changed = False


@lru_cache(maxsize=1)
def pattern_memo() -> PatternMemo:
    """The memo in the user cache folder, one per process."""
    from detector.paths import cache_dir

    return PatternMemo(cache_dir() / "checked-patterns.json")
