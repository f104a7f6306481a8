"""The writer hold-out measure: held-out conversations leave training and are what gets scored."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from detector.errors import InputError
from detector.schema import Transcript, Turn
from detector.trust import user_hashes
from training.writer_holdout import main, split_by_id, writer_holdout

ROOT = Path(__file__).resolve().parent.parent


def _lines(split: str, count: int) -> list[str]:
    return (ROOT / "data" / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()[:count]


def test_split_by_id_holds_out_the_matching_conversations_only() -> None:
    names = ("s7enw-001", "zh-life-002", "s7zh-003", "s5el-004")
    transcripts = [Transcript(id=name, turns=[Turn(role="user", text="hi")]) for name in names]
    kept, held = split_by_id(transcripts, re.compile("^s7"))
    assert [t.id for t in held] == ["s7enw-001", "s7zh-003"]
    assert [t.id for t in kept] == ["zh-life-002", "s5el-004"]


def test_the_held_out_conversations_are_scored_and_not_trained_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    lines = _lines("train", 80)
    held_ids = [json.loads(line)["id"] for line in lines[60:]]
    train_file, dev_file = tmp_path / "train.jsonl", tmp_path / "dev.jsonl"
    train_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    dev_file.write_text("\n".join(_lines("dev", 20)) + "\n", encoding="utf-8")
    pattern = "^(?:" + "|".join(map(re.escape, held_ids)) + ")$"
    result = writer_holdout([train_file], dev_file, pattern)
    labeled = sum(
        1 for line in lines[60:] for turn in json.loads(line)["turns"] if turn["role"] == "user" and turn.get("label")
    )
    assert result["conversations"] == {"trained_on": 60, "held_out": 20}
    assert result["held_out_turns"] == labeled
    for figures in result["held_out_figures"].values():
        assert 0.0 <= figures["macro_f1"] <= 1.0
        assert set(figures["per_label"]) == {"NONE", "REJECT", "PIVOT", "REOPEN"}
    assert user_hashes() == {}, "a throwaway model's hash must stay out of the user's trust store"


def test_a_malformed_line_is_refused_with_its_file_and_line(tmp_path: Path) -> None:
    train_file = tmp_path / "train.jsonl"
    train_file.write_text("\n".join([*_lines("train", 3), '{"id": "broken", "turns": [']) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"train\.jsonl:4"):
        writer_holdout([train_file], ROOT / "data" / "dev.jsonl", "^broken$")


def test_a_pattern_that_holds_out_nothing_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    train_file = tmp_path / "train.jsonl"
    train_file.write_text("\n".join(_lines("train", 5)) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="matches no conversation"):
        writer_holdout([train_file], ROOT / "data" / "dev.jsonl", "^no-such-writer")
    assert main([str(train_file), "--hold-out", "."]) == 2
    assert "matches every conversation" in capsys.readouterr().err
