"""Literal anchors of a cue pattern: strings one of which every match must contain.

Running 170 regexes over every turn costs milliseconds; a plain substring test costs tens of
nanoseconds. Reading a pattern's parse tree, we find one mandatory piece of it whose every
possible text is a known set of literals (`不对|错了|不行`, `instead`, `方案`) and keep the most
selective such set. A cue whose anchors are all absent from a turn cannot match it, so its regex
is skipped. Where no such piece exists the regex always runs; the prefilter only ever skips
work, never a match (tests/test_cue_anchors.py checks that on the whole labeled corpus).
"""

from __future__ import annotations

from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

MAX_ANCHORS = 64
_Anchors = frozenset[str] | None


def anchors_of(pattern: str) -> frozenset[str] | None:
    """Lower-cased strings, one of which occurs in every match; None when unknown."""
    found = _sequence(list(sre_parse.parse(pattern)))
    if found is None or not found or min(len(a) for a in found) == 0:
        return None
    return frozenset(a.lower() for a in found)


def _sequence(items: list) -> _Anchors:  # type: ignore[type-arg]
    """The most selective anchor set among a sequence's mandatory items (literal runs merged)."""
    candidates: list[frozenset[str]] = []
    run = ""
    for op, arg in items:
        if op is sre_parse.LITERAL:
            run += chr(arg)
            continue
        if run:
            candidates.append(frozenset([run]))
            run = ""
        found = _item(op, arg)
        if found:
            candidates.append(found)
    if run:
        candidates.append(frozenset([run]))
    if not candidates:
        return None
    return max(candidates, key=lambda c: (min(len(a) for a in c), -len(c)))


def _exact(items: list) -> _Anchors:  # type: ignore[type-arg]
    """Every full text of a purely literal sequence (with alternations), if few enough."""
    texts = frozenset([""])
    for op, arg in items:
        if op is sre_parse.LITERAL:
            options: frozenset[str] | None = frozenset([chr(arg)])
        elif op is sre_parse.SUBPATTERN:
            options = _exact(list(arg[-1]))
        elif op is sre_parse.BRANCH:
            options = _branch_exact(arg[1])
        else:
            return None
        if options is None:
            return None
        texts = frozenset(t + o for t in texts for o in options)
        if len(texts) > MAX_ANCHORS:
            return None
    return texts


def _branch_exact(branches: list) -> _Anchors:  # type: ignore[type-arg]
    found: set[str] = set()
    for branch in branches:
        exact = _exact(list(branch))
        if exact is None:
            return None
        found |= exact
    return frozenset(found) if len(found) <= MAX_ANCHORS else None


def _item(op: object, arg: Any) -> _Anchors:
    """Anchors of one parse-tree item; `arg` is shaped by `op` (the stdlib parser's tuples)."""
    if op is sre_parse.SUBPATTERN:
        items = list(arg[-1])
        return _exact(items) or _sequence(items)
    if op is sre_parse.BRANCH:
        exact = _branch_exact(arg[1])
        if exact is not None:
            return exact
        found: set[str] = set()
        for branch in arg[1]:
            anchors = _sequence(list(branch))
            if anchors is None:
                return None
            found |= anchors
        return frozenset(found) if len(found) <= MAX_ANCHORS else None
    if op is sre_parse.IN:
        chars = [chr(a) for o, a in arg if o is sre_parse.LITERAL]
        if len(chars) == len(arg) and len(chars) <= 16:
            return frozenset(chars)
        return None
    if op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
        low, _, sub = arg
        return _sequence(list(sub)) if low >= 1 else None
    return None


class AnchorIndex:
    """Which cues can match a text, found by one pass over the text instead of one per cue.

    Testing each cue's anchors costs a Python-level loop over a thousand literals per turn.
    Indexed by their first two characters, only the anchors whose opening bigram occurs in the
    text are tested; a one-character anchor is decided by the text's character set. Cues without
    anchors are always candidates. Candidates come back in lexicon order, as the engine expects.
    """

    def __init__(self, anchors_per_cue: list[frozenset[str] | None]) -> None:
        self._always: list[int] = []
        self._by_char: dict[str, set[int]] = {}
        self._by_bigram: dict[str, list[tuple[str, int]]] = {}
        for position, anchors in enumerate(anchors_per_cue):
            if anchors is None:
                self._always.append(position)
                continue
            for anchor in anchors:
                if len(anchor) == 1:
                    self._by_char.setdefault(anchor, set()).add(position)
                else:
                    self._by_bigram.setdefault(anchor[:2], []).append((anchor, position))

    def candidates(self, lowered: str) -> list[int]:
        """Positions of the cues one of whose anchors occurs in `lowered` (already lower-cased)."""
        found = set(self._always)
        for char in self._by_char.keys() & set(lowered):
            found |= self._by_char[char]
        bigrams = {lowered[i : i + 2] for i in range(len(lowered) - 1)}
        for bigram in self._by_bigram.keys() & bigrams:
            for anchor, position in self._by_bigram[bigram]:
                if position not in found and (len(anchor) == 2 or anchor in lowered):
                    found.add(position)
        return sorted(found)
