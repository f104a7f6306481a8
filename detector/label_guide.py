"""DESIGN §2's own examples: the label guide's definition of each label, as data.

They are the specification, so training keeps them: among fusion thresholds that hold the dev
false-alarm limit, it prefers those under which every example gets its label (learn.py), and a
test checks the shipped model against them. A rejection needs a direction under discussion, so
the positives are judged as the tracker sees them, after an assistant turn that proposed options;
the hard negatives must stay NONE there and on their own.
"""

from __future__ import annotations

from detector.schema import Label, Turn

PROPOSAL_CONTEXT: dict[str, list[Turn]] = {
    "en": [
        Turn(role="user", text="how should we structure the new backend?"),
        Turn(
            role="assistant",
            text="Two options: 1) split into microservices now; 2) keep a modular monolith. "
            "Redis could cache the catalog either way.",
        ),
    ],
    "zh": [
        Turn(role="user", text="新后端怎么拆比较好？"),
        Turn(role="assistant", text="方案A：现在就拆成微服务；方案B：先做模块化单体，以后再拆。Kafka 也可以先不上。"),
    ],
}

# fmt: off
POSITIVES: list[tuple[str, Label]] = [
    ("这个方向不对", Label.REJECT), ("上个方案作废", Label.REJECT), ("算了，这条路别走了", Label.REJECT),
    ("drop the microservices idea", Label.REJECT), ("scrap plan A, go with B", Label.PIVOT),
    ("actually, use Postgres instead", Label.PIVOT), ("改成另一个思路：用事件溯源", Label.PIVOT),
    ("回头再看看方案A", Label.REOPEN), ("之前否掉的 Kafka 可以重新考虑", Label.REOPEN),
    ("let's revisit the Redis idea", Label.REOPEN),
]
NEGATIVES: list[str] = [
    "这个数字不对", "that's wrong, the port is 8080", "不要用 tab 缩进", "要不要放弃A？", "what if we dropped Redis?",
    "我不是说A不行", "my manager wants to scrap it, but I disagree", "先不讨论这个", "继续", "ok", "别用表格", "好，就按B来",
]
# fmt: on


def context_for(text: str) -> list[Turn]:
    """The proposal turn in the example's language."""
    return PROPOSAL_CONTEXT["zh" if any("\u4e00" <= char <= "\u9fff" for char in text) else "en"]


def guide_cases() -> list[tuple[str, list[Turn], Label]]:
    """(text, context, label): positives after a proposal, negatives alone and after one."""
    cases = [(text, context_for(text), label) for text, label in POSITIVES]
    for text in NEGATIVES:
        cases += [(text, [], Label.NONE), (text, context_for(text), Label.NONE)]
    return cases
