"""The learned scorer: a logistic regression over `features`, backing up the hand-set rules.

Why: the rules decide with conjunctions of lexicon hits, and their gains came from vocabulary seen
in each development set; on a set they had not seen they found about half the relapses (first
looks F1 0.634 and 0.691). Most misses named the option by a paraphrase or a sibling product, so
no mention was found at all. The scorer weighs general evidence instead (is something put forward
that is not the current decision, does it share words with the option, is a mention framed), and
the verdict is RELAPSE when the rules say so or the score reaches the threshold.

The weights are data (`scorer_weights.json`, written by `python -m training.relapse_scorer --out
detector/relapse/scorer_weights.json`), read here with the stdlib: no scikit-learn or numpy at run
time. A feature the file does not list weighs 0.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_WEIGHTS = Path(__file__).with_name("scorer_weights.json")


@dataclass(frozen=True)
class Scorer:
    """Weights by feature name and the probability at which a reply counts as a relapse."""

    weights: dict[str, float]
    threshold: float

    def probability(self, features: dict[str, float]) -> float:
        """P(RELAPSE) of one reply against one alternative."""
        z = sum(self.weights.get(name, 0.0) * value for name, value in features.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@lru_cache(maxsize=1)
def default_scorer() -> Scorer:
    """The shipped scorer, read once per process."""
    record = json.loads(_WEIGHTS.read_text(encoding="utf-8"))
    return Scorer({str(k): float(v) for k, v in record["weights"].items()}, float(record["threshold"]))
