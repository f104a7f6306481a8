"""The JSON Schemas committed under schemas/ are exactly what the code generates.

Clients in other languages are generated from these files; if a model changes, this test fails
until `pivot schema --out schemas` is run and the new files are committed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from detector.cli import main
from detector.server import PUBLIC_MODELS, schema_text

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
REGENERATE = "run `pivot schema --out schemas` and commit the result"


@pytest.mark.parametrize("name", sorted(PUBLIC_MODELS))
def test_committed_schema_matches_the_code(name: str) -> None:
    path = SCHEMAS / f"{name}.json"
    assert path.exists(), f"{path} is missing: {REGENERATE}"
    assert path.read_text(encoding="utf-8") == schema_text(name), f"{path} is stale: {REGENERATE}"


def test_no_schema_without_a_model() -> None:
    committed = {path.stem for path in SCHEMAS.glob("*.json")}
    assert committed == set(PUBLIC_MODELS), f"schemas/ holds files for models that are gone: {REGENERATE}"


def test_the_public_contracts_are_published() -> None:
    assert {"Detection", "Suggestion", "ConvergenceState", "RelapseVerdict", "Transcript", "Turn"} <= set(
        PUBLIC_MODELS
    )


def test_pivot_schema_prints_one_or_all(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "Suggestion"]) == 0
    assert capsys.readouterr().out == schema_text("Suggestion")

    assert main(["schema"]) == 0
    everything = json.loads(capsys.readouterr().out)
    assert list(everything) == list(PUBLIC_MODELS)
    assert everything["Detection"] == json.loads(schema_text("Detection"))


def test_pivot_schema_out_writes_the_committed_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert {p.name for p in tmp_path.iterdir()} == {p.name for p in SCHEMAS.glob("*.json")}


def test_unknown_model_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "Nope"]) == 2
    error = capsys.readouterr().err
    assert "unknown model 'Nope'" in error and "Suggestion" in error
