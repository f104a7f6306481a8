"""Standing constraints read from a user turn (detector/constraints.py), each beside its twin that
states none."""

from __future__ import annotations

import pytest

from detector.constraints import standing_constraints
from detector.detect import Detector
from detector.store import MemoryStore
from detector.tracker import ConvergenceTracker


@pytest.mark.parametrize("turn, constraint", [
    # Obligations and limits, from the clause that says them.
    ("必须兼容 Python 3.8。其他随意", "必须兼容 Python 3.8"),
    ("We need to add search to the docs site. We need to support IE11 though.", "We need to support IE11 though"),
    ("预算不超过八千，超了我老公会有意见", "预算不超过八千，超了我老公会有意见"),
    ("the storefront has to stay on Shopify Basic", "the storefront has to stay on Shopify Basic"),
    # Words of rules, and scopes over the whole work: the sentence is kept whole.
    ("no paid plugins, that's a hard rule from our treasurer", "no paid plugins, that's a hard rule from our treasurer"),
    ("以后所有定时任务都别用 root 跑", "以后所有定时任务都别用 root 跑"),
    ("whatever we pick, logs stay in the EU region", "whatever we pick, logs stay in the EU region"),
    ("never push straight to main, Priya reviews everything", "never push straight to main, Priya reviews everything"),
    ("and no peanuts. ever. in anything", "no peanuts. ever. in anything"),
    ("菜单里任何菜都不能放香菜，我婆婆闻到就吐", "菜单里任何菜都不能放香菜，我婆婆闻到就吐"),
    # A preference aimed at nothing proposed, in a turn that rejects nothing.
    ("别推荐要排队的网红店，他最烦排队", "别推荐要排队的网红店，他最烦排队"),
    ("图标不要用卡通风格，我们是做医疗的", "图标不要用卡通风格，我们是做医疗的"),  # a short topic first
    ("整个后台都不要弹窗确认，运营嫌烦", "整个后台都不要弹窗确认，运营嫌烦"),
    ("every migration has to have a rollback script", "every migration has to have a rollback script"),
    ("装修按套餐来，总价 12 万封顶", "总价 12 万封顶"),  # from the clause of the limit
    # Said to be remembered, or all the user can do: the sentence, without a connective before it.
    ("i'm vegetarian btw, so work around that", "i'm vegetarian btw, so work around that"),
    ("anything before 7pm is impossible for me, keep that in mind", "anything before 7pm is impossible for me, keep that in mind"),
    ("i can only study on weekends, weekdays i'm fried", "i can only study on weekends, weekdays i'm fried"),
    ("部署只能用公司内部 helm 仓库", "部署只能用公司内部 helm 仓库"),
    ("而且公司规定新中间件要走三个月审批", "公司规定新中间件要走三个月审批"),
    ("and never more than 2 drinks per guest", "never more than 2 drinks per guest"),  # a limit
    ("孩子三岁半，想报个兴趣班，周末上，预算一个月1000以内。有什么推荐", "预算一个月1000以内"),  # a budget's ceiling
    # What may not leave or be called, said again without the "I said" before it.
    ("ok qdrant. embedding 模型用什么，不能调外部 API", "不能调外部 API"),
    ("说了不能调外部 API", "不能调外部 API"),
    ("我都说过了不能用外包", "不能用外包"),
    ("SaaS 不行，数据不能出内网，法务不会批的", "数据不能出内网，法务不会批的"),
    ("先归档是不是就够了？另外迁移不能停机，这个是硬要求", "迁移不能停机，这个是硬要求"),
])
def test_a_standing_constraint_is_read(turn: str, constraint: str) -> None:
    assert standing_constraints(turn) == [constraint]


@pytest.mark.parametrize("turn", [
    "it must be the DNS, the timeouts started after the resolver change",  # a diagnosis
    "这必须是缓存的问题吧",
    "can we skip the cache entirely?",  # a question
    "要不要把预算控制在五千以内？",
    "if the budget is 5k we could do the coast",  # a condition
    "预算够的话可以住海景房",
    "那只能笔试了",  # resigned to a course: a choice, not a rule
    "最后只能在上面贴个装饰贴挡着",
    "but the writes are continuous, never idle for more than a few secs",  # a state, not a rule
    "现在只能用 mock 绕过去，测不到真实的跳转",
    "no that's everything, thanks",  # a plain answer
    "no tables please, my phone mangles them",  # the format of this reply
    "write it in plain english, no jargon",
    "I never got the confirmation email",  # a fact about the past
    "说朝北不准确，其实是西北",  # 不准确 is "inaccurate", not 不准 "not allowed"
    "no deploys of the billing service today, finance is closing the month",  # said of today
    "我担心以后每次都要我去帮忙导数据",  # a worry
    "we can't even measure four nines with our traffic",  # a fact about what can be known
    "our e2e suite fails maybe 1 in 5 runs on CI, never locally. 140 specs",  # where it fails, not a rule
])
def test_no_constraint_is_read(turn: str) -> None:
    assert standing_constraints(turn) == []


def test_someone_elses_rule_that_the_user_disputes_is_not_kept(shipped_detector: Detector) -> None:
    tracker = ConvergenceTracker(shipped_detector, MemoryStore())
    tracker.observe_user("c", "想给爸妈买点保险，两个人一年预算1万以内")
    tracker.observe_user("c", "我老婆说惠民保别买，说都是噱头。但我觉得一年几十块钱，挺值的")
    assert tracker.state("c").constraints == ["两个人一年预算1万以内"]


def test_a_heading_of_rules_gives_the_items_under_it() -> None:
    turn = "Ground rules for every draft:\n\n- Stay under 1,200 words.\n- We never name the students.\n\nThanks!"
    assert standing_constraints(turn) == ["Stay under 1,200 words", "We never name the students"]


def test_pasted_code_and_quotations_state_no_rule_of_ours() -> None:
    turn = (
        "the legacy page has this:\n```js\n// 不要删除这个全局变量\nwindow.cfg = {}\n```\n"
        "and their draft says “乙方不得将租赁物转租或以任何形式交由第三方经营” which I don't accept"
    )
    assert standing_constraints(turn) == []


def test_a_rejection_is_the_verdict_not_a_rule() -> None:
    """In a turn that rejects, a bare prohibition is the verdict; the other marks still count."""
    assert standing_constraints("no Redis, we can't add new infrastructure", prohibitions=False) == [
        "we can't add new infrastructure"
    ]
    assert standing_constraints("no Redis for this one", prohibitions=False) == []


def test_the_tracker_keeps_the_constraints_of_a_turn_that_rejects_nothing(shipped_detector: Detector) -> None:
    tracker = ConvergenceTracker(shipped_detector, MemoryStore())
    tracker.observe_user("c", "planning a family dinner for 12 next saturday")
    tracker.observe_user("c", "my dad is diabetic, so no desserts with added sugar, that's a house rule")
    assert tracker.state("c").constraints == ["my dad is diabetic, so no desserts with added sugar, that's a house rule"]


@pytest.mark.parametrize("turn", [
    "planning a reunion for about 40 people in october on an 8k budget",
    "budget ~$2,500 for both of us, flights not included",
    "need a used van under 20k, we haul drums to gigs",
    "年会 budget 5 万，大概 120 人",
])
def test_a_budget_said_as_an_amount_is_a_constraint(turn: str) -> None:
    assert standing_constraints(turn) == [turn]


def test_a_price_is_no_budget() -> None:
    assert standing_constraints("the quote came back at 14k, is that fair?") == []
    assert standing_constraints("the budget line in the spreadsheet is wrong") == []


def test_an_obligation_stops_before_the_verdict_that_follows_it() -> None:
    assert standing_constraints("我妈说必须住市区 交通方便 郊区那套就算了 看看地铁口那个") == ["我妈说必须住市区 交通方便"]
    assert standing_constraints("we can't run anything on-prem, so the self-hosted runner is out") == ["we can't run anything on-prem"]
