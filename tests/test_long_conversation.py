"""The regression test of issue 4: a rejection at turn 6 survives history compression to turn 16.

Turns 1–5 discuss plan A; at turn 6 the user rejects A, with a reason, and moves to B; the
history is then compressed so only the block and the last two turns survive; at turn 16 the user
asks what is next. The state must still hold B current and A rejected at turn 6, a reply proposing
a variant of A is a RELAPSE, and a reply going on with B while naming A as rejected is OK.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from detector.hook import PreTurnHook
from detector.store import MemoryStore


@dataclass(frozen=True)
class Script:
    lang: str
    opening: str
    options: str
    discuss_a: tuple[str, str, str, str]
    reject_a: str
    reason: str
    later_user: tuple[str, ...]
    whats_next: str
    relapse_reply: str
    ok_reply: str
    a_name: str
    b_name: str


ZH = Script(
    lang="zh",
    opening="我们的订单服务接口太慢了，想加缓存，你有什么方案？",
    options="方案A：Redis 集中式缓存，多实例共享，命中率高。\n方案B：进程内本地 LRU 缓存，零运维，但每个实例各存一份。",
    discuss_a=("方案A 的话 Redis 要几台机器？", "A 需要哨兵吗？", "Redis 的内存怎么估算？", "Redis 挂了会怎样？"),
    reject_a="A 不行，我们运维就两个人，Redis 集群扛不住，换 B 吧",
    reason="扛不住",
    later_user=("LRU 容量设多少合适？", "TTL 用 30 秒可以吗？", "缓存击穿怎么防？", "好的", "监控指标加哪些？",
                "继续", "要不要压测？", "压测用什么工具？", "好，就这样"),
    whats_next="下一步怎么做？",
    relapse_reply="其实也可以考虑 Redis 集群，用哨兵模式就能解决多实例一致性的问题。",
    ok_reply="之前已否决 Redis（运维扛不住），继续推进本地 LRU：下一步先给热点接口加上缓存并压测。",
    a_name="Redis",
    b_name="本地 LRU",
)
EN = Script(
    lang="en",
    opening="Our order service API is too slow. We want to add caching, what are the options?",
    options="Option A: a central Redis cache shared by all instances, high hit rate.\nOption B: an in-process LRU cache, zero ops, but each instance keeps its own copy.",
    discuss_a=("How many machines would Redis need for option A?", "Does A need Sentinel?",
               "How do we size Redis memory?", "What happens when Redis goes down?"),
    reject_a="Option A won't work for us, we only have two ops people and can't run a Redis cluster. Let's go with option B instead.",
    reason="we only have two ops people",
    later_user=("What capacity should the LRU have?", "Is a 30 second TTL fine?", "How do we prevent cache stampedes?",
                "ok", "Which metrics should we monitor?", "go on", "Should we load test?", "Which tool for load testing?", "ok, sounds good"),
    whats_next="what's next?",
    relapse_reply="A managed Redis such as ElastiCache would solve the ops cost, you could switch to it later.",
    ok_reply="Since we ruled out Redis (not enough ops people), let's continue with the in-process LRU: next, add it to the hot endpoints and load test.",
    a_name="Redis",
    b_name="LRU",
)


@pytest.fixture(params=[ZH, EN], ids=["zh", "en"])
def script(request: pytest.FixtureRequest) -> Script:
    return request.param


@pytest.mark.parametrize("mode", ["rules", "hybrid"])
def test_rejection_survives_history_compression(script: Script, mode: str) -> None:
    hook = PreTurnHook(store=MemoryStore(), mode=mode)
    conversation = f"long-{script.lang}-{mode}"
    assert hook.before_turn(conversation, script.opening) is None  # user turn 1
    hook.after_turn(conversation, script.options)
    for question in script.discuss_a:  # user turns 2-5 discuss plan A
        hook.before_turn(conversation, question)
        hook.after_turn(conversation, "…")

    suggestion = hook.before_turn(conversation, script.reject_a)  # user turn 6
    assert suggestion is not None and suggestion.trigger == "pivot" and suggestion.turn == 6
    state = hook.tracker.state(conversation)
    assert script.b_name in state.current_decision.text
    [rejected] = state.rejected
    assert script.a_name in rejected.alternative and rejected.rejected_at == 6
    assert script.reason in (rejected.reason or "") or script.reason in rejected.evidence
    assert script.a_name in suggestion.block and script.b_name in suggestion.block

    # The agent compresses its history: only the block and the last two turns survive.
    # The tracker's state is what the agent re-reads; the dialogue goes on to turn 16.
    for text in script.later_user:  # user turns 7-15
        hook.before_turn(conversation, text)
        hook.after_turn(conversation, "…")
    hook.before_turn(conversation, script.whats_next)  # user turn 16
    state = hook.tracker.state(conversation)
    assert state.turn == 16
    assert script.b_name in state.current_decision.text
    assert [r.rejected_at for r in state.rejected] == [6]
    assert hook.after_turn(conversation, script.relapse_reply).verdict == "RELAPSE"
    assert hook.after_turn(conversation, script.ok_reply).verdict == "OK"
