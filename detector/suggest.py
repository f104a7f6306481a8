"""The retraining loop's first step: which logged user turns are worth a human label?

Two kinds, written as labeled-transcript records (DESIGN §3) with the predicted label filled in,
so a person corrects labels instead of writing them and `pivot train` reads the file as is:
- every turn where the cue layer (`--mode rules`) and the classifier disagree: one of the two is
  wrong, and either way the example teaches the model something;
- the K turns the hybrid detector is least sure of (lowest confidence) among the rest.

Disagreements are written as they are found; the K least sure are kept in a bounded heap and
written at the end, so memory stays flat however large the logs are.
"""

from __future__ import annotations

import heapq
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from detector.classifier import LABELS, model_label
from detector.cues.engine import CueMatch
from detector.detect import Detector, Mode, rules_label, rules_scores
from detector.errors import PivotError
from detector.formats import BadRecord, FormatName, Record
from detector.scan import conversation_id, iter_records
from detector.schema import Detection, Label, Turn
from detector.targets import CONTEXT_TURNS


@dataclass(frozen=True, slots=True)
class TurnVerdicts:
    """The three layers' labels for one turn; `hybrid` is the one written as the suggestion."""

    hybrid: Detection
    rules: Label
    classifier: Label

    @property
    def disagree(self) -> bool:
        return self.rules is not self.classifier


def verdicts(detector: Detector, turns: Sequence[Turn], index: int, lang: str | None) -> TurnVerdicts:
    """One hybrid detection, plus the labels rules mode and classifier mode would have given.

    Both are read off the hybrid detection's explanation (the cue hits and the classifier's
    probabilities), so a turn costs one detection, not three.
    """
    detection = detector.detect_in(turns, index, lang=lang)
    classifier = detector.classifier
    assert classifier is not None, "verdicts need a detector with a classifier"
    if not detection.explanation.classifier_probability:  # nothing left after normalisation
        return TurnVerdicts(detection, Label.NONE, Label.NONE)
    probabilities = [detection.explanation.classifier_probability[label] for label in LABELS]
    rules_choice, _ = rules_label(rules_scores(CueMatch(fired=detection.explanation.fired)))
    return TurnVerdicts(detection, rules_choice, model_label(probabilities, classifier.thresholds.positive))


def labeled_record(record: Record, index: int, found: TurnVerdicts, why: list[str]) -> dict[str, Any]:
    """A labeled transcript holding the turn (label = the prediction) and the turns before it.

    Only the chosen turn carries a label: the context turns stay unlabeled, so training reads
    them as context and never as examples.
    """
    transcript = record.transcript
    start = max(0, index - CONTEXT_TURNS)
    turns: list[dict[str, Any]] = [{"role": t.role, "text": t.text} for t in transcript.turns[start:index]]
    detection = found.hybrid
    chosen: dict[str, Any] = {"role": "user", "text": transcript.turns[index].text, "label": detection.label.value}
    if detection.label.is_positive:
        for name in ("target", "replacement", "reason", "revisit_if"):
            value = getattr(detection, name)
            if value:
                chosen[name] = value
    turns.append(chosen)
    return {
        "id": f"{conversation_id(record)}#turn{index}",
        "lang": transcript.lang or detection.lang,
        "turns": turns,
        "suggested_because": why,
        "predicted": {
            "hybrid": detection.label.value,
            "confidence": detection.confidence,
            "rules": found.rules.value,
            "classifier": found.classifier.value,
        },
        "source": {"file": record.path, "line": record.line, "conversation_id": conversation_id(record), "turn": index},
    }


def suggest_labels(
    paths: Sequence[str | Path],
    out: IO[str],
    top: int = 50,
    fmt: FormatName = "auto",
    model_path: Path | None = None,
    allow_untrusted: bool = False,
    on_bad: Callable[[BadRecord], None] = lambda bad: None,
) -> dict[str, int]:
    """Write disagreements (as found) and the `top` least-sure other turns; return the counts."""
    from detector.loading import build_detector

    detector = build_detector(mode=Mode.HYBRID.value, model_path=model_path, allow_untrusted=allow_untrusted)
    if detector.classifier is None:
        raise PivotError("suggest-labels needs a trained model; pass --model or train one with `pivot train`")
    counts = {"user_turns": 0, "disagreements": 0, "least_sure": 0, "bad_records": 0, "written": 0}

    def bad(record: BadRecord) -> None:
        counts["bad_records"] += 1
        on_bad(record)

    # Max-heap on confidence via negation, so the least sure K stay; the counter breaks ties in
    # input order and keeps records (dicts) out of comparisons.
    least_sure: list[tuple[float, int, dict[str, Any]]] = []
    order = itertools.count()
    for record in iter_records(paths, fmt, bad):
        turns = record.transcript.turns
        for index, turn in enumerate(turns):
            if turn.role != "user":
                continue
            counts["user_turns"] += 1
            found = verdicts(detector, turns, index, record.transcript.lang)
            if found.disagree:
                counts["disagreements"] += 1
                out.write(json.dumps(labeled_record(record, index, found, ["disagreement"]), ensure_ascii=False) + "\n")
                continue
            item: tuple[float, int, dict[str, Any]] = (-found.hybrid.confidence, -next(order), {})
            if len(least_sure) < top or item > least_sure[0]:
                entry = (item[0], item[1], labeled_record(record, index, found, ["least_sure"]))
                (heapq.heappush if len(least_sure) < top else heapq.heapreplace)(least_sure, entry)
    for _, _, payload in sorted(least_sure, key=lambda e: (-e[0], -e[1])):
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
    counts["least_sure"] = len(least_sure)
    counts["written"] = counts["disagreements"] + counts["least_sure"]
    return counts
