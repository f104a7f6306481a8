"""The fusion's rules (detect.Detector._ruling) act in rules and hybrid mode; classifier mode is the
model alone, so that `--mode classifier` measures what the model learned."""

from __future__ import annotations

import pytest

from detector.loading import build_detector
from detector.schema import Turn

_CASES = [
    ("这个内存泄漏有两个排查方向：一是用 tracemalloc 在生产环境抓快照；二是在本地用 memray 复现压测场景。", "别用 tracemalloc",
     "forbids an option"),
    ("I've updated `parse_config` to use pydantic models instead of raw dicts.", "revert that", "orders undone the change"),
    ("I've switched the worker pool from threads to asyncio.", "go back to threads", "back to threads"),
    ("Could be a timing issue with the test fixture teardown.", "it's not timing, it still fails", "rules out the cause"),
]


@pytest.mark.parametrize("reply, text, rule", _CASES)
def test_the_rules_act_in_hybrid_mode_and_not_in_classifier_mode(shipped_detector, reply: str, text: str, rule: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="it fails, help"), Turn(role="assistant", text=reply)]
    assert rule in shipped_detector.detect(text, context).explanation.rule
    assert rule not in build_detector(mode="classifier").detect(text, context).explanation.rule
