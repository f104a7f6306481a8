"""Which alternative a positive turn is about: candidates from the turn and its context, ranked.

The rule order in detect.py (explicit label, then overlap with a proposal, then a phrase shared
with the assistant, then the cue's span) is right for clear turns and wrong in a telling way for
many real ones: it takes the replacement ("referral 那套效果不行，我想押 B2B 进学校" → B2B), a
number ("6个月我耗不起 … 转后端这事现在不现实" → 6 个月), or a reason ("Fivetran 先不上，明年预算批了
再说" → 预算批). So a trained model keeps the candidates those rules find, plus the Latin names and
the phrases the turn shares with earlier turns, and scores each one by a few facts about it: where
it came from, whether the user said it and where (before the cue or after it, inside the
replacement), how recent its turn is, how long it is. A logistic regression over those facts is
fitted on the training data's gold targets (learn.py) and shipped inside the model file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from detector.alternatives import content_keys, is_deictic, key_weight, names_label, resolve_reference, shared_phrase
from detector.schema import Label, Turn
from detector.text import normalize

SOURCES = ("span", "proposal", "shared_assistant", "shared_user", "latin_name")
_LATIN_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+#.\-]*(?: [A-Za-z][A-Za-z0-9+#.\-]*){0,3}")
_LATIN_STOP = frozenset(
    "i you we it that this the a an and or but so ok okay no not yes let let's lets just also then "
    "actually maybe please thanks hmm honestly".split()
)
MAX_CANDIDATE_CHARS = 40


@dataclass(frozen=True, slots=True)
class Candidate:
    """A string that may name the target, and where it was found."""

    text: str
    source: str
    turns_back: int = 0  # 0: the user's own turn
    named_by_label: bool = False
    recommended: bool = False


def _latin_names(text: str) -> list[str]:
    """Runs of up to four Latin words, trimmed of function words: "Airbyte", "detection model"."""
    names = []
    for match in _LATIN_NAME_RE.finditer(text):
        words = match.group().split()
        while words and words[0].lower() in _LATIN_STOP:
            words.pop(0)
        while words and words[-1].lower() in _LATIN_STOP:
            words.pop()
        if words and len(" ".join(words)) >= 2:
            names.append(" ".join(words))
    return names


def candidates(text: str, context: Sequence[Turn], span: str | None, turns: int = 6) -> list[Candidate]:
    """Everything the target could be, deduplicated (first source wins), at most 40 characters.

    Shared phrases are looked for in the last `turns` turns, each cut to its last 1,500
    characters: the longest-common-run search costs the product of the two lengths.
    """
    from detector.detect import recent_proposals

    found: list[Candidate] = []
    if span and not is_deictic(span):
        found.append(Candidate(span, "span"))
    labelled = names_label(text)
    for back, proposals in enumerate(recent_proposals(context), start=1):
        pointed = resolve_reference(None, text, proposals) if labelled else None
        for proposal in proposals:
            for name in dict.fromkeys((proposal.name, proposal.display)):
                found.append(Candidate(name, "proposal", back, proposal is pointed, proposal.recommended))
    recent = [t for t in context[-turns:] if t.text]
    for back, turn in enumerate(reversed(recent), start=1):
        phrase = shared_phrase(text, [normalize(turn.text)[-1500:]])
        if phrase is not None:
            found.append(Candidate(phrase, "shared_assistant" if turn.role == "assistant" else "shared_user", back))
    found += [Candidate(name, "latin_name") for name in _latin_names(text)]
    unique: dict[str, Candidate] = {}
    for candidate in found:
        key = candidate.text.strip().lower()
        if key and len(key) <= MAX_CANDIDATE_CHARS and key not in unique:
            unique[key] = candidate
    return list(unique.values())


FEATURES = (
    *(f"source={s}" for s in SOURCES),
    *(f"label={label.value}&source={s}" for label in (Label.REJECT, Label.PIVOT, Label.REOPEN) for s in SOURCES),
    "recency",
    "said_in_turn",
    "said_before_cue",
    "key_share_in_turn",
    "in_replacement",
    "named_by_label",
    "recommended",
    "length",
    "earliest_in_turn",
    "matches_a_proposal",
    "shares_keys_with_cue_target",
    "near_a_cue",
    "said_after_cue",
    "just_before_a_cue",
    "inside_a_cue",
    "content_keys",
    "proposal_key_share",
)


def features(
    candidate: Candidate,
    text: str,
    label: Label,
    replacement: str | None,
    cues: Sequence[tuple[int, int]],
    proposals: Sequence[str],
    span: str | None = None,
) -> list[float]:
    """The facts the ranker weighs, in FEATURES order. `cues` are the fired cues' (start, end)."""
    lowered, name = text.lower(), candidate.text.lower()
    at = lowered.find(name)
    keys = content_keys(candidate.text)
    text_keys = content_keys(text)
    replacement_keys = content_keys(replacement) if replacement else frozenset()
    proposal_keys = [content_keys(p) for p in proposals]
    span_keys = content_keys(span) if span and not is_deictic(span) else frozenset()
    cue_start = min((start for start, _ in cues), default=None)
    near = at >= 0 and any(start - 15 <= at <= end + 15 for start, end in cues)
    source = [float(candidate.source == s) for s in SOURCES]
    by_label = [
        float(label is wanted and candidate.source == s)
        for wanted in (Label.REJECT, Label.PIVOT, Label.REOPEN)
        for s in SOURCES
    ]
    return [
        *source,
        *by_label,
        1.0 / (1.0 + candidate.turns_back),
        float(at >= 0),
        float(at >= 0 and cue_start is not None and at < cue_start),
        len(keys & text_keys) / len(keys) if keys else 0.0,
        float(bool(keys & replacement_keys) or bool(replacement and name in replacement.lower())),
        float(candidate.named_by_label),
        float(candidate.recommended),
        math.log1p(len(candidate.text)) / 4.0,
        1.0 - at / max(len(lowered), 1) if at >= 0 else 0.0,
        float(any(key_weight(keys & have) >= 0.5 * key_weight(have) for have in proposal_keys if have)),
        len(keys & span_keys) / len(keys) if keys else 0.0,
        float(near),
        float(at >= 0 and cue_start is not None and at > cue_start),
        float(at >= 0 and any(0 <= start - (at + len(name)) <= 12 for start, _ in cues)),
        float(at >= 0 and any(start <= at and at + len(name) <= end for start, end in cues)),
        math.log1p(len(keys)) / 2.0,
        max((len(keys & have) / len(keys) for have in proposal_keys), default=0.0) if keys else 0.0,
    ]


@dataclass(slots=True)
class TargetRanker:
    """Logistic-regression weights over FEATURES; the best-scoring candidate is the target."""

    weights: np.ndarray
    bias: float

    def rank(
        self,
        text: str,
        context: Sequence[Turn],
        label: Label,
        span: str | None,
        replacement: str | None,
        cues: Sequence[tuple[int, int]],
    ) -> str | None:
        """The most likely target, or None when there is no candidate at all."""
        found = candidates(text, context, span)
        if not found:
            return None
        names = [c.text for c in found if c.source == "proposal"]
        rows = np.array([features(c, text, label, replacement, cues, names, span) for c in found])
        return found[int(np.argmax(rows @ self.weights + self.bias))].text
