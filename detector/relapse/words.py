"""The units two texts are compared in without a dictionary: stemmed Latin words, CJK character pairs.

Shared by the reading of names, the finding of mentions and the reason keys of a rebuttal, so the
three fold words the same way ("hiking" meets "hike", "caching" is as generic as "cache").
"""

from __future__ import annotations

from detector.relapse.vocabulary import CJK_RUN_RE, LATIN_TOKEN_RE, STOP_WORDS, WEAK_WORDS
from detector.text import stem_of


def plain_words(text: str) -> set[str]:
    """Lower-cased Latin words, function words left out."""
    return {t.lower() for t in LATIN_TOKEN_RE.findall(text)} - STOP_WORDS


def cjk_bigrams(text: str) -> set[str]:
    """Every pair of adjacent CJK characters: without a dictionary, the unit two mentions share."""
    return {run[i : i + 2] for run in CJK_RUN_RE.findall(text) for i in range(len(run) - 1)}


def key_matches(lowered: str) -> list[tuple[int, int, str]]:
    """Latin words (stemmed) and CJK character pairs of a sentence, with offsets, as reason keys
    are written."""
    found = [(m.start(), m.end(), stem_of(m.group())) for m in LATIN_TOKEN_RE.finditer(lowered)]
    for run in CJK_RUN_RE.finditer(lowered):
        found += [(i, i + 2, lowered[i : i + 2]) for i in range(run.start(), run.end() - 1)]
    return sorted(found)


# Weak words compared by stem ("caching" is as generic as "cache").
WEAK_STEMS = frozenset(stem_of(w) for w in WEAK_WORDS)
