"""Learn the target ranker's weights (detector/target_weights.json) from gold targets.

`python -m training.target_ranker [--data data/train.jsonl] [--out detector/target_weights.json]`

For every gold REJECT, PIVOT or REOPEN turn with a gold `target`, the candidates that target
resolution would see (detector/targets.py) are built from the turn, the cue layer's spans and the
turns before it; a candidate is positive when it denotes the gold target. A logistic regression
over the candidates' features gives the weights. The solver is deterministic and the rows come in
file order, so the same data gives the same file. Only gold labels are used (the runtime sees the
detector's label; they agree on the turns where a target is output at all).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from detector.cues.engine import default_engine
from detector.learn import load_labeled, same_thing
from detector.targets import FEATURES, TargetQuery, candidates, query_for
from detector.text import normalize, squeeze

# Per-turn L2 penalty: keeps weights of rare features (labels named, deictic turns) modest.
L2 = 0.001


# A candidate longer than this many times the gold target (plus a few characters for a label
# such as "方案A(...)") names more than was rejected: the whole route "昆明 → 大理 → 丽江 → 香格里拉"
# when the user rejected 香格里拉. Counting it as right taught the ranker to prefer whole proposals,
# and the tracker then recorded the whole route as rejected.
MAX_LENGTH_RATIO = 2.0
LABEL_ALLOWANCE = 12


def denotes(candidate: str, gold: str) -> bool:
    """Same thing as the gold target: neither a fragment too small to name it on its own, nor a
    span that says much more."""
    a, b = squeeze(candidate), squeeze(gold)
    return (
        same_thing(candidate, gold)
        and (len(a) >= min(len(b), 4) or a == b)
        and len(a) <= MAX_LENGTH_RATIO * len(b) + LABEL_ALLOWANCE
    )


Group = tuple[list[list[float]], list[int]]


def training_groups(data: Path) -> list[Group]:
    """Per gold-targeted positive turn: its candidates' feature rows and 0/1 labels."""
    engine = default_engine()
    groups: list[Group] = []
    for labeled in load_labeled([data]):
        turn = labeled.turn
        if not (labeled.label.is_positive and turn.target):
            continue
        text = normalize(turn.text)
        query: TargetQuery = query_for(text, labeled.label, engine.with_spans(text, engine.match(text)))
        found = candidates(query, labeled.transcript.turns[: labeled.index])
        labels = [int(denotes(c.text, turn.target)) for c in found]
        if any(labels):  # a turn none of whose candidates is right teaches the ranking nothing
            groups.append(([[c.features.get(name, 0.0) for name in FEATURES] for c in found], labels))
    return groups


def fit(groups: list[Group], l2: float = L2) -> dict[str, float]:
    """Weights of a conditional logit: per turn, a softmax over its candidates, trained to put
    its mass on the right ones (the ranker only ever compares candidates of one turn).

    L-BFGS from zero weights on a convex loss: the same groups give the same weights.
    """
    import numpy as np
    from scipy.optimize import minimize

    matrices = [np.asarray(rows, dtype=float) for rows, _ in groups]
    masks = [np.asarray(labels, dtype=bool) for _, labels in groups]

    def loss(weights: np.ndarray) -> tuple[float, np.ndarray]:
        total, gradient = l2 * weights @ weights, 2 * l2 * weights
        for matrix, mask in zip(matrices, masks):
            scores = matrix @ weights
            top = scores.max()
            every = np.exp(scores - top)
            right = every * mask
            total += np.log(every.sum()) - np.log(right.sum())
            gradient += matrix.T @ (every / every.sum() - right / right.sum())
        return total / len(groups), gradient / len(groups)

    result = minimize(loss, np.zeros(len(FEATURES)), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return {name: round(float(w), 4) for name, w in zip(FEATURES, result.x)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("data/train.jsonl"))
    parser.add_argument("--out", type=Path, default=Path("detector/target_weights.json"))
    args = parser.parse_args(argv)
    groups = training_groups(args.data)
    weights = fit(groups)
    record = {"trained_on": str(args.data), "turns": len(groups), "weights": weights}
    args.out.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(record, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
