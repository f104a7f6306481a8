"""The flattened tree ensemble (detector/trees.py) scores as scikit-learn does, and refuses a
file it cannot trust to."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier

from detector.errors import ModelError
from detector.trees import TreeEnsemble

NAMES = ("a", "b", "c", "d")


@pytest.fixture(scope="module")
def fitted() -> tuple[HistGradientBoostingClassifier, np.ndarray]:
    """A small model with interactions (the label needs two features at once) and ties in the
    data (thresholds fall between repeated values)."""
    generator = np.random.default_rng(7)
    rows = np.round(generator.random((600, len(NAMES))), 1)
    labels = ((rows[:, 0] > 0.5) ^ (rows[:, 1] > 0.3)).astype(int)
    model = HistGradientBoostingClassifier(max_iter=30, max_depth=4, early_stopping=False, random_state=0)
    return model.fit(rows, labels), generator.random((200, len(NAMES)))


def test_the_flattened_trees_give_scikit_learns_decision_function(fitted, tmp_path: Path) -> None:
    model, unseen = fitted
    ensemble = TreeEnsemble.from_histgradientboosting(model, NAMES, {"note": "test"})
    assert np.allclose(ensemble.decision(unseen), model.decision_function(unseen), atol=1e-9)
    ensemble.save(tmp_path / "ranker.npz")
    loaded = TreeEnsemble.load(tmp_path / "ranker.npz", NAMES, "rebuild it")
    assert np.array_equal(loaded.decision(unseen), ensemble.decision(unseen))
    assert loaded.metadata == {"note": "test"}


def test_a_file_for_other_features_or_a_broken_file_is_refused(fitted, tmp_path: Path) -> None:
    model, _ = fitted
    path = tmp_path / "ranker.npz"
    TreeEnsemble.from_histgradientboosting(model, NAMES, {}).save(path)
    with pytest.raises(ModelError, match="other features.*rebuild it"):
        TreeEnsemble.load(path, ("a", "b"), "rebuild it")
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ModelError, match="not a readable tree ensemble.*rebuild it"):
        TreeEnsemble.load(path, NAMES, "rebuild it")
    with pytest.raises(ModelError, match="missing.*rebuild it"):
        TreeEnsemble.load(tmp_path / "absent.npz", NAMES, "rebuild it")
