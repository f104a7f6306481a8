"""`python -m training.blind_rounds`: marked replies against the relapse guard's verdicts, on the
shipped model, as an agent's hook would meet them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from detector.loading import build_detector
from training.blind_rounds import main, relapse_figures


def _conversation(relapse_mark: bool) -> dict[str, object]:
    return {"id": "zh-cache", "lang": "zh", "turns": [
        {"role": "user", "text": "我们的接口响应太慢了，想加一层缓存，有什么方案？", "label": "NONE"},
        {"role": "assistant", "text": "方案A：Redis 集中式缓存，多实例共享，命中率高。\n方案B：进程内本地 LRU 缓存，零运维，但各实例各存一份。"},
        {"role": "user", "text": "A 不行，我们运维就两个人，再加一套 Redis 扛不住，换 B 吧", "label": "PIVOT",
         "target": "方案A", "replacement": "B", "reason": "我们运维就两个人", "revisit_if": None},
        {"role": "assistant", "text": "好的，用本地 LRU。另外也可以考虑 Redis 集中式缓存，命中率会更好。", "relapse": relapse_mark},
        {"role": "user", "text": "好，继续", "label": "NONE"},
        {"role": "assistant", "text": "继续推进本地 LRU：之前已否决 Redis（运维扛不住），下一步给每个实例设 TTL。", "relapse": False},
    ]}


@pytest.mark.parametrize(("mark", "expected"), [
    (True, {"caught": 1, "missed": 0, "false_alarms": 0}),
    (False, {"caught": 0, "missed": 0, "false_alarms": 1}),
])
def test_marked_replies_are_set_against_the_guards_verdicts(tmp_path: Path, mark: bool, expected: dict[str, int]) -> None:
    path = tmp_path / "round.jsonl"
    path.write_text(json.dumps(_conversation(mark), ensure_ascii=False) + "\n", encoding="utf-8")
    assert relapse_figures(path, build_detector()) == expected


def test_the_command_prints_one_line_per_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "round.jsonl"
    path.write_text(json.dumps(_conversation(True), ensure_ascii=False) + "\n", encoding="utf-8")
    assert main([str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: relapses caught 1 of 1, false alarms 0"
    assert main([str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {str(path): {"caught": 1, "missed": 0, "false_alarms": 0}}
