"""From one user turn (and the turns before it) to a Detection, with its explanation.

Three modes share one code path so that evaluations compare like with like:
- `rules`: the cue layer alone (the baseline every evaluation compares against);
- `classifier`: the trained model alone;
- `hybrid` (default): the fusion rule in `fuse()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING

from detector.alternatives import (
    Proposal,
    best_overlap,
    extract_proposals,
    is_deictic,
    names_label,
    resolve_reference,
    shared_phrase,
)
from detector.cues.engine import CueEngine, CueMatch, default_engine
from detector.schema import POSITIVE_LABELS, Detection, Explanation, Label, Turn
from detector.text import detect_language, normalize

if TYPE_CHECKING:
    from detector.classifier import PivotClassifier

# A label fires in rules mode when the noisy-or of its cue weights reaches this.
RULES_THRESHOLD = 0.5
# How many turns back the detector looks for the alternatives a reference may point at.
CONTEXT_TURNS = 12


class Mode(str, Enum):
    """Which layer decides."""

    RULES = "rules"
    CLASSIFIER = "classifier"
    HYBRID = "hybrid"


def rules_scores(match: CueMatch) -> dict[Label, float]:
    """Per-label score: the noisy-or of the weights of the cues that fired for it."""
    scores: dict[Label, float] = {}
    for label in POSITIVE_LABELS:
        miss = 1.0
        for hit in match.fired:
            if hit.label is label:
                miss *= 1.0 - hit.weight
        scores[label] = round(1.0 - miss, 4)
    scores[Label.NONE] = round(1.0 - max(scores.values()), 4)
    return scores


def rules_label(scores: dict[Label, float]) -> tuple[Label, str]:
    """The rules-mode label and the rule that chose it.

    REOPEN outranks PIVOT, which outranks REJECT, because the guide says going back to a
    rejected option is REOPEN even when the same turn drops the current one, and a rejection
    that names its replacement is a PIVOT.
    """
    for label in (Label.REOPEN, Label.PIVOT, Label.REJECT):
        if scores[label] >= RULES_THRESHOLD:
            return label, f"rules: {label.value} cues reach {scores[label]:.2f} >= {RULES_THRESHOLD}"
    return Label.NONE, f"rules: no label's cues reach {RULES_THRESHOLD}"


class Detector:
    """Labels user turns; holds the cue engine and, outside rules mode, the trained model."""

    def __init__(
        self,
        mode: Mode | str = Mode.RULES,
        classifier: PivotClassifier | None = None,
        engine: CueEngine | None = None,
    ) -> None:
        self.mode = Mode(mode)
        self.engine = engine or default_engine()
        self.classifier = classifier
        if self.mode is not Mode.RULES and classifier is None:
            raise ValueError(f"mode {self.mode.value} needs a classifier")

    def warm_up(self) -> None:
        """Load now what loads on first use (tokenizers, the compiled model).

        A process pool forked after this shares those pages with its parent, instead of each
        worker loading its own copy of jieba's dictionary and the model's vocabularies.
        """
        self.detect("不用 Redis 了，改用本地缓存; scrap that, use Postgres instead")

    def detect(self, text: str, context: Sequence[Turn] = (), lang: str | None = None) -> Detection:
        """Label one user turn, given the turns before it (oldest first)."""
        normalized = normalize(text)
        language = lang if lang in ("zh", "en", "mixed") else detect_language(normalized)
        if not normalized:
            return _empty_detection(language)
        match = self.engine.match(normalized)
        scores = rules_scores(match)
        label, rule = rules_label(scores)
        explanation = Explanation(
            fired=match.fired,
            suppressed=match.suppressed,
            decided_by="rules",
            rule=rule + (" (long turn: head and tail windows matched)" if match.truncated else ""),
            normalized_text=normalized if len(normalized) <= 2000 else normalized[:2000] + "…",
        )
        confidence = scores[label]
        if self.mode is not Mode.RULES:
            assert self.classifier is not None
            label, confidence, scores = self.classifier.decide(
                normalized, context, match, scores, self.mode, explanation
            )
        spans = match.spans if label.is_positive else {}
        replacement = spans.get("replacement") if label is Label.PIVOT else None
        target = _resolve_target(spans.get("target"), normalized, context, replacement) if label.is_positive else None
        return Detection(
            label=label,
            confidence=round(confidence, 4),
            scores=scores,
            target=target,
            replacement=replacement,
            reason=spans.get("reason"),
            revisit_if=spans.get("revisit_if"),
            lang=language,  # type: ignore[arg-type]
            explanation=explanation,
        )


def recent_proposals(context: Sequence[Turn]) -> list[tuple[Proposal, ...]]:
    """Proposals per turn, most recent turn first, over the last CONTEXT_TURNS turns."""
    found = []
    for turn in reversed(context[-CONTEXT_TURNS:]):
        if turn.role in ("assistant", "user") and turn.text:
            proposals = extract_proposals(normalize(turn.text))
            if proposals:
                found.append(proposals)
    return found


def _resolve_target(
    raw: str | None, text: str, context: Sequence[Turn], replacement: str | None = None
) -> str | None:
    """Turn the captured span, or the user's words, into the alternative they denote.

    Order (DESIGN §5): an explicit label (方案A, option 2, 第二个) in the most recent turn that
    has it; then the proposal, most recent first, whose name the user's words overlap most;
    then the longest phrase that the captured span (or, without one, the turn) shares with a
    recent assistant turn; then the captured span as said; then, for a bare "这个" or no span,
    the most recent proposal. What a PIVOT switches to is never its target: the replacement's
    words are taken out of the turn, and a proposal that is the replacement is passed over.
    """
    proposals_by_turn = recent_proposals(context)
    if replacement:
        text = text.replace(replacement, " ")
        proposals_by_turn = [
            kept
            for proposals in proposals_by_turn
            if (kept := tuple(p for p in proposals if best_overlap(replacement, (p,), minimum=0.5) is None))
        ]
    for proposals in proposals_by_turn:
        by_label = resolve_reference(None, text, proposals) if names_label(text) else None
        if by_label is not None:
            return by_label.display
    for proposals in proposals_by_turn:
        overlapping = best_overlap(raw if raw and not is_deictic(raw) else text, proposals)
        if overlapping is not None:
            return overlapping.name
    earlier = [normalize(t.text) for t in reversed(context[-CONTEXT_TURNS:]) if t.role == "assistant" and t.text]
    phrase = shared_phrase(raw if raw and not is_deictic(raw) else text, earlier)
    if phrase is not None:
        return phrase
    if raw and not is_deictic(raw):
        return raw
    if proposals_by_turn:
        recommended = [p for p in proposals_by_turn[0] if p.recommended]
        return (recommended[-1] if recommended else proposals_by_turn[0][0]).name
    return None


def _empty_detection(language: str) -> Detection:
    scores = {label: 0.0 for label in POSITIVE_LABELS} | {Label.NONE: 1.0}
    return Detection(
        label=Label.NONE,
        confidence=1.0,
        scores=scores,
        lang=language,  # type: ignore[arg-type]
        explanation=Explanation(decided_by="rules", rule="empty or whitespace-only text: nothing to detect"),
    )
