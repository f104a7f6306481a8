"""Arguing a rejection's reason away brings the option back without naming it.

"A managed service would solve the ops cost": the reply repeats the reason's distinctive words or
character pairs, says the problem goes away, and suggests, without turning to the current decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from detector.relapse.mentions import Mention
from detector.relapse.stance import names_current, opening_clause_end
from detector.relapse.stance_cues import REBUTS_RE, RULED_OUT_RE, SUGGESTS_RE
from detector.relapse.vocabulary import WEAK_BIGRAMS, ZH_FUNCTION_RE
from detector.relapse.words import WEAK_STEMS, cjk_bigrams, key_matches, plain_words, stem_of
from detector.text import normalize

# Words that build the sentence a reason is given in, not what it is about: "thinning the oaks is
# like 2k" is about cost, and "ground covers like pachysandra" repeats nothing of it.
_REASON_FILLERS = frozenset(
    stem_of(word) for word in "like way really very pretty lol kind sort stuff thing things much many too even still".split()
)
# Words of how the user found the problem out, not what it is: "checked, max connections peaked at
# 40 of 200" is about connections, and "Next, check whether an idle timeout could cut …" argues
# none of it away.
_EVIDENCE_VERBS = frozenset(
    stem_of(word)
    for word in "check checked checking tried verified confirmed measured noticed".split()
)
_NOT_REASON_STEMS = WEAK_STEMS | _REASON_FILLERS | _EVIDENCE_VERBS


def rebuttal(sentence: str, reason: frozenset[str], current: str) -> Mention | None:
    """"A managed service would solve the ops cost": arguing the rejection's reason away, with a
    suggestion and without turning to the current decision, brings the option back unnamed."""
    if not reason or REBUTS_RE.search(sentence) is None or names_current(sentence, current):
        return None
    lowered = sentence.lower()
    keys = [key for key in key_matches(lowered) if key[2] in reason]
    if not keys:
        return None
    start, end, _ = keys[0]
    # The reason is not the option: "运维的问题" is not a verdict on anything, only a ruling-out is.
    if start < opening_clause_end(sentence) or RULED_OUT_RE.search(sentence):
        return None
    if not SUGGESTS_RE.search(sentence):
        return None
    return Mention(start, end, sentence[start:end], strong=False, kind="reason")


def rebuttable_keys(sentences: Sequence[str]) -> frozenset[str]:
    """The words and character pairs of the sentences that say a problem goes away: a rejection
    whose reason shares none of them is argued away by no sentence of the reply (`rebuttal`)."""
    return frozenset(
        key for sentence in sentences if REBUTS_RE.search(sentence) is not None for _, _, key in key_matches(sentence.lower())
    )


@lru_cache(maxsize=4096)
def reason_keys(reason: str, current: str) -> frozenset[str]:
    """What a rebuttal of the reason would repeat: its distinctive words and character pairs
    ("ops", "cost" of "ops cost"; "运维" of "运维扛不住")."""
    lowered = normalize(reason).lower()
    shared = plain_words(current) | cjk_bigrams(current)
    words = {stem_of(w) for w in plain_words(lowered) if stem_of(w) not in _NOT_REASON_STEMS and len(w) > 2} - shared
    pairs = {p for p in cjk_bigrams(lowered) - WEAK_BIGRAMS - shared if not ZH_FUNCTION_RE.search(p)}
    pairs = {p for p in pairs if "不" not in p}  # "扛不" is how the reason is put, not what it is about
    return frozenset(words | pairs)
