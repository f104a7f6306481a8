"""The shipped model, its manifest, trust checks, evaluation figures and reproducible training."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from detector.classifier import load_model, manifest_path, sha256_file
from detector.detect import Detector, Mode
from detector.errors import ModelError
from detector.label_guide import NEGATIVES, POSITIVES, context_for
from detector.learn import evaluate, load_labeled, train
from detector.loading import default_model_path
from detector.schema import Label

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_manifest_matches_shipped_model() -> None:
    model = default_model_path()
    manifest = json.loads(manifest_path(model).read_text(encoding="utf-8"))
    assert manifest["sha256"] == sha256_file(model)
    assert manifest["labels"] == ["NONE", "REJECT", "PIVOT", "REOPEN"]
    assert {"rules", "classifier", "hybrid"} <= set(manifest["test_figures"])
    assert model.stat().st_size < 20 * 1024 * 1024


def test_default_detector_is_hybrid_on_the_shipped_model() -> None:
    from detector.loading import build_detector

    detection = build_detector().detect("这个方向不对，我们换成方案B吧")
    assert detection.explanation.classifier_probability is not None
    assert detection.label.value == "PIVOT"


@pytest.fixture(scope="module")
def shipped_detector():  # type: ignore[no-untyped-def]
    from detector.loading import build_detector

    return build_detector()


@pytest.mark.parametrize("text, label", POSITIVES)
def test_the_label_guide_positives_get_their_labels_after_a_proposal(shipped_detector, text: str, label: Label) -> None:
    """DESIGN §2's examples (detector/label_guide.py) on the shipped model."""
    assert shipped_detector.detect(text, context_for(text)).label is label


@pytest.mark.parametrize("text", NEGATIVES)
def test_the_label_guide_hard_negatives_stay_none(shipped_detector, text: str) -> None:
    assert shipped_detector.detect(text).label is Label.NONE
    assert shipped_detector.detect(text, context_for(text)).label is Label.NONE


def test_tampered_model_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "model.joblib"
    shutil.copy(default_model_path(), copy)
    shutil.copy(manifest_path(default_model_path()), manifest_path(copy))
    with copy.open("ab") as handle:
        handle.write(b"tampered")
    with pytest.raises(ModelError, match="does not match its manifest"):
        load_model(copy)


def test_model_without_manifest_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "other.joblib"
    shutil.copy(default_model_path(), copy)
    with pytest.raises(ModelError, match="no manifest"):
        load_model(copy, allow_untrusted=True)


def test_damaged_model_with_a_matching_manifest_fails_cleanly(tmp_path: Path) -> None:
    """Even when someone re-hashes a damaged file, loading ends in ModelError, not the OOM killer."""
    copy = tmp_path / "damaged.joblib"
    data = default_model_path().read_bytes()
    copy.write_bytes(data[: len(data) // 2] + bytes(64) + data[len(data) // 2 + 64 :])
    manifest = json.loads(manifest_path(default_model_path()).read_text(encoding="utf-8"))
    manifest["sha256"] = sha256_file(copy)
    manifest_path(copy).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ModelError, match="untrusted model"):
        load_model(copy)
    with pytest.raises(ModelError, match="cannot load model"):
        load_model(copy, allow_untrusted=True)


def test_eval_figures_have_the_documented_keys() -> None:
    figures = evaluate(Detector(Mode.RULES), load_labeled([ROOT / "data" / "dev.jsonl"])[:150])
    assert {"n", "binary_f1", "macro_f1", "accuracy", "none_false_positive_rate", "target_match", "reason_match", "per_label", "per_lang"} <= set(figures)
    assert set(figures["per_label"]) == {"REJECT", "PIVOT", "REOPEN", "NONE"}
    assert set(figures["per_label"]["REJECT"]) == {"precision", "recall", "f1", "support"}


def test_training_is_reproducible_and_writes_a_trusted_manifest(tmp_path: Path) -> None:
    lines = (ROOT / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()
    small_train = tmp_path / "train.jsonl"
    small_train.write_text("\n".join(lines[:60]) + "\n", encoding="utf-8")
    dev_lines = (ROOT / "data" / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    small_dev = tmp_path / "dev.jsonl"
    small_dev.write_text("\n".join(dev_lines[:20]) + "\n", encoding="utf-8")
    first = train([small_train], small_dev, tmp_path / "a.joblib", log=lambda _: None)
    second = train([small_train], small_dev, tmp_path / "b.joblib", log=lambda _: None)
    assert first["dev_figures"] == second["dev_figures"]
    assert first["training_data_sha256"] == second["training_data_sha256"]
    assert first["sha256"] == second["sha256"]  # the same bytes, not only the same figures
    model = load_model(tmp_path / "a.joblib")  # trusted: this user trained it
    assert model.manifest["sha256"] == sha256_file(tmp_path / "a.joblib")


def test_eval_without_state_gives_the_same_per_turn_figures() -> None:
    turns = load_labeled([ROOT / "data" / "dev.jsonl"])[:150]
    full = evaluate(Detector(Mode.RULES), turns)
    lean = evaluate(Detector(Mode.RULES), turns, with_state=False)
    assert "state" in full and "state" not in lean
    assert lean == {key: value for key, value in full.items() if key != "state"}
