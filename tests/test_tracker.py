"""The convergence tracker's state updates and suggestion policy, and the relapse guard."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from detector.detect import Detector
from detector.relapse import check_reply
from detector.schema import (
    ConvergenceState,
    Detection,
    Explanation,
    Label,
    RejectedAlternative,
    ToolCall,
    Turn,
)
from detector.store import MemoryStore
from detector.tracker import ConvergenceTracker, TrackerConfig

OPTIONS_ZH = "方案A：Redis 集中式缓存，多实例共享。\n方案B：进程内本地 LRU 缓存，零运维。\n方案C：CDN 边缘缓存。"
OPTIONS_EN = "Option 1: a central Redis cache.\nOption 2: an in-process LRU cache.\nOption 3: a CDN edge cache."


def tracker(**config: int | str) -> ConvergenceTracker:
    return ConvergenceTracker(Detector("rules"), MemoryStore(), TrackerConfig(**config))  # type: ignore[arg-type]


def test_alternatives_are_collected_from_assistant_proposals() -> None:
    t = tracker()
    t.observe_user("c", "想加缓存")
    t.observe_assistant("c", OPTIONS_ZH)
    state = t.state("c")
    assert [a.label for a in state.alternatives] == ["方案A", "方案B", "方案C"]
    assert all(a.status == "proposed" and a.first_turn == 1 for a in state.alternatives)
    assert state.open_questions and "方案B" in state.open_questions[0]


@pytest.mark.parametrize("options, user, rejected, current", [
    (OPTIONS_ZH, "A 不行，运维扛不住，换 B 吧", "方案A", "方案B"),
    (OPTIONS_ZH, "第一个不要了，成本太高，改用方案C", "方案A", "方案C"),
    (OPTIONS_EN, "scrap option 1, go with option 2", "Option 1", "Option 2"),
    (OPTIONS_EN, "drop the Redis idea and use the CDN edge cache", "Option 1", "Option 3"),
    # Options set off by a space only, and a pointer that carries a label ("你说的路线二" names 路线二).
    ("推荐两条线：路线一 昆明—大理—丽江—香格里拉，海拔高；路线二 昆明—建水—元阳—普者黑，海拔低、人少。",
     "爸妈有高血压，路线一海拔太高了，干脆走你说的路线二", "路线一", "路线二"),
])
def test_pivot_rejects_target_and_sets_current(options: str, user: str, rejected: str, current: str) -> None:
    t = tracker()
    t.observe_user("c", "caching?")
    t.observe_assistant("c", options)
    suggestion = t.observe_user("c", user)
    assert suggestion is not None and suggestion.trigger == "pivot" and suggestion.priority == "high"
    state = t.state("c")
    assert [r.alternative.split("(")[0] for r in state.rejected] == [rejected]
    assert state.current_decision is not None and state.current_decision.text.startswith(current)
    assert any(op.path == "/rejected/-" for op in suggestion.patch)
    assert rejected in suggestion.block and suggestion.instruction


def test_same_pivot_on_next_turn_does_not_fire_twice() -> None:
    t = tracker()
    t.observe_user("c", "caching?")
    t.observe_assistant("c", OPTIONS_ZH)
    assert t.observe_user("c", "A 不行，换 B 吧") is not None
    assert t.observe_user("c", "A 不行，换 B 吧") is None
    assert len(t.state("c").rejected) == 1 and t.state("c").rejected[0].rejected_at == 2


def test_reject_uses_default_revisit_condition_in_the_conversation_language() -> None:
    t = tracker()
    t.observe_user("c", "缓存怎么做？")
    t.observe_assistant("c", OPTIONS_ZH)
    t.observe_user("c", "方案C 就算了，太贵了")
    [rejection] = t.state("c").rejected
    assert rejection.revisit_if == "用户重新提出，或出现新的约束或证据"
    assert rejection.reason == "太贵了" and rejection.evidence.startswith("方案C")  # the whole clause, as said


def test_reopen_leaves_rejected_list_and_history_keeps_it() -> None:
    t = tracker()
    t.observe_user("c", "缓存怎么做？")
    t.observe_assistant("c", OPTIONS_ZH)
    t.observe_user("c", "A 不行，换 B 吧")
    suggestion = t.observe_user("c", "等等，回头再看看方案A吧")
    assert suggestion is not None and suggestion.trigger == "reopen"
    state = t.state("c")
    assert state.rejected == []
    assert [e.kind for e in state.history if e.alternative_id == "alt-1"] == ["rejected", "pivoted", "reopened"]


def test_acceptance_sets_decision_and_constraints_are_kept() -> None:
    t = tracker()
    t.observe_user("c", "caching options?")
    t.observe_assistant("c", OPTIONS_EN)
    assert t.observe_user("c", "sounds good, go with option 2") is None
    t.observe_user("c", "we can't add new infrastructure this quarter")
    state = t.state("c")
    assert state.current_decision is not None and state.current_decision.text.startswith("Option 2")
    assert state.constraints == ["we can't add new infrastructure this quarter"]


PLAN_NUMBERED = "Plan: 1. setup-node with cache: npm. 2. Move to pnpm with a store cache. 3. Bake node_modules into the runner image."


def replayed(t: ConvergenceTracker, *turns: str) -> ConvergenceState:
    """The state after these turns, user and assistant in turn, from the user's."""
    for index, text in enumerate(turns):
        (t.observe_user if index % 2 == 0 else t.observe_assistant)("c", text)
    return t.state("c")


def decision_after(*turns: str) -> str | None:
    """The decision a fresh tracker holds after these turns, user and assistant in turn."""
    decision = replayed(tracker(), *turns).current_decision
    return decision.text if decision else None


@pytest.mark.parametrize("options, user, chosen", [
    (PLAN_NUMBERED, "yes, 1 first", "1("),
    (PLAN_NUMBERED, "2 sounds good", "2("),
    (PLAN_NUMBERED, "let's do 3", "3("),
    (OPTIONS_ZH, "好，第二个", "方案B"),
    (OPTIONS_ZH, "B吧", "方案B"),
    ("两个办法：\n1. 加只读副本\n2. 换成 Postgres", "先上1", "1("),
])
def test_a_turn_that_only_picks_a_listed_option_sets_the_decision(options: str, user: str, chosen: str) -> None:
    assert (decision_after("options?", options, user) or "").startswith(chosen)


REPACK = (
    "Options:\n- Run VACUUM FULL events during a maintenance window\n- Use pg_repack to rebuild it online\n"
    "- Tune autovacuum for that table"
)


@pytest.mark.parametrize("options, user, chosen", [
    # A clause of a longer turn that takes an option by name, the rest of the turn about details.
    (OPTIONS_ZH, "先按方案B来吧，重试次数设成 3 次，单次超时改成 800 毫秒。", "方案B"),
    # A label needs no verb, after a word of assent and a space: "行 就方案B 本地缓存".
    (OPTIONS_ZH, "行 就方案B 本地缓存。TTL 设多少合适？", "方案B"),
    ("可以试 Prefect、Dagster 或 Airflow，都能管这种依赖。", "促销数据拿不到，那试一下 Dagster 吧", "Dagster"),
    # The sentence after the choice ("write me the runbook") is no choice; the clause before it is.
    (REPACK, "ok do pg_repack. write me the runbook", "Use pg_repack"),
])
def test_a_choice_said_in_a_clause_of_a_longer_turn_sets_the_decision(options: str, user: str, chosen: str) -> None:
    assert (decision_after("options?", options, user) or "").startswith(chosen)


@pytest.mark.parametrize("user", [
    "行，就按这个来，帮我写一下伪代码",  # points, names nothing
    "老板同意了，先试三个月，下周一两个人到岗",  # an amount: a parameter, not an option
])
def test_a_clause_that_only_points_or_sets_an_amount_decides_nothing(user: str) -> None:
    assert decision_after("options?", "可以先试用三个月，也可以直接签一年。", user) is None


@pytest.mark.parametrize("user", ["how about 2?", "2？", "3 of them", "1. the cache is cold. 2. the index is missing"])
def test_a_bare_label_that_asks_or_counts_decides_nothing(user: str) -> None:
    assert decision_after("options?", PLAN_NUMBERED, user) is None


def test_a_bare_label_picks_from_the_latest_list_not_an_earlier_one() -> None:
    e2e = "Done. For the e2e job: 1. cache the browsers. 2. run it in the playwright image."
    assert "playwright" in (decision_after("CI is slow", PLAN_NUMBERED, "yes, 1 first", e2e, "2 please") or "")


def test_a_bare_number_after_another_question_picks_nothing() -> None:
    """The list is two replies back: "3" answers "how many runners?", not option 3."""
    question = "Sure. How many runners do you have free?"
    assert decision_after("CI is slow", PLAN_NUMBERED, "let me think", question, "3") is None


@pytest.mark.parametrize("options, user, chosen", [
    ("橱柜板材两种：\n1. 颗粒板：便宜\n2. 多层板：防潮好", "颗粒板吧，省点钱，厨房我会注意通风", "1(颗粒板)"),
    (OPTIONS_EN, "ok, the CDN edge cache it is, we serve mostly static pages", "Option 3"),
])
def test_a_choice_named_in_passing_sets_the_decision(options: str, user: str, chosen: str) -> None:
    """No whole-turn acceptance, no cue: the choice is still named ("X吧", "X it is") and is one
    of the options, so it becomes the decision; a choice of nothing proposed changes nothing."""
    t = tracker()
    t.observe_user("c", "options?")
    t.observe_assistant("c", options)
    t.observe_user("c", user)
    state = t.state("c")
    assert state.current_decision is not None and state.current_decision.text.startswith(chosen)
    t.observe_user("c", "改成周六吧")
    assert t.state("c").current_decision.text.startswith(chosen)  # type: ignore[union-attr]


MEMBERSHIP = "三种：\n方案A：积分制，攒积分换礼品\n方案B：付费会员，每月19元\n方案C：等级制，按累计消费升级"
MODES = "Two ways:\n1. Offline mode with a local cache\n2. A sync queue that retries later"


@pytest.mark.parametrize("options, user, chosen", [
    (MEMBERSHIP, "等级制可以，不过升级门槛你先按200、1000、5000来设", "方案C"),
    (MEMBERSHIP, "方案A挺好，礼品我来选", "方案A"),
    (MODES, "the sync queue sounds good, retry every 5 minutes", "2"),
    (MODES, "the sync queue sounds right", "2"),
    (MODES, "sync queue then", "2"),
    (MODES, "dark mode 可以", None),  # one word shared with "offline mode" is no name of it
    (MEMBERSHIP, "等级制也可以，我再想想", None),  # one more possibility
    (MEMBERSHIP, "等级制没问题吗？", None),
    # In its last sentence, after verdicts on the others (the rules read "B 不行" as a rejection).
    (MEMBERSHIP, "方案A 太贵了。方案B 不行，去年试过。方案C 可以", "方案C"),
])
def test_an_option_approved_by_name_is_the_decision(options: str, user: str, chosen: str | None) -> None:
    t = tracker()
    t.observe_user("c", "怎么做？")
    t.observe_assistant("c", options)
    t.observe_user("c", user)
    decision = t.state("c").current_decision
    if chosen is None:
        assert decision is None
    else:
        assert decision is not None and decision.text.startswith(chosen)


def test_a_version_number_does_not_cut_a_constraint_short() -> None:
    t = tracker()
    t.observe_user("c", "必须兼容 Python 3.8。其他随意")
    t.observe_user("c", "we must support Node 18.2. anything else is fine")
    assert t.state("c").constraints == ["必须兼容 Python 3.8", "we must support Node 18.2"]


def test_the_task_itself_is_no_constraint() -> None:
    t = tracker()
    t.observe_user("c", "We need to add full-text search to our docs site. We need to support IE11 though.")
    assert t.state("c").constraints == ["We need to support IE11 though"]


@pytest.mark.parametrize("user, constraint", [
    ("Kafka is out, we can't add new infrastructure this quarter, so let's use Postgres LISTEN/NOTIFY",
     "we can't add new infrastructure this quarter"),
    ("方案A不行，必须兼容 Python 3.8，还是换 B 吧", "必须兼容 Python 3.8"),
])
def test_a_rejection_keeps_the_constraint_it_gives_without_its_verdict(user: str, constraint: str) -> None:
    """The reason a user rejects an option is often a standing constraint; it outlives the turn."""
    t = tracker()
    t.observe_user("c", "options?")
    t.observe_assistant("c", OPTIONS_ZH if "方案" in user else "Option 1: Kafka.\nOption 2: Postgres LISTEN/NOTIFY.")
    suggestion = t.observe_user("c", user)
    assert suggestion is not None and suggestion.trigger in ("rejection", "pivot")
    assert t.state("c").constraints == [constraint]


def test_constraints_are_bounded_oldest_first() -> None:
    t = tracker(max_constraints=3)
    for version in range(5):
        t.observe_user("c", f"it must stay compatible with Python 3.{version + 6}")
    assert t.state("c").constraints == [f"it must stay compatible with Python 3.{v}" for v in (8, 9, 10)]


def test_reminder_every_n_turns_while_exploring_and_checkpoint_resets_it() -> None:
    t = tracker(reminder_every=3)
    t.observe_user("c", "options?")
    t.observe_assistant("c", OPTIONS_EN)
    fired = [t.observe_user("c", f"tell me more about detail {i}") for i in range(2, 8)]
    assert [s.trigger if s else None for s in fired] == [None, "turn_reminder", None, None, "turn_reminder", None]
    t.observe_assistant("c", Turn(role="assistant", text="", tool_calls=[ToolCall(name="update_working_checkpoint")]))
    assert t.state("c").last_checkpoint_turn == 7
    assert [t.observe_user("c", "more") for _ in range(2)] == [None, None]
    t.mark_checkpoint("c")
    assert t.state("c").last_checkpoint_turn == 9


def test_no_reminder_when_nothing_is_being_explored() -> None:
    t = tracker(reminder_every=2)
    assert all(t.observe_user("c", f"fix the typo on line {i}") is None for i in range(6))


@pytest.mark.parametrize("command", ["/converge", "/solidify please", "/CONVERGE"])
def test_solidify_command(command: str) -> None:
    t = tracker()
    t.observe_user("c", "caching?")
    t.observe_assistant("c", OPTIONS_EN)
    suggestion = t.observe_user("c", command)
    assert suggestion is not None and suggestion.trigger == "solidify_command"
    assert suggestion.block.startswith("### [SOLIDIFIED]")


def _rejected_state(lang: str, alternative: str, reason: str) -> ConvergenceState:
    return ConvergenceState(
        conversation_id="r",
        lang=lang,
        rejected=[RejectedAlternative(alternative_id="alt-1", alternative=alternative, rejected_at=6, reason=reason,
                                      revisit_if="-", evidence="")],
    )


@pytest.mark.parametrize("lang, alternative, reply, verdict", [
    ("zh", "方案A(Redis 集中式缓存)", "也可以考虑 Redis 集群，能解决一致性问题。", "RELAPSE"),
    ("zh", "方案A(Redis 集中式缓存)", "之前已否决 Redis（运维成本高），继续推进本地 LRU。", "OK"),
    ("zh", "方案A(Redis 集中式缓存)", "本地 LRU 的容量建议设为一万条。", "OK"),
    ("zh", "京都", "我知道你不想去京都，不过岚山那边人少，可以去半天。", "RELAPSE"),
    ("en", "Redis cache", "A managed Redis would solve the ops cost.", "RELAPSE"),
    ("en", "Redis cache", "Since we ruled out Redis, the LRU stays in process.", "OK"),
    ("en", "Redis cache", "You could also try ElastiCache for this.", "RELAPSE"),
    ("en", "Kyoto", "I know Kyoto is off the list, but a day trip would be easy from Osaka.", "RELAPSE"),
    ("en", "Kyoto", "Here is the Osaka plan, with Kyoto left out as you asked.", "OK"),
])
def test_relapse_verdicts(lang: str, alternative: str, reply: str, verdict: str) -> None:
    assert check_reply(_rejected_state(lang, alternative, "x"), reply).verdict == verdict


def test_a_reply_to_a_user_who_brought_a_rejected_option_back_is_no_relapse() -> None:
    """The same reply relapses when the assistant raises Redis again unprompted, and answers the
    user when the user's latest turn, after the rejection, named Redis again."""
    reply = Turn(role="assistant", text="Redis 的话建议用云上托管版，运维成本会低很多。")

    def run(question: str) -> str:
        t = tracker()
        t.observe_user("c", "缓存怎么做？")
        t.observe_assistant("c", Turn(role="assistant", text="方案A：Redis 集中式缓存。方案B：本地 LRU 缓存。"))
        t.observe_user("c", "A 不行，我们没人运维 Redis，换 B 吧")
        t.observe_assistant("c", Turn(role="assistant", text="好的，用本地 LRU。"))
        t.observe_user("c", question)
        return t.observe_assistant("c", reply).verdict

    assert run("LRU 容量设多少合适？") == "RELAPSE"
    assert run("如果明年运维扩招，Redis 大概要多少钱？") == "OK"


def test_a_user_turn_a_few_turns_back_that_named_the_rejected_option_still_counts() -> None:
    """The user named Redis two turns after rejecting it; a reply about Redis later answers that,
    unless the user rejected it again in between."""
    reply = Turn(role="assistant", text="Redis 的话建议用云上托管版，运维成本会低很多。")

    def run(*later: str) -> str:
        t = tracker()
        t.observe_user("c", "缓存怎么做？")
        t.observe_assistant("c", Turn(role="assistant", text="方案A：Redis 集中式缓存。方案B：本地 LRU 缓存。"))
        t.observe_user("c", "A 不行，我们没人运维 Redis，换 B 吧")
        for text in later:
            t.observe_assistant("c", Turn(role="assistant", text="好的。"))
            t.observe_user("c", text)
        return t.observe_assistant("c", reply).verdict

    assert run("LRU 容量设多少合适？", "过期时间呢？") == "RELAPSE"
    assert run("如果明年运维扩招，Redis 大概要多少钱？", "过期时间呢？") == "OK"
    assert run("如果明年运维扩招，Redis 大概要多少钱？", "算了，Redis 还是不行，没人运维") == "RELAPSE"


def test_a_rejection_that_names_the_other_option_decides_it() -> None:
    """"方案A不行，太贵了，就方案B吧" read as REJECT still leaves B as the decision."""
    t = tracker()
    t.observe_user("c", "缓存怎么做")
    t.observe_assistant("c", OPTIONS_ZH)
    t.observe_user("c", "方案A不行，太贵了，那就方案B吧")
    state = t.state("c")
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["方案A"]
    assert state.current_decision is not None and state.current_decision.text.startswith("方案B")


def _state_after(*turns: str) -> ConvergenceState:
    """The state after these turns, the user's first and the two sides in turn."""
    t = tracker()
    for index, text in enumerate(turns):
        (t.observe_user if index % 2 == 0 else t.observe_assistant)("c", text)
    return t.state("c")


def test_a_rejection_said_again_by_a_short_name_is_the_same_entry() -> None:
    """"we said no kafka" names, by one word of its long name, the option already rejected: the
    rejected list keeps one entry for it, with the first rejection's turn and reason."""
    state = _state_after(
        "our nightly ETL takes 5h now. ideas?",
        "1. Switch to CDC with Debezium + Kafka so you stream changes.\n2. Make the batch job incremental.\n3. Parallelize the export by table.",
        "no debezium + kafka, nobody here can run it",
        "Long term, a managed Kafka would take away the ops burden.",
        "we said no kafka. stop",
    )
    assert len(state.rejected) == 1 and "Debezium + Kafka" in state.rejected[0].alternative
    assert state.rejected[0].rejected_at == 2


class _ScriptedDetector:
    """The rules detector, except for turns given a scripted Detection: the tracker's handling of
    a detection is tested apart from whether the model would produce it."""

    def __init__(self, scripted: dict[str, Detection]) -> None:
        self.inner = Detector("rules")
        self.engine = self.inner.engine
        self.scripted = scripted

    def detect(self, text: str, context: object = (), lang: str | None = None, opens_conversation: bool = False) -> Detection:
        from detector.text import normalize

        scripted = {normalize(key): value for key, value in self.scripted.items()}
        return scripted.get(text) or self.inner.detect(text, context, lang)  # type: ignore[arg-type]


def _reading_as_reopening(text: str, target: str, lang: str) -> ConvergenceTracker:
    """A tracker whose detector reads `text` as a REOPEN of `target` (and the rest by rules)."""
    detection = Detection(
        label=Label.REOPEN, confidence=0.9, scores={Label.REOPEN: 0.9}, target=target, lang=lang,
        explanation=Explanation(decided_by="classifier"),
    )
    return ConvergenceTracker(_ScriptedDetector({text: detection}), MemoryStore())  # type: ignore[arg-type]


def test_a_reopening_whose_target_names_nothing_rejected_reopens_the_rejected_option_it_mentions() -> None:
    reopen = "两个月后支付上线了，Express 5 升级那个现在可以做了"
    t = _reading_as_reopening(reopen, "支付上线", "zh")
    before = replayed(t, "依赖要不要升级", "方案A：把 Express 4 升级到 Express 5。\n方案B：先只升级安全补丁。", "方案A不行，支付上线前别动框架")
    assert [r.alternative.split("(")[0] for r in before.rejected] == ["方案A"]
    t.observe_user("c", reopen)
    state = t.state("c")
    assert state.rejected == []
    assert next(a for a in state.alternatives if a.label == "方案A").status == "reopened"


def test_choosing_a_rejected_option_takes_it_off_the_rejected_list() -> None:
    """"方案C不行，还是方案A吧" after A was rejected: A is the decision again, so it is no longer
    listed as rejected (the history keeps both events)."""
    t = tracker()
    t.observe_user("c", "缓存怎么做")
    t.observe_assistant("c", OPTIONS_ZH)
    t.observe_user("c", "方案A不行，运维扛不住")
    t.observe_user("c", "方案C不行，换成方案A")
    state = t.state("c")
    assert state.current_decision is not None and state.current_decision.text.startswith("方案A")
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["方案C"]
    assert [e.kind for e in state.history if e.alternative_id == "alt-1"][-1] == "reopened"


def test_a_pivot_to_a_label_nothing_proposed_is_the_decision_by_that_name() -> None:
    """A hook that sees only user prompts never saw 方案B proposed: "换 B 吧" still decides B, and
    does not fall back to the only option it knows, the one just rejected."""
    t = tracker()
    t.observe_user("c", "我们要给订单系统加缓存，有什么方案？")
    t.observe_user("c", "A 不行，运维扛不住，换 B 吧")
    state = t.state("c")
    assert [r.alternative for r in state.rejected] == ["A"]
    assert state.current_decision is not None and state.current_decision.text == "B"


def _scripted(text: str, label: Label, target: str, replacement: str | None = None) -> ConvergenceTracker:
    """A tracker whose detector reads `text` as `label` with `target` (and `replacement`), whatever
    the model says."""
    detection = Detection(
        label=label, confidence=0.9, scores={label: 0.9}, target=target, replacement=replacement, lang="en",
        explanation=Explanation(decided_by="classifier"),
    )
    return ConvergenceTracker(_ScriptedDetector({text: detection}), MemoryStore())  # type: ignore[arg-type]


@pytest.mark.parametrize("replacement", ["SASRec", "方案B"])
def test_a_pivot_whose_target_is_where_it_goes_chooses_it_and_rejects_nothing(replacement: str) -> None:
    """"那就 SASRec 吧" after "可以试 SASRec": a model may resolve the target to SASRec's option too.
    Rejecting it would make every later reply about SASRec a relapse; the turn chose it."""
    chose = "那就 SASRec 吧，序列信息我们一直没用上"
    t = _scripted(chose, Label.PIVOT, "方案B", replacement)
    t.observe_user("c", "推荐模型想升级，现在是 item-based CF")
    t.observe_assistant(
        "c", "方案A：two-tower 召回。\n方案B：直接上 transformer-based sequential recommendation（SASRec / BERT4Rec）。"
    )
    t.observe_user("c", chose)
    state = t.state("c")
    assert state.rejected == []
    assert state.current_decision is not None and state.current_decision.text.startswith("方案B")


def test_a_pivot_to_a_plainer_form_of_its_target_still_rejects_the_target() -> None:
    """"Redis" is in the cluster option's own name, not a detail of it: going to "just redis" leaves
    the cluster, it does not choose it."""
    pivot = "the cluster is way too much ops for us, just redis"
    t = _scripted(pivot, Label.PIVOT, "Redis cluster", "just redis")
    t.observe_user("c", "we need a cache")
    t.observe_assistant("c", "1. Redis cluster with sentinel failover\n2. In-process LRU cache")
    t.observe_user("c", pivot)
    assert [r.alternative.split("(")[0] for r in t.state("c").rejected] == ["1"]


@pytest.mark.parametrize("options, pivot, target, decided", [
    # No span pattern reads "thai curry house" as the replacement, but it names another proposal.
    ("Options:\n1. Sushi bar downtown\n2. Thai curry house\n3. Italian trattoria",
     "sushi is a hard pass for my wife tbh. thai curry house", "sushi", "Thai curry house"),
    # "cache" names the rejected option, so the in-process LRU *cache* is not chosen by it.
    ("1. Redis cache in front of the API\n2. In-process LRU cache\n3. CDN caching of the responses",
     "Scrap the redis cache idea, too much ops. Let's rethink this.", "redis cache", None),
])
def test_a_pivot_without_a_replacement_span_decides_what_its_other_words_name(
    options: str, pivot: str, target: str, decided: str | None
) -> None:
    t = _scripted(pivot, Label.PIVOT, target)
    t.observe_user("c", "what should we do?")
    t.observe_assistant("c", options)
    t.observe_user("c", pivot)
    state = t.state("c")
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["1"]
    if decided is None:
        assert state.current_decision is None
    else:
        assert state.current_decision is not None and decided in state.current_decision.text


@pytest.mark.parametrize("text, choice", [
    ("prophet per store means 300 models to babysit, no thanks. global lightgbm", "global lightgbm"),
    ("no RN. flutter", "flutter"),
    ("slab's a hard pass, i don't want a mixer truck through the house. screws, please", "screws"),
    ("airflow is overkill, plain cron script", "cron script"),
    ("色达海拔四千多我也有点怵，那北线不走了，定南线", "定南线"),
    ("社保我想干脆不交了，商业保险替代", "商业保险"),
    ("Trino 这回不上了，运维人手不够，统一走 Spark SQL", "Spark SQL"),
    ("北京太冷了，上海", "上海"),  # a one-character verb is only cut after a framing word
    # Not a new direction: one clause (the rejection itself), a reason, a doubt, a pointer,
    # a report, a version number that is no clause mark.
    ("drop redis", None),
    ("那我不自己瞎弄了 交给代理 省得来回折腾", None),
    ("kafka is too heavy, it needs a whole team", None),
    ("scrap that, maybe later", None),
    ("我爸去看了一圈，说浴帘贴身上黏糊糊的，他自己提了想要玻璃", None),
    ("we use node.js 3.5", None),
])
def test_closing_choice_is_a_bare_last_clause(text: str, choice: str | None) -> None:
    from detector.statements import closing_choice

    assert closing_choice(text) == choice


def test_a_pivot_that_ends_on_a_bare_new_choice_decides_it() -> None:
    """No span pattern and no proposal name "global lightgbm": the clause that ends the pivot does."""
    pivot = "prophet per store means 300 models to babysit, no thanks. global lightgbm"
    t = _scripted(pivot, Label.PIVOT, "prophet")
    t.observe_user("c", "how should we forecast demand per store?")
    t.observe_assistant("c", "1. Prophet per store\n2. ARIMA per store")
    t.observe_user("c", pivot)
    state = t.state("c")
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["1"]
    assert state.current_decision is not None and state.current_decision.text == "global lightgbm"


def test_a_reply_recorded_after_the_fact_teaches_its_options_once_and_is_not_judged() -> None:
    t = tracker()
    t.observe_user("c", "caching?")
    reply = Turn(role="assistant", text=OPTIONS_EN, tool_calls=[ToolCall(name="update_working_checkpoint")])
    assert t.record_assistant("c", reply) is True
    assert t.record_assistant("c", reply) is False  # the same reply, read again before the next prompt
    state = t.state("c")
    assert [a.label for a in state.alternatives] == ["Option 1", "Option 2", "Option 3"]
    assert state.last_checkpoint_turn == 1
    t.observe_user("c", "scrap option 1, go with option 2")
    assert t.state("c").current_decision is not None


@pytest.mark.parametrize("options, rejection, later, condition", [
    (OPTIONS_ZH, "A 不行，我们运维就两个人", "等明年运维扩招了，回头再看看方案A", "等明年运维扩招了"),
    (OPTIONS_EN, "drop option 1, nobody can run it", "we can revisit option 1 once we hire another ops person", "once we hire another ops person"),
])
def test_a_reopening_for_later_keeps_the_rejection_with_its_condition(
    options: str, rejection: str, later: str, condition: str
) -> None:
    """Not back now, but when the condition holds: the option stays on the rejected list, the
    condition becomes its revisit_if, and the suggestion reports a rejection update."""
    t = tracker()
    t.observe_user("c", "caching?")
    t.observe_assistant("c", options)
    t.observe_user("c", rejection)
    suggestion = t.observe_user("c", later)
    state = t.state("c")
    assert [r.revisit_if for r in state.rejected] == [condition]
    assert suggestion is not None and suggestion.trigger == "rejection" and condition in suggestion.block
    assert any(op.path.endswith("/revisit_if") for op in suggestion.patch)


@pytest.mark.parametrize("first, then, decided", [
    ("sounds good, go with option 2", "scrap option 2, go with option 3", "Option 3"),  # the decision rejected
    ("ok, go with option 1", "ok, go with option 2", "Option 2"),  # another option accepted
])
def test_a_new_decision_drops_the_old_decisions_next_step(first: str, then: str, decided: str) -> None:
    t = tracker()
    t.observe_user("c", "caching?")
    t.observe_assistant("c", OPTIONS_EN)
    t.observe_user("c", first)
    t.observe_assistant("c", "Great. Next step: I'll write the config for it.")
    assert t.state("c").next_action is not None
    t.observe_user("c", then)
    state = t.state("c")
    assert state.current_decision is not None and state.current_decision.text.startswith(decided)
    assert state.next_action is None


def test_a_choice_the_last_reply_offered_in_passing_becomes_the_decision() -> None:
    """"向量库可以用 Milvus 或者 pgvector" lists nothing, but "用 pgvector 吧" chooses what it
    said; a question about it ("全改成 pgvector 吗") does not."""
    t = tracker()
    t.observe_user("c", "知识库问答怎么做")
    t.observe_assistant("c", "那 RAG 的话，向量库可以用 Milvus 或者 pgvector。")
    t.observe_user("c", "pgvector 就行吗")
    assert t.state("c").current_decision is None
    t.observe_user("c", "我们已经有 Postgres 了。用 pgvector 吧")
    state = t.state("c")
    assert state.current_decision is not None and state.current_decision.text == "pgvector"


@pytest.mark.parametrize("options, pick, reply, details, decided", [
    ("Option 1: MacBook Pro 14 with M4 Pro, no CUDA. Option 2: a Lenovo Legion with an RTX 4070, CUDA works.",
     "go with option 2",
     "The Legion comes with 16GB RAM by default; you can configure 32GB for about $150 more. Do you want 32GB?",
     ["16gb is fine", "ok 16gb it is"], "Option 2(a Lenovo Legion with an RTX 4070); 16gb"),
    ("方案A：住福田，去哪都方便。方案B：住南山，离深圳湾公园近，海边适合孩子。",
     "就按B来",
     "好的，住南山。蛇口和后海两个片区都可以，后海商场多，蛇口更安静。",
     ["蛇口就行"], "方案B(住南山); 蛇口"),
])
def test_a_choice_offered_by_a_reply_about_the_decision_is_a_detail_of_it(
    options: str, pick: str, reply: str, details: list[str], decided: str
) -> None:
    """"16gb is fine" after "The Legion comes with 16GB…" keeps the Legion decided: the reply
    offered a setting of the decision, not a plan of its own (it replaced the decision, which
    then read "16gb"). The same detail twice is written once."""
    t = tracker()
    t.observe_user("c", "help me choose")
    t.observe_assistant("c", options)
    t.observe_user("c", pick)
    t.observe_assistant("c", reply)
    for detail in details:
        t.observe_user("c", detail)
    state = t.state("c")
    assert state.current_decision is not None and state.current_decision.text == decided
    assert [a.status for a in state.alternatives].count("current") == 1



def test_a_rejected_stop_of_a_route_leaves_the_route_on_the_table(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"香格里拉 不去了" after a four-stop route rejects the stop, not the route: a reply that keeps
    the other stops is no relapse, one that brings the stop back is."""
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    t.observe_user("c", "带爸妈去云南玩 8 天")
    t.observe_assistant("c", "路线建议：昆明 1 天 → 大理 3 天 → 丽江 2 天 → 香格里拉 2 天。")
    suggestion = t.observe_user("c", "香格里拉海拔三千多米，我妈心脏不好，去不了")
    assert suggestion is not None and suggestion.trigger == "rejection"
    state = t.state("c")
    assert [entry.alternative for entry in state.rejected] == ["香格里拉 2 天"]
    assert [a.status for a in state.alternatives] == ["proposed", "rejected"]
    assert check_reply(state, "那就昆明 2 天 → 大理 3 天 → 丽江 3 天，节奏慢一点。").verdict == "OK"
    assert check_reply(state, "最后两天也可以去香格里拉看看普达措。").verdict == "RELAPSE"


def test_a_rejected_stop_of_a_labelled_route_leaves_the_route_on_the_table(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Target resolution ranks a whole labelled option first, so "香格里拉去不了" resolved to 路线一;
    the turn names one stop of it and not its label, so the stop goes. An option of two parts is
    rejected whole: "接到上海和你同住" is one thing said with 和."""
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    t.observe_user("c", "五一带爸妈去云南，怎么安排")
    t.observe_assistant("c", "推荐两条线：路线一 昆明—大理—丽江—香格里拉，经典但海拔高；路线二 昆明—建水—元阳—普者黑，海拔低、人少。")
    t.observe_user("c", "香格里拉去不了，我爸有高血压，海拔三千多太冒险了")
    state = t.state("c")
    assert [entry.alternative for entry in state.rejected] == ["香格里拉"]
    assert [(a.label, a.status) for a in state.alternatives][:2] == [("路线一", "proposed"), ("路线二", "proposed")]

    t = ConvergenceTracker(shipped_detector, MemoryStore())
    t.observe_user("c", "我爸偏瘫了，有哪些照护选择")
    t.observe_assistant("c", "方案一：请住家保姆。\n方案二：送本地的医养结合养老院。\n方案三：接到上海和你同住。")
    t.observe_user("c", "接到上海这个我爸死活不肯，说要死也死在自己家里，这条路就算了")
    assert [entry.alternative for entry in t.state("c").rejected] == ["方案三(接到上海和你同住)"]


@pytest.mark.parametrize("summary, parts", [
    ("昆明 1 天 → 大理 3 天 → 香格里拉 2 天", ["昆明 1 天", "大理 3 天", "香格里拉 2 天"]),
    ("高校就业网和学生群，免费且定向", ["高校就业网", "学生群"]),
    ("Postgres with TimescaleDB and Metabase", ["Postgres with TimescaleDB", "Metabase"]),
    ("Kafka on MSK, replayable and durable", ["Kafka on MSK"]),  # a description of one option
    ("Redis 集中式缓存，多实例共享", ["Redis 集中式缓存"]),
    ("成都+乐山+峨眉山", ["成都", "乐山", "峨眉山"]),  # the joiners mentions.mention reads parts by, too
    ("大理/丽江和泸沽湖", ["大理", "丽江", "泸沽湖"]),
    ("参与式设计工作坊", ["参与式设计工作坊"]),  # 与 and 及 are more often inside a word than between items
    ("昆明—大理—丽江，经典", ["昆明", "大理", "丽江"]),  # a dash between Chinese characters joins stops
    ("Redis—fast", ["Redis"]),
])
def test_the_parts_of_an_option_are_the_items_its_name_lists(summary: str, parts: list[str]) -> None:
    from detector.alternatives import parts_of

    assert parts_of(summary) == parts


def test_what_the_last_reply_just_offered_is_taken_not_reopened(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"那蛇口吧" reads REOPEN to the model ("那X吧" often brings a dropped option back), but 蛇口 was
    offered by the reply before it and never rejected: the turn takes it, as "蛇口就行" does,
    with no reopening recorded and nothing for the agent to checkpoint."""
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    t.observe_user("c", "下个月去深圳出差一周，住哪方便？公司在南山科技园")
    t.observe_assistant("c", "两个方向：方案A：住福田，交通方便、酒店多；方案B：住南山，离公司近。")
    t.observe_user("c", "就按B来")
    t.observe_assistant("c", "好的，住南山。蛇口和后海都可以，蛇口安静一些，后海商场多。")
    assert t.detector.detect("那蛇口吧", t.state("c").recent_turns).label is Label.REOPEN  # what this is about
    assert t.observe_user("c", "那蛇口吧") is None
    state = t.state("c")
    assert "reopened" not in [a.status for a in state.alternatives]
    assert state.current_decision is not None and state.current_decision.text == "方案B(住南山); 蛇口"


def test_a_reopening_of_something_the_last_reply_did_not_offer_is_still_recorded(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Rejected before the tracker saw the conversation: nothing to take off the list, but the
    reopening is the user's word and is kept."""
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    suggestion = t.observe_user("c", "上周否掉的 Kafka 方案可以重新考虑了，量级上来了")
    assert suggestion is not None and suggestion.trigger == "reopen"
    assert [a.status for a in t.state("c").alternatives] == ["reopened"]


def test_a_reopening_that_keeps_a_rejected_name_out_does_not_bring_that_one_back() -> None:
    """"take another look at hammer, with its ETS backend this time, not redis": hammer comes back;
    redis, the one rejected option the turn names, is named to be kept out. Falling back to the
    rejected option the turn shares most words with once took redis off the list, and the reply
    that then wired the Redis backend in passed the guard."""
    reject = "we don't have redis and I'm not standing one up for this. just divide the quota by the node count"
    reopen = "take another look at hammer, with its ETS backend this time, not redis"
    detections = {
        reject: Detection(label=Label.REJECT, confidence=0.9, scores={Label.REJECT: 0.9}, target="redis", lang="en",
                          explanation=Explanation(decided_by="classifier")),
        reopen: Detection(label=Label.REOPEN, confidence=0.9, scores={Label.REOPEN: 0.9}, target="hammer", lang="en",
                          explanation=Explanation(decided_by="classifier")),
    }
    t = ConvergenceTracker(_ScriptedDetector(detections), MemoryStore())  # type: ignore[arg-type]
    t.observe_user("c", "the public endpoint is getting hammered by one client. need rate limiting per api key")
    t.observe_assistant("c", "Use hammer with hammer_backend_redis so the limits are shared across nodes.")
    t.observe_user("c", reject)
    t.observe_user("c", reopen)
    assert [r.alternative for r in t.state("c").rejected] == ["redis"]
    # Nor does the guard take "not redis" for the user bringing it back, so wiring it in relapses.
    wired = "Hammer is in. I also set up the prod backend:\n```elixir\nconfig :hammer, backend: {Hammer.Backend.Redis, []}\n```"
    assert t.observe_assistant("c", wired).verdict == "RELAPSE"


@pytest.mark.parametrize("text", [
    "Once again, I think we should bring option 1 back.",
    "When it comes to caching, let's revisit option 1",
    "要是你觉得合适，还是回到方案A吧",
    "let's revisit option 1, we can review it once a week",
])
def test_a_reopening_meant_now_is_not_read_as_one_for_later(text: str) -> None:
    from detector.statements import reopening_condition

    assert reopening_condition(text) is None


def test_a_reopening_of_nothing_rejected_changes_only_the_decision() -> None:
    """"还是自建吧" after choosing Unleash: 自建 was never turned down, so nothing is reopened,
    and the decision moves to it; Unleash is left, not rejected."""
    reopen = "等等，security team 说 self-hosted 的都要过一遍 pentest。还是自建吧"
    t = _scripted(reopen, Label.REOPEN, "3(用开源的 Unleash self-hosted)")
    t.observe_user("c", "feature flag 系统有啥 approach？")
    t.observe_assistant("c", "几个 option：\n1. 直接用 LaunchDarkly\n2. 自建，flag 存 Postgres\n3. 用开源的 Unleash self-hosted")
    t.observe_user("c", "LaunchDarkly 太贵了，pass")
    t.observe_user("c", "Unleash 吧，省事")
    suggestion = t.observe_user("c", reopen)
    state = t.state("c")
    assert suggestion is not None and suggestion.trigger == "pivot"
    assert state.current_decision is not None and "自建" in state.current_decision.text
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["1"]
    assert not any(a.status == "reopened" for a in state.alternatives)
    assert "选哪个" not in " ".join(state.open_questions) and suggestion.block.startswith("### [SEMANTIC CONVERGENCE]\n当前结论")


MIXED_OPTIONS = (
    "几个方向：\nOption 1: 加一个 interactive product tour\nOption 2: 注册后直接进 template gallery\n"
    "Option 3: 发 drip email sequence 引导回访"
)


def test_a_choice_to_try_named_beside_a_rejection_is_the_decision() -> None:
    from detector.loading import build_detector

    t = ConvergenceTracker(build_detector(), MemoryStore())  # the shipped model: rules alone miss the rejection
    t.observe_user("c", "帮我想想 onboarding flow 怎么改，现在 D1 retention 只有 20%")
    t.observe_assistant("c", MIXED_OPTIONS)
    t.observe_user("c", "product tour 我们试过，用户都直接 skip，没用。template gallery 那个可以试试")
    state = t.state("c")
    assert state.current_decision is not None and "template gallery" in state.current_decision.text
    assert [r.alternative for r in state.rejected] == ["Option 1(加一个 interactive product tour)"]
    # A guided tour is the product tour again, under another name.
    verdict = t.observe_assistant("c", "另外可以在 gallery 上面叠一个 3 步的 guided tour，提示用户怎么改模板。")
    assert verdict.verdict == "RELAPSE"


def test_a_choice_to_try_asked_about_decides_nothing() -> None:
    t = tracker()
    t.observe_user("c", "onboarding 怎么改？")
    t.observe_assistant("c", MIXED_OPTIONS)
    t.observe_user("c", "template gallery 那个可以试试吗？")
    assert t.state("c").current_decision is None


TRIP_OPTIONS = (
    "Three shapes:\n1. Tokyo + Kyoto + Osaka by shinkansen, classic.\n2. Tokyo + Hakone + Kanazawa, slower, onsen focus.\n"
    "3. A self-drive loop around Kyushu."
)


LETTERED_TRIP = (
    "Three ways:\nOption A: Tokyo + Kyoto + Osaka, classic.\nOption B: Tokyo + Hakone + Kyoto, more variety.\n"
    "Option C: a Kyushu loop, longer transfers."
)


@pytest.mark.parametrize("options, complaint, reply, choice, decided", [
    # The reply recommended "option 2" by that label: "ok let's do 2" picks it.
    (TRIP_OPTIONS, "the classic one sounds exhausting for them",
     "Then option 2 fits: fewer hotel changes, onsen in Hakone, and Kanazawa is compact.", "ok let's do 2", "2(Tokyo + Hakone"),
    # The reply weighs the letters in running text; a first sentence of assent picks one.
    (LETTERED_TRIP, "my partner gets motion sick, so C is out",
     "Got it. Between A and B, B adds Hakone for hiking. Want me to draft B day by day?", "yes, B. but can we skip Osaka?",
     "Option B"),
])
def test_a_bare_label_picks_the_option_the_last_reply_named_by_that_label(
    options: str, complaint: str, reply: str, choice: str, decided: str
) -> None:
    t = tracker()
    t.observe_user("c", "10 days in japan with my parents, ideas?")
    t.observe_assistant("c", options)
    t.observe_user("c", complaint)
    t.observe_assistant("c", reply)
    t.observe_user("c", choice)
    decision = t.state("c").current_decision
    assert decision is not None and decision.text.startswith(decided)


@pytest.mark.parametrize("reply", [
    "How many nights in Hakone, 2 or 3?",                        # the "2" answers the question
    "Then option 3 fits best: no luggage to haul between hotels.",  # the reply named another option
])
def test_a_bare_label_after_another_reply_picks_nothing(reply: str) -> None:
    t = tracker()
    t.observe_user("c", "10 days in japan with my parents, ideas?")
    t.observe_assistant("c", TRIP_OPTIONS)
    t.observe_user("c", "the classic one sounds exhausting for them")
    t.observe_assistant("c", reply)
    t.observe_user("c", "ok let's do 2")
    assert t.state("c").current_decision is None


TAGLINES = (
    "Here are some:\n1. Broke no more\n2. Your money, finally making sense\n"
    "3. Budgeting that doesn't feel like homework\n4. Ramen money, managed"
)


@pytest.mark.parametrize("user, decided", [
    # A verdict on one, then "3 is nice": the other is the decision.
    ("1 is kinda negative, we don't want to shame people. 3 is nice", "3("),
    # A place opens the turn and a change follows: the place is picked, as after a word of assent.
    ("the second one. but make it shorter", "2("),
    # "so" before a bare label, in a clause of a longer turn.
    ("it's a city grant, so option 3. the program officer told me they hate slogans", "3("),
])
def test_a_turn_that_approves_or_places_an_option_in_its_own_words_decides_it(user: str, decided: str) -> None:
    assert (decision_after("need a tagline for our budgeting app", TAGLINES, user) or "").startswith(decided)


def test_a_place_that_opens_a_verdict_picks_nothing() -> None:
    assert decision_after("need a tagline for our budgeting app", TAGLINES, "the second one is too long. try again") is None


POINTS_OPTIONS = (
    "两种常见设计：\n方案一：积分余额表 + 流水表，每次变更在一个事务里更新余额并插入流水\n"
    "方案二：只存流水，余额实时 SUM 计算\n方案三：用 Redis 存余额，异步落库\n推荐方案一。"
)


@pytest.mark.parametrize("choice, decided", [
    ("一吧", "方案一"),      # a bare Chinese numeral is the label
    ("就二吧", "方案二"),
    ("1吧", "方案一"),       # a digit names 方案一 as well: one label in either script
    ("2", "方案二"),
])
def test_a_bare_label_in_either_script_picks_an_option_the_last_reply_named(choice: str, decided: str) -> None:
    """"方案一和方案二你倾向哪个？" lists nothing, but names both: a bare "一吧" or "2" picks one."""
    t = tracker()
    t.observe_user("c", "小程序要做会员积分，积分流水怎么设计")
    t.observe_assistant("c", POINTS_OPTIONS)
    t.observe_user("c", "方案三不要，redis 挂了积分就乱了，财务对账过不去")
    t.observe_assistant("c", "同意，积分涉及资金口径，强一致更重要。方案一和方案二你倾向哪个？")
    t.observe_user("c", choice)
    decision = t.state("c").current_decision
    assert decision is not None and decision.text.startswith(decided)


def test_a_place_in_a_list_of_something_else_is_no_label_in_the_other_script() -> None:
    """"tokenbf_v1 的第一个参数" is the first parameter: with options labelled 1) and 2), no option 1."""
    from detector.alternatives import extract_proposals, proposal_by_label

    proposals = extract_proposals("消费端两个选择：1）ClickHouse Kafka 引擎 + 物化视图；2）Vector 消费 Kafka 写 ClickHouse。")
    assert proposal_by_label("tokenbf_v1 的第一个参数是字节数吧？", proposals, by_position=False) is None
    assert proposal_by_label("方案二", proposals, by_position=False) is proposals[1]


def test_a_pivot_to_a_bare_number_the_last_reply_spoke_of_decides_that_option() -> None:
    """"go with 1 吧" after "那 1 和 2 比较现实": option 1 is the decision, not a new option "1"."""
    state = _state_after(
        "offline mode 怎么做",
        "几种做法：\n1. 用 SQLite + 自己写 sync 逻辑\n2. 上 CouchDB/PouchDB\n3. 用 Firestore 的 offline persistence",
        "3 不行，data 必须留在自己的 AWS",
        "理解。那 1 和 2 比较现实。",
        "CouchDB 太 heavy 了，换 1 吧",
    )
    assert state.current_decision is not None and state.current_decision.text.startswith("1(用 SQLite")
    assert [a.label for a in state.alternatives].count("1") == 1


def test_a_bare_last_clause_that_names_an_open_option_decides_it() -> None:
    """"…fine, airbnb" takes the listed Airbnb; a last clause naming nothing proposed decides nothing."""
    reply = "Ideas:\n- A private room at a restaurant\n- A rented Airbnb with catering\n- A rooftop bar reservation"
    t = options_then(reply, "the rooftop said the 14th is booked. fine, airbnb")
    decision = t.state("c").current_decision
    assert decision is not None and decision.text.startswith("A rented Airbnb")
    t = options_then(reply, "the rooftop said the 14th is booked. fine, whatever")
    assert t.state("c").current_decision is None


def options_then(options: str, user: str) -> ConvergenceTracker:
    """A tracker that has seen a question, the assistant's options, then the user's turn."""
    t = tracker()
    t.observe_user("c", "有什么方案？ what are the options?")
    t.observe_assistant("c", options)
    t.observe_user("c", user)
    return t


OPTIONS_MQ_ZH = "方案A：Kafka。\n方案B：RabbitMQ。\n方案C：直接用 Postgres 做队列。"
OPTIONS_MQ_EN = "Option 1: Kafka.\nOption 2: RabbitMQ.\nOption 3: Postgres as the queue (SKIP LOCKED)."


@pytest.mark.parametrize("options, user, rejected", [
    (OPTIONS_MQ_ZH, "Kafka 和 RabbitMQ 都太重了，我们运维就一个人，不考虑了", ["方案A", "方案B"]),
    (OPTIONS_MQ_ZH, "A、B 都不考虑了，用 C", ["方案A", "方案B"]),
    (OPTIONS_MQ_EN, "drop Kafka and RabbitMQ, too heavy for one ops person", ["Option 1", "Option 2"]),
    (OPTIONS_MQ_EN, "scrap option 1 and option 2, go with option 3", ["Option 1", "Option 2"]),
    # Two names joined without a verdict over both: only the one the verdict names goes.
    (OPTIONS_MQ_ZH, "Kafka 和 Postgres 比了一下，Kafka 不考虑了", ["方案A"]),
    (OPTIONS_MQ_EN, "drop Kafka and use Postgres", ["Option 1"]),
])
def test_options_listed_under_one_verdict_are_all_rejected(options: str, user: str, rejected: list[str]) -> None:
    """One rejection per turn left the second option on the table, unwatched by the relapse guard."""
    state = options_then(options, user).state("c")
    assert sorted(r.alternative.split("(")[0] for r in state.rejected) == rejected
    assert len({r.rejected_at for r in state.rejected}) == 1


def test_an_article_is_no_option_label() -> None:
    """"a" in "the battle pass is a content treadmill" named option A (rewarded video ads): the
    sentence, read alone, rejected it too, and the reply that kept it was a relapse."""
    from detector.alternatives import Proposal
    from detector.mentions import mention

    rewarded = Proposal("A", "rewarded video ads (watch for extra moves)")
    assert mention("yeah the battle pass is a content treadmill we can't feed", rewarded) is None
    assert mention("A is out, the ads annoy people", rewarded) == (0, 1)


def test_a_reply_offering_the_second_listed_option_is_a_relapse() -> None:
    t = options_then(OPTIONS_MQ_ZH, "Kafka 和 RabbitMQ 都太重了，不考虑了")
    verdict = t.observe_assistant("c", "好的。也可以考虑 RabbitMQ 的托管版，省去运维。")
    assert verdict.verdict == "RELAPSE"
    # The option the relapse brings back is not one more option to decide on.
    state = t.state("c")
    assert not any("托管" in a.summary for a in state.alternatives)
    assert not any("托管" in q for q in state.open_questions)


def test_rejecting_one_part_of_the_decision_leaves_the_decision() -> None:
    """"Metabase" is one part of "Postgres with TimescaleDB and Metabase": dropping it must not
    put the chosen database on the rejected list, where every later reply naming it would relapse."""
    t = tracker()
    t.observe_user("c", "analytics stack for our SaaS?")
    t.observe_assistant("c", "Options:\n1. Snowflake + dbt + Looker\n2. ClickHouse with Grafana\n3. Postgres with TimescaleDB and Metabase")
    t.observe_user("c", "option 3 it is")
    assert t.state("c").current_decision is not None
    t.observe_user("c", "metabase embedding needs the pro plan, drop metabase")
    state = t.state("c")
    assert [r.alternative for r in state.rejected] and not any("TimescaleDB" in r.alternative for r in state.rejected)
    assert t.observe_assistant("c", "Next, the TimescaleDB hypertables: one per event type.").verdict == "OK"


def test_a_sibling_still_on_the_table_is_no_relapse_of_the_rejected_one() -> None:
    """Kafka turned down, RabbitMQ still proposed: suggesting RabbitMQ is the conversation moving
    on. The options' summaries end in a full stop ("RabbitMQ."), which once hid the name."""
    t = options_then("Option 1: Kafka. Option 2: RabbitMQ.", "kafka is too heavy, drop it")
    assert t.observe_assistant("c", "Then I suggest RabbitMQ, much lighter to run.").verdict == "OK"
    assert t.observe_assistant("c", "You could also use a managed Kafka like Confluent Cloud.").verdict == "RELAPSE"
    assert t.observe_assistant("c", "Or a managed Kafka, Confluent Cloud runs it for you.").verdict == "RELAPSE"


OPTIONS_SEARCH_ZH = "三个选择：方案A：Elasticsearch 自建集群；方案B：Algolia 托管搜索；方案C：Postgres 全文检索。"


def test_a_second_verdict_in_a_sentence_of_its_own_rejects_its_option_too() -> None:
    t = options_then(OPTIONS_SEARCH_ZH, "Algolia 按 request 收费，量大了太贵，不考虑了。Elasticsearch 我们之前维护过，太痛苦了，这个也不考虑了")
    assert sorted(r.alternative.split("(")[0] for r in t.state("c").rejected) == ["方案A", "方案B"]
    verdict = t.observe_assistant("c", "那就用 Postgres 全文检索。另外也可以考虑 Elastic Cloud 托管版，省去运维。")
    assert verdict.verdict == "RELAPSE"


def test_a_sentence_that_only_mentions_another_option_rejects_nothing_more() -> None:
    t = options_then(OPTIONS_SEARCH_ZH, "Algolia 按 request 收费，量大了太贵，不考虑了。Elasticsearch 那个我再想想")
    assert [r.alternative.split("(")[0] for r in t.state("c").rejected] == ["方案B"]


class _MisreadsComparisons(Detector):
    """The rules detector, except that it reads a request to compare two options, alone, as a
    rejection of the first: what the shipped model did with "A 和 B 你再展开对比下" (REJECT 0.65)."""

    def detect(self, text: str, context: Sequence[Turn] = (), lang: str | None = None, opens_conversation: bool = False) -> Detection:
        found = super().detect(text, context, lang, opens_conversation)
        if text.startswith(("方案A 和方案C", "compare A and C")):
            return found.model_copy(update={"label": Label.REJECT, "confidence": 0.9, "target": "方案A"})
        return found


@pytest.mark.parametrize("user", [
    "Algolia 按 request 收费，量大了太贵，不考虑了。方案A 和方案C 你再展开对比下",
    "algolia is out, per-request pricing kills us at our volume. compare A and C side by side for me",
])
def test_a_sentence_asking_for_options_weighed_drops_none_of_them(user: str) -> None:
    t = ConvergenceTracker(_MisreadsComparisons("rules"), MemoryStore())
    t.observe_user("c", "有什么方案？")
    t.observe_assistant("c", OPTIONS_SEARCH_ZH)
    t.observe_user("c", user)
    assert [r.alternative.split("(")[0] for r in t.state("c").rejected] == ["方案B"]


def test_one_stop_of_a_combined_option_names_it_in_a_second_verdict() -> None:
    t = options_then("推荐几个：1. 云南大理+丽江 2. 桂林阳朔 3. 成都+乐山+峨眉山 4. 杭州+乌镇", "丽江海拔高，我爸心脏不好，云南先排除。峨眉山要爬山，也不考虑了")
    assert sorted(r.alternative for r in t.state("c").rejected) == ["1(云南大理+丽江)", "3(成都+乐山+峨眉山)"]


OPTIONS_QUEUE_EN = (
    "A few options:\n1. Celery with Redis as the broker.\n2. RQ (Redis Queue).\n3. Dramatiq with RabbitMQ.\n"
    "4. procrastinate on Postgres."
)
OPTIONS_QUEUE_ZH = "几个方案：\n方案一：自建 Kafka 集群；\n方案二：阿里云 RocketMQ；\n方案三：Redis Stream；\n方案四：数据库轮询表。"


@pytest.mark.parametrize("options, user, rejected", [
    (OPTIONS_QUEUE_EN, "options 1 to 3 are out, too much infra for two ops people", ["1", "2", "3"]),
    (OPTIONS_QUEUE_EN, "the first two are out, we don't run redis", ["1", "2"]),
    (OPTIONS_QUEUE_EN, "all of those except procrastinate are out, we can't run another server", ["1", "2", "3"]),
    (OPTIONS_QUEUE_ZH, "前三个都不考虑，运维扛不住", ["方案一", "方案三", "方案二"]),
    (OPTIONS_QUEUE_ZH, "除了方案四都不行，太重了", ["方案一", "方案三", "方案二"]),
    (OPTIONS_QUEUE_ZH, "这几个都不行，太重了，运维就我一个人", ["方案一", "方案三", "方案二", "方案四"]),
])
def test_a_verdict_over_a_group_of_the_list_rejects_each_option_in_it(options: str, user: str, rejected: list[str]) -> None:
    """"1-3 are out" resolved to option 1 alone; "all except procrastinate" to procrastinate, the
    one option it keeps."""
    state = options_then(options, user).state("c")
    assert sorted(r.alternative.split("(")[0] for r in state.rejected) == sorted(rejected)
    assert len({r.rejected_at for r in state.rejected}) == 1


def test_a_pivot_away_from_all_but_one_option_decides_the_one_it_spares() -> None:
    """A pivot with no replacement of its own ("…switch to that") goes to the option it spared."""
    state = options_then(OPTIONS_QUEUE_EN, "all but 4 are out, switch to that").state("c")
    assert state.current_decision is not None and state.current_decision.text.startswith("4")
    assert sorted(r.alternative.split("(")[0] for r in state.rejected) == ["1", "2", "3"]


def test_a_name_only_one_option_holds_outranks_the_label_the_turn_chooses_and_the_label_is_the_decision() -> None:
    """"就按第二个来，tracemalloc 先不考虑": 第二个 is the choice; the rejected option is the one whose
    name holds "tracemalloc", though the word is a small share of that name."""
    t = tracker()
    t.observe_user("c", "内存泄漏怎么查")
    t.observe_assistant("c", "两个排查方向：一是用 tracemalloc 在生产环境抓快照；二是在本地用 memray 复现压测场景。")
    t.observe_user("c", "好，就按第二个来，tracemalloc 先不考虑")
    state = t.state("c")
    assert [r.alternative for r in state.rejected] == ["一(用 tracemalloc 在生产环境抓快照)"]
    # The clause that accepts sets the decision, though the turn as a whole is a rejection.
    assert state.current_decision is not None and state.current_decision.text.startswith("二(在本地用 memray")


def test_words_only_one_option_shares_outrank_the_label_the_turn_chooses_in_any_form() -> None:
    """"retries hide flakiness, so no. let's go with option 2": option 2 is where the user goes; the
    rejected option is the only one that speaks of retries ("add a retry decorator"), a word in
    another form and a small share of its name."""
    options = (
        "I can fix the flaky test in two ways: (1) add a retry decorator around the network call, or (2) mock the "
        "HTTP client with responses so the test never hits the network."
    )
    state = options_then(options, "retries hide flakiness, so no. let's go with option 2").state("c")
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["1"]
    assert state.current_decision is not None and state.current_decision.text.startswith("2(mock the HTTP client")


def test_what_a_coding_agent_says_it_will_do_is_the_option_a_prohibition_rejects() -> None:
    t = tracker()
    t.observe_user("c", "p99 on the user service is 900ms")
    t.observe_assistant("c", "I'll add a Redis cache in front of the user service to cut the p99 latency.")
    t.observe_user("c", "no, don't add redis. we already have too many moving parts")
    rejected = t.state("c").rejected
    assert len(rejected) == 1 and rejected[0].alternative.startswith("add a Redis cache in front of the user")
    assert rejected[0].reason == "we already have too many moving parts"


def test_a_short_name_rejects_the_option_that_names_the_product_in_full_and_guards_it() -> None:
    """"ES is out" after "Move search to Elasticsearch…": the option is rejected, not a new "ES" of the
    user's own (which left the option on the table, and an Elasticsearch reply no relapse); the
    order that closes the turn ("try the trigram index") decides."""
    options = (
        "A few options:\n1. Add a Postgres trigram index (pg_trgm) on products.name.\n"
        "2. Move search to Elasticsearch and sync with a CDC pipeline.\n3. Cache the top queries in Redis."
    )
    t = options_then(options, "ES is out, we have no one to run it. try the trigram index")
    state = t.state("c")
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["2"]
    assert state.current_decision is not None and state.current_decision.text.startswith("1(Add a Postgres trigram index")
    verdict = t.observe_assistant("c", "For autocomplete we could put Elasticsearch's completion suggester in front.")
    assert verdict.verdict == "RELAPSE"


@pytest.mark.parametrize("name, option, same", [
    ("ES", "Move search to Elasticsearch and sync with a CDC pipeline", True),
    ("k8s", "部署到 Kubernetes 集群", True),
    ("mongo", "MongoDB 存 audit log", True),
    ("EventStoreDB", "Event sourcing + CQRS", False),  # kin, but a product for a technique
    ("DynamoDB", "直接写 S3 + Parquet", False),  # both AWS, different products
])
def test_a_short_name_is_a_prefix_initials_or_numeronym_of_the_product_s_first_name(name: str, option: str, same: bool) -> None:
    from detector.relapse.kin import short_name_for

    assert short_name_for(name, option) is same


def test_a_user_who_repeats_a_rejection_keeps_the_option_out_and_a_bare_yong_x_relapses() -> None:
    """"不是说了 Redux 不要吗" names Redux to keep it out, not to bring it back: the next reply that
    puts Redux forward ("用 Redux Toolkit 的 slice 管理最清晰", a clause opening on 用 X) relapses."""
    t = tracker()
    t.observe_user("c", "我们的 React app 状态管理很乱，有什么建议")
    t.observe_assistant("c", "三个方向：\nA. Redux Toolkit，生态成熟；\nB. Zustand，轻量；\nC. React Query 管服务端状态。")
    t.observe_user("c", "Redux 就算了，团队里一半人是新人，学习曲线太陡。先试 C")
    assert [r.alternative for r in t.state("c").rejected] == ["A(Redux Toolkit)"]
    reply = "购物车这种跨页面的客户端状态，用 Redux Toolkit 的 slice 管理最清晰，还有 devtools。"
    assert t.observe_assistant("c", reply).verdict == "RELAPSE"
    t.observe_user("c", "不是说了 Redux 不要吗。用 Zustand 管购物车吧")
    assert t.observe_assistant("c", reply).verdict == "RELAPSE"
    t.observe_user("c", "购物车先这样。Redux 还是不要了")  # a verdict right beside the mention
    assert t.observe_assistant("c", reply).verdict == "RELAPSE"
    t.observe_user("c", "其实 Redux 可以再看看")  # named with no verdict: brought back
    assert t.observe_assistant("c", reply).verdict == "OK"


def test_a_turn_that_accepts_one_thing_still_drops_an_option_in_a_sentence_of_its_own() -> None:
    """"session fixture 可以。另外 Buildkite 也不考虑了" is NONE as a whole (it accepts); its second
    sentence, read alone, rejects an option still on the table, and the hook says so."""
    t = tracker()
    t.observe_user("c", "CI 跑一次要 40 分钟，有啥办法")
    t.observe_assistant("c", "几个方向：\n1. 把测试拆成 matrix 并行跑；\n2. 加 pip 缓存；\n3. 换到 Buildkite。")
    suggestion = t.observe_user("c", "session fixture 可以。另外 Buildkite 也不考虑了，迁移成本太高")
    assert [r.alternative.split("(")[0] for r in t.state("c").rejected] == ["3"]
    assert suggestion is not None and suggestion.trigger == "rejection"


def test_a_sentence_of_a_none_turn_that_goes_to_an_option_does_not_reject_it() -> None:
    """"honestly embrace the moss." read alone is a PIVOT whose target is where it goes: in a turn
    that is NONE whole, only a sentence read as REJECT drops an option."""
    from detector.loading import build_detector

    t = ConvergenceTracker(build_detector(), MemoryStore())
    t.observe_user("c", "my lawn is half moss, shady backyard under oaks. how do I fix it")
    t.observe_assistant("c", "Options:\n1. Treat moss with iron sulfate\n2. Have an arborist thin the oak canopy\n3. Convert to a shade garden\n4. Embrace the moss")
    t.observe_user("c", "honestly embrace the moss. its green, soft, and my kids like it. what do I need to do to keep it nice")
    assert all(not r.alternative.startswith("4") for r in t.state("c").rejected)


def test_what_the_assistant_says_it_will_do_is_the_next_action_unless_it_relapses() -> None:
    t = tracker()
    t.observe_user("c", "autocomplete is too slow")
    t.observe_assistant("c", "Sure. I'll create a search_prefixes table filled by a trigger on products.")
    assert t.state("c").next_action == "create a search_prefixes table filled by a trigger on products"
    t.observe_user("c", "Elasticsearch is out, nobody here can run it")
    t.observe_assistant("c", "Then I'll set up Elasticsearch's completion suggester in front.")
    assert t.state("c").next_action == "create a search_prefixes table filled by a trigger on products"


def test_a_rejection_that_neither_names_nor_points_at_the_decision_leaves_it_standing() -> None:
    """"no. we said no ES. what about a prefix table…?" after choosing the trigram index: the target
    ranker's guess fell on the decision, which the turn never names; it is not rejected, and the
    pivot still goes to the prefix table."""
    from detector.loading import build_detector

    t = ConvergenceTracker(build_detector(), MemoryStore())
    t.observe_user("c", "our /search p99 is 2.3s, mostly the ILIKE query. ideas?")
    t.observe_assistant("c", (
        "A few options:\n1. Add a Postgres trigram index (pg_trgm) on products.name.\n"
        "2. Move search to Elasticsearch and sync with a CDC pipeline.\n3. Cache the top queries in Redis."
    ))
    t.observe_user("c", "ES is out, we have no one to run it. try the trigram index")
    t.observe_assistant("c", "Done, p99 is 480ms. For autocomplete we could put Elasticsearch's completion suggester in front.")
    t.observe_user("c", "no. we said no ES. what about a prefix table maintained by a trigger?")
    state = t.state("c")
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["2"]
    assert state.current_decision is not None and state.current_decision.text == "a prefix table maintained by a trigger"


def test_every_positive_detection_counts_by_default_and_min_confidence_can_raise_the_bar() -> None:
    """The detector's fusion sets the bar; `min_confidence` is for acting only on surer detections."""
    sure = tracker()
    doubtful = tracker(min_confidence=0.99)  # type: ignore[arg-type]
    for t in (sure, doubtful):
        t.observe_user("c", "caching?")
        t.observe_assistant("c", OPTIONS_ZH)
        t.observe_user("c", "方案A 不行")
    assert [r.alternative.split("(")[0] for r in sure.state("c").rejected] == ["方案A"]
    assert doubtful.state("c").rejected == []


def test_what_the_user_says_to_stick_with_is_kept_not_dropped(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"stick with echarts" names what stays: a pivot back to it chooses it again, and it is never
    the option the turn drops (the target resolved to ECharts, the one option the turn names, and
    the decision went to "one lib")."""
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    t.observe_user("c", "I need to pick a charting lib for our internal React dashboard")
    t.observe_assistant("c", "Options:\n- **Recharts**: easy\n- **ECharts**: very powerful\n- **D3**: full control")
    t.observe_user("c", "echarts it is")
    t.observe_assistant("c", "Sure, you can mix: keep ECharts for the standard charts and write the heatmap in D3.")
    t.observe_user("c", "hmm no, one lib is enough. stick with echarts and tweak the heatmap colors")
    state = t.state("c")
    assert state.current_decision is not None and state.current_decision.text == "ECharts"
    assert "ECharts" not in [entry.alternative for entry in state.rejected]


BUDGETING = "1) 50/30/20: split pay into needs, wants and savings. 2) Zero-based budgeting with an app like YNAB. 3) The envelope system with cash."


@pytest.mark.parametrize("reply, rejected, decision", [
    # The reply spoke of the decision only: the verdict that names no option is on it.
    ("YNAB is $99/year after a 34-day trial. You link your accounts and give every dollar a job.", "2(", None),
    # The reply ends with an offer: "no" may answer the offer, so the decision stands.
    ("YNAB is $99/year. Want me to set up the categories too?", None, "2("),
])
def test_a_verdict_naming_nothing_after_a_reply_about_the_decision_is_on_the_decision(
    reply: str, rejected: str | None, decision: str | None
) -> None:
    t = tracker()
    for index, text in enumerate(["budgeting method?", BUDGETING, "zero-based then", reply, "nah, too pricey. drop it"]):
        (t.observe_user if index % 2 == 0 else t.observe_assistant)("c", text)
    state = t.state("c")
    names = [entry.alternative for entry in state.rejected]
    if rejected is None:
        assert not any(name.startswith("2(") for name in names)
    else:
        assert any(name.startswith(rejected) for name in names)
    if decision is None:
        assert state.current_decision is None
    else:
        assert state.current_decision is not None and state.current_decision.text.startswith(decision)


KNOWLEDGE_BASE = (
    "给你三个方案：\n1. 纯 RAG：向量库用 Milvus，LLM 用私有部署的 Qwen-14B。\n2. 微调：用文档做 SFT 微调 Qwen-7B。\n"
    "3. 混合：Elasticsearch BM25 + 向量召回，再用 reranker 重排，最后交给 LLM。"
)
SEARCH = (
    "Three ways:\n1. Postgres full-text search with a GIN index.\n2. A managed Algolia index synced by a worker.\n"
    "3. Self-hosted Meilisearch on one VM."
)


@pytest.mark.parametrize("turns, rejected, spared", [
    (["帮我设计一个内部知识库问答", KNOWLEDGE_BASE, "就方案三吧",
      "下一步：1）写解析脚本；2）在 ES 里建索引；3）接 bge-large-zh 做 embedding。",
      "上个方案作废，老板说这个季度不允许上任何私有部署的大模型"], "3(", "1("),
    (["we need search for the docs site", SEARCH, "option 2 it is",
      "Next: 1) create the index 2) write the sync worker 3) add the search box to the header.",
      "scrap the current plan, legal says no data leaves our servers"], "2(", "1("),
])
def test_a_verdict_on_the_plan_in_force_rejects_the_decision(turns: list[str], rejected: str, spared: str) -> None:
    # "上个方案" / "the current plan" is the plan in force, not a step the last reply listed nor an
    # option whose words the reason happens to share.
    names = [entry.alternative for entry in replayed(tracker(), *turns).rejected]
    assert any(name.startswith(rejected) for name in names), names
    assert not any(name.startswith(spared) for name in names), names


@pytest.mark.parametrize("text, suggested", [
    ("I said no celery. what about a management command run from cron?", "a management command run from cron"),
    ("how about just using RQ instead?", "RQ"),
    ("could we just switch isolation to READ COMMITTED instead?", "switch isolation to READ COMMITTED"),
    ("要不直接用 crontab 跑脚本？", "crontab 跑脚本"),
    ("不如换成 GitHub Actions 吧", "GitHub Actions"),
    ("what about the audit log?", None),  # a topic, not a course of action
    ("what about Redis?", None),  # either, so neither
    ("摘要不用写方法论，管理层不关心 p 值。", None),  # "要不" inside "摘要不用" opens nothing
    ("can you add a test?", None),  # a request to the assistant
])
def test_a_closing_question_may_put_the_users_own_course_forward(text: str, suggested: str | None) -> None:
    from detector.statements import user_suggestion

    assert user_suggestion(text) == suggested


def test_the_users_own_proposal_is_what_a_later_nameless_acceptance_takes() -> None:
    # Before, "ok do that" took the latest option tracked as proposed, the Celery task the user
    # had turned down ("celery" was recorded on its own), and made it the decision.
    decision = decision_after(
        "the /export endpoint times out for big accounts. can you fix it?",
        "Two ways:\n1. Stream the response with StreamingHttpResponse.\n2. Move the export to a Celery task that writes the file to S3.",
        "we don't run celery anywhere. go with streaming",
        "Done, the view now streams.",
        "I said no celery. what about a management command run from cron that pre-builds the big exports?",
        "That works: a build_exports command, run nightly by cron, writes each large export to S3.",
        "ok do that",
    )
    assert decision is not None and decision.startswith("a management command run from cron")


def test_a_reopening_names_the_one_rejected_option_whose_name_holds_its_words() -> None:
    # The model's target "driver" is held whole by the rejected "Hire a part-time driver" alone;
    # the turn's other words ("deliveries") had brought back "Toast Delivery Services" instead.
    reopen = "what about the driver idea but only saturdays, just for cake deliveries?"
    t = _reading_as_reopening(reopen, "driver", "en")
    before = replayed(
        t,
        "bakery delivery options?",
        "Options:\n1. Marketplaces like DoorDash\n2. Toast Delivery Services\n3. Hire a part-time driver",
        "no part-time driver, can't afford the insurance. and no toast delivery either",
    )
    assert {entry.alternative[:2] for entry in before.rejected} == {"3(", "2("}
    t.observe_assistant("c", "Understood.")
    t.observe_user("c", reopen)
    assert [entry.alternative[:2] for entry in t.state("c").rejected] == ["2("]


def test_what_a_turn_opens_by_taking_is_chosen_not_dropped(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"ok yes, toast delivery for the everyday stuff, let's do that. cakes pickup only for now":
    the model reads a pivot and the target span falls on Toast delivery, which the opening takes."""
    state = replayed(
        ConvergenceTracker(shipped_detector, MemoryStore()),
        "I run a small bakery. how do I offer delivery?",
        "Options:\n1. Marketplaces (DoorDash, Uber Eats): your listing appears in their apps\n"
        "2. On-demand delivery from your own ordering (DoorDash Drive, Uber Direct)\n"
        "3. Hire a part-time driver: full control, but you pay wages",
        "marketplaces are a no, 30% would kill me. and a driver is too expensive",
        "Pickup-only for custom cakes is common. So the setup would be Toast Delivery Services for bread "
        "and pastries within about 5 miles, and pickup-only for custom cakes.",
        "ok yes, toast delivery for the everyday stuff, let's do that. cakes pickup only for now",
    )
    assert all("toast" not in r.alternative.lower() for r in state.rejected)
    assert state.current_decision is not None and state.current_decision.text.lower().startswith("toast delivery")


@pytest.mark.parametrize(("turn", "taken"), [
    ("ok yes, toast delivery for the everyday stuff, let's do that. cakes pickup only for now", "toast delivery"),
    ("可以，就酒店，定了。问一下，音响能不能一起谈进去？", "酒店"),
    ("fine, RLS. sounds good", "RLS"),
    # The approval beside the name is not part of it.
    ("ok contract-to-hire sounds good, lets do that for the mobile devs", "contract-to-hire"),
    # Assent twice, a verdict, or no clause that seals the choice: nothing is taken.
    ("嗯 可以，就这样", None),
    ("ok, redis is out. let's do that", None),
    ("ok, toast delivery for the everyday stuff?", None),
])
def test_the_option_a_turn_opens_by_taking(turn: str, taken: str | None) -> None:
    from detector.statements import assented_option

    assert assented_option(turn) == taken


@pytest.mark.parametrize(("turns", "decided"), [
    # "do it" takes the option the reply recommends, not the last one it lists.
    (["caching for the product api?", f"{OPTIONS_EN}\nI'd go with option 2.", "ok do it"], "Option 2"),
    (["缓存怎么做？", f"{OPTIONS_ZH}\n我更推荐方案B。", "嗯 就按这个来"], "方案B"),
    # After the decision is taken, a plan for it ends on its last step: "yes do it" keeps the decision.
    ([
        "caching for the product api?", OPTIONS_EN, "go with option 2",
        (
            "Plan for the LRU cache:\n1. Add cachetools to requirements\n2. Wrap get_product in a TTLCache of 10k entries\n"
            "3. Add a /cache/clear admin endpoint\nGo?"
        ),
        "yes do it",
    ], "Option 2"),
])
def test_do_it_takes_what_the_reply_recommends_or_keeps_the_decision_it_works_out(turns: list[str], decided: str) -> None:
    assert (decision_after(*turns) or "").startswith(decided)


def test_a_switch_the_turn_says_fails_is_no_decision_and_a_label_needs_no_verb(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"分桶算了吧，改表结构牵扯的系统太多了 …" drops the buckets; the switch cue's "改表结构…" is the
    trouble, not a decision. "行 就方案一 redis预扣" then takes 方案一 by its label alone."""
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    state = replayed(
        t,
        "大促怕超卖，扣库存现在直接 update stock=stock-1，峰值 2w qps",
        "几个方案：\n方案一：Redis + Lua 预扣减库存，成功后发 MQ 异步落库；\n方案二：数据库乐观锁，带版本号更新，失败重试；\n"
        "方案三：库存分桶，把一个 sku 的库存拆到多行，降低单行竞争。",
        "分桶算了吧，改表结构牵扯的系统太多了 离大促就3周 来不及",
    )
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["方案三"]
    assert state.current_decision is None
    t.observe_assistant("c", "理解，3 周内改表风险太大。那就剩 Redis 预扣减：\n1. DB 层保留 where stock>0 作为最终校验；\n2. 大促前把库存预热到 Redis。")
    t.observe_user("c", "行 就方案一 redis预扣。mq 用rocketmq还是kafka？")
    decision = t.state("c").current_decision
    assert decision is not None and decision.text.startswith("方案一")


@pytest.mark.parametrize(("words", "fails"), [
    ("表结构牵扯的系统太多了 离大促就3周 来", True),
    # "jwt 就别折腾了，上个项目用jwt 踢人做的很恶心": "上个项目" is the last project, no switch.
    ("个项目用jwt 踢人做的很恶心", True),
    ("老版本安全扫描也过不", False),
    ("腿举和臀桥行不行", False),  # a question, not a verdict
    ("本地消息表", False),
])
def test_words_that_say_a_switch_fails(words: str, fails: bool) -> None:
    from detector.statements import says_it_fails

    assert says_it_fails(words) is fails


def test_a_fact_the_turn_corrects_is_no_rejected_option(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"its harlan community foundation, not harlan county foundation lol, fix that. C no, …": the
    target ranker fell on the corrected name; only C goes."""
    state = replayed(
        ConvergenceTracker(shipped_detector, MemoryStore()),
        "writing a grant for the harlan community foundation, asking 50k for our after school coding club",
        "Here are three ways to structure a 5-page narrative for the Harlan County Foundation:\n\n"
        "A. Problem-first: Need statement → Program description → Goals → Evaluation → Budget narrative.\n\n"
        "B. Outcomes-first (logic model): Summary → Need → Program design → Logic model → Evaluation plan.\n\n"
        "C. Story-led: opens with one student's story, then weaves need, program and outcomes through it.",
        "its harlan community foundation, not harlan county foundation lol, fix that. C no, the reviewers are "
        "program officers, they want numbers not vibes. and A feels like every generic grant ever. B",
    )
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["C"]


@pytest.mark.parametrize(("turns", "decided"), [
    # The user rules options out; the reply settles on the one left, and the user goes on.
    (["caching?", OPTIONS_ZH, "方案A 不行，运维扛不住。方案C 也不行", "那就剩方案B，本地 LRU 缓存，我先写配置。", "上限设多少？"], "方案B"),
    (["caching?", OPTIONS_EN, "option 1 is out, we can't run Redis. option 3 is out too", "Then it's option 2. I'll size it at 10k entries.", "ok"], "Option 2"),
    # Two still to choose from is no settling, nor is "那就 X" after a turn that ruled nothing out.
    (["caching?", OPTIONS_ZH, "方案A 不行，运维扛不住", "那就在方案B和方案C里选。", "嗯"], None),
    (["caching?", OPTIONS_ZH, "哪个最省事？", "那就方案B，零运维。", "嗯"], None),
])
def test_a_reply_that_settles_on_the_option_left_makes_it_the_decision(turns: list[str], decided: str | None) -> None:
    decision = decision_after(*turns)
    assert (decision or "").startswith(decided) if decided else decision is None


@pytest.mark.parametrize(("user", "rejected"), [
    ("ok lvp then, not hardwood. whats the budget look like now", ["Hardwood floors downstairs"]),
    # A correction sets nothing against the choice: its two sides share a word.
    ("ok lvp floors then, not hardwood floors, sorry. whats the budget", []),
])
def test_an_option_set_against_the_choice_is_rejected(user: str, rejected: list[str]) -> None:
    state = replayed(
        tracker(),
        "floors for the downstairs?",
        "Two ways:\n- Hardwood floors downstairs: $14,000\n- LVP downstairs: $7,000, and it takes dog nails better",
        user,
    )
    assert state.current_decision is not None and state.current_decision.text.startswith("LVP")
    assert [r.alternative for r in state.rejected] == rejected


@pytest.mark.parametrize("user", [
    "定制柜5万太多了吧 压到3万",  # opens with 定 and cuts an amount: a complaint, no choice
    "按user_id分的话 商家后台按商家查咋办 不是要全分片扫",  # a supposition, then a question
])
def test_a_turn_that_only_opens_like_a_choice_takes_nothing(user: str) -> None:
    assert decision_after(
        "预算怎么分？",
        "调整一下：\n- 施工辅材：9 万\n- 主材：8 万\n- 定制柜：5 万\n- 家具：3 万\n分片键建议用 user_id。",
        user,
    ) is None


@pytest.mark.parametrize(("words", "fails"), [
    ("制柜5万太多", True),  # "…太多了吧" cut before its 了
    ("太好了", False),  # praise
    ("麻烦", True),  # "…还得搞图形验证码防刷 麻烦": a complaint, no place to go
    ("麻烦你看下", False),  # please
])
def test_a_complaint_cut_before_its_particle_still_fails(words: str, fails: bool) -> None:
    from detector.statements import says_it_fails

    assert says_it_fails(words) is fails


def test_taking_a_rejected_option_by_part_of_its_name_brings_it_back() -> None:
    """"行 那就直连 用官方sdk": 那就 takes a name without a verb, and "直连", a fifth of
    "普通商户直连", names that option alone. Taking it brings it back from the rejected list."""
    state = replayed(
        tracker(),
        "小程序要接微信支付",
        "常见有三种接法：\n方案一：普通商户直连，自己申请商户号\n方案二：服务商模式，挂在服务商下面做子商户\n方案三：接聚合支付平台",
        "方案一不行",
        "明白。那就在方案二和方案三里选，服务商能拿到优惠费率。",
        "行 那就直连 用官方sdk",
    )
    assert state.current_decision is not None and state.current_decision.text.startswith("方案一")
    assert state.rejected == []


@pytest.mark.parametrize("reply, step", [
    ("Next steps: add the index, then rerun the migration.", "add the index, then rerun the migration"),
    ("下一步看看 mutex profile。", "看看 mutex profile"),
    ("I'll add react-hook-form with the zod resolver.", "add react-hook-form with the zod resolver"),
    ("我把字体文件放进项目目录，用 font_manager 指定路径。", "字体文件放进项目目录"),
    # Said as done, or a status update's next one, is no next step of the work.
    ("我改成了按 offset 排序，同一秒多次更新也不会取错。", None),
    ("另外我加了一个 systemd timer 做备份。", None),
    ("We've applied a mitigation. Next update by 14:15 UTC.", None),
])
def test_the_next_step_a_reply_announces(reply: str, step: str | None) -> None:
    from detector.statements import next_step_in

    assert next_step_in(reply) == step


@pytest.mark.parametrize("turn", ["the CDN edge cache sounds great actually", "CDN edge cache looks really good tbh"])
def test_an_option_approved_by_name_with_a_filler_after_it_is_the_decision(turn: str) -> None:
    """"hood river sounds great actually" set no decision: a closing filler hid the approval."""
    state = replayed(tracker(), "caching options?", OPTIONS_EN, turn)
    assert state.current_decision is not None and state.current_decision.text.startswith("Option 3")


def test_an_option_turned_down_by_a_short_name_is_no_open_question(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"balloon" rejected on its own left "A hot air balloon ride…" among the open questions."""
    reply = (
        "Here are a few ideas:\n- A weekend at a coastal inn in Cannon Beach\n- A private cooking class for two\n"
        "- A hot air balloon ride over the Willamette Valley\n- A framed custom map of places they've lived"
    )
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    state = replayed(t, "anniversary gift ideas for my parents?", reply, "mom is terrified of heights so def not the balloon")
    assert any("balloon" in r.alternative for r in state.rejected)
    assert state.open_questions and "Cannon" in state.open_questions[0] and "balloon" not in state.open_questions[0]


@pytest.mark.parametrize("rejection, rejected", [
    ("FCM 在国内基本用不了 pass", "1(Firebase Cloud Messaging)"),
    # A name the option's words merely hold stays an entry of its own (see the open questions).
    ("APNs 也不想自己对接", None),
])
def test_a_short_name_given_in_brackets_names_its_option(shipped_detector, rejection: str, rejected: str | None) -> None:  # type: ignore[no-untyped-def]
    reply = (
        "可选方案：\n1. Firebase Cloud Messaging (FCM)，iOS 也走 FCM 转 APNs\n2. 直接对接 APNs + 各家 Android 厂商通道\n"
        "3. 用第三方聚合推送（个推 / 极光）"
    )
    state = replayed(ConvergenceTracker(shipped_detector, MemoryStore()), "app 要加推送", reply, rejection)
    if rejected is not None:
        assert [r.alternative for r in state.rejected] == [rejected]
    else:
        assert all(r.alternative != "1(Firebase Cloud Messaging)" for r in state.rejected)


def test_a_name_behind_a_pointer_brings_back_the_option_that_gives_it_in_brackets(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"Yjs 不上了" turned down "CRDT (Yjs) + WebSocket relay"; "ok 那 Yjs 又得捡回来了" brought back
    another rejection, as "那 Yjs" read as a pointer."""
    reply = "两个思路：\n思路一：OT (operational transformation) + 中心服务器\n思路二：CRDT (Yjs) + WebSocket relay"
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    state = replayed(t, "白板要支持多人协作", reply, "OT 太难了。Yjs 不上了，太重", "好的。", "一致性哈希不想自己搞", "明白。")
    assert "思路二(CRDT)" in [r.alternative for r in state.rejected]
    t.observe_user("c", "ok 那 Yjs 又得捡回来了")
    assert [r.alternative for r in t.state("c").rejected] == [r.alternative for r in state.rejected if r.alternative != "思路二(CRDT)"]


def test_a_rejected_option_comes_back_by_the_short_name_it_gives_in_brackets() -> None:
    """The rejection named it by its bracketed short name; so may the reopening, whatever span the
    detector took for its target."""
    from detector.referents import short_name_said
    from detector.schema import Alternative

    options = [
        Alternative(id="alt-1", label="4", summary="Managed Key Value store (Redis) for the job queue", first_turn=1, status="rejected"),
        Alternative(id="alt-2", label="1", summary="Create a hosted Postgres and restore a dump", first_turn=1, status="rejected"),
    ]
    assert short_name_said("the chat feature needs pub/sub, so ok, redis is back", options) is options[0]
    assert short_name_said("the chat feature needs pub/sub", options) is None


@pytest.mark.parametrize("answer", ["yes PWA", "ok, pwa", "yeah PWA!"])
def test_a_yes_and_a_short_name_takes_the_option_it_names(answer: str) -> None:
    # "So PWA it is?" → "yes PWA": the option named by the short name in its brackets.
    t = tracker()
    t.observe_user("c", "v1 of a habit tracker: what shape?")
    t.observe_assistant("c", "1. Native mobile apps with push reminders\n2. A responsive web app (PWA) with email reminders\n3. A chat bot")
    t.observe_user("c", "native apps are out for v1")
    t.observe_assistant("c", "Fair. So PWA it is?")
    t.observe_user("c", answer)
    decision = t.state("c").current_decision
    assert decision is not None and decision.text.startswith("2(A responsive web app")


@pytest.mark.parametrize("answer", ["yes please", "ok thanks", "sure thing", "yeah exactly"])
def test_a_yes_and_a_word_of_thanks_takes_nothing(answer: str) -> None:
    t = tracker()
    t.observe_user("c", "v1 of a habit tracker: what shape?")
    t.observe_assistant("c", "1. Native mobile apps with push reminders\n2. A responsive web app (PWA) with email reminders\n3. A chat bot")
    t.observe_user("c", answer)
    assert t.state("c").current_decision is None


def test_an_option_named_then_yes_is_taken_not_dropped() -> None:
    # "postgres on render yes. redis tho…": the pivot's target had fallen on Postgres, which the
    # turn takes, and a later reply about the Postgres schema read as its relapse.
    t = tracker()
    t.observe_user("c", "small saas, which stack?")
    t.observe_assistant("c", "1. Managed Postgres on a PaaS like Render\n2. Redis for the job queue\n3. MongoDB")
    t.observe_user("c", "postgres on render yes. redis tho... thats one more service to babysit")
    state = t.state("c")
    assert not any("Postgres" in r.alternative for r in state.rejected)
    assert state.current_decision is not None and "Postgres" in state.current_decision.text


def test_a_bare_verdict_sentence_rejects_what_the_sentence_before_named() -> None:
    # "…and i did keto for 3 months, put 15 back on. never again": neither sentence rejects keto
    # read alone; the later "cutting carbs way down" was then no relapse of anything.
    t = ConvergenceTracker(Detector("rules"), MemoryStore())
    t.observe_user("c", "want to lose 30 lbs")
    t.observe_assistant("c", "Training:\n1. Couch-to-5k running\n2. Strength training\nNutrition:\na) A moderate calorie deficit\nb) Keto (very low carb)\nc) 16:8 fasting")
    t.observe_user("c", "running isnt gonna happen, my knee is trash. and i did keto for 3 months in 2022, put it all back on. never again")
    assert any(r.alternative.startswith("b(Keto") for r in t.state("c").rejected)


def test_a_short_name_that_ends_one_options_product_name_rejects_that_option(shipped_detector: Detector) -> None:
    """"MQ就甭提了" after "方案 C：引入 RocketMQ": the reference is the tail of one option's product
    name (it had become an alternative of its own, and the guard missed MQ coming back)."""
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    t.observe_user("c", "支付回调丢了，怎么修")
    t.observe_assistant("c", (
        "修复方向：\n- 方案 A：改回同步处理，处理成功再返回 success；\n- 方案 B：先落库再返回，定时任务扫表处理；\n"
        "- 方案 C：引入 RocketMQ：回调写入 MQ 后返回 success，由消费者处理。"
    ))
    t.observe_user("c", "MQ就甭提了 我们组没一个人运维过 今天更不可能临时加个中间件上线 就A吧 改成同步 处理完再回success")
    assert [r.alternative for r in t.state("c").rejected] == ["方案 C(引入 RocketMQ)"]


def test_sole_name_affix_needs_one_option_and_a_capitalised_short_word() -> None:
    from detector.alternatives import Proposal, sole_name_affix

    kafka = Proposal(label="1", summary="Kafka with RocketMQ bridge")
    mongo = Proposal(label="2", summary="MongoDB Atlas")
    assert sole_name_affix("MQ", [kafka, mongo]) is kafka
    assert sole_name_affix("Mongo", [kafka, mongo]) is mongo
    assert sole_name_affix("mq", [kafka, mongo]) is None  # not shaped like a name
    assert sole_name_affix("DB", [mongo, Proposal(label="3", summary="DuckDB")]) is None  # two options end so


def test_the_other_half_of_an_either_or_question_rejects_nothing(shipped_detector: Detector) -> None:
    """"…是不是反而能磨磨他性子？还是说坐不住的娃学围棋纯属受罪" asks both halves; the second, read
    alone, had rejected 围棋 (and every later mention of it was a relapse)."""
    t = ConvergenceTracker(shipped_detector, MemoryStore())
    t.observe_user("c", "二年级男孩 好动 报啥课外班好")
    t.observe_assistant("c", "可以从这几类里挑：\n1. 球类运动（篮球/足球）\n2. 乐高机器人/编程启蒙\n3. 围棋：专注力训练，但前期可能比较磨人\n4. 少儿街舞")
    t.observe_user("c", "围棋是不是反而能磨磨他性子？还是说坐不住的娃学围棋纯属受罪")
    assert not t.state("c").rejected


TRIP_OPTIONS = "几个方向：\n1. 云南大理+丽江，风景好但十一人多\n2. 日本大阪京都，签证要提前办\n3. 江西婺源+景德镇，近，高铁就到\n4. 海南三亚，海边放松"


def _shipped_state_after(detector: Detector, *turns: str) -> ConvergenceState:
    t = ConvergenceTracker(detector, MemoryStore())
    for index, text in enumerate(turns):
        (t.observe_user if index % 2 == 0 else t.observe_assistant)("c", text)
    return t.state("c")


def test_an_option_listed_with_the_target_by_a_word_of_its_chinese_name_is_rejected_too(shipped_detector: Detector) -> None:
    """"三亚", a word of "海南三亚", is listed with the target under one "都不去了": it goes too."""
    state = _shipped_state_after(shipped_detector, "十一去哪玩，5天", TRIP_OPTIONS, "日本和三亚都不去了")
    assert [r.alternative for r in state.rejected] == ["日本", "4(海南三亚)"]


def test_nothing_is_chosen_in_a_question(shipped_detector: Detector) -> None:
    state = _shipped_state_after(
        shipped_detector,
        "need search for our catalog, postgres 15 on RDS",
        "Options:\n1. Postgres full-text search\n2. Elasticsearch / OpenSearch\n3. Algolia\n4. Meilisearch / Typesense",
        "ok let's go with postgres full-text search for v1",
        "Good, a GIN index on a tsvector column.",
        "hmm ok. what if we used typesense instead, self-hosted on a couple of ec2 boxes in our vpc?",
    )
    assert state.current_decision is not None and state.current_decision.text.startswith("1(Postgres full-text search")


def test_a_pivot_that_asks_for_new_options_chooses_none_it_names(shipped_detector: Detector) -> None:
    state = _shipped_state_after(
        shipped_detector,
        "想给爸妈买点保险，爸62有高血压",
        "可以考虑：\n1. 百万医疗险\n2. 重疾险\n3. 防癌医疗险：健康告知宽松\n4. 意外险",
        "重疾险算了，62岁买保费倒挂",
        "明白，重疾不考虑了。",
        "你说的防癌医疗，我看了一款，健告里问了肾功能，我爸肌酐有点高，估计也悬。换个思路吧，还有别的办法吗",
    )
    assert state.current_decision is None or "防癌" not in state.current_decision.text


def test_a_place_counts_in_the_latest_list_offered() -> None:
    """"那就按你第一个算法来" after a reply that offered two budgets takes the first budget, not the
    first option of the conversation, which the user had turned down (it was taken off the rejected
    list as if the user had brought it back)."""
    state = _state_after(
        "年会 150 人 预算 9 万 求思路",
        "几个方向：\nA. 酒店宴会厅 + 节目 + 抽奖：最稳，但容易做成婚宴感\nB. 户外营地包场：露营 + 篝火\nC. Livehouse 包场：请乐队或脱口秀",
        "酒店宴会厅pass 去年员工吐槽最多的就是像婚宴",
        "那就在 B 和 C 里选。预算两种调整：\n1. 餐标降到 300：餐饮 4.5 万，脱口秀 1.5 万\n2. 餐标不变，脱口秀只请 1 个主咖 1 万",
        "老板说他个人出一个大奖 不占预算 那就按你第一个算法来",
    )
    assert [r.alternative.split("(")[0] for r in state.rejected] == ["A"]
    assert state.current_decision is not None and state.current_decision.text.startswith("1(餐标降到 300")


def test_a_bundle_comes_back_by_its_head_not_by_a_part_every_option_has() -> None:
    """A user who turned down "酒店宴会厅 + 节目 + 抽奖" and later speaks of a program ("每个部门出节目")
    brought back no hotel ballroom: a reply that proposes the ballroom again relapses."""
    t = tracker()
    for index, text in enumerate([
        "年会 150 人 预算 9 万 求思路",
        "几个方向：\nA. 酒店宴会厅 + 节目 + 抽奖：最稳，但容易做成婚宴感\nB. 户外营地包场：露营 + 篝火\nC. Livehouse 包场：请乐队或脱口秀",
        "酒店宴会厅pass 去年员工吐槽最多的就是像婚宴",
        "好，那就在 B 和 C 里选。流程上每个部门出一个节目，最后抽奖。",
        "每个部门出节目这个砍掉 大家最烦排练",
    ]):
        (t.observe_user if index % 2 == 0 else t.observe_assistant)("c", text)
    verdict = t.observe_assistant("c", "明白。其实也可以重新考虑一下酒店宴会厅：容量、舞台、音响都不用愁，换掉圆桌就不会有婚宴感。")
    assert verdict.verdict == "RELAPSE" and verdict.alternative is not None and "酒店宴会厅" in verdict.alternative
