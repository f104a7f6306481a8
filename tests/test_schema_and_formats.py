"""Contracts (schema.py) and readers (formats.py): every accepted shape, every refused one."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from detector.errors import InputError
from detector.formats import BadRecord, Record, iter_file, parse_record, read_transcripts
from detector.schema import CueHit, Detection, Label, Transcript

# fmt: off
ACCEPTED = [
    ({"id": "c1", "lang": "zh", "turns": [{"role": "user", "text": "A 不行", "label": "REJECT", "target": "方案A"}]},
     "user", "A 不行"),
    ({"messages": [{"role": "user", "content": "drop Redis"}]}, "user", "drop Redis"),
    ({"messages": [{"role": "user", "content": [{"type": "text", "text": "scrap"}, {"type": "image_url"}, {"type": "text", "text": "it"}]}]},
     "user", "scrap\nit"),
    ({"conversations": [{"from": "human", "value": "换个思路"}, {"from": "gpt", "value": "好"}]}, "user", "换个思路"),
    ({"messages": [{"role": "assistant", "content": None, "tool_calls": [{"function": {"name": "update_working_checkpoint"}}]}]},
     "assistant", ""),
]
# fmt: on


@pytest.mark.parametrize("raw, role, text", ACCEPTED)
def test_accepted_shapes(raw: dict, role: str, text: str) -> None:
    transcript = parse_record(raw)
    assert transcript.turns[0].role == role
    assert transcript.turns[0].text == text


def test_tool_call_names_are_kept() -> None:
    transcript = parse_record(ACCEPTED[-1][0])
    assert transcript.turns[0].tool_calls[0].name == "update_working_checkpoint"


def test_unknown_fields_are_kept_and_ignored() -> None:
    transcript = parse_record({"id": "x", "domain": "travel", "turns": [{"role": "user", "text": "hi", "note": "n"}]})
    assert transcript.model_extra == {"domain": "travel"}
    assert Transcript.model_validate_json(transcript.model_dump_json()).model_extra == {"domain": "travel"}


# fmt: off
REFUSED = [
    ([1, 2], "expected a JSON object"),
    ({"foo": []}, "unknown format"),
    ({"turns": [{"role": "robot", "text": "x"}]}, "turns.0.role"),
    ({"turns": [{"role": "user", "text": "x", "label": "MAYBE"}]}, "turns.0.label"),
]
# fmt: on


@pytest.mark.parametrize("raw, message", REFUSED)
def test_refused_shapes_name_the_field(raw: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        parse_record(raw)


def test_a_hits_verdict_is_its_span_without_its_groups() -> None:
    """Where a cue's verdict sits, in text offsets: "JR Pass 不要了" at 10 has its verdict in " 不要了",
    not in the target, so a guard reading "JR Pass" as a ticket leaves it standing."""
    hit = CueHit(cue_id="zh.reject.no_longer", label=Label.REJECT, lang="zh", weight=0.8, span="JR Pass 不要了",
                 start=10, end=21, groups={"target": "JR Pass"})
    assert hit.verdict_parts() == [(17, 21)]
    between = hit.model_copy(update={"span": "不要 JR Pass 了", "end": 22})
    assert between.verdict_parts() == [(10, 13), (20, 22)]
    assert hit.model_copy(update={"groups": {}}).verdict_parts() == [(10, 21)]


def test_detection_round_trips_through_json() -> None:
    from detector import Detector

    detection = Detector("rules").detect("这个方向不对，我们换成方案B吧")
    again = Detection.model_validate_json(detection.model_dump_json())
    assert again == detection
    assert again.label is Label.PIVOT


def _write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_jsonl_bad_lines_are_reported_with_line_numbers_and_reading_goes_on(tmp_path: Path) -> None:
    good = json.dumps({"id": "ok", "turns": [{"role": "user", "text": "hi"}]}).encode()
    path = _write(tmp_path / "log.jsonl", [good, b"{not json", b"\xff\xfe bad utf8", b'{"x": 1}', good])
    items = list(iter_file(path))
    assert [type(item) for item in items] == [Record, BadRecord, BadRecord, BadRecord, Record]
    assert [item.line for item in items] == [1, 2, 3, 4, 5]
    assert "malformed JSON" in items[1].error
    assert "invalid UTF-8" in items[2].error
    assert "unknown format" in items[3].error
    assert str(items[1]).startswith(f"{path}:2:")


def test_json_array_and_gzip_are_streamed(tmp_path: Path) -> None:
    records = [{"id": str(i), "messages": [{"role": "user", "content": f"turn {i}"}]} for i in range(5)]
    array = tmp_path / "list.json"
    array.write_text(json.dumps(records, indent=1), encoding="utf-8")
    assert [r.transcript.id for r in iter_file(array)] == ["0", "1", "2", "3", "4"]
    zipped = tmp_path / "log.jsonl.gz"
    with gzip.open(zipped, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(json.dumps(r) for r in records))
    assert len(list(iter_file(zipped))) == 5


def test_read_transcripts_refuses_a_bad_record(tmp_path: Path) -> None:
    path = _write(tmp_path / "train.jsonl", [b"{oops"])
    with pytest.raises(InputError, match=r"train\.jsonl:1: malformed JSON"):
        read_transcripts(path)
