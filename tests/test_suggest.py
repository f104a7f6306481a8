"""The retraining loop: `pivot suggest-labels` output feeds `pivot train`; `pivot eval --compare`.

Two real models are trained here (the shipped pipeline with small vocabularies, on slices of
the data), so the tests neither depend on the shipped model nor spend minutes fitting; they are
saved and trusted in a temporary state folder, exactly as `pivot train` would.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from detector.classifier import FusionThresholds, PivotClassifier, save_model
from detector.cli import main
from detector.detect import Detector
from detector.features import make_example
from detector.formats import read_transcripts
from detector.inference import CompiledModel
from detector.learn import labeled_turns, load_labeled
from detector.pipeline import build_pipeline
from detector.text import normalize

ROOT = Path(__file__).resolve().parent.parent
TRAIN = ROOT / "data" / "train.jsonl"


def train_tiny(out: Path, conversations: slice, c: float) -> Path:
    """The shipped model's pipeline, with small vocabularies, on a slice of the data; saved and trusted."""
    rules = Detector("rules")
    turns = labeled_turns(read_transcripts(TRAIN)[conversations])
    examples = [
        make_example(t.turn.text, t.transcript.turns[: t.index], rules.engine.match(normalize(t.turn.text))) for t in turns
    ]
    pipeline = build_pipeline(c).set_params(
        features__text__ngrams__chars__max_features=3000,
        features__text__ngrams__words__max_features=2000,
        model__estimator__max_iter=300,
    )
    pipeline.fit(examples, [t.turn.label.value for t in turns])
    save_model(PivotClassifier(CompiledModel.from_pipeline(pipeline), FusionThresholds()), out, {"created_by": "test"})
    return out


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    state = tmp_path_factory.mktemp("state")
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_STATE_HOME", str(state))  # trusted hashes go here, not to the user's folder
    folder = tmp_path_factory.mktemp("models")
    yield train_tiny(folder / "a.joblib", slice(0, 40), 1.0), train_tiny(folder / "b.joblib", slice(40, 100), 4.0)
    patch.undo()


@pytest.fixture()
def logs(tmp_path: Path) -> Path:
    """Unlabeled logs: the labels stripped from a slice of the data, half of it gzipped."""
    items = []
    for line in TRAIN.read_text(encoding="utf-8").splitlines()[200:240]:
        record = json.loads(line)
        record["turns"] = [{"role": t["role"], "text": t["text"]} for t in record["turns"]]
        items.append(json.dumps(record, ensure_ascii=False))
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "one.jsonl").write_text("\n".join(items[:20]) + "\n{broken\n", encoding="utf-8")
    with gzip.open(tmp_path / "logs" / "two.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write("\n".join(items[20:]) + "\n")
    return tmp_path / "logs"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_suggest_labels_writes_disagreements_and_least_sure_as_trainable_records(
    models: tuple[Path, Path], logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "to_label.jsonl"
    code, _, err = run(capsys, "suggest-labels", str(logs), "--top", "5", "--out", str(out), "--model", str(models[0]))
    assert code == 0, err
    assert "one.jsonl:21: malformed JSON" in err
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    disagreements = [r for r in records if r["suggested_because"] == ["disagreement"]]
    least_sure = [r for r in records if r["suggested_because"] == ["least_sure"]]
    assert len(least_sure) == 5 and len(disagreements) + 5 == len(records)
    assert all(r["predicted"]["rules"] != r["predicted"]["classifier"] for r in disagreements)
    assert all(r["predicted"]["rules"] == r["predicted"]["classifier"] for r in least_sure)
    confidences = [r["predicted"]["confidence"] for r in least_sure]
    assert confidences == sorted(confidences)
    for record in records:
        labeled = [t for t in record["turns"] if "label" in t]
        assert labeled == [record["turns"][-1]] and labeled[0]["label"] == record["predicted"]["hybrid"]
        assert labeled[0]["role"] == "user" and record["source"]["file"].startswith(str(logs))
    assert f"wrote {len(records)} turns" in err

    # The file is what `pivot train` and `pivot eval` read: one labeled turn per record, with context.
    turns = load_labeled([out])
    assert len(turns) == len(records)
    assert any(t.index > 0 for t in turns)


def test_least_sure_are_the_lowest_confidences_of_all_agreeing_turns(
    models: tuple[Path, Path], logs: Path, tmp_path: Path
) -> None:
    import io

    from detector.loading import build_detector
    from detector.scan import iter_records
    from detector.suggest import suggest_labels, verdicts

    buffer = io.StringIO()
    counts = suggest_labels([logs], buffer, top=3, model_path=models[0])
    detector = build_detector("hybrid", models[0])
    agreeing = sorted(
        found.hybrid.confidence
        for record in iter_records([logs])
        for i, turn in enumerate(record.transcript.turns)
        if turn.role == "user"
        for found in [verdicts(detector, record.transcript.turns, i, record.transcript.lang)]
        if not found.disagree
    )
    written = [json.loads(line) for line in buffer.getvalue().splitlines()]
    assert [r["predicted"]["confidence"] for r in written if r["suggested_because"] == ["least_sure"]] == agreeing[:3]
    assert counts["user_turns"] == counts["disagreements"] + len(agreeing)


def test_suggest_labels_refuses_rules_only_setups(tmp_path: Path, logs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "suggest-labels", str(logs), "--out", str(tmp_path / "x.jsonl"), "--model", str(tmp_path / "none.joblib"))
    assert code == 2 and "no such model file" in err


def test_eval_compare_prints_both_models_and_the_difference(
    models: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dev = (ROOT / "data" / "dev.jsonl").read_text(encoding="utf-8").splitlines()[:30]
    (tmp_path / "dev.jsonl").write_text("\n".join(dev) + "\n", encoding="utf-8")
    data = str(tmp_path / "dev.jsonl")
    code, out, err = run(capsys, "eval", data, "--model", str(models[0]), "--compare", str(models[1]), "--json")
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    a, b, diff = result["a"], result["b"], result["difference"]
    assert a["model"].endswith("a.joblib") and b["model"].endswith("b.joblib") and a["n"] == b["n"]
    for key in ("binary_f1", "macro_f1", "accuracy", "none_false_positive_rate"):
        assert diff[key] == pytest.approx(b[key] - a[key], abs=1e-4)
    assert diff["per_label_f1"]["PIVOT"] == pytest.approx(b["per_label"]["PIVOT"]["f1"] - a["per_label"]["PIVOT"]["f1"], abs=1e-4)

    code, out, _ = run(capsys, "eval", data, "--model", str(models[0]), "--compare", str(models[1]))
    assert code == 0
    assert "B - A" in out and "macro_f1" in out and "f1 REOPEN" in out and "macro_f1 en" in out

    code, _, err = run(capsys, "eval", data, "--mode", "rules", "--compare", str(models[1]))
    assert code == 2 and "rules mode" in err
