"""A short rejection that names where to go instead is a PIVOT (detect.NAMED_REPLACEMENT_PIVOT_FLOOR):
the model alone reads "kafka is too much ops. outbox table it is" as a plain rejection."""

from __future__ import annotations

import pytest

from detector.detect import (
    NAMED_REPLACEMENT_MAX_CHARS,
    NAMED_REPLACEMENT_PIVOT_FLOOR,
    _named_replacement_pivot,
)
from detector.loading import build_detector
from detector.schema import Explanation, Label, Turn

_OPTIONS = [
    Turn(role="user", text="we need an event bus for the order service"),
    Turn(role="assistant", text="Option A: Kafka for the event bus. Option B: a Postgres outbox table polled by a worker."),
]
_NAMED = "kafka is way too much ops for a 3 person team. outbox table it is"
_RULE = "names where to go instead"


def test_a_rejection_naming_its_replacement_is_a_pivot(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    model_alone = build_detector(mode="classifier").detect(_NAMED, _OPTIONS)
    assert model_alone.label is Label.REJECT  # what the rule is for
    found = shipped_detector.detect(_NAMED, _OPTIONS)
    assert found.label is Label.PIVOT
    assert found.replacement == "outbox table"
    assert _RULE in found.explanation.rule
    # The confidence is the model's that the turn drops the direction, not its low PIVOT share.
    assert found.confidence >= found.scores[Label.REJECT] + found.scores[Label.PIVOT] - 1e-3


def test_a_rejection_naming_nothing_stays_one(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    found = shipped_detector.detect("kafka is way too much ops for a 3 person team, drop it", _OPTIONS)
    assert found.label is Label.REJECT
    assert _RULE not in found.explanation.rule


def test_a_long_message_is_not_read_for_a_replacement(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    text = (
        _NAMED + ". Separately, about the invoices: the finance team exports them every Friday as CSV, "
        "and they want the totals to match the ledger to the cent. Can the worker reconcile both and "
        "flag the rows that differ?"
    )
    assert len(text) >= NAMED_REPLACEMENT_MAX_CHARS
    assert _RULE not in shipped_detector.detect(text, _OPTIONS).explanation.rule


def test_a_pivot_the_model_all_but_rules_out_stays_a_rejection() -> None:
    scores = {Label.NONE: 0.1, Label.REJECT: 0.85, Label.PIVOT: NAMED_REPLACEMENT_PIVOT_FLOOR / 2, Label.REOPEN: 0.0}
    explanation = Explanation(decided_by="hybrid", rule="hybrid: model confident")
    assert _named_replacement_pivot({"replacement": "render"}, scores, 0.85, explanation) == (Label.REJECT, 0.85)
    assert _RULE not in explanation.rule
    unsure = {Label.NONE: 0.1, Label.REJECT: 0.6, Label.PIVOT: 0.3, Label.REOPEN: 0.0}
    assert _named_replacement_pivot({}, unsure, 0.6, explanation) == (Label.REJECT, 0.6)
    label, confidence = _named_replacement_pivot({"replacement": "render"}, unsure, 0.6, explanation)
    assert (label, confidence) == (Label.PIVOT, pytest.approx(0.9))
    assert _RULE in explanation.rule


def test_an_option_picked_by_its_bare_number_is_the_replacement(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"do 1, our own renderer": the number closes its clause and picks option 1, which the turn
    moves to; the replacement is that option, not the digit."""
    reply = Turn(role="assistant", text=(
        "A few ways:\n1. **Own renderer**: record spans and print the line with a caret.\n"
        "2. **miette**: derive Diagnostic on the error type.\n3. **ariadne**: like miette, more flexible.\nI'd lean to 2."))
    found = shipped_detector.detect(
        "no to the diagnostic crates, the binary ships on routers with 16MB flash. do 1, our own renderer",
        [Turn(role="user", text="parse errors need line numbers"), reply],
    )
    assert found.label is Label.PIVOT
    assert found.replacement is not None and found.replacement.startswith("1(") and "renderer" in found.replacement.lower()


@pytest.mark.parametrize(
    "text", ["not worth a rustflags change for a health check PR. rip it out, console-subscriber dep too", "meh. undo it"]
)
def test_an_undo_order_names_no_replacement(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    """"rip it out" after a sentence's end is the verdict, not a bare new choice ("pilot then")."""
    context = [Turn(role="user", text="add a health check"),
               Turn(role="assistant", text="Added /healthz, plus tokio-console via console-subscriber and a rustflags entry in .cargo/config.toml.")]
    found = shipped_detector.detect(text, context)
    assert found.label is not Label.PIVOT
    assert found.replacement is None


@pytest.mark.parametrize(
    "text, replacement",
    [("riverpod 太重了 组里就我一个人写flutter 别人看不懂 用A", "A(provider)"), ("没redis 这个服务压根没接redis 为了这个引一个不值当 用B", "B(riverpod)")],
)
def test_a_bare_option_label_after_the_verb_of_choosing_is_the_replacement(shipped_detector, text: str, replacement: str) -> None:  # type: ignore[no-untyped-def]
    """Shown with what the option is, as a bare number is: "A" alone means nothing in the state."""
    context = [Turn(role="user", text="全局状态怎么管"),
               Turn(role="assistant", text="A. provider，官方推荐，上手快\nB. riverpod，编译期安全\nC. 加一层 redis 缓存登录态")]
    found = shipped_detector.detect(text, context)
    assert found.label is Label.PIVOT
    assert found.replacement == replacement


@pytest.mark.parametrize("text", ["we'd prefer Postgres over Mongo here, the team knows SQL", "I'd prefer Postgres rather than MongoDB."])
def test_a_preference_over_an_option_is_a_pivot_to_the_preferred_one(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="which db for the events table?"),
               Turn(role="assistant", text="Option A: MongoDB, flexible schema. Option B: Postgres with JSONB.")]
    found = shipped_detector.detect(text, context)
    assert found.label is Label.PIVOT
    assert found.replacement == "Postgres"
    assert "mongo" in (found.target or "").lower()


@pytest.mark.parametrize(
    "text",
    [
        # A switch cue reading a complaint as where to go ("换床品打扫太费劲": changing the bedding is the chore).
        "月租就别弄了 换床品打扫太费劲 我们阿姨就一个人",
        # A dotted name holds no sentence end; a report of what the user does now, or a rate, names no choice.
        "revert the max.poll.interval bit, we talked about this like an hour ago. I dont want it in this deploy",
        "network's cleared, write_lag is 83ms, the bytes are getting there. no iperf. running your query now",
        "rip out the resolver part. that's the dns fix I already said no to. one change per rollout",
    ],
)
def test_a_complaint_a_report_or_a_rule_is_no_replacement(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="next step?"),
               Turn(role="assistant", text="1. 开放月租 2. 加 max.poll.interval 3. 加 resolver 4. run iperf between the AZs")]
    assert shipped_detector.detect(text, context).replacement is None


# A reply listing three ways to search logs, for the session 49 turns below.
_LOG_SEARCH_OPTIONS = [
    Turn(role="user", text="日志检索怎么做"),
    Turn(role="assistant", text="1. 上 ES 集群做全文检索\n2. 用 Spark 离线跑\n3. 直接 grep + 按天切文件"),
]


def test_a_verdict_before_the_bare_choice_names_no_replacement(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"X 就别上了吧" drops X: the bare "…吧" of a choice is not read inside it (it had named "es就别上"
    the replacement and made the turn a PIVOT; session 49)."""
    found = shipped_detector.detect("es就别上了吧 我们运维总共俩人 集群挂了没人会修", _LOG_SEARCH_OPTIONS)
    assert found.label is Label.REJECT and found.replacement is None


def test_an_option_told_not_to_come_in_is_the_target(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"先别放进来" is a verdict like "先别加" (session 49)."""
    found = shipped_detector.detect("spark先别放进来 组里没人会调", _LOG_SEARCH_OPTIONS)
    assert found.label is Label.REJECT and found.target is not None and "spark" in found.target.lower()
