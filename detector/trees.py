"""A fitted gradient-boosted tree ensemble as flat arrays, scored with numpy.

The target ranker is a `HistGradientBoostingClassifier`: a linear score over the candidates'
features could not weigh them against each other ("near the verdict" matters for a phrase the
user typed, not for an option proposed four turns ago), and trees learn such interactions.
Detection must not import scikit-learn (about a second at start-up, in hooks that start a
process per turn), so training flattens the trees into arrays (`from_histgradientboosting`)
saved as an `.npz` without pickles, and scoring walks every tree for every candidate at once:
one numpy step per level of depth, whatever the number of trees.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from detector.errors import ModelError

# The per-node arrays (and `roots`), by field name: what is built, saved and loaded.
_NODE_ARRAYS = ("feature", "threshold", "left", "right", "value")


@dataclass(frozen=True, slots=True)
class TreeEnsemble:
    """Nodes of all trees in one set of arrays; `roots` gives each tree's first node.

    A split sends a row left when its feature value is at most the threshold (scikit-learn's
    rule for a feature without missing values); a leaf points at itself, so rows that reach a
    leaf early stay there while deeper rows go on.
    """

    feature_names: tuple[str, ...]
    feature: np.ndarray  # intp, per node (0 at leaves)
    threshold: np.ndarray  # float64, per node
    left: np.ndarray  # intp, global node index (the node itself at leaves)
    right: np.ndarray  # intp, global node index (the node itself at leaves)
    value: np.ndarray  # float64, the leaf's contribution (0 at splits)
    roots: np.ndarray  # intp, per tree
    depth: int
    baseline: float
    metadata: dict[str, Any]

    @classmethod
    def from_histgradientboosting(cls, model: Any, feature_names: tuple[str, ...], metadata: dict[str, Any]) -> TreeEnsemble:
        """Flatten a fitted binary `HistGradientBoostingClassifier` (training time only)."""
        if len(model.classes_) != 2 or getattr(model, "is_categorical_", None) is not None:
            raise ValueError("only a binary classifier over numeric features can be flattened")
        parts: dict[str, list[np.ndarray]] = {name: [] for name in _NODE_ARRAYS}
        roots, offset, depth = [], 0, 0
        for (predictor,) in model._predictors:  # one predictor per iteration for a binary model
            nodes = predictor.nodes
            leaf = nodes["is_leaf"].astype(bool)
            own = np.arange(offset, offset + len(nodes))
            parts["feature"].append(np.where(leaf, 0, nodes["feature_idx"]).astype(np.intp))
            parts["threshold"].append(np.where(leaf, 0.0, nodes["num_threshold"]).astype(np.float64))
            parts["left"].append(np.where(leaf, own, nodes["left"] + offset).astype(np.intp))
            parts["right"].append(np.where(leaf, own, nodes["right"] + offset).astype(np.intp))
            parts["value"].append(np.where(leaf, nodes["value"], 0.0).astype(np.float64))
            roots.append(offset)
            depth = max(depth, int(nodes["depth"].max()))
            offset += len(nodes)
        return cls(
            feature_names=feature_names,
            **{name: np.concatenate(arrays) for name, arrays in parts.items()},
            roots=np.asarray(roots, dtype=np.intp),
            depth=depth,
            baseline=float(np.ravel(model._baseline_prediction)[0]),
            metadata=metadata,
        )

    def decision(self, rows: ArrayLike) -> np.ndarray:
        """The raw score (log-odds) of each row, as `decision_function` gives it."""
        rows = np.asarray(rows, dtype=np.float64)
        at = np.broadcast_to(self.roots, (len(rows), len(self.roots))).copy()
        row_index = np.arange(len(rows))[:, None]
        for _ in range(self.depth):
            go_left = rows[row_index, self.feature[at]] <= self.threshold[at]
            at = np.where(go_left, self.left[at], self.right[at])
        return self.baseline + self.value[at].sum(axis=1)

    def save(self, path: Path) -> None:
        header = {"feature_names": list(self.feature_names), "depth": self.depth, "baseline": self.baseline} | self.metadata
        with path.open("wb") as handle:
            np.savez_compressed(
                handle,
                header=np.asarray(json.dumps(header, ensure_ascii=False)),
                **{name: getattr(self, name) for name in (*_NODE_ARRAYS, "roots")},
            )

    @classmethod
    def load(cls, path: Path, expected_features: tuple[str, ...], rebuild: str) -> TreeEnsemble:
        """Read a saved ensemble; refuse a file that is unreadable, inconsistent, or was fitted on
        other features (its scores would be meaningless), saying how to rebuild it."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                arrays = {name: saved[name] for name in (*_NODE_ARRAYS, "roots")}
                header = json.loads(str(saved["header"]))
            feature_names = tuple(header.pop("feature_names"))
            depth, baseline = int(header.pop("depth")), float(header.pop("baseline"))
        except FileNotFoundError:
            raise ModelError(f"{path} is missing: {rebuild}") from None
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as error:
            raise ModelError(f"{path} is not a readable tree ensemble ({error}): {rebuild}") from None
        if feature_names != expected_features:
            raise ModelError(f"{path} was fitted on other features than this version computes: {rebuild}")
        size = len(arrays["feature"])
        nodes_in_range = all(
            len(arrays[name]) == size and (size == 0 or (arrays[name].min() >= 0 and arrays[name].max() < size))
            for name in ("left", "right")
        )
        features_in_range = size == 0 or (arrays["feature"].min() >= 0 and arrays["feature"].max() < len(feature_names))
        if not (nodes_in_range and features_in_range and len(arrays["roots"]) and arrays["roots"].max() < size):
            raise ModelError(f"{path} holds node or feature indices out of range: {rebuild}")
        return cls(feature_names=feature_names, depth=depth, baseline=baseline, metadata=header, **arrays)
