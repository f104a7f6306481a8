"""One verdict over several options of a list: which of them it covers, and which it spares."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from detector.alternatives import Proposal, extract_proposals
from detector.groups import Group, group_reference
from tests.test_hardening_linear import MAX_RATIO, growth_ratio

LIST_EN = extract_proposals(
    "A few options:\n1. Celery with Redis as the broker.\n2. RQ (Redis Queue).\n"
    "3. Dramatiq with RabbitMQ.\n4. procrastinate on Postgres."
)
LIST_ZH = extract_proposals("几个方案：\n方案一：自建 Kafka 集群；\n方案二：阿里云 RocketMQ；\n方案三：Redis Stream；\n方案四：数据库轮询表。")
LETTERS = extract_proposals("Option A: a managed Kafka.\nOption B: RabbitMQ.\nOption C: SQS.")


@pytest.mark.parametrize("text, covered, spared", [
    ("so 1-3 are out", (0, 1, 2), ()),
    ("options 2 to 4 are overkill for us", (1, 2, 3), ()),
    ("scrap 1 and 3", (0, 2), ()),
    ("2 and 3, too much infra", (1, 2), ()),
    ("the first two are out, we don't run redis", (0, 1), ()),
    ("my team looked at them all. none of them are a fit", (0, 1, 2, 3), ()),
    ("last three are out of budget", (1, 2, 3), ()),
    ("none of these feel right tbh", (0, 1, 2, 3), ()),
    ("all four are overkill", (0, 1, 2, 3), ()),
    ("all of those except procrastinate are out", (0, 1, 2), (3,)),
    ("everything except 4 is a no-go", (0, 1, 2), (3,)),
    ("forget the first three, go with 4", (0, 1, 2), ()),
])
def test_english_group_verdicts(text: str, covered: tuple[int, ...], spared: tuple[int, ...]) -> None:
    assert group_reference(text, LIST_EN) == Group(covered, spared)


@pytest.mark.parametrize("text, covered, spared", [
    ("前三个都不考虑，运维扛不住", (0, 1, 2), ()),
    ("方案一和方案二都不要", (0, 1), ()),
    ("一二都不行，太重了", (0, 1), ()),
    ("1到3都不要", (0, 1, 2), ()),
    ("前两个都算了", (0, 1), ()),
    ("这几个都不行，我们换个思路", (0, 1, 2, 3), ()),
    ("以上都不太行", (0, 1, 2, 3), ()),
    ("这四个都不太想要", (0, 1, 2, 3), ()),
    ("除了方案四都不行", (0, 1, 2), (3,)),
    ("除了数据库轮询表，别的都太重", (0, 1, 2), (3,)),
    ("②④都不用，学生听过了", (1, 3), ()),
    ("1 4 都排除 线下班时间固定", (0, 3), ()),
])
def test_chinese_group_verdicts(text: str, covered: tuple[int, ...], spared: tuple[int, ...]) -> None:
    assert group_reference(text, LIST_ZH) == Group(covered, spared)


@pytest.mark.parametrize("text, options", [
    ("the 2-3 week timeline is too long", LIST_EN),  # a quantity, not places
    ("we have 1 to 4 years, no rush", LIST_EN),
    ("all of them are fine, but redis is overkill", LIST_EN),  # the verdict is another clause's
    ("none of these need redis? redis is a no-go for us", LIST_EN),  # asks about the group
    ("both are too heavy", LIST_EN),  # "both" of four options names two the turn does not say
    ("1-5 are out", LIST_EN),  # a place outside the list
    ("the board flagged agency spend in the last two audits", LIST_EN),
    ("what's the difference between 1 and 3?", LIST_EN),
    ("the first two sound promising", LIST_EN),
    # "them" is the people just named, not the options.
    ("MobX: team of six, none of them have touched observables, and I'm not running a training program", LIST_EN),
    ("前两个都不行吗？我看别人都在用", LIST_ZH),
    ("帮我对比一下方案一和方案二，哪个更合适？", LIST_ZH),
    ("前两个月都不行", LIST_ZH),
    ("1-2 个 seat 的小卖家涨价太多", LIST_ZH),
    ("所有菜都别放香菜", LIST_ZH),
    ("台面、水槽、烟灶这些都不变", LIST_ZH),
    ("我俩都不太敢开山路", LIST_ZH),
    ("那几个大客户都认他不认公司", LIST_ZH),
    ("这些都是游客打卡点啊", LIST_ZH),
    ("两个人都不同意", LIST_ZH),
    ("这三个都不太想要", LIST_ZH),  # three of four: which three, the turn does not say
    ("a and b are out", LETTERS),  # a small letter is a word, not a label
    ("InfluxDB 和 Dynamo 都算了吧", LETTERS),  # the "B" of a name is no label
    ("Unleash vs GrowthBook then. We don't really do A/B experiments", LETTERS),
    ("1 和 5 先不做 等二季度再说 先集中 2 和 4", extract_proposals("1. a\n2. b\n3. c\n4. d\n5. e")[1:4]),
])
def test_what_names_no_group(text: str, options: Sequence[Proposal]) -> None:
    assert group_reference(text, options) is None


def test_labels_name_their_options_wherever_they_stand() -> None:
    assert group_reference("B and C are out", LETTERS) == Group((1, 2))
    continued = extract_proposals("方案二：Redis。\n方案三：Postgres。\n方案四：SQS。")
    assert group_reference("方案三和方案四都不要", continued) == Group((1, 2))


def test_bare_numbers_are_the_group_the_verdict_follows_not_where_the_user_goes() -> None:
    five = extract_proposals("1. 抽奖\n2. 互推\n3. 社群\n4. 干货\n5. 联动")
    assert group_reference("1 和 5 先不做 等二季度招了人再说 先集中 2 和 4", five) == Group((0, 4))


def test_a_single_option_list_has_no_groups() -> None:
    assert group_reference("none of these", LIST_EN[:1]) is None


@pytest.mark.parametrize("unit", ["1-2 and 3, ", "none of these except ", "前两个都", "除了一二三都"])
def test_reading_groups_grows_linearly(unit: str) -> None:
    ratio, small, large = growth_ratio(lambda text: group_reference(text, LIST_EN), unit)
    assert ratio < MAX_RATIO, f"{small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"
