"""Where a pivot goes when no cue frames it (detector/replacements.py): the clause the shipped
replacement ranker picks, what the tracker does with it, and the ranker's training script."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from detector.cues.engine import default_engine
from detector.detect import Detector, Mode
from detector.replacements import (
    _BARE_VERDICT_RE,
    FEATURES,
    _forms,
    _Spans,
    bare_choice,
    candidates,
    replacement_ranker,
)
from detector.schema import Label, Turn
from detector.store import MemoryStore
from detector.targets import query_for
from detector.tracker import ConvergenceTracker, _fallback_name
from detector.trees import TreeEnsemble
from tests.test_hardening_linear import MAX_RATIO, growth_ratio
from training import replacement_ranker as training

# (assistant turn, user turn, what the replacement must name)
PLAIN_PIVOTS = [
    (
        "We could use TCA for state management, or plain MVVM with Combine.",
        "TCA is too much to learn for 2 people, let's keep it simple with MVVM",
        "MVVM",
    ),
    (
        "可以加多线程消费，或者让风控扩容。",
        "多线程那个要改代码，这会儿上线风险大，不搞了。让风控扩容，我们这边降级放行。",
        "风控扩容",
    ),
    (
        "Dual-writing from the app is the cleanest way to keep both columns in sync.",
        "dual-writing from the app touches 60 call sites. let's keep the decimal column in sync with a MySQL trigger",
        "MySQL trigger",
    ),
]


@pytest.fixture
def detector(shipped_detector: Detector) -> Detector:
    return shipped_detector


@pytest.mark.parametrize(("reply", "turn", "named"), PLAIN_PIVOTS)
def test_a_pivot_no_cue_frames_goes_where_its_own_clause_says(detector: Detector, reply: str, turn: str, named: str) -> None:
    detection = detector.detect_in([Turn(role="assistant", text=reply), Turn(role="user", text=turn)], 1)
    assert detection.label is Label.PIVOT
    assert detection.replacement is not None and named in detection.replacement
    assert not detection.replacement.lower().startswith(("let's", "先"))  # said without its frame
    # The replacement's clause is where the turn goes, so it is never also the reason.
    assert detection.reason is None or named not in detection.reason


def test_the_tracker_decides_the_ranked_replacement(detector: Detector) -> None:
    reply, turn, named = PLAIN_PIVOTS[0]
    tracker = ConvergenceTracker(detector, MemoryStore())
    tracker.observe_assistant("c", Turn(role="assistant", text=reply))
    tracker.observe_user("c", turn)
    state = tracker.state("c")
    assert state.current_decision is not None and named in state.current_decision.text
    assert [a.summary for a in state.alternatives if a.status == "rejected"] == ["TCA for state management"]


def test_the_learned_model_alone_reads_no_clause(detector: Detector) -> None:
    reply, turn, _ = PLAIN_PIVOTS[0]
    classifier_only = Detector(mode=Mode.CLASSIFIER, classifier=detector.classifier)
    detection = classifier_only.detect_in([Turn(role="assistant", text=reply), Turn(role="user", text=turn)], 1)
    assert detection.replacement is None


def test_a_rejection_gets_no_replacement(detector: Detector) -> None:
    detection = detector.detect_in(
        [Turn(role="assistant", text="建议用 Redis 做缓存。"), Turn(role="user", text="Redis 运维成本太高了，不要了")], 1
    )
    assert detection.label is Label.REJECT and detection.replacement is None


def _candidates(text: str, target: str | None = None) -> dict[str, dict[str, float]]:
    engine = default_engine()
    query = query_for(text, Label.PIVOT, engine.with_spans(text, engine.match(text)))
    return {c.text: c.features for c in candidates(query, target, [])}


def test_candidates_are_clauses_and_their_unframed_forms() -> None:
    found = _candidates("Kafka 太重了，先改用 Redis Stream 顶着", "Kafka")
    assert {"Kafka 太重了", "先改用 Redis Stream 顶着", "先改用 Redis Stream", "Redis Stream"} <= set(found)
    assert found["Kafka 太重了"]["holds_target"] == 1.0 and found["Redis Stream"]["holds_target"] == 0.0
    assert found["Redis Stream"]["framed"] == 1.0 and found["Redis Stream"]["verdict_before"] == 1.0
    english = _candidates("nah. i'm calling a plumber")
    assert {"i'm calling a plumber", "calling a plumber", "a plumber", "plumber"} <= set(english)
    assert english["a plumber"]["dropped_words"] == 2.0


def test_a_clause_that_only_says_no_is_marked_bare() -> None:
    found = _candidates("阿姨太贵了 算了 先让我妈来", "阿姨")
    assert found["算了"]["bare_verdict"] == 1.0 and found["先让我妈来"]["bare_verdict"] == 0.0
    assert all(_BARE_VERDICT_RE.fullmatch(text) for text in ("nah", "ok switching", "no thanks!", "行吧", "change of plan", "换个思路"))
    assert not any(_BARE_VERDICT_RE.fullmatch(text) for text in ("passion fruit", "nothing fancy", "先让我妈来", "done deal with Stripe"))
    assert _BARE_VERDICT_RE.fullmatch("the ricoh goes in my pocket, done".split(", ")[1])


def test_a_clause_that_gives_a_reason_is_marked() -> None:
    found = _candidates("双非电气走起 起码是本专业", "211")
    assert found["起码是本专业"]["reasons"] == 1.0 and found["双非电气走起"]["reasons"] == 0.0


@pytest.mark.parametrize(
    ("clause", "kept"),
    [
        ("那些搬 dbt", "那些搬 dbt"),  # a 那 that opens a pointer frames no choice
        ("那笔钱挪去周边小区做亲子活动", "那笔钱挪去周边小区做亲子活动"),
        ("改完顺序之后我发现 gha cache 够用", "改完顺序之后我发现 gha cache 够用"),  # nor a verb alone
        ("那就改用纸质交接本", "纸质交接本"),
        ("只读副本", "只读副本"),  # the 只 of a word frames nothing
        ("只用 sqlite", "sqlite"),
        ("那只能 Tableau", "Tableau"),  # 只能 frames a forced choice
        ("先叫深度保洁来一趟", "深度保洁来一趟"),
    ],
)
def test_a_chinese_choice_frame_is_dropped_only_where_it_frames(clause: str, kept: str) -> None:
    shortest = min((form for form, _, _ in _forms(clause)), key=len)
    assert shortest == kept


def test_spans_answer_by_position() -> None:
    spans = _Spans([(5, 9), (0, 3), (20, 30)])
    assert spans.starts_within(4, 6) and not spans.starts_within(10, 20)
    assert spans.starts_before(1) and not spans.starts_from(21) and spans.starts_from(20)
    assert spans.overlaps(2, 4) and spans.overlaps(29, 40)
    assert not spans.overlaps(10, 19) and not spans.overlaps(30, 40)
    assert not _Spans([]).overlaps(0, 10) and not _Spans([]).starts_before(5)


@pytest.mark.parametrize(
    "unit",
    [
        "不要了，先改用 Redis 顶着，算了 ",
        "scrap it, let's go with the bakery. nah, i'm calling a plumber. ",
        "那就那就那就改用" * 3 + "，",
        # One clause as long as the text: a run of the words that open a choice with no verb after
        # them (那就 read as 那 and 就 as well made this exponential), of English frames, of no's.
        "那就",
        "我那就",
        "let's just ",
        "no thanks ",
        "hmm ",
        # Closing frame words with something after them (from every position, quadratic).
        "了",
        "就行吧了",
        "then instead ",
    ],
)
def test_reading_candidates_grows_linearly(unit: str) -> None:
    engine = default_engine()

    def read(text: str) -> int:
        query = query_for(text, Label.PIVOT, engine.match(text))
        return len(candidates(query, "Redis", []))

    ratio, _, _ = growth_ratio(read, unit)
    assert ratio < MAX_RATIO


def test_shipped_ranker_scores_every_feature_this_version_computes() -> None:
    ranker = replacement_ranker()
    assert ranker.feature_names == FEATURES
    assert ranker.metadata["trained_on"] == "data/train.jsonl"
    assert ranker.metadata["rejection_weight"] == training.REJECTION_WEIGHT


def test_training_writes_a_ranker_that_the_same_data_reproduces(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = Path("data/dev.jsonl")
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    assert training.main(["--data", str(data), "--out", str(first), "--dev", str(data)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["turns"] > 300 and report["held_out"]["pivots"] > 200
    # Scored on the data it learned from, it must pick the gold replacement most of the time.
    assert report["held_out"]["pivot_right"] > 0.5
    training.main(["--data", str(data), "--out", str(second)])
    assert first.read_bytes() == second.read_bytes()
    loaded = TreeEnsemble.load(first, FEATURES, "rebuild it")
    assert loaded.metadata["trained_on"] == str(data)


def test_the_gold_replacement_is_among_the_candidates_of_most_training_pivots() -> None:
    """The ranker can only pick what the candidates offer: on dev's gold pivots, a candidate
    denotes the gold replacement in about three in four (0.76 when this was written)."""
    covered = total = 0
    for labeled, found in training._turns(Path("data/dev.jsonl")):
        if labeled.label is Label.PIVOT:
            total += 1
            covered += any(training.denotes(c.text, labeled.turn.replacement or "") for c in found)
    assert total > 200 and covered / total > 0.7


def test_a_pivot_whose_target_is_unresolved_rejects_its_other_clauses_and_goes_where_it_says(detector: Detector) -> None:
    """With no target resolved, the rejected thing was the turn's first 40 characters, which held
    the replacement too: the pivot then "went" to the option it had just rejected, and a reply
    carrying on with Loki would have read as a relapse."""
    tracker = ConvergenceTracker(detector, MemoryStore())
    tracker.observe_user("c", "logs: we have like 200GB/day and elasticsearch keeps falling over")
    reply = "Options: tune ES (more nodes, ILM to move old indices to cheap storage), switch to Loki which indexes only labels, or sample/drop noisy debug logs at the source."
    tracker.observe_assistant("c", Turn(role="assistant", text=reply))
    tracker.observe_user("c", "switch to loki, I'm done babysitting ES")
    state = tracker.state("c")
    assert state.current_decision is not None and state.current_decision.text == "loki"
    rejected = [a.summary for a in state.alternatives if a.status == "rejected"]
    assert rejected and not any("loki" in name for name in rejected)


def test_the_fallback_name_leaves_out_the_replacements_clauses() -> None:
    assert _fallback_name("switch to loki, I'm done babysitting ES", "loki") == "I'm done babysitting ES"
    assert _fallback_name("loki instead", "loki") == "loki instead"  # nothing else to name
    assert _fallback_name("x" * 50, None) == "x" * 40


@pytest.mark.parametrize(
    ("framed", "bare"),
    [("咱转战石老人", "石老人"), ("do the webhook", "the webhook"), ("let's go with option 2", "option 2"), ("先用 Redis Stream 顶着", "Redis Stream")],
)
def test_a_replacement_is_given_without_its_frame(framed: str, bare: str) -> None:
    assert bare_choice(framed) == bare


def test_a_verdict_after_zhijie_is_no_replacement(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    # "直接 pass" drops the option; it named "pass" as where the turn goes, and "pass" became the decision.
    detection = shipped_detector.detect("LaunchDarkly 报价看了 一年 4 万刀 直接 pass")
    assert detection.label is Label.REJECT and detection.replacement is None


@pytest.mark.parametrize(
    "turn",
    [
        "hmm 这三个都 too standard 了, 莫干山去年去过, 千岛湖和西湖大家也都去烂了... 给我点 different 一点的选项?",
        "none of these work for a family of five. can you show me some other options?",
    ],
)
def test_a_pivot_that_asks_for_new_options_goes_nowhere_yet(detector: Detector, turn: str) -> None:
    """The label guide's "no, show me other options" is a PIVOT that names no replacement: neither
    the request ("给我点…选项") nor a clause that says the old ones are worn out ("去烂了") is where it
    goes (the ranker had made "千岛湖和西湖大家也都去烂了" the decision)."""
    reply = "A. 莫干山民宿\nB. 千岛湖度假酒店\nC. 杭州市区 + 西湖\n我推荐 A."
    detection = detector.detect_in([Turn(role="assistant", text=reply), Turn(role="user", text=turn)], 1)
    assert detection.label is Label.PIVOT
    tracker = ConvergenceTracker(detector, MemoryStore())
    tracker.observe_assistant("c", Turn(role="assistant", text=reply))
    tracker.observe_user("c", turn)
    assert tracker.state("c").current_decision is None


def test_a_yes_no_question_is_no_replacement_and_a_request_still_is() -> None:
    """"Can Buildkite agents run on that instead…?" asks whether; "could you redo it with argparse
    subparsers?" asks the agent to go there."""
    asked = _candidates("Actions is dead to us. Can Buildkite agents run on that instead of the Elastic stack?", "Actions")
    assert not any("Buildkite" in text for text in asked)
    requested = _candidates("click is overkill for this. could you redo the subcommand with argparse subparsers?", "click")
    assert any("argparse" in text for text in requested)


@pytest.mark.parametrize(("reply", "turn"), [
    ("Competitive slide: a 2x2 positioning quadrant, us top right.", "象限图太套路了吧，十份BP八份都是这个，投资人早看腻了。有没有别的展示方式"),
    ("Tiers: Starter 50 monitors, Pro 250, Business 1000.", "ok scrap the tiers, honestly the caps feel arbitrary. why is 250 the magic number. give me something different"),
])
def test_what_a_turn_asking_for_other_options_complains_of_is_no_replacement(detector: Detector, reply: str, turn: str) -> None:
    """"有没有别的展示方式", "give me something different": the complaint beside the request says
    why, not where ("投资人早看腻" had been the decision)."""
    detection = detector.detect(turn, [Turn(role="assistant", text=reply)])
    assert detection.label is Label.PIVOT and detection.replacement is None


def test_what_the_revisit_condition_names_is_no_replacement(detector: Detector) -> None:
    detection = detector.detect(
        "pure usage-based is a no for now, our billing can't meter anything. maybe after we migrate to stripe's usage billing, that's on the roadmap",
        [Turn(role="assistant", text="Options:\n1. Per-seat\n2. Usage-based\n3. Tiered flat plans")],
    )
    assert detection.label is Label.REJECT and detection.replacement is None
    assert detection.revisit_if is not None and "stripe's usage billing" in detection.revisit_if


def test_a_replacement_that_says_no_is_none() -> None:
    """"上门体检车这个不考虑了" read as 上 (go with) + "门体检车这个不考虑" goes nowhere."""
    from detector.cues.spans import clean_span

    assert clean_span("门体检车这个不考虑", "replacement") == ""
    assert clean_span("体检卡", "replacement") == "体检卡"


@pytest.mark.parametrize(("clause", "bare"), [("就定巴厘岛了", "巴厘岛"), ("自习室算了", "自习室算了")])
def test_the_le_of_suanle_is_a_verdict_not_a_choice_frame(clause: str, bare: str) -> None:
    """"…她吃不消 自习室算了" went to "自习室算": the 了 of 算了 was read as a choice's closing frame."""
    from detector.statements import without_choice_frame

    assert without_choice_frame(clause) == bare


@pytest.mark.parametrize("text, fails", [
    ("光靠炕肯定不够", True), ("one node isn't enough", True), ("够不够", False), ("one node is enough", False),
])
def test_words_that_say_something_falls_short_name_no_place_to_go(text: str, fails: bool) -> None:
    from detector.statements import says_it_fails

    assert says_it_fails(text) is fails
