"""The example plugin against a stand-in agent; rendering of blocks and the history window."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

from detector.hook import PreTurnHook
from detector.render import render_convergence, render_history, render_key_info, render_solidified
from detector.schema import ConvergenceState, CurrentDecision, RejectedAlternative, ToolCall, Turn
from detector.store import MemoryStore

ROOT = Path(__file__).resolve().parent.parent


def _plugin():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("generic_agent_plugin", ROOT / "examples" / "generic_agent_plugin.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_plugin_appends_block_and_merges_key_info_in_place() -> None:
    plugin = _plugin()
    hook = PreTurnHook(store=MemoryStore(), mode="rules")
    handler = SimpleNamespace(session_id="s1", working={"key_info": "用户偏好：中文回答"}, history_info=[])
    messages = [{"role": "user", "content": "接口太慢，想加缓存"}]
    plugin.agent_before(messages, handler, hook=hook)
    assert messages[-1]["content"] == "接口太慢，想加缓存"  # nothing to add yet
    messages += [
        {"role": "assistant", "content": "方案A：Redis 集中式缓存。\n方案B：本地 LRU 缓存。"},
        {"role": "user", "content": "A 不行，运维扛不住，换 B 吧"},
    ]
    same_list, same_working = messages, handler.working
    plugin.agent_before(messages, handler, hook=hook)
    assert messages is same_list and handler.working is same_working
    assert "[SEMANTIC CONVERGENCE]" in messages[-1]["content"]
    assert handler.working["key_info"].startswith("用户偏好：中文回答")
    assert "Redis" in handler.working["key_info"] and handler.history_info
    # A second update replaces our section instead of stacking copies.
    messages += [{"role": "assistant", "content": "好的"}, {"role": "user", "content": "/converge"}]
    plugin.agent_before(messages, handler, hook=hook)
    assert handler.working["key_info"].count(plugin.MARK_START) == 1
    assert "[SOLIDIFIED]" in messages[-1]["content"]


def _state(lang: str, rejections: int) -> ConvergenceState:
    return ConvergenceState(
        conversation_id="r",
        lang=lang,
        turn=30,
        current_decision=CurrentDecision(text="Plan B: local LRU cache", since_turn=6, rationale="ops cost"),
        rejected=[
            RejectedAlternative(
                alternative_id=f"alt-{i}", alternative=f"Plan {i}", rejected_at=i, reason="too slow",
                revisit_if="the user brings it back", evidence="",
            )
            for i in range(rejections)
        ],
        constraints=["must support Python 3.8"],
    )


@pytest.mark.parametrize("lang, headings", [
    ("en", ["### [SEMANTIC CONVERGENCE]", "Current decision:", "Rejected alternatives:", "Stable constraints:", "Open questions:", "Next action:"]),
    ("zh", ["### [SEMANTIC CONVERGENCE]", "当前结论:", "已否决:", "稳定约束:", "仍待决策:", "下一步:"]),
])
def test_block_headings_follow_the_language(lang: str, headings: list[str]) -> None:
    block = render_convergence(_state(lang, 2))
    assert [line for line in block.splitlines() if not line.startswith(("-", " "))] == headings
    assert render_convergence(_state(lang, 2)) == block  # deterministic
    assert render_solidified(_state(lang, 2)).startswith("### [SOLIDIFIED]")


def test_block_is_bounded_and_folds_older_rejections() -> None:
    block = render_convergence(_state("en", 25))
    assert block.count("Rejected at:") == 10
    assert "15 older rejected alternatives" in block
    assert len(render_key_info(_state("en", 25)).splitlines()) == 10


def test_history_window_drops_tool_turns_and_folds_old_ones() -> None:
    turns = [Turn(role="user", text=f"q{i}") if i % 2 == 0 else Turn(role="assistant", text=f"a{i}") for i in range(40)]
    turns.insert(5, Turn(role="tool", text="tool output"))
    turns.insert(6, Turn(role="assistant", text="", tool_calls=[ToolCall(name="search")]))
    text = render_history(turns, limit=30)
    lines = text.splitlines()
    assert lines[0] == "[archive: 10 earlier turns folded]"
    assert len(lines) == 31 and "tool output" not in text and lines[-1] == "assistant: a39"
