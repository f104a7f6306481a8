"""The `pivot` command end to end: detect, eval, and the one-line errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from detector.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_issue_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "detect", "这个方向不对，我们换成方案B吧", "--json")
    detection = json.loads(out)
    assert code == 0 and detection["label"] == "PIVOT" and detection["replacement"] == "方案B"

    _, out, _ = run(capsys, "detect", "I'm not saying we should drop Redis, just asking", "--json")
    detection = json.loads(out)
    assert detection["label"] == "NONE"
    assert [s["reason"] for s in detection["explanation"]["suppressed"]] == ["negation"]

    _, out, _ = run(capsys, "detect", "这个数字不对，应该是42", "--json")
    assert json.loads(out)["label"] == "NONE"


def test_detect_text_output_lists_cues_and_spans(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "detect", "--mode", "rules", "这个方向不对，我们换成方案B吧")
    assert code == 0
    assert "label: PIVOT" in out and "replacement: 方案B" in out and "fired" in out


def test_detect_first_turn_reads_text_as_the_conversations_opening(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "detect", "--mode", "rules", "法务那边肯定过不了", "--json")
    assert json.loads(out)["label"] == "REJECT"
    _, out, _ = run(capsys, "detect", "--mode", "rules", "--first-turn", "法务那边肯定过不了", "--json")
    assert json.loads(out)["label"] == "NONE"


def test_detect_file_labels_every_user_turn_in_context(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "detect", "--file", str(ROOT / "examples" / "conversation.jsonl"), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) >= 6
    assert {row["label"] for row in rows} >= {"PIVOT", "NONE"}
    assert all("turn" in row and "conversation_id" in row for row in rows)


# fmt: off
BAD_INPUT = [
    (["detect", "--file", "{tmp}/missing.jsonl"], "missing.jsonl"),
    (["detect", "--file", "{tmp}/bad.jsonl"], "bad.jsonl:1: malformed JSON"),
    (["detect", "--file", "{tmp}/utf.jsonl"], "utf.jsonl:1: invalid UTF-8"),
    (["detect", "--file", "{tmp}/unknown.jsonl"], "unknown.jsonl:1: unknown format"),
    (["detect"], "give either TEXT"),
    (["eval", "{tmp}/unlabeled.jsonl", "--mode", "rules"], "no user turn has a 'label'"),
]
# fmt: on


@pytest.mark.parametrize("argv, message", BAD_INPUT)
def test_bad_input_is_one_line_error(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.jsonl").write_text("{oops\n")
    (tmp_path / "utf.jsonl").write_bytes(b"\xff\xfe\n")
    (tmp_path / "unknown.jsonl").write_text('{"foo": 1}\n')
    (tmp_path / "unlabeled.jsonl").write_text('{"turns": [{"role": "user", "text": "hi"}]}\n')
    code, _, err = run(capsys, *[part.replace("{tmp}", str(tmp_path)) for part in argv])
    assert code == 2
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_empty_and_huge_turns_give_none_without_hanging(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "detect", "   ", "--json")
    assert json.loads(out)["label"] == "NONE"
    from detector import Detector

    huge = ("这个日志很长 " * 80_000) + "这个方向不对"
    assert len(huge.encode()) > 1_000_000
    assert Detector("rules").detect(huge).label.value in ("REJECT", "NONE")


def test_installed_console_script_runs() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "detector.cli", "detect", "--mode", "rules", "scrap plan A, go with B", "--json"],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(completed.stdout)["label"] == "PIVOT"


def test_eval_scores_several_files_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`pivot eval A B` scores the turns of both, as `pivot train A B` learns from both."""
    lines = (Path(__file__).resolve().parent.parent / "data" / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
    second.write_text("\n".join(lines[5:12]) + "\n", encoding="utf-8")
    counts = []
    for files in ([first], [second], [first, second]):
        code, out, err = run(capsys, "eval", *map(str, files), "--mode", "rules", "--json")
        assert code == 0, err
        counts.append(json.loads(out)["n"])
    assert counts[2] == counts[0] + counts[1] > 0
