"""Model trust: a model file is a pickle and can run code when loaded, so only trusted hashes load.

A tiny model is trained once (a few conversations of data/, seconds) with its trusted hash going
to a temporary user state folder; each test then copies it where it needs and points
XDG_STATE_HOME (read by platformdirs) at an empty or a prepared state folder.
"""

from __future__ import annotations

import gzip
import json
import os
import pickle
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from detector.classifier import FORMAT_VERSION, load_model, sha256_file
from detector.errors import ModelError
from detector.trust import is_trusted, shipped_hashes, user_hashes

ROOT = Path(__file__).resolve().parent.parent
PIVOT = [sys.executable, "-m", "detector.cli"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny model and its manifest, trained in a state folder of its own."""
    from detector.learn import train

    folder = tmp_path_factory.mktemp("model")
    train_file, dev_file = folder / "train.jsonl", folder / "dev.jsonl"
    train_file.write_text(
        "".join((ROOT / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines(True)[:40]),
        encoding="utf-8",
    )
    dev_file.write_text(
        "".join((ROOT / "data" / "dev.jsonl").read_text(encoding="utf-8").splitlines(True)[:15]),
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(folder / "trainer-state"))
        train([train_file], dev_file, folder / "tiny.joblib", log=lambda *args: None)
    return folder / "tiny.joblib"


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty user state folder for this test (no user-trusted hashes)."""
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    yield home


@pytest.fixture
def model(trained: Path, tmp_path: Path) -> Path:
    """A copy of the tiny model (and manifest) this test may damage."""
    copy = tmp_path / "models" / "copy.joblib"
    copy.parent.mkdir()
    shutil.copy(trained, copy)
    shutil.copy(trained.with_suffix(".json"), copy.with_suffix(".json"))
    return copy


def pivot(*args: str, state_home: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_STATE_HOME": str(state_home)}
    return subprocess.run(
        [*PIVOT, *args],
        check=False,
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_matching_manifest(model: Path) -> None:
    """A manifest that agrees with the file as it is now (so only the later checks can catch it)."""
    manifest_file = model.with_suffix(".json")
    manifest = json.loads(manifest_file.read_text(encoding="utf-8")) if manifest_file.exists() else {}
    manifest["sha256"] = sha256_file(model)
    manifest_file.write_text(json.dumps(manifest), encoding="utf-8")


def assert_one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("pivot: error: "), result.stderr
    return lines[0]


def test_the_shipped_model_is_trusted_with_an_empty_user_store(state_home: Path) -> None:
    shipped = ROOT / "detector" / "models" / "default.joblib"
    assert user_hashes() == {}
    assert is_trusted(sha256_file(shipped)) and sha256_file(shipped) in shipped_hashes()


def test_an_untrusted_model_is_refused_explaining_the_risk_and_the_command(
    model: Path, state_home: Path
) -> None:
    with pytest.raises(ModelError) as refused:
        load_model(model)
    message = str(refused.value)
    assert str(model) in message and "untrusted" in message and "run code" in message
    assert "--trust-model" in message or "pivot trust" in message
    line = assert_one_line_error(
        pivot("detect", "--model", str(model), "scrap plan A", state_home=state_home)
    )
    assert "untrusted" in line and "run code" in line and ("--trust-model" in line or "pivot trust" in line)


def test_pivot_trust_yes_then_allows_the_model(model: Path, state_home: Path) -> None:
    refused = pivot(
        "detect", "--model", str(model), "--json", "scrap plan A, go with B", state_home=state_home
    )
    assert refused.returncode == 2
    trusted = pivot("trust", str(model), "--yes", state_home=state_home)
    assert trusted.returncode == 0, trusted.stderr
    assert "pickle" in trusted.stderr and "code" in trusted.stderr  # the warning comes first
    assert sha256_file(model) in user_hashes()  # this process reads the same folder
    allowed = pivot(
        "detect", "--model", str(model), "--json", "scrap plan A, go with B", state_home=state_home
    )
    assert allowed.returncode == 0, allowed.stderr
    assert json.loads(allowed.stdout)["label"] in ("REJECT", "PIVOT", "REOPEN", "NONE")
    assert load_model(model).model.classes == ["NONE", "PIVOT", "REJECT", "REOPEN"]


def test_pivot_trust_without_yes_and_without_a_terminal_does_not_trust(model: Path, state_home: Path) -> None:
    result = pivot("trust", str(model), state_home=state_home)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    warning, error = result.stderr.strip().splitlines()
    assert "run" in warning and "code" in warning
    assert error.startswith("pivot: error: not trusted") and "--yes" in error
    assert sha256_file(model) not in user_hashes()


def test_trust_model_flag_loads_once_without_recording_trust(model: Path, state_home: Path) -> None:
    result = pivot("detect", "--model", str(model), "--trust-model", "drop it", state_home=state_home)
    assert result.returncode == 0, result.stderr
    assert sha256_file(model) not in user_hashes()


def test_training_records_the_new_model_as_trusted(trained: Path) -> None:
    store = trained.parent / "trainer-state" / "pivot-detector" / "trusted_models.json"
    assert sha256_file(trained) in json.loads(store.read_text(encoding="utf-8"))


class _RunsCode:
    """A pickle payload that would create a file when unpickled."""

    def __init__(self, sentinel: Path) -> None:
        self.sentinel = sentinel

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.touch, (self.sentinel,))


def test_a_malicious_pickle_is_never_opened_unless_trusted(tmp_path: Path, state_home: Path) -> None:
    sentinel = tmp_path / "owned"
    evil = tmp_path / "evil.joblib"
    evil.write_bytes(gzip.compress(pickle.dumps(_RunsCode(sentinel))))  # the model file format
    with pytest.raises(ModelError, match="no manifest"):
        load_model(evil)
    write_matching_manifest(evil)
    with pytest.raises(ModelError, match="untrusted"):
        load_model(evil)
    assert not sentinel.exists(), "the pickle was opened before its hash was checked"
    with pytest.raises(ModelError):
        load_model(evil, allow_untrusted=True)  # opting in does run it: that is what the warning is for
    assert sentinel.exists()


def test_a_manifest_mismatch_says_to_retrain(model: Path, state_home: Path) -> None:
    manifest = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
    manifest["sha256"] = "0" * 64
    model.with_suffix(".json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ModelError) as refused:
        load_model(model, allow_untrusted=True)
    assert "does not match its manifest" in str(refused.value) and "pivot train" in str(refused.value)


def test_a_replaced_model_file_no_longer_matches_its_manifest(model: Path, state_home: Path) -> None:
    with model.open("ab") as handle:
        handle.write(b"\0")
    with pytest.raises(ModelError, match=r"does not match its manifest.*pivot train"):
        load_model(model, allow_untrusted=True)


def test_an_unreadable_manifest_says_to_retrain(model: Path, state_home: Path) -> None:
    model.with_suffix(".json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelError, match=r"unreadable manifest.*pivot train"):
        load_model(model, allow_untrusted=True)


def test_a_model_of_an_older_format_says_to_retrain(model: Path, state_home: Path) -> None:
    model.write_bytes(gzip.compress(pickle.dumps({"format": 1, "pipeline": None, "thresholds": {}})))
    write_matching_manifest(model)
    with pytest.raises(ModelError) as refused:
        load_model(model, allow_untrusted=True)
    message = str(refused.value)
    assert f"format {FORMAT_VERSION}" in message and "retrain with `pivot train`" in message


def test_detecting_never_imports_scikit_learn() -> None:
    """The runtime model is plain Python and numpy: hooks start without scikit-learn and SciPy."""
    code = (
        "import sys; from detector.loading import build_detector; "
        "d = build_detector(); assert d.detect('scrap the Redis idea').explanation.classifier_probability; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'scipy', 'joblib')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="truncated-half"),
        pytest.param(lambda data: data[:100], id="truncated-head"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: bytes(range(256)) * 64, id="random-bytes"),
        pytest.param(lambda data: data[:2000] + bytes(4000) + data[6000:], id="zeroed-middle"),
        pytest.param(lambda data: pickle.dumps({"format": 1}), id="not-gzip"),
        pytest.param(lambda data: gzip.compress(pickle.dumps({"format": FORMAT_VERSION})), id="wrong-payload"),
        pytest.param(lambda data: gzip.compress(pickle.dumps({"format": FORMAT_VERSION, "model": 1, "thresholds": {}})), id="no-model"),
        pytest.param(lambda data: gzip.compress(pickle.dumps([1, 2, 3])), id="not-a-dict"),
    ],
)
def test_a_truncated_or_corrupt_model_gives_a_clear_model_error(
    model: Path, state_home: Path, damage
) -> None:  # type: ignore[no-untyped-def]
    model.write_bytes(damage(model.read_bytes()))
    # With its own manifest: the hash check catches it before the unpickler sees it.
    with pytest.raises(ModelError, match=r"does not match its manifest.*pivot train"):
        load_model(model, allow_untrusted=True)
    # With a manifest that agrees (damaged before its manifest was written): unpickling must fail cleanly.
    write_matching_manifest(model)
    with pytest.raises(ModelError) as refused:
        load_model(model, allow_untrusted=True)
    message = str(refused.value)
    assert str(model) in message and "pivot train" in message


def test_a_corrupt_model_on_the_command_line_is_a_one_line_error(model: Path, state_home: Path) -> None:
    model.write_bytes(model.read_bytes()[:5000])
    write_matching_manifest(model)
    line = assert_one_line_error(
        pivot("detect", "--model", str(model), "--trust-model", "drop it", state_home=state_home)
    )
    assert "cannot load model" in line and "pivot train" in line


def test_a_missing_model_names_the_file(tmp_path: Path, state_home: Path) -> None:
    with pytest.raises(ModelError, match="no such model file"):
        load_model(tmp_path / "absent.joblib")
