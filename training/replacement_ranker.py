"""Learn the replacement ranker (detector/replacement_ranker.npz) from gold pivots.

`python -m training.replacement_ranker [--data data/train.jsonl] [--dev data/dev.jsonl]
[--out detector/replacement_ranker.npz]`

For every gold PIVOT with a gold `replacement`, the candidates of detector/replacements.py are
built from the turn; a candidate is positive when it denotes the gold replacement by the target
ranker's `denotes` (the same thing, and not a clause that says much more). Every gold REJECT adds
its candidates as negatives, at a lower weight: a rejection names no replacement, and the ranker
must learn to say so, since the runtime asks it about every pivot the cues left without one, and
REJECT and PIVOT are the detector's commonest confusion. The settings and the fit are the target
ranker's. With `--dev`, it prints how the picks fare on those held-out turns.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from detector.cues.engine import default_engine
from detector.learn import LabeledTurn, load_labeled
from detector.replacements import FEATURES, MIN_SCORE, RANKER_FILE, ReplacementCandidate, candidates
from detector.schema import Label
from detector.targets import query_for
from detector.text import normalize
from detector.trees import TreeEnsemble
from training.target_ranker import TREE_SETTINGS, Group, denotes, fit

# How much a rejection's candidates weigh against a pivot's. All of a rejection's candidates are
# negatives, so at full weight the ranker learned mostly to say nothing: on a held-out writers'
# batch's pivots (s8) it answered 0.42 and was right 0.32 (by `denotes`), against 0.75 and 0.49 with no
# rejections at all; but then it gave a replacement to two thirds of the rejections, and so a
# decision to every rejection the detector takes for a pivot. At 0.2, with `MIN_SCORE` 0, the
# tracker set the gold replacement as the decision after 227, 88 and 404 of the 387, 215 and 751
# gold pivots of three writers' batches held out from the ranker (215, 84 and 372 without it),
# and after 121 of dev's 235 (118); dev's false pivots given a replacement went from 10 to 14 of
# 27. With no rejections and a bar of -1: 237, 87, 431 and 117, but 23 false pivots answered.
REJECTION_WEIGHT = 0.2


def _turns(data: Path) -> Iterator[tuple[LabeledTurn, list[ReplacementCandidate]]]:
    """Each gold PIVOT with a replacement and each gold REJECT, with its candidates."""
    engine = default_engine()
    for labeled in load_labeled([data]):
        turn = labeled.turn
        if not (labeled.label is Label.REJECT or (labeled.label is Label.PIVOT and turn.replacement)):
            continue
        text = normalize(turn.text)
        query = query_for(text, labeled.label, engine.with_spans(text, engine.match(text)))
        yield labeled, candidates(query, turn.target, labeled.transcript.turns[: labeled.index])


def _labels(labeled: LabeledTurn, found: list[ReplacementCandidate]) -> list[int]:
    gold = labeled.turn.replacement
    return [int(gold is not None and denotes(c.text, gold)) for c in found]


def _rows(found: list[ReplacementCandidate]) -> list[list[float]]:
    return [[c.features[name] for name in FEATURES] for c in found]


def training_groups(data: Path) -> tuple[list[Group], list[float]]:
    """Per turn: its candidates' feature rows and 0/1 labels, and the turn's weight. A pivot none
    of whose candidates is right teaches nothing and is left out; a rejection's candidates are
    all negatives, weighed `REJECTION_WEIGHT`."""
    groups: list[Group] = []
    weights: list[float] = []
    for labeled, found in _turns(data):
        labels = _labels(labeled, found)
        if found and (any(labels) or labeled.label is Label.REJECT):
            groups.append((_rows(found), labels))
            weights.append(REJECTION_WEIGHT if labeled.label is Label.REJECT else 1.0)
    return groups, weights


def held_out_figures(ranker: TreeEnsemble, data: Path) -> dict[str, float]:
    """On held-out gold turns: the share of pivots whose pick denotes the gold replacement (and
    the share answered at all), and the share of rejections given a replacement anyway."""
    pivots = answered = right = rejections = wrongly_answered = 0
    for labeled, found in _turns(data):
        pick = None
        if found:
            scores = ranker.decision(_rows(found))
            best = int(np.argmax(scores))
            pick = found[best] if scores[best] >= MIN_SCORE else None
        if labeled.label is Label.PIVOT:
            pivots += 1
            answered += pick is not None
            right += pick is not None and denotes(pick.text, labeled.turn.replacement or "")
        else:
            rejections += 1
            wrongly_answered += pick is not None
    return {
        "pivots": pivots,
        "pivot_answered": round(answered / max(pivots, 1), 4),
        "pivot_right": round(right / max(pivots, 1), 4),
        "rejections": rejections,
        "rejection_answered": round(wrongly_answered / max(rejections, 1), 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("data/train.jsonl"))
    parser.add_argument("--dev", type=Path, help="held-out labeled transcripts to report the picks on")
    parser.add_argument("--out", type=Path, default=Path("detector") / RANKER_FILE)
    args = parser.parse_args(argv)
    groups, weights = training_groups(args.data)
    metadata = {
        "trained_on": str(args.data),
        "turns": len(groups),
        "settings": TREE_SETTINGS,
        "rejection_weight": REJECTION_WEIGHT,
    }
    ranker = TreeEnsemble.from_histgradientboosting(fit(groups, weights), FEATURES, metadata)
    ranker.save(args.out)
    report = metadata | {"trees": len(ranker.roots), "nodes": len(ranker.feature), "out": str(args.out)}
    if args.dev:
        report["held_out"] = held_out_figures(ranker, args.dev)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
