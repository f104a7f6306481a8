"""Abbreviations a user types for a name the conversation spelled out: "GE 太重了" after "Great
Expectations", "no RN. flutter" after "React Native", "ok GP is off the table" after "general
partnership", "DS 那条就先不走了" after "转 data scientist".

Users abbreviate what they turn down, and the abbreviation shares no word with the option's name:
the target came out as "GE", or as whatever other phrase the turn held, and neither the state nor
the relapse guard could tie it to "Great Expectations" when the assistant said that again. So the
target is resolved over the turn with each abbreviation spelled out as the conversation last
spelled it.

Only capitals are read as abbreviations ("RN", "TGTG", "CPO"): a lower-case word is a word more
often than not ("ppl", "art"). The spelled-out words' initials must be the letters in order, one
word each, with neither edge a function word ("per month" is no "PM").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

# Two to five capitals, a plural "s" allowed ("CPOs"), standing alone as a word.
_ABBREVIATION_RE = re.compile(r"(?<![A-Za-z0-9])(?P<letters>[A-Z]{2,5})s?(?![A-Za-z0-9])")
# Words that never open or close a name: "is fine" is no "IF", "per month" no "PM".
_EDGE_WORDS = frozenset(
    "a an the to of in on for with and or by at from as is are was be it its this that per your our my "
    "we you i if so not no do".split()
)
_SEPARATOR = r"[ \-/]{1,3}"


@lru_cache(maxsize=512)
def _spelling_re(letters: str) -> re.Pattern[str]:
    """One word per letter, in order, each opening with it: linear, every part bounded."""
    words = _SEPARATOR.join(rf"[{c}{c.lower()}][A-Za-z]{{0,20}}" for c in letters)
    return re.compile(rf"(?<![A-Za-z0-9]){words}(?![A-Za-z0-9])")


def spelled_out(letters: str, texts: Sequence[str]) -> str | None:
    """The name `letters` abbreviates as the latest of `texts` (newest first) spells it, or None."""
    pattern = _spelling_re(letters)
    for text in texts:
        for found in pattern.finditer(text):
            if _name_like(found, len(letters)):
                return found.group()
    return None


def _name_like(found: re.Match[str], letters: int) -> bool:
    """Whether the words read as a name, not as words that happen to open with the letters ("my
    PI" is no "posing increases", "PR" no "p randomly"): no one-letter word, no function word at
    an edge, and for two letters, capitals ("Home Assistant") or words apart standing on their own
    ("转 data scientist", "2) intermittent fasting:")."""
    words = re.split(_SEPARATOR, found.group())
    if any(len(word) < 2 for word in words) or words[0].lower() in _EDGE_WORDS or words[-1].lower() in _EDGE_WORDS:
        return False
    if letters > 2 or all(word[0].isupper() for word in words):
        return True
    before = found.string[: found.start()].rstrip()[-1:]
    after = found.string[found.end() :].lstrip()[:1]
    one_word = "-" in found.group() or "/" in found.group()  # "pytest-randomly" is no "PR"
    return not one_word and not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalpha())


@lru_cache(maxsize=512)
def _as_is_re(letters: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9]){letters}s?(?![A-Za-z0-9])")


def _said_as_is(letters: str, text: str) -> bool:
    return _as_is_re(letters).search(text) is not None


def spellings(text: str, texts: Sequence[str]) -> dict[str, str]:
    """Each abbreviation of `text` that `texts` (newest first) spell out, with its spelling: not one
    the conversation also uses as it is ("RLS"), nor one the text spells out itself."""
    found: dict[str, str] = {}
    for letters in dict.fromkeys(match.group("letters") for match in _ABBREVIATION_RE.finditer(text)):
        if any(_said_as_is(letters, earlier) for earlier in texts):
            continue  # the conversation says "RLS" too: the abbreviation is the name it shares
        spelling = spelled_out(letters, texts)
        if spelling is not None and spelling.lower() not in text.lower():
            found[letters] = spelling
    return found


def spell_out(text: str, spelled: dict[str, str]) -> tuple[str, list[tuple[int, int, int]]]:
    """`text` with each abbreviation of `spelled` replaced by its spelling, and the edits made, as
    (start in `text`, end in `text`, length of the spelling), in order."""
    edits: list[tuple[int, int, int]] = []
    parts: list[str] = []
    last = 0
    for found in _ABBREVIATION_RE.finditer(text):
        spelling = spelled.get(found.group("letters"))
        if spelling is None:
            continue
        parts += [text[last : found.start()], spelling]
        edits.append((found.start(), found.end(), len(spelling)))
        last = found.end()
    return "".join(parts) + text[last:], edits


def moved(offset: int, edits: Sequence[tuple[int, int, int]]) -> int:
    """Where an offset into the original text lands in the spelled-out one."""
    shift = 0
    for start, end, length in edits:
        if offset >= end:
            shift += length - (end - start)
        elif offset > start:
            return start + shift + length
    return offset + shift
