"""A turn that forbids an option just proposed ("别用 Redis") against the same form as an instruction."""

from __future__ import annotations

import pytest

from detector.alternatives import extract_proposals
from detector.cues.engine import default_engine
from detector.prohibitions import forbidden_option, prohibited_proposal
from detector.schema import Label, Turn

_EN = (
    "I can fix the flaky test in two ways: (1) add a retry decorator around the network call, or (2) mock the HTTP "
    "client with responses so the test never hits the network. I'd suggest option 2."
)
_ZH = "这个内存泄漏有两个排查方向：一是用 tracemalloc 在生产环境抓快照；二是在本地用 memray 复现压测场景。我建议先走第二个。"
_ZH_LABELS = "方案A：Redis 集中式缓存，多实例共享。\n方案B：进程内 LRU，零运维。"
_VERBS = "Options:\n1. Raise MAX_CONTENT_LENGTH to 50 MB in settings.py\n2. Fail over to the replica\n3. Keep the limit and return a 413"


def _context(reply: str) -> list[Turn]:
    return [Turn(role="user", text="帮我看看" if reply != _EN else "help me with this test"), Turn(role="assistant", text=reply)]


# A reply that names the quickest fix (a suggestion) after a list of suspects.
_ROLLBACK = "先排查几个方向：\n1. 新版本引入的慢查询\n2. 数据库负载高\n最快的止血方式是直接回滚到上一个版本。"


@pytest.mark.parametrize("reply, text, name", [
    (_EN, "no retry decorator please", "add a retry decorator"),
    (_EN, "don't use retries, they hide the flakiness", "add a retry decorator"),
    (_EN, "no mocking, I want the real client exercised", "mock the HTTP client"),
    (_EN, "ok. not doing the retry thing though", "add a retry decorator"),
    (_EN, "skip the mock", "mock the HTTP client"),
    (_ZH, "别用 tracemalloc", "用 tracemalloc"),
    (_ZH, "不要在生产环境抓快照，运维不让装东西", "用 tracemalloc"),
    (_ZH, "tracemalloc 就别弄了", "用 tracemalloc"),
    (_ZH, "我觉得 tracemalloc 那个就别弄了", "用 tracemalloc"),
    (_ZH, "本地复现那个就免了，压测环境排不上", "在本地用 memray"),
    (_ZH_LABELS, "别上 Redis，我们组没人会运维", "Redis"),
    (_ZH_LABELS, "不要方案A", "Redis"),
    (_ZH_LABELS, "我们觉得别上 Redis，运维扛不住", "Redis"),  # the user's own team, not reported speech
    ("方案一：指数基金定投，股债 7:3；方案二：银行理财和国债；方案三：一部分做 emergency fund，剩下全仓主动型基金。",
     "主动型基金就免了 前两年被坑惨了", "一部分做 emergency fund"),
    # What a coding agent says it will do is its proposal.
    ("I'll add a Redis cache in front of the user service to cut the p99 latency.", "no, don't add redis. just memoize", "add a Redis cache"),
    ("我打算用 Kafka 做消息队列，先把 topic 规划好。", "别用 Kafka，三台机器扛不住", "Kafka"),
    # The user's dislike of an option just proposed: "I'm not a fan of X", "I'd rather not use X".
    (_EN, "I'm not a fan of the retry decorator, it hides the flake", "add a retry decorator"),
    (_EN, "honestly I don't love mocking here", "mock the HTTP client"),
    (_EN, "i don't want retries in tests", "add a retry decorator"),
    (_EN, "I'd rather not mock the client", "mock the HTTP client"),
    (_EN, "gonna pass on the retry decorator", "add a retry decorator"),
    (_EN, "not really sold on mocking tbh", "mock the HTTP client"),
    (_ZH, "我不太想用 tracemalloc，生产环境不让装东西", "用 tracemalloc"),
    (_ZH_LABELS, "不太喜欢 Redis 这个方向", "Redis"),
    # An option that opens with its verb, forbidden by that verb.
    (_VERBS, "no, don't raise it globally. the webhooks share that setting", "Raise MAX_CONTENT_LENGTH"),
    (_VERBS, "don't fail over, the replica is 20 min behind", "Fail over"),
    # A rejection said again of what the reply just brought back.
    (_EN, "i said no retry decorator, it hides the flake", "add a retry decorator"),
    (_ROLLBACK, "说了不能回滚 支付修复必须在", "回滚到上一个版本"),
    (_ROLLBACK, "先别回滚 这个版本有个紧急的支付修复", "回滚到上一个版本"),
    # "forget X" alone: the model read it NONE at 0.80.
    (_EN, "forget the mock", "mock the HTTP client"),
    (_EN, "ditch the retry decorator, it hides flakiness", "add a retry decorator"),
])
def test_a_prohibition_of_a_proposed_option_names_it(reply: str, text: str, name: str) -> None:
    found = prohibited_proposal(text, extract_proposals(reply), default_engine().guard_for(text))
    assert found is not None and found.name.startswith(name)


@pytest.mark.parametrize("reply, text", [
    (_EN, "don't use semicolons in the snippets"),  # nobody proposed semicolons: an instruction
    (_ROLLBACK, "能不能回滚到上一个版本"),
    (_EN, "forget the formatting, just list them"),  # nobody proposed formatting  # a question, not "说了不能"
    (_ROLLBACK, "这个版本不能回滚到上一个版本"),  # a fact, not the user's "no" said again
    (_EN, "no problem with the retry decorator"),  # the option's words must open the object
    (_EN, "should we just not use retries?"),  # a question
    (_EN, "if the client changes again, then no mocking"),  # a condition
    (_EN, "my lead says don't use mocks, thoughts"),  # reported
    (_EN, 'the ticket says "no retry decorator", but I think it is fine'),  # quoted
    (_EN, "I'm not saying don't use retries"),  # disowned
    (_EN, "we don't use retries anywhere else in this repo"),  # a fact, not an order
    (_EN, "the flake is in the client, not just the retry decorator"),
    (_EN, "see `# no retry decorator here` in conftest"),  # code
    (_ZH, "别用表格，直接列出来"),
    (_EN, "my lead is not a fan of the retry decorator, but I like it"),  # someone else's view
    (_EN, "I'm not a fan of mock's API but let's go with it"),  # a part of the option, in the possessive
    (_EN, "I don't want retries to mask real failures"),  # a wish about what the option does, not a refusal
    (_EN, "I did a first pass on the retry decorator idea"),  # "pass on" as a noun
    (_ZH, "孩子不喜欢 tracemalloc 那种输出"),  # not the user's own dislike
    (_VERBS, "don't forget to keep the old config around"),  # no option opens with "forget"
    (_VERBS, "we don't raise limits without a ticket"),  # a fact about the team
    (_ZH, "要不要干脆别用 tracemalloc？"),
    (_ZH, "老板说别用 tracemalloc，你怎么看"),
    (_ZH, "如果预算不够就不用 memray 了"),
    (_ZH, "我没说不用 tracemalloc"),
    (_ZH, "所以我的问题不是要不要用 tracemalloc，而是怎么用"),
    (_ZH, "有没有别的 tracemalloc 用法"),
    # Asked, by the clause's own question mark (openings.held_back), not only by a question word.
    (_ZH, "别用 tracemalloc？"),
    (_ZH, "tracemalloc 就别用了？"),
    (_EN, "no retry decorator? it hides real failures, but it's quick"),
    # "更别说" is "let alone": no order, whatever the words after it share with an option.
    (_ZH, "本地复现都够呛 更别说 在生产环境抓快照了"),
    # A complement of manner says how, not which: the option that opens with 设置 is not forbidden.
    ("两个办法：\n1. 设置一个快速取药窗口，和叫号系统联动\n2. 调整高峰时段的排班", "招标参数不要设置得过于具体，免得有指向性"),
    # An amount is a parameter of the plan (round nineteen), and "not my call" is nobody's option.
    ("要准备的：\n- 公司章程\n- 股权结构\n- 1500 万", "融资额改成 1200 万，不要 1500。稀释我想控制在 15% 以内。"),
    ("Trade-offs:\n- Your clients may feel abandoned\n- It would cut call volume significantly",
     "Leave the small-animal question for now, I need to ask the owners. Not ruling it out, just not my call."),
])
def test_the_same_form_aimed_elsewhere_forbids_nothing(reply: str, text: str) -> None:
    assert prohibited_proposal(text, extract_proposals(reply), default_engine().guard_for(text)) is None


def test_only_the_last_assistant_turn_counts() -> None:
    context = [*_context(_ZH), Turn(role="user", text="先说说第二个"), Turn(role="assistant", text="memray 可以看原生内存分配。")]
    assert forbidden_option("别用 tracemalloc", context, default_engine()) is None
    assert forbidden_option("别用 tracemalloc", _context(_ZH), default_engine()) is not None
    assert forbidden_option("别用 tracemalloc", [], default_engine()) is None


_HASH_SEED_PROBE = """
from detector.alternatives import extract_proposals
from detector.prohibitions import prohibited_proposal
options = extract_proposals("A few swaps: 1) unsweetened latte + cinnamon; 2) overnight oats with berries; 3) eggs and toast; 4) Greek yogurt with nuts.")
found = prohibited_proposal("I hate plain yogurt. no yogurt-based stuff in general please", options, lambda start, end: False)
print(found.summary if found else None)
"""


def test_a_hyphenated_object_is_read_in_its_written_order_whatever_the_hash_seed() -> None:
    """A word's content keys are a set; read in the set's order, "yogurt-based" opened with "based"
    in some processes and forbade nothing there. Each process has its own hash seed, so several run."""
    import os
    import subprocess
    import sys

    answers = {
        subprocess.run(
            [sys.executable, "-c", _HASH_SEED_PROBE],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        for seed in range(6)
    }
    assert answers == {"Greek yogurt with nuts"}


def test_an_instruction_in_the_same_form_stays_none(shipped_detector) -> None:
    assert shipped_detector.detect("别用表格，直接列出来", _context(_ZH)).label is Label.NONE
    assert shipped_detector.detect("don't use semicolons in the snippets", _context(_EN)).label is Label.NONE
