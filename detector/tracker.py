"""Per-conversation convergence state, and when to tell the agent to update its checkpoint.

The tracker turns detections into state: proposals become alternatives; a REJECT rules one out
(with turn, reason, revisit condition and the user's words); a PIVOT does the same and makes the
replacement the current decision; a REOPEN takes it off the rejected list (the history keeps the
event); an acceptance sets the current decision; stated constraints are kept. Then the policy
decides whether this turn deserves a Suggestion (DESIGN §5 step 5).

Every update is one read-modify-write through the store, so the hook in several processes and the
HTTP server can serve one conversation at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from detector.alternatives import (
    Proposal,
    best_overlap,
    content_keys,
    extract_proposals,
    is_deictic,
    is_ordinal_reference,
    label_mentions,
    letters_named,
    proposal_by_label,
    sole_container,
    sole_containers,
    sole_kin,
    sole_name_affix,
    sole_sharer,
)
from detector.constraints import standing_constraints
from detector.detect import Detector
from detector.first_turn import opens_the_conversation
from detector.groups import offered_lists
from detector.hearsay import disputes, opposed_hearsay
from detector.hypotheses import suspected_causes
from detector.mentions import mention, sole_proper_holder
from detector.reasons import before_verdict
from detector.referents import (
    approved,
    best_overlapping,
    bracketed_short_name,
    corrects,
    group_in,
    holds_a_word_of,
    in_a_correction,
    listed_with,
    named_besides,
    names_a_part_of,
    names_option,
    naming_words,
    neither_names_nor_points_at,
    offered_in,
    only_speaks_of,
    part_named,
    part_said,
    proposal_of,
    proposals_of,
    set_against,
    short_name_said,
    sole_held,
    sole_holder,
    sole_named_by_a_word,
    speaks_of,
    tracked_by_label,
)
from detector.render import (
    default_revisit_if,
    instruction_for,
    reconsidering,
    render_convergence,
    render_key_info,
    render_solidified,
    which_one,
)
from detector.replacements import asks_for_other_options
from detector.reverts import reported_change
from detector.schema import (
    Alternative,
    ConvergenceState,
    CurrentDecision,
    Detection,
    Label,
    PatchOperation,
    RejectedAlternative,
    RelapseVerdict,
    StateEvent,
    Suggestion,
    Trigger,
    Turn,
)
from detector.statements import (
    acceptance_choice,
    accepted_clause,
    assented_option,
    bare_choice,
    closing_choice,
    endorsed_option,
    next_step_in,
    reopening_condition,
    says_it_fails,
    settled_option,
    user_suggestion,
)
from detector.store import MemoryStore, StateStore
from detector.text import (
    KEPT_OUT_EN,
    KEPT_OUT_ZH,
    SentenceIndex,
    clause_spans,
    detect_language,
    ends_as_question,
    normalize,
    sentences,
)

SOLIDIFY_COMMANDS = ("/converge", "/solidify")
# A decision's details ("16gb", "蛇口"), chosen among what a reply about it offered: the most recent
# few, after its name.
DETAIL_SEPARATOR = "; "
MAX_DECISION_DETAILS = 3
_TRIGGER_OF = {Label.REJECT: "rejection", Label.PIVOT: "pivot", Label.REOPEN: "reopen"}
# A positive turn of more sentences than this is a long message; its other sentences are not
# read one by one for a second verdict (each reading is a detection).
MAX_SENTENCES_READ_ALONE = 6
# The plan in force, named as such: "上个方案作废", "原方案不行了", "scrap the current plan".
_THE_PLAN_RE = re.compile(
    r"上一?个方案|上一版方案|之前(?:定)?的方案|原(?:来的)?方案|刚才(?:定)?的方案|现在的方案|当前的?方案|目前的方案"
    r"|\b(?:the|our) (?:previous|last|old|current|original|existing) (?:plan|approach|setup|design)\b",
    re.IGNORECASE,
)
# The other half of an either-or question, opening the sentence after the first half's mark (not a
# bare "还是": "能扛住吗？还是算了，Redis 不要了" decides).
_OTHER_HALF_RE = re.compile(r"\s*(?:还是说|或者说|或者是|\bor (?:is it|should (?:i|we)|do (?:i|we))\b)", re.IGNORECASE)
# A word of refusal, any: a sentence without one is not read alone in a NONE turn (a prefilter; the
# detector decides).
_REFUSAL_HINT_RE = re.compile(
    r"不|没|别|免|算了|pass|否|砍|\b(?:no|not|never|drop|scrap|ditch|forget|nah|nope|skip|kill|out|overkill|rather|instead|"
    r"too|won'?t|can'?t|doesn'?t|don'?t|isn'?t|wouldn'?t)\b",
    re.IGNORECASE,
)


# A sentence that asks for options weighed or worked out ("A 和 B 你再展开对比下", "compare 2 and 3
# side by side"), with no word of refusal, drops none of them, however the model reads it alone.
_WEIGHS_OPTIONS_RE = re.compile(r"对比|比较|展开|细说|compare|comparison|side by side|pros and cons|\bvs\b|versus|expand on", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Policy settings; the defaults are those of DESIGN §5 and issue 4."""

    reminder_every: int = 8
    checkpoint_tool: str = "update_working_checkpoint"
    # The detector's label is already its fused decision (hybrid: the bar the cues set for the
    # model). A second bar of 0.5 here dropped 29 detections on dev + long_dev that were gold
    # positives, and 5 that were not; without it dev's rejections on the rejected list went from
    # 0.556 to 0.578. Raise it to act only on the surer detections.
    min_confidence: float = 0.0
    context_turns: int = 12
    max_summary_chars: int = 120
    max_history_events: int = 200
    max_constraints: int = 50


class ConvergenceTracker:
    """Keeps one ConvergenceState per conversation in a store and applies the suggestion policy."""

    def __init__(
        self,
        detector: Detector | Callable[[], Detector],
        store: StateStore | None = None,
        config: TrackerConfig = TrackerConfig(),
    ) -> None:
        # A detector, or a function that builds one when the first user turn needs it: assistant
        # turns never do, and a hook process answering one of them need not load a model.
        self._detector_source = detector
        self.store = store if store is not None else MemoryStore()
        self.config = config

    @cached_property
    def detector(self) -> Detector:
        """The detector, built on first use when the tracker was given a function that builds it."""
        source = self._detector_source
        # Duck-typed: scan hands in a wrapper that records what the detector returned.
        return source if hasattr(source, "detect") else source()  # type: ignore[return-value,operator]

    # -- public API ---------------------------------------------------------------------------

    def observe_user(self, conversation_id: str, text: str) -> Suggestion | None:
        """Update the state with a user turn; return a Suggestion when the checkpoint needs one."""
        return self.store.update(conversation_id, lambda state: self._on_user(conversation_id, state, text))

    def observe_assistant(self, conversation_id: str, turn: Turn | str) -> RelapseVerdict:
        """Update the state with an assistant turn; return whether it relapses to a rejected option."""
        if isinstance(turn, str):
            turn = Turn(role="assistant", text=turn)

        def apply(state: ConvergenceState | None) -> tuple[ConvergenceState, RelapseVerdict]:
            state, verdict = self._on_assistant(conversation_id, state, turn)
            assert verdict is not None  # judged: judge=True
            return state, verdict

        return self.store.update(conversation_id, apply)

    def record_assistant(self, conversation_id: str, turn: Turn) -> bool:
        """Record an assistant turn read after the fact, from a transcript the agent keeps (a
        Claude Code hook sees only the user's prompts): the state learns the options it proposed
        and its checkpoint calls, which the user's next words refer to. Nothing is judged: the
        reply is already out. A turn equal to the last one recorded is not recorded again;
        returns whether this one was."""

        def apply(state: ConvergenceState | None) -> tuple[ConvergenceState, bool]:
            state = state or ConvergenceState(conversation_id=conversation_id)
            last = _last_reply(state)
            if last and last == normalize(turn.text):
                return state, False
            state, _ = self._on_assistant(conversation_id, state, turn, judge=False)
            return state, True

        return self.store.update(conversation_id, apply)

    def mark_checkpoint(self, conversation_id: str, turn: int | None = None) -> ConvergenceState:
        """Record that the agent updated its checkpoint (resets the reminder)."""

        def apply(state: ConvergenceState | None) -> tuple[ConvergenceState, ConvergenceState]:
            state = state or ConvergenceState(conversation_id=conversation_id)
            state.last_checkpoint_turn = state.turn if turn is None else turn
            state.history.append(StateEvent(turn=state.last_checkpoint_turn, kind="checkpoint"))
            return state, state.model_copy(deep=True)  # the store may hand `state` to the next update

        return self.store.update(conversation_id, apply)

    def state(self, conversation_id: str) -> ConvergenceState:
        """The current state (an empty one for an unknown conversation)."""
        return self.store.get(conversation_id) or ConvergenceState(conversation_id=conversation_id)

    # -- user turns ---------------------------------------------------------------------------

    def _on_user(
        self, conversation_id: str, state: ConvergenceState | None, text: str
    ) -> tuple[ConvergenceState, Suggestion | None]:
        state = state or ConvergenceState(conversation_id=conversation_id)
        state.turn += 1
        clean = normalize(text)
        command = clean.split(maxsplit=1)[0].lower() if clean else ""
        patch: list[PatchOperation] = []
        detection: Detection | None = None
        if command in SOLIDIFY_COMMANDS:
            self._remember(state, Turn(role="user", text=clean))
            return state, self._suggest(state, "solidify_command", "high", [], patch, key=None)
        # The tracker has seen the whole conversation: a turn with nothing before it opens it.
        opens = opens_the_conversation(state.recent_turns)
        detection = self.detector.detect(clean, state.recent_turns, lang=None, opens_conversation=opens)
        # The language first: defaults written below (revisit_if) must be in the conversation's.
        self._remember(state, Turn(role="user", text=clean))
        state.lang = detect_language(" ".join(t.text for t in state.recent_turns if t.role == "user"))  # type: ignore[assignment]
        change: tuple[Trigger, str] | None = None
        if detection.label.is_positive and detection.confidence >= self.config.min_confidence:
            change = self._apply_detection(state, detection, clean, patch)
            self._record_constraints(state, clean, patch, verdict=True)
            if change is not None and detection.label is not Label.REOPEN:
                self._reject_in_other_sentences(state, clean, patch)
        else:
            self._apply_statement(state, clean, patch)
            # A turn that accepts one thing and drops another ("session fixture 可以。另外 buildkite
            # 那个我也不想换，迁移成本太高") reads as NONE whole; its sentence that drops an option
            # still on the table does so read alone.
            rejected = self._reject_in_other_sentences(state, clean, patch, labels=(Label.REJECT,), hinted=True)
            rejected += self._set_against_the_choice(state, clean, patch)
            if rejected:
                change = "rejection", f"reject:{rejected[0].id}"
        if (suggested := user_suggestion(clean)) and self._find_alternative(state, suggested, suggested, statuses=None) is None:
            # "I said no celery. what about a management command run from cron?": the user's own
            # proposal, on the table like the assistant's, whether or not the turn rejects.
            self._add_alternative(state, suggested, "user", patch)
        self._refresh_open_questions(state)

        if change is not None:
            trigger, key = change
            if self._is_repeat(state, trigger, key):
                return state, None
            return state, self._suggest(state, trigger, "high", [detection], patch, key=key)
        if self._reminder_due(state):
            return state, self._suggest(state, "turn_reminder", "normal", [], patch, key=None)
        return state, None

    def _apply_detection(
        self, state: ConvergenceState, detection: Detection, text: str, patch: list[PatchOperation]
    ) -> tuple[Trigger, str] | None:
        """Change the state for a REJECT, PIVOT or REOPEN; return the trigger and the key used for
        the cooldown (None when the turn changed nothing).

        A reopening has its own reading (`_apply_reopen`). For a rejection or a pivot, the target
        the detector read is first checked against what the turn and the state say it is about
        (the decision, one part of an option, every option a group verdict covers, a fact the
        turn corrects); what it rejects is then recorded, and where it goes or what it chooses
        follows (`_after_rejection`)."""
        target = self._find_alternative(state, detection.target, text, statuses=("proposed", "current", "reopened"))
        if detection.label is Label.REOPEN:
            return self._apply_reopen(state, detection, text, patch, target)
        trigger: Trigger = _TRIGGER_OF[detection.label]  # type: ignore[assignment]
        decided = _decided_alternative(state)
        # What the turn says beside where a pivot goes ("…. just do the 50/30/20 thing").
        verdict = text.replace(detection.replacement, " ") if detection.replacement else text
        on_the_decision = (
            decided is not None
            and target is not decided
            and not holds_a_word_of(verdict, detection.target)
            and not any(names_option(verdict, a) for a in state.alternatives)
            and only_speaks_of(_last_reply(state), decided)  # last: it reads the reply's options
        )
        if not on_the_decision and decided is not None and target is not decided and _THE_PLAN_RE.search(verdict):
            # "上个方案作废，老板说这个季度不允许上私有部署的大模型" after a reply listing the next steps of
            # the chosen plan: the plan in force goes, not whichever listed step the words touch.
            on_the_decision = not any(names_option(verdict, a) for a in state.alternatives if a is not decided)
        if on_the_decision:
            # "$99 a year to tell me I'm broke? nah" after "YNAB is $99/year…", YNAB chosen: a
            # verdict on what the last reply said of the decision, naming no option, is on the
            # decision. The detector, which sees the turns but not the state, fell back to a listed
            # option the turn does not name.
            target = decided
        taken = assented_option(text)
        if taken is not None and (holds_a_word_of(taken, detection.target) or (target is not None and names_option(taken, target))):
            # "ok yes, toast delivery for the everyday stuff, let's do that. cakes pickup only for
            # now": the model read the turn as a pivot, and the target span fell on the very option
            # its opening takes. What the opening takes is chosen, never dropped.
            self._apply_statement(state, text, patch)
            return None
        covered, spared = group_in(state, text)
        if covered:
            # "1-3 are out", "none of these work", "除了方案四都不行": every option the verdict
            # covers goes, whichever one the target span happens to resolve to.
            target = covered[0]
        elif target is not None and detection.label is Label.PIVOT and self._goes_to(state, detection, target):
            # "那就 SASRec 吧" after "可以试 SASRec": the turn's target resolved to where it goes, and a
            # pivot never drops what it goes to. It chooses it.
            return self._choose_instead(state, detection, text, patch, chosen=target)
        if target is not None and target.status == "current" and names_a_part_of(detection.target, target):
            # "metabase embedding needs the pro plan" after choosing "Postgres with TimescaleDB
            # and Metabase": one part of the decision goes, not the decision.
            target = None
        elif target is not None and target.status in ("proposed", "reopened") and (
            part := part_named(detection.target, target) or part_said(text, target)
        ):
            # "香格里拉海拔 3300，我爸不能去" after "昆明 1 天 → 大理 3 天 → … → 香格里拉 2 天": one stop goes,
            # the route stays on the table. Rejecting the whole route made every later reply that
            # keeps the other stops read as a relapse.
            target = self._add_alternative(state, part, target.proposed_by, patch)
        elif target is not None and target.status == "current" and not on_the_decision and neither_names_nor_points_at(text, target):
            # "no. we said no ES. what about a prefix table…?" after choosing the trigram index: the
            # target fell on the decision, which the turn neither names nor points at. It stands;
            # a pivot still goes where it says.
            if detection.label is Label.PIVOT and detection.replacement and not is_deictic(detection.replacement):
                going_to = self._choice_named(state, detection.replacement, patch)
                return self._choose_instead(state, detection, text, patch, chosen=going_to)
            return None
        if target is None and in_a_correction(text, detection.target):
            # "its harlan community foundation, not harlan county foundation lol, fix that. C no, …":
            # the target fell on the fact the turn corrects, which names no option; the verdicts
            # are in its other sentences.
            rejected = self._reject_in_other_sentences(state, text, patch)
            return (trigger, f"reject:{rejected[0].id}") if rejected else None
        if target is None:
            # "we said no kafka. stop" after "1. CDC with Debezium + Kafka" was rejected: a name
            # that only one rejected option's name holds says that rejection again. As an entry of
            # its own, the rejected list named the option twice.
            target = sole_holder(detection.target, _rejected_options(state))
        if target is None:
            # A change the assistant reported and the turn undoes ("roll back the react-router
            # bump" after "I also bumped react-router to v7"), or a cause it suspected and the turn
            # rules out ("不是 DNS"), was put forward by the assistant, in its own words: named by
            # them, a later reply that says them again may bring it back.
            name = detection.target or _fallback_name(text, detection.replacement)
            by = "assistant" if _put_forward_in(_last_reply(state), name) else "user"
            target = self._add_alternative(state, name, by, patch)
        self._reject(state, target, detection, text, patch)
        for other in covered[1:] or listed_with(text, target, state.alternatives):
            self._reject(state, other, detection, text, patch)
        return self._after_rejection(state, detection, text, patch, target, spared)

    def _apply_reopen(
        self, state: ConvergenceState, detection: Detection, text: str, patch: list[PatchOperation], target: Alternative | None
    ) -> tuple[Trigger, str] | None:
        """A REOPEN: the rejected option the turn brings back leaves the rejected list (or, with a
        condition, waits for it); `target` is what the detected target names among the options
        on the table, used when no rejected option answers to it."""
        # Only a rejected option can be reopened: when the detected target is none of them, the
        # one the turn's words name ("two months later, payments launch is done. let's pick
        # the express 5 upgrade back up").
        named = self._find_alternative(state, detection.target, text, statuses=("rejected",))
        rejected = _rejected_options(state)
        if named is None or named.status != "rejected":
            # The one rejected option whose name holds every word of the target ("driver" of
            # "3(Hire a part-time driver)"), else the one the turn shares most words with,
            # not counting a name the turn keeps out ("take another look at hammer, with its
            # ETS backend this time, not redis" brings back hammer, not redis).
            words = _without_kept_out(text)
            named = (
                sole_holder(detection.target, rejected)
                or sole_held(detection.target, rejected)
                or short_name_said(words, rejected)
                or best_overlapping(words, rejected)
                or sole_named_by_a_word(words, rejected)
                or named
            )
        target = named or target
        if target is not None and target.status != "rejected":
            # Nothing rejected comes back ("还是自建吧" after choosing Unleash, with 自建 never
            # turned down): the turn may still change the decision.
            return self._choose_instead(state, detection, text, patch)
        later = reopening_condition(text)
        if target is not None and later:  # rejected: anything else returned above
            # "等明年运维扩招了，Redis 可以回头再看看": not back now, but when that holds. The
            # option stays rejected, with the user's condition as the one to come back on.
            self._set_revisit_condition(state, target, later, text, patch)
            return "rejection", f"revisit:{target.id}"
        if target is None and detection.target and offered_in(_last_reply(state), detection.target):
            # What the last reply just offered, and no one rejected, is taken, not brought back
            # ("那蛇口吧" after "蛇口和后海都可以"): an acceptance, read as one.
            self._apply_statement(state, text, patch)
            return None
        if target is None:
            target = self._add_alternative(state, detection.target or text[:40], "user", patch)
        _take_off_rejected(state, target, patch)
        self._set_status(state, target, "reopened", patch)
        state.history.append(StateEvent(turn=state.turn, kind="reopened", alternative_id=target.id, text=text[:200]))
        return "reopen", f"reopen:{target.id}"

    def _after_rejection(
        self,
        state: ConvergenceState,
        detection: Detection,
        text: str,
        patch: list[PatchOperation],
        target: Alternative,
        spared: Sequence[Alternative],
    ) -> tuple[Trigger, str]:
        """Where the turn goes once `target` is rejected: a pivot's replacement becomes the
        decision (named by the detector's span, by the options the turn names, by what a group
        verdict spared, or by a bare closing clause); a rejection may still choose another option
        it names. `spared`: the options a group verdict left out."""
        if detection.label is Label.PIVOT:
            replacement = None
            # "用它" names nothing by itself: without a name, no decision is better than a guess.
            if detection.replacement and not is_deictic(detection.replacement):
                replacement = self._choice_named(state, detection.replacement, patch)
            if replacement is None and not asks_for_other_options(text):
                # No replacement span, but the turn may still name where it goes among what was
                # proposed ("ugh, no. the italian place"): the option it shares the most words with.
                # Not a turn that asks for new options ("…防癌医疗…估计也悬。换个思路吧，还有别的办法吗"):
                # what it names there, it turns from.
                replacement = named_besides(
                    text, target, [a for a in _open_options(state) if a.id != target.id]
                ) or next(iter(spared), None)
            if replacement is None and (closing := closing_choice(text)) and not is_deictic(closing):
                # Nor that: a bare last clause is where it goes ("…no thanks. global lightgbm").
                replacement = self._choice_named(state, closing, patch)
            if replacement is not None and replacement.id != target.id:
                self._decide(state, replacement, detection.reason, patch)
            state.history.append(StateEvent(turn=state.turn, kind="pivoted", alternative_id=target.id, text=text[:200]))
            return "pivot", f"pivot:{target.id}"
        # A rejection that also names one of the other options as the way to go ("太贵了，那颗粒板
        # 吧") decides it, whatever the label says: REJECT and PIVOT are the detector's commonest
        # confusion, and the state should not wait for the label to be right.
        chosen = self._named_choice(state, text)
        if chosen is None and (endorsed := endorsed_option(text)):
            chosen = approved(state, endorsed)  # "C is not gonna fly … D obviously no. … A sounds right"
        if chosen is not None and chosen.id != target.id and chosen.status != "rejected":
            self._decide(state, chosen, detection.reason, patch)
        return "rejection", f"reject:{target.id}"

    def _reject_in_other_sentences(
        self,
        state: ConvergenceState,
        text: str,
        patch: list[PatchOperation],
        labels: tuple[Label, ...] = (Label.REJECT, Label.PIVOT),
        hinted: bool = False,
    ) -> list[Alternative]:
        """A second verdict in a sentence of its own ("Algolia 按 request 收费，先 pass。Elasticsearch
        我们之前维护过，太痛苦了"): each sentence read alone, in the same context, rejects an option
        still on the table that it names, never the decision the turn just made. The options it
        rejected, in order. In a turn that reads as NONE whole, only a sentence read as REJECT
        counts: one read as PIVOT names the option it goes to as often as the one it leaves
        ("honestly embrace the moss." after "4. Embrace the moss"), and only a sentence with a word
        of refusal in it (`hinted`) is read: finding which options a sentence names is most of the
        cost, and a hook in a long conversation holds a hundred of them."""
        rejected: list[Alternative] = []
        if not _open_options(state):
            return rejected  # nothing on the table: no sentence can drop anything (most turns)
        said = sentences(text)
        if not 2 <= len(said) <= MAX_SENTENCES_READ_ALONE:
            return rejected
        context = state.recent_turns[:-1]
        asked = False
        for sentence in _with_bare_verdicts(said):
            # "围棋是不是反而能磨磨他性子？还是说坐不住的娃学围棋纯属受罪": the second half of an either-or
            # question asks too.
            continues_question = asked and _OTHER_HALF_RE.match(sentence) is not None
            asked = ends_as_question(sentence) or continues_question
            refuses = _REFUSAL_HINT_RE.search(sentence) is not None
            if continues_question or (hinted and not refuses) or (not refuses and _WEIGHS_OPTIONS_RE.search(sentence)):
                continue
            named = [a for a in _open_options(state) if mention(sentence, proposal_of(a)) is not None]
            if not named:
                continue
            detection = self.detector.detect(sentence, context, lang=state.lang)
            if detection.label not in labels or detection.confidence < self.config.min_confidence:
                continue
            target = self._find_alternative(state, detection.target, sentence, statuses=("proposed", "reopened"))
            if target is not None and target in named and not _takes(sentence, target):
                self._reject(state, target, detection, sentence, patch)
                rejected.append(target)
        return rejected

    def _set_against_the_choice(self, state: ConvergenceState, text: str, patch: list[PatchOperation]) -> list[Alternative]:
        """The option a turn that has just taken another sets against it ("ok lvp then, not
        hardwood. whats the budget look like now", which the model reads as NONE), rejected; not a
        correction, whose two sides share a word ("harlan community foundation, not harlan county
        foundation"). The option must be tracked and named by its words."""
        decision = state.current_decision
        if decision is None or decision.since_turn != state.turn:
            return []  # most turns: nothing taken, no pattern read
        pair = next((pair for pair in set_against(text) if not corrects(*pair)), None)
        if pair is None:
            return []
        other = pair[1]
        found = self._find_alternative(state, other, other, statuses=("proposed", "reopened"))
        if found is None or found.status not in ("proposed", "reopened") or found.id == decision.alternative_id:
            return []
        self._reject(state, found, None, text, patch)
        return [found]

    def _goes_to(self, state: ConvergenceState, detection: Detection, target: Alternative) -> bool:
        """Does the pivot's replacement name the very option its target resolved to? By the lookup
        every reference goes through, or by words its summary holds beyond the short name ("SASRec"
        in "直接上 transformer-based sequential recommendation (SASRec / BERT4Rec)")."""
        name = detection.replacement
        if not name or is_deictic(name):
            return False
        named = self._find_alternative(state, name, name, statuses=("proposed", "reopened", "current"))
        if named is not None:
            # Another option named outright is where it goes, whatever the target's description
            # says: "RE2J不要…先改正则吧" goes to "改写正则", not to RE2J, "a linear-time 正则 engine".
            return named is target
        words = content_keys(name)
        detail = content_keys(target.summary) - content_keys(proposal_of(target).name)
        return bool(words) and words <= detail

    def _choice_named(self, state: ConvergenceState, name: str, patch: list[PatchOperation]) -> Alternative:
        """The option a pivot goes to by this name: a tracked one it names, else a new one."""
        found = self._find_alternative(state, name, name, statuses=("proposed", "reopened", "current"))
        return found or self._add_alternative(state, name, "user", patch)

    def _choose_instead(
        self,
        state: ConvergenceState,
        detection: Detection,
        text: str,
        patch: list[PatchOperation],
        chosen: Alternative | None = None,
    ) -> tuple[Trigger, str] | None:
        """A proposed option the turn chooses (`chosen`, else the one it names) becomes the decision
        (a change of course without a rejection: the option left stays proposed); None when the
        turn chooses nothing new."""
        chosen = chosen or self._named_choice(state, text)
        if chosen is None or chosen.status == "rejected":
            return None
        if state.current_decision is not None and state.current_decision.alternative_id == chosen.id:
            return None
        self._decide(state, chosen, detection.reason, patch)
        state.history.append(StateEvent(turn=state.turn, kind="accepted", alternative_id=chosen.id, text=text[:200]))
        return "pivot", f"decide:{chosen.id}"

    def _named_choice(self, state: ConvergenceState, text: str) -> Alternative | None:
        """The tracked option (any status) a turn chooses by name: an acceptance ("好，就按B来") or
        a choice named in passing ("那颗粒板吧"); never a "这个" that names nothing."""
        for choice in self._choice_words(text):
            if choice and not is_deictic(choice) and (found := self._find_alternative(state, choice, text, statuses=None)):
                return _in_the_latest_list(state, found, choice)
        return None

    def _choice_words(self, text: str) -> list[str]:
        """The words a turn may choose by, the likeliest first: a whole-turn acceptance ("好，就按B
        来"; "" for "就这么定了"), which is the only reading of its turn; else a choice said in
        passing ("那颗粒板吧 省点钱", "那试一下 TFT 吧") and a clause of a longer turn that names
        one ("先按方案一来吧，重试次数设成 3 次"; "ok do pg_repack + autovacuum tuning. write me
        the runbook", whose last sentence the passing reading takes). A clause that only points
        ("就按这个来，帮我写伪代码", "ok let's do it: we move to Elasticsearch") names nothing."""
        accepted = acceptance_choice(text)
        if accepted is not None:
            return [accepted]
        named = accepted_clause(text)
        readings = (
            assented_option(text),
            passing if (passing := self.detector.engine.choice_in(text)) and not says_it_fails(passing) else None,
            named if named and not is_deictic(named) else None,
        )
        # Nothing is chosen in a question: "what if we used typesense instead, self-hosted…?",
        # "那 should we drop TanStack Query 直接上 RTK 全家桶？" ask.
        return list(dict.fromkeys(choice for choice in readings if choice is not None and not _asked_about(text, choice)))

    @staticmethod
    def _set_revisit_condition(
        state: ConvergenceState, target: Alternative, condition: str, text: str, patch: list[PatchOperation]
    ) -> None:
        """The rejection of `target` stands, now to be revisited on `condition`. The history records
        it as said again, so the relapse guard still holds replies to the rejection: the user named
        the option, but did not bring it back."""
        for entry in state.rejected:
            if entry.alternative_id == target.id:
                entry.revisit_if = condition
                patch.append(PatchOperation(op="replace", path=f"/rejected/{target.id}/revisit_if", value=condition))
        state.history.append(StateEvent(turn=state.turn, kind="rejected", alternative_id=target.id, text=text[:200]))

    def _reject(
        self, state: ConvergenceState, target: Alternative, detection: Detection | None, text: str, patch: list[PatchOperation]
    ) -> None:
        """Put the target on the rejected list, with the detection's reason and revisit condition
        (none for a rejection the tracker reads itself: "lvp then, not hardwood")."""
        if target.status == "rejected":
            # Said again: the first rejection (its turn, reason, evidence) stands, and the history
            # records the repeat, which the relapse guard reads (a user who named the option after
            # rejecting it brought it back, unless they rejected it again since).
            state.history.append(StateEvent(turn=state.turn, kind="rejected", alternative_id=target.id, text=text[:200]))
            return
        self._set_status(state, target, "rejected", patch)
        entry = RejectedAlternative(
            alternative_id=target.id,
            alternative=_display(target),
            rejected_at=state.turn,
            reason=detection.reason if detection else None,
            revisit_if=(detection.revisit_if if detection else None) or default_revisit_if(state.lang),
            evidence=text[:200],
        )
        state.rejected.append(entry)
        patch.append(PatchOperation(op="add", path="/rejected/-", value=entry.model_dump()))
        if state.current_decision is not None and state.current_decision.alternative_id == target.id:
            state.current_decision = None
            patch.append(PatchOperation(op="remove", path="/current_decision"))
            _drop_next_action(state, patch)
        state.history.append(StateEvent(turn=state.turn, kind="rejected", alternative_id=target.id, text=text[:200]))

    def _apply_statement(self, state: ConvergenceState, text: str, patch: list[PatchOperation]) -> None:
        """NONE turns may still accept a proposal or state a constraint.

        An acceptance is a whole turn ("好，就按B来"), or a choice named in passing ("那颗粒板吧
        省点钱", "ok parquet it is") of something already proposed: by its label or its words,
        never by falling back to the latest proposal."""
        reply = _last_reply(state)
        chosen = self._picked_by_label(state, text, reply)
        choices = self._choice_words(text) if chosen is None and (state.alternatives or reply) else []
        for choice in choices:
            if is_deictic(choice or None) and (pointed := self._what_it_points_at(state, reply)) is not None:
                chosen = pointed
                break
            chosen = self._find_alternative(state, choice or None, text, statuses=("proposed", "reopened", "current"))
            chosen = chosen and _in_the_latest_list(state, chosen, choice)
            # Else the one option whose name holds all the words chosen, however long the name:
            # "行 那就直连" takes "普通商户直连", a fifth of its name.
            chosen = chosen or sole_holder(choice, state.alternatives)
            if chosen is None and offered_in(reply, choice) and not ends_as_question(text):
                decided = _decided_alternative(state)
                if decided is not None and speaks_of(reply, decided):
                    # Offered by a reply about the decided option ("The Legion comes with 16GB;
                    # 32GB is $150 more" → "16gb is fine"): a detail of the decision, which stays.
                    self._refine_decision(state, decided, choice, text, patch)
                    break
                # Offered in passing, not in a list ("向量库可以用 Milvus 或者 pgvector" → "用
                # pgvector 吧"): the reply said it, so it was proposed, and now it is chosen.
                chosen = self._add_alternative(state, choice, "assistant", patch)
            if chosen is not None:
                break
        if chosen is None and not choices and (endorsed := endorsed_option(text)):
            chosen = approved(state, endorsed)
        if chosen is None and not choices and (closing := closing_choice(text)) and not is_deictic(closing):
            # "the rooftop said 14th is booked. fine, airbnb": a bare last clause takes the open
            # option it names by its words; only one already proposed, as a clause may name
            # anything. (Most NONE turns end in a clause: no label or short-name lookup here.)
            open_options = _open_options(state)
            chosen = sole_holder(closing, open_options) or best_overlapping(closing, open_options)
        # "我合伙人一直说要不还是回到 Redis 吧，我不同意": what another party wants, opposed, is not chosen.
        if chosen is not None and not opposed_hearsay(text):
            self._decide(state, chosen, None, patch)
            state.history.append(StateEvent(turn=state.turn, kind="accepted", alternative_id=chosen.id, text=text[:200]))
        self._record_constraints(state, text, patch)

    def _what_it_points_at(self, state: ConvergenceState, reply: str) -> Alternative | None:
        """What "do it" / "就按这个来" takes after this reply: the option it recommends, else the
        decision a reply about it works out ("Plan: 1. Add @reduxjs/toolkit … 5. Port the Orders
        screen …. Go?" → "yes do it" keeps RTK, not the plan's last step); None when the reply
        does neither, and the most recent proposal is the guess."""
        recommended = [p for p in extract_proposals(reply) if p.recommended]
        if len(recommended) == 1:
            found = self._find_alternative(state, recommended[0].summary, recommended[0].summary, statuses=None, exact=True)
            if found is not None and found.status != "rejected":
                return found
        decided = _decided_alternative(state)
        return decided if decided is not None and speaks_of(reply, decided) else None

    def _record_constraints(self, state: ConvergenceState, text: str, patch: list[PatchOperation], verdict: bool = False) -> None:
        """The standing constraints the turn states ("必须兼容 Python 3.8", "we can't add new
        infrastructure"; constraints.py). In a turn with a verdict, without the verdict's clauses:
        "we cannot spare him, so drop the in-house build" holds "we cannot spare him", and a bare
        prohibition there is the verdict itself, not a rule."""
        for found in standing_constraints(text, prohibitions=not verdict):
            if self.detector.engine.opens_with_report(found) and disputes(text):
                # Someone else's rule the user disputes: "我老婆说惠民保别买，说都是噱头…但我觉得…挺值的".
                # One the user works under stands: "老板说三个月必须上线".
                continue
            constraint = before_verdict(found) if verdict else found
            if constraint and constraint not in state.constraints:
                state.constraints.append(constraint)
                patch.append(PatchOperation(op="add", path="/constraints/-", value=constraint))
                state.history.append(StateEvent(turn=state.turn, kind="constraint", text=constraint))
                if len(state.constraints) > self.config.max_constraints:
                    # Every update reads and writes the whole state: the oldest constraint goes
                    # (the block shows the 8 most recent anyway; the history keeps them all).
                    del state.constraints[0]
                    patch.append(PatchOperation(op="remove", path="/constraints/0"))

    def _refine_decision(
        self, state: ConvergenceState, decided: Alternative, detail: str, text: str, patch: list[PatchOperation]
    ) -> None:
        """Add a detail to the current decision ("option 2(Lenovo Legion…); 16gb; 1TB"), the
        MAX_DECISION_DETAILS most recent of them, or none twice."""
        assert state.current_decision is not None
        base, text_now = _display(decided), state.current_decision.text
        known = text_now[len(base) :].split(DETAIL_SEPARATOR) if text_now.startswith(base) else []
        details = [d for d in known if d and d.lower() != detail.lower()] + [detail]
        state.current_decision.text = DETAIL_SEPARATOR.join([base, *details[-MAX_DECISION_DETAILS:]])
        patch.append(PatchOperation(op="replace", path="/current_decision", value=state.current_decision.model_dump()))
        state.history.append(StateEvent(turn=state.turn, kind="accepted", alternative_id=decided.id, text=text[:200]))

    def _decide(self, state: ConvergenceState, chosen: Alternative, rationale: str | None, patch: list[PatchOperation]) -> None:
        if state.current_decision is not None and state.current_decision.alternative_id == chosen.id:
            return  # already the decision: keep the turn it was first decided
        if state.current_decision is not None:
            _drop_next_action(state, patch)
        if chosen.status == "rejected":
            # Choosing a rejected option brings it back ("the hall after all, book it"): a REOPEN
            # the detector read as a PIVOT, or an acceptance. It leaves the rejected list.
            _take_off_rejected(state, chosen, patch)
            state.history.append(StateEvent(turn=state.turn, kind="reopened", alternative_id=chosen.id))
        for alternative in state.alternatives:
            if alternative.status == "current" and alternative.id != chosen.id:
                alternative.status = "proposed"
        self._set_status(state, chosen, "current", patch)
        state.current_decision = CurrentDecision(
            text=_display(chosen), since_turn=state.turn, rationale=rationale, alternative_id=chosen.id
        )
        patch.append(PatchOperation(op="replace", path="/current_decision", value=state.current_decision.model_dump()))

    # -- assistant turns ----------------------------------------------------------------------

    def _on_assistant(
        self, conversation_id: str, state: ConvergenceState | None, turn: Turn, judge: bool = True
    ) -> tuple[ConvergenceState, RelapseVerdict | None]:
        state = state or ConvergenceState(conversation_id=conversation_id)
        text = normalize(turn.text)
        verdict = None
        if judge:
            # Imported here: the relapse guard compiles its many patterns on import, and a hook
            # process answering a user turn never needs them.
            from detector.relapse import check_reply

            verdict = check_reply(state, text)
        if any(call.name == self.config.checkpoint_tool for call in turn.tool_calls):
            state.last_checkpoint_turn = state.turn
            state.history.append(StateEvent(turn=state.turn, kind="checkpoint"))
        if text:
            before = list(state.alternatives)
            for proposal in extract_proposals(text):
                if _is_the_relapse(proposal, verdict) or tracked_by_label(proposal, before):
                    continue
                if self._find_alternative(state, proposal.summary, proposal.summary, statuses=None, exact=True) is None:
                    self._add_alternative(state, proposal.summary, "assistant", [], label=proposal.label)
            self._settle(state, text, verdict)
            step = next_step_in(text)
            if step and (verdict is None or verdict.verdict != "RELAPSE"):  # a relapse's step is the rejected option's
                state.next_action = step
            self._remember(state, Turn(role="assistant", text=text))
            self._refresh_open_questions(state)
        return state, verdict

    def _settle(self, state: ConvergenceState, reply: str, verdict: RelapseVerdict | None) -> None:
        """A reply that opens by settling on the option left once the user's turn ruled others out
        ("Then it's GitHub Actions.", "那就周更一篇深度长文，6 小时刚好够", "那就剩 Redis 预扣减")
        makes it the decision, which the user's next verdict on it undoes as any other; not after
        a turn that ruled nothing out, where "那就 X" is one more proposal."""
        if state.current_decision is not None or (verdict is not None and verdict.verdict == "RELAPSE"):
            return
        if not _ruled_out_this_turn(state):
            return
        named = settled_option(reply)
        if named is None or is_deictic(named):
            return
        found = self._find_alternative(state, named, named, statuses=("proposed", "reopened"))
        if found is not None and found.status in ("proposed", "reopened"):
            self._decide(state, found, None, [])
            state.history.append(StateEvent(turn=state.turn, kind="accepted", alternative_id=found.id, text=reply[:200]))

    # -- helpers ------------------------------------------------------------------------------

    def _find_alternative(
        self,
        state: ConvergenceState,
        reference: str | None,
        text: str,
        statuses: Sequence[str] | None,
        exact: bool = False,
    ) -> Alternative | None:
        """The reference's label, then its words, then a label the turn names, then (for "这个" or
        no reference) the most recent.

        Labels and names are matched against every alternative, whatever its status, so "A"
        means 方案A even after A was rejected; `statuses` only narrows the fallback to the most
        recent proposal.
        """
        everything = state.alternatives
        if not everything:
            return None
        if exact:
            return next((a for a in everything if a.summary == reference), None)
        bare = reference.strip() if reference else ""
        if bare.isdecimal():
            # "go with 1 吧": a bare number is an option's label (it was a new option "1") when
            # the last reply listed it or spoke of it ("那 1 和 2 比较现实。"), as `_picked_by_label`
            # reads a turn that says only the label; after "How many nights, 2 or 3?", nothing.
            reply = _last_reply(state)
            picked = self._picked_by_label(state, bare, reply)
            listed = [a for a in everything if a.label == bare]
            if picked is None and listed and _says_the_number(reply, bare):
                picked = listed[-1]
            return picked
        proposals = proposals_of(everything)
        chosen = proposal_by_label(reference, proposals) if reference else None
        # The reference's own words before the labels the turn names elsewhere: in "GE 太重了，
        # 直接走第 3 种" the label is where the user goes, not what the reference names.
        own_words = naming_words(reference)
        if chosen is None and own_words:
            chosen = (
                best_overlap(own_words, proposals)
                or bracketed_short_name(own_words, proposals)
                or sole_kin(own_words, proposals)
                or sole_name_affix(own_words, proposals)
                or sole_proper_holder(own_words, proposals)
            )
        if chosen is None:
            chosen = proposal_by_label(text, proposals)
            if chosen is not None and own_words:
                # "好，就按第二个来，tracemalloc 先不考虑": the label is the choice when the reference
                # is a name only another option's name holds ("Micro-sprinklers are a no…" against
                # the "Option 2" the turn names later; four such turns on long_dev, one on dev, where
                # the reference was a poor span, "year").
                # The same for a reference whose words only one option's name shares ("retries hide
                # flakiness, so no. let's go with option 2").
                chosen = sole_container(own_words, proposals) or sole_sharer(own_words, proposals) or chosen
        if chosen is not None:
            return everything[proposals.index(chosen)]
        candidates = [a for a in everything if statuses is None or a.status in statuses]
        if reference is None or is_deictic(reference):
            return best_overlapping(text, candidates) or (candidates[-1] if candidates else None)
        return None

    def _picked_by_label(self, state: ConvergenceState, text: str, reply: str) -> Alternative | None:
        """The option a turn picks by its label and nothing else ("yes, 1 first", "2吧"): in the
        list the last reply gave, or else the option that reply named by that very label without
        listing the options again ("Then option 2 fits: …" → "ok let's do 2"). After any other
        reply a bare "2" may answer anything ("2 or 3 nights?"), and an earlier list may have had
        its own option 2."""
        label = bare_choice(text)
        if label is None:
            return None
        listed = proposal_by_label(label, extract_proposals(reply))
        if listed is not None:
            return self._find_alternative(state, listed.summary, text, statuses=None, exact=True)
        # By the labels the options carry, never by place: alternatives gathered over a
        # conversation are no list, and "B" would otherwise be whichever came second.
        proposals = proposals_of(state.alternatives)
        sources = (reply, *label_mentions(reply), *letters_named(reply))
        named = [proposal_by_label(source, proposals, by_position=False) for source in sources]
        picked = proposal_by_label(label, proposals, by_position=False)
        return state.alternatives[proposals.index(picked)] if picked is not None and picked in named else None

    def _add_alternative(
        self, state: ConvergenceState, summary: str, by: str, patch: list[PatchOperation], label: str | None = None
    ) -> Alternative:
        summary = summary.strip()[: self.config.max_summary_chars]
        alternative = Alternative(
            id=f"alt-{len(state.alternatives) + 1}",
            label=label or Proposal(summary, summary).name,
            summary=summary,
            first_turn=max(state.turn, 1),
            proposed_by=by,  # type: ignore[arg-type]
        )
        state.alternatives.append(alternative)
        patch.append(PatchOperation(op="add", path="/alternatives/-", value=alternative.model_dump()))
        return alternative

    @staticmethod
    def _set_status(state: ConvergenceState, alternative: Alternative, status: str, patch: list[PatchOperation]) -> None:
        if alternative.status != status:
            alternative.status = status  # type: ignore[assignment]
            index = state.alternatives.index(alternative)
            patch.append(PatchOperation(op="replace", path=f"/alternatives/{index}/status", value=status))

    def _remember(self, state: ConvergenceState, turn: Turn) -> None:
        state.recent_turns = (state.recent_turns + [turn])[-self.config.context_turns :]
        # Every update reads and writes the whole state: keep it bounded in long conversations.
        state.history = state.history[-self.config.max_history_events :]

    @staticmethod
    def _refresh_open_questions(state: ConvergenceState) -> None:
        undecided = _without_the_rejected_by_short_name(state, _open_options(state))
        if len(undecided) >= 2 and state.current_decision is None:
            names = " / ".join(_display(a) for a in undecided[-4:])
            state.open_questions = [which_one(state.lang, names)]
        elif any(a.status == "reopened" for a in undecided):
            reopened = [a for a in undecided if a.status == "reopened"]
            state.open_questions = [reconsidering(state.lang, _display(reopened[-1]))]
        else:
            state.open_questions = []

    def _is_repeat(self, state: ConvergenceState, trigger: str, key: str) -> bool:
        last = state.last_suggestion
        return bool(last and last.get("key") == key and last.get("trigger") == trigger and state.turn - last.get("turn", 0) <= 1)

    def _reminder_due(self, state: ConvergenceState) -> bool:
        exploratory = len(state.alternatives) >= 2 or bool(state.rejected)
        last = state.last_suggestion or {}
        since = max(state.last_checkpoint_turn, last.get("turn", 0) if last.get("trigger") == "turn_reminder" else 0)
        return exploratory and state.turn - since >= self.config.reminder_every

    def _suggest(
        self,
        state: ConvergenceState,
        trigger: Trigger,
        priority: str,
        detections: list[Detection],
        patch: list[PatchOperation],
        key: str | None,
    ) -> Suggestion:
        state.last_suggestion = {"trigger": trigger, "key": key, "turn": state.turn}
        block = render_solidified(state) if trigger == "solidify_command" else render_convergence(state)
        return Suggestion(
            trigger=trigger,
            priority=priority,  # type: ignore[arg-type]
            conversation_id=state.conversation_id,
            turn=state.turn,
            detections=detections,
            patch=patch,
            block=block,
            key_info=render_key_info(state),
            instruction=instruction_for(trigger, state.lang),
            lang=state.lang,
        )


def _in_the_latest_list(state: ConvergenceState, found: Alternative, choice: str) -> Alternative:
    """The option a choice by place ("你第一个算法", "the second one") takes. A place counts in the
    whole conversation's options, as `_find_alternative` reads it, unless there it falls on one
    the user turned down and the last reply offered a list with another in that place: after a
    budget's two options, "那就按你第一个算法来" takes the first budget, not the first venue of the
    conversation, which the user had rejected. (Counted in the latest list always, a place fell
    on a reply's steps or sub-points: final-list precision fell on four train conversations and
    rose on two. Counted in a list several replies back, it fell on one: "用第二个版本" of two
    wordings no list held.)"""
    if found.status != "rejected" or not is_ordinal_reference(choice):
        return found
    lists = offered_lists(state.alternatives)
    # The last reply's options carry the number of the user turn before this one.
    latest = lists[-1] if lists and lists[-1][0].first_turn >= state.turn - 1 else []
    listed = proposals_of(latest)
    picked = proposal_by_label(choice, listed)
    return latest[listed.index(picked)] if picked is not None else found


def _ruled_out_this_turn(state: ConvergenceState) -> bool:
    """Did the user's latest turn reject or pivot? Read from the end of the history, which is in
    turn order, so a long conversation's history is not read whole on every reply."""
    for event in reversed(state.history):
        if event.kind == "checkpoint":
            continue  # marked at the turn a caller names, which may be an earlier one
        if event.turn < state.turn:
            return False
        if event.kind in ("rejected", "pivoted"):
            return True
    return False


def _open_options(state: ConvergenceState) -> list[Alternative]:
    """The options still on the table: proposed and not yet decided against, or brought back."""
    return [a for a in state.alternatives if a.status in ("proposed", "reopened")]


def _asked_about(text: str, choice: str) -> bool:
    """Is the sentence that says the choice a question?"""
    at = text.find(choice)
    if at < 0:
        return False
    start, end = SentenceIndex(text).bounds(at)
    return ends_as_question(text[start:end])


def _takes(sentence: str, alternative: Alternative) -> bool:
    """Does a clause of the sentence take the alternative ("还是上 ShardingSphere-JDBC 吧，分片键就按你
    说的 user_id 加基因法" takes option A, user_id, whatever the sentence's reading made of it)?"""
    return any(
        (taken := accepted_clause(sentence[start:end])) is not None and names_option(taken, alternative)
        for start, end in clause_spans(sentence)
    )


def _rejected_options(state: ConvergenceState) -> list[Alternative]:
    return [a for a in state.alternatives if a.status == "rejected"]


def _says_the_number(reply: str, number: str) -> bool:
    """Does a sentence of the reply that asks nothing say the number on its own ("那 1 和 2 比较现实")?"""
    alone = re.compile(rf"(?<![\w.,]){number}(?![\w.,%])")
    return any(alone.search(sentence) and not ends_as_question(sentence) for sentence in sentences(reply))


def _display(alternative: Alternative) -> str:
    return proposal_of(alternative).display if alternative.label != alternative.summary else alternative.summary


def _put_forward_in(reply: str, name: str) -> bool:
    """Is `name` the change the reply reports (or what that change brought in: "asyncio" of
    "switched the worker pool from threads to asyncio") or a cause it suspects, in its own words?"""
    change = reported_change(reply)
    return (change is not None and name in change) or any(name == cause.label for cause in suspected_causes(reply))


def _fallback_name(text: str, replacement: str | None) -> str:
    """What a rejection that names no target rejected: the start of the turn, without the clauses
    that say where it goes. "switch to loki, I'm done babysitting ES" had rejected its own
    replacement, so the pivot could not go to loki."""
    if replacement:
        kept = [text[start:end] for start, end in clause_spans(text) if replacement not in text[start:end]]
        text = ", ".join(kept) or text
    return text[:40]


def _last_reply(state: ConvergenceState) -> str:
    """The latest assistant turn the state holds ("" when none)."""
    return next((turn.text for turn in reversed(state.recent_turns) if turn.role == "assistant"), "")


# A sentence that is only a verdict, said of what the sentence before it told ("never again",
# "不考虑了"). Not a bare "no", which as often answers a question, and not a question.
_VERDICT_ONLY_RE = re.compile(
    r"(?:never again|no way|not happening|hard pass|pass|不考虑了|算了|免了|不要了|拉倒吧?|没戏|别想了)[.!。！…~]{0,3}",
    re.IGNORECASE,
)


def _with_bare_verdicts(said: Sequence[str]) -> list[str]:
    """The sentences, each with the bare verdict after it: "…and i did keto for 3 months, put 15
    back on within a month. never again" rejects keto, which neither sentence does read alone."""
    joined: list[str] = []
    for sentence in said:
        if joined and _VERDICT_ONLY_RE.fullmatch(sentence.strip()):
            joined[-1] = f"{joined[-1]} {sentence}"
        else:
            joined.append(sentence)
    return joined


def _decided_alternative(state: ConvergenceState) -> Alternative | None:
    """The alternative the current decision is, if it is one still tracked."""
    decision = state.current_decision
    if decision is None or decision.alternative_id is None:
        return None
    return next((a for a in state.alternatives if a.id == decision.alternative_id), None)


def _is_the_relapse(proposal: Proposal, verdict: RelapseVerdict | None) -> bool:
    """Is this proposal the rejected option the reply brings back ("也可以考虑 RabbitMQ 的托管版"
    after RabbitMQ was turned down)? Then it is the relapse the verdict reports, not one more option
    to decide on. It must sit in the sentence that decided and share words with the option."""
    if verdict is None or verdict.verdict != "RELAPSE" or not verdict.evidence:
        return False
    return proposal.summary in verdict.evidence and bool(content_keys(proposal.summary) & content_keys(verdict.alternative or ""))


def _without_the_rejected_by_short_name(state: ConvergenceState, options: list[Alternative]) -> list[Alternative]:
    """The open options, less one the user turned down by a short name that became an entry of its
    own: with "balloon" rejected, "A hot air balloon ride over the Willamette Valley" is no open
    question, and an agent that reads it as one proposes it again. The rejection keeps its own
    entry (a reopening names it as the user did); only the option whose name alone holds every
    word of the short name is left out."""
    short_rejections = [entry.summary for entry in _rejected_options(state) if entry.proposed_by == "user"]
    if not short_rejections or not options:
        return options
    shadowed = {holder.summary for holder in sole_containers(short_rejections, proposals_of(options)) if holder is not None}
    return [option for option in options if option.summary not in shadowed]


# A name right after words that keep it out (`KEPT_OUT_EN`, `KEPT_OUT_ZH`): "not redis", "without the ORM", "不要 Kafka".
_KEPT_OUT_RE = re.compile(
    rf"(?:(?:{KEPT_OUT_ZH})\s{{0,2}}|\b(?:{KEPT_OUT_EN})\s{{1,2}})(?:the\s)?[A-Za-z][A-Za-z0-9.+#\-]{{0,29}}",
    re.IGNORECASE,
)


def _without_kept_out(text: str) -> str:
    """The turn with the names it keeps out blanked, for finding what it brings back."""
    return _KEPT_OUT_RE.sub(" ", text)


def _drop_next_action(state: ConvergenceState, patch: list[PatchOperation]) -> None:
    """The decision changed: the next step the assistant announced was the old decision's ("write
    the Redis connection config")."""
    if state.next_action is not None:
        state.next_action = None
        patch.append(PatchOperation(op="remove", path="/next_action"))


def _take_off_rejected(
    state: ConvergenceState, alternative: Alternative, patch: list[PatchOperation]
) -> None:
    """The alternative leaves the rejected list (its history stays): reopened, or chosen again."""
    before = len(state.rejected)
    state.rejected = [r for r in state.rejected if r.alternative_id != alternative.id]
    if len(state.rejected) != before:
        patch.append(PatchOperation(op="remove", path=f"/rejected/{alternative.id}"))
