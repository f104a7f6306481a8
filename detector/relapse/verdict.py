"""The verdict: does a reply put a currently rejected alternative forward again?

First the rules: every sentence is searched for mentions of every rejected alternative; the first
mention that is not framed and comes with something put forward (or a rebuttal of the rejection's
reason, or a next sentence that points back at it and proposes) decides, and its sentence is the
evidence. When they find none, the learned scorer (`scorer`) reads the reply against each
alternative; at or above its threshold the reply relapses, and the first sentence that puts
something other than the current decision forward is the evidence.
"""

from __future__ import annotations

import re
from functools import lru_cache

from detector.groups import offered_lists
from detector.hearsay import opposed_hearsay
from detector.relapse.features import features_of, puts_forward_elsewhere, touches_option
from detector.relapse.kin import same_kin
from detector.relapse.mentions import Mention, ReplyWords, find_mentions, may_mention
from detector.relapse.names import Names, current_core, names_of
from detector.relapse.rebuttal import reason_keys, rebuttable_keys
from detector.relapse.rules import relapsing_mention
from detector.relapse.scorer import default_scorer
from detector.relapse.sentences import sentences_of
from detector.relapse.vocabulary import LATIN_TOKEN_RE, REAFFIRMED_RE, REJECTED_AFTER_RE, REJECTED_BEFORE_RE
from detector.render import default_revisit_if
from detector.schema import ConvergenceState, RejectedAlternative, RelapseVerdict
from detector.text import normalize, squeeze


def judge_reply(state: ConvergenceState, text: str) -> RelapseVerdict:
    """RELAPSE when a non-empty reply, normalized, puts one of the state's rejected alternatives
    forward again (`check_reply` in the package normalizes it and answers the other cases without
    loading this module).

    The rules decide, for the first rejection they find named outright, else the first found by
    kind; without either, the learned scorer may. Alternatives
    the user reopened are no longer in `state.rejected`, and one a user turn after its rejection
    names was brought back by the user: replies about either are OK.
    """
    current = current_core(state.current_decision.text) if state.current_decision else ""
    asked = _user_turns_by_number(state)
    rejected_last = _last_rejections(state)
    # Each live rejection with its names and its reason's words, read once for both passes.
    siblings = _listed_with(state)
    said_by_user = _names_the_user_rejected_by(state)
    live: list[tuple[RejectedAlternative, Names, frozenset[str]]] = []
    for r in state.rejected:
        by = (current, siblings.get(r.alternative_id, ""), said_by_user.get(r.alternative_id, ()))
        names = names_of(r.alternative, *by)
        if not _brought_back(rejected_last.get(r.alternative_id, r.rejected_at), asked, _bundle_head_names(r.alternative, names, by)):
            live.append((r, names, reason_keys(r.reason or "", current)))
    if not live:
        why = "the user brought the rejected option back after rejecting it"
        return RelapseVerdict(verdict="OK", reason=why)
    only_named = _named_only_when_rejected(state)
    # Where the reply names the options still on the table: read once, blanked per rejection. Most
    # of a long conversation's options are named by no word of the reply (`may_mention`).
    whole = ReplyWords.of([text])
    on_the_table = [
        (m.start, m.end)
        for a in state.alternatives
        if a.status != "rejected" and may_mention(whole, names := names_of(a.summary, current))
        for m in find_mentions(text, names)
        if m.strong and m.kind == "name"
    ]
    # Each rejection reads the reply with the other options blanked; most blank nothing, so each
    # distinct text is split into sentences once.
    blanked = {r.alternative_id: _without_others(text, names, on_the_table) for r, names, _ in live}
    split = {version: sentences_of(version) for version in set(blanked.values())}
    said = {alternative_id: split[version] for alternative_id, version in blanked.items()}
    # What each text holds, read once: a rejection it can neither name nor argue away is passed over.
    held = {version: (ReplyWords.of(sentences), rebuttable_keys(sentences)) for version, sentences in split.items()}
    live = [(r, names, reason) for r, names, reason in live if _reachable(held[blanked[r.alternative_id]], names, reason)]
    # A rejection the reply names outright goes before one it names only by kind: with Kafka and
    # RabbitMQ both turned down, "RabbitMQ 的托管版" brings back RabbitMQ, not its sibling Kafka.
    chosen: tuple[RejectedAlternative, str, Mention] | None = None
    deferred: set[str] = set()
    for rejection, names, reason in live:
        found = relapsing_mention(said[rejection.alternative_id], names, current, reason)
        if found is not None and rejection.alternative_id in only_named and not _says_whole(found[1].text, rejection.alternative):
            found = None
        if found is not None and _defers_to_its_condition(found[0], rejection, current):
            deferred.add(rejection.alternative_id)  # nor does the scorer read it
            found = None
        if found is not None and (found[1].strong or chosen is None):
            chosen = (rejection, *found)
            if found[1].strong:
                break
    if chosen is not None:
        rejection, sentence, mention = chosen
        return RelapseVerdict(
            verdict="RELAPSE",
            alternative=rejection.alternative,
            rejected_at=rejection.rejected_at,
            evidence=sentence.strip()[:300],
            reason=f"re-proposes {mention.text!r}, rejected at user turn {rejection.rejected_at}",
        )
    for rejection, _, reason in live:
        if rejection.alternative_id in only_named or rejection.alternative_id in deferred:
            continue
        scored = _scored(said[rejection.alternative_id], rejection, current, reason, siblings.get(rejection.alternative_id, ""))
        if scored is not None:
            return scored
    return RelapseVerdict(
        verdict="OK", reason="no rejected alternative is put forward again (mentions frame them as ruled out)"
    )


def _reachable(held: tuple[ReplyWords, frozenset[str]], names: Names, reason: frozenset[str]) -> bool:
    """Can the reply (its words, and those of its sentences that say a problem goes away) name the
    rejection or argue its reason away? Neither the rules nor the scorer answer RELAPSE otherwise."""
    words, rebuttable = held
    return may_mention(words, names) or not reason.isdisjoint(rebuttable)


def _without_others(text: str, names: Names, others: list[tuple[int, int]]) -> str:
    """The reply with the names of the options still on the table (`others`, as spans) blanked
    out, where they are not also the rejected option's own name.

    A reply about another option that was proposed beside the rejected one ("那 Metabase 最省事"
    after Tableau was turned down) names a sibling of it: the same category, so a weak mention
    by kind, which the learned scorer took for the rejected option coming back."""
    if not others:
        return text
    own = bytearray(len(text))  # 1 where the rejected option's own strong mentions are
    for mention in find_mentions(text, names):
        if mention.strong:
            own[mention.start : mention.end] = b"\x01" * (mention.end - mention.start)
    blanked = list(text)
    for start, end in others:
        if not any(own[start:end]):
            blanked[start:end] = "·" * (end - start)
    return "".join(blanked)


def _listed_with(state: ConvergenceState) -> dict[str, str]:
    """For each option the assistant offered in a list, the summaries of the others in that list
    (what `names_of` leaves out of its names)."""
    return {
        option.id: " ".join(other.summary for other in options if other is not option)
        for options in offered_lists(state.alternatives)
        for option in options
    }


def _names_the_user_rejected_by(state: ConvergenceState) -> dict[str, tuple[str, ...]]:
    """For each rejected option the user turned down by a proper name its description holds, not
    its name ("takayama looks so pretty but those bus transfers…, nope. skip 2" against "Tokyo +
    Japan Alps: Tokyo → Kanazawa → Takayama → Shirakawa-go"), those names: the user's own word
    for the option names it as well as its name does."""
    summaries = {a.id: a.summary for a in state.alternatives}
    found: dict[str, tuple[str, ...]] = {}
    for rejection in state.rejected:
        summary = summaries.get(rejection.alternative_id, "")
        if rejection.evidence and summary:
            named = _the_users_names(rejection.alternative, rejection.evidence, summary)
            if named:
                found[rejection.alternative_id] = named
    return found


@lru_cache(maxsize=4096)
def _the_users_names(alternative: str, evidence: str, summary: str) -> tuple[str, ...]:
    """The proper names of the option's description that the rejection's evidence says and its
    display does not (cached: every reply reads every rejection again)."""
    # Not a name the rejection measures the option against: "their rate today is lower than Al
    # Ansari's" turns down Wise, whatever option the tracker hung it on.
    said = {word.lower() for word in LATIN_TOKEN_RE.findall(_COMPARED_RE.sub(" ", evidence))}
    shown = alternative.lower()
    return tuple(
        name for name in dict.fromkeys(_PROPER_NAME_RE.findall(summary)) if name.lower() in said and name.lower() not in shown
    )


# What a comparison measures against: "than Al Ansari's", "比 Loki".
_COMPARED_RE = re.compile(r"\b(?:than|over|versus|vs\.?)\s[^,.;!?\n]{1,30}|比\s?\S{1,12}", re.IGNORECASE)
# A capitalised word inside a description, not at the start of a sentence ("→ Takayama →").
_PROPER_NAME_RE = re.compile(r"(?<=[^.!?:\n]\s)[A-Z][a-z]{3,}(?:-[a-z]{2,})?\b")


def _user_turns_by_number(state: ConvergenceState) -> list[tuple[int, str]]:
    """The user turns the state still holds, newest first, as (user turn number, text).

    `state.turn` numbers the latest user turn; the ones before it count down from there."""
    user_turns = [turn for turn in reversed(state.recent_turns) if turn.role == "user"]
    return [(state.turn - age, turn.text) for age, turn in enumerate(user_turns)]


def _named_only_when_rejected(state: ConvergenceState) -> set[str]:
    """The rejected alternatives that nothing proposed: the user's rejecting words are all that
    names them ("周末", "启动时自动执行", "that day"), as the detector cut them out.

    Such a name may be a word of the sentence rather than an option, so only the whole name,
    said again, can bring it back: not a part of it ("执行" of "启动时自动执行", "grpc" of "上周定的
    对外接口用 gRPC 那一套"), and not the learned scorer, which reads a reply against an option's
    words and reason. On the dev conversations, 21 of 25 alarms about such alternatives were
    false (`python -m training.relapse_alarms`)."""
    rejected_at = {r.alternative_id: r.rejected_at for r in state.rejected}
    return {
        a.id
        for a in state.alternatives
        if a.proposed_by == "user" and a.id in rejected_at and a.first_turn >= rejected_at[a.id]
    }


# The user's condition for bringing an option back says at least this many of its words again.
CONDITION_WORDS_SAID = 2


def _defers_to_its_condition(sentence: str, rejection: RejectedAlternative, current: str) -> bool:
    """Does the sentence put the option off until the condition the user set for it?

    "Savings Plans 先别碰 等下季度流量稳定了再说", then "好，先不承诺。下季度看 Cost Explorer 的 Savings
    Plans 推荐": coming back to it on the user's own terms brings nothing back now. Two of the
    condition's distinctive words or character pairs said again (下季 and 季度) tell it; one shared
    word is too often the option's own topic ("traffic")."""
    if not rejection.revisit_if or rejection.revisit_if in DEFAULT_CONDITIONS:
        return False
    condition = reason_keys(rejection.revisit_if, current)
    said = reason_keys(sentence, current)
    return len(condition & said) >= CONDITION_WORDS_SAID


DEFAULT_CONDITIONS = frozenset(default_revisit_if(lang) for lang in ("zh", "en"))


# A name this short is a product's name or its short form ("k8s", "k3s", "mongo"), not a phrase.
_SHORT_NAME = 8


def _says_whole(mention: str, alternative: str) -> bool:
    """Does the mention say the alternative's whole name (a plural or a label around it allowed),
    or another form of that one name ("k3s" for a rejected "k8s": the kin lexicon knows the name
    whole, so it is no word of the sentence the detector cut out)? Not a part of it ("Kafka" of
    "Kafka Streams") nor a word for its kind ("fine-tune" for "LoRA", "网贷" for "消费贷", "event
    sourcing" for "EventStoreDB"): kin groups hold those too, and on the training data they raised
    false alarms. So both must be short Latin names with one first letter."""
    said, name = squeeze(mention), squeeze(alternative)
    if not name:
        return False
    short = max(len(said), len(name)) <= _SHORT_NAME and said.isascii() and name.isascii()
    variant = short and said[:1] == name[:1] and said not in name
    return name in said or (variant and same_kin(mention, alternative))


def _last_rejections(state: ConvergenceState) -> dict[str, int]:
    """The user turn of each alternative's latest rejection: the history records every repeat."""
    latest: dict[str, int] = {}
    for event in state.history:
        if event.alternative_id and event.kind in ("rejected", "pivoted"):
            latest[event.alternative_id] = max(event.turn, latest.get(event.alternative_id, event.turn))
    return latest


def _bundle_head_names(alternative: str, names: Names, by: tuple[str, str, tuple[str, ...]]) -> Names:
    """The names a user turn brings a bundle back by: its head's (read as `names` were, `by` the
    current decision, the siblings and the user's own names). "酒店宴会厅 + 节目 + 抽奖" is named by
    each of its parts in a reply, but a user who later says "每个部门出节目这个砍掉" or "脱口秀+抽奖根本
    不够" speaks of a program and a lottery every option has, not of the hotel ballroom they
    turned down."""
    head = _BUNDLE_TAIL_RE.sub("", alternative)
    return names if head == alternative else names_of(head, *by)


# The parts after the first of a bundle joined by " + ", up to the display's closing bracket.
_BUNDLE_TAIL_RE = re.compile(r"\s\+\s[^()（）]{0,200}")


def _brought_back(rejected_at: int, asked: list[tuple[int, str]], names: Names) -> bool:
    """Did a user turn after the latest one that rejected it name the alternative itself?

    Then the user brought it back ("is the slab back in play?", "ok the hall is back on"), which is
    DESIGN's default revisit condition, and replies about it answer them. The detector misses some
    of these reopenings, and each miss was a false alarm on ordinary conversations: first only the
    latest user turn was read, which still left reopenings a few turns back as the commonest kind.
    Only turns after the latest rejection of it count, and not a sentence that repeats the
    rejection ("不是说了 Redux 不要吗", "we said no ES") or a mention with a verdict right beside it
    ("FCM 不加", "no graphql"), nor a turn that reports someone else wanting it back and stands
    against them ("老板说干脆上个 redis 得了 … 我不太同意"): those keep the option out."""
    return any(
        _names_it_without_a_verdict(sentence, names)
        for number, text in asked
        if number > rejected_at
        for sentence in _user_sentences(text)
    )


@lru_cache(maxsize=4096)
def _names_it_without_a_verdict(sentence: str, names: Names) -> bool:
    """Does the user's sentence name the option outright with no verdict beside the name? Cached:
    the user turns a state holds are read against every rejection on every reply while they stay
    recent, and a long conversation holds dozens of rejections."""
    return any(
        mention.strong and not _rejected_beside(sentence, mention) for mention in find_mentions(sentence, names)
    )


def _rejected_beside(sentence: str, mention: Mention) -> bool:
    """Does a verdict stand right after or right before the user's mention of the option?"""
    return bool(
        REJECTED_AFTER_RE.match(sentence, mention.end, mention.end + 16)
        or REJECTED_BEFORE_RE.search(sentence, max(0, mention.start - 12), mention.start)
    )


@lru_cache(maxsize=1024)
def _user_sentences(text: str) -> tuple[str, ...]:
    """A user turn's sentences that may bring an option back: each is read again for every reply
    while the turn stays recent. Not one that repeats a rejection ("不是说了 Redux 不要吗"), and none
    of a turn that reports another party's wish and opposes it: the label guide's "my boss wants
    it back, but I disagree" keeps the user's verdict."""
    normalized = normalize(text)
    if opposed_hearsay(normalized):
        return ()
    return tuple(sentence for sentence in sentences_of(normalized) if not REAFFIRMED_RE.search(sentence))


def _scored(
    sentences: list[str], rejection: RejectedAlternative, current: str, reason: frozenset[str], listed_with: str
) -> RelapseVerdict | None:
    """RELAPSE when the learned scorer reaches its threshold for this alternative (the rules have
    found nothing for any)."""
    scorer = default_scorer()
    features = features_of(sentences, rejection.alternative, current, reason, rule_relapse=False, listed_with=listed_with)
    if not touches_option(features):
        return None
    probability = scorer.probability(features)
    if probability < scorer.threshold:
        return None
    evidence = next((s for s in sentences if puts_forward_elsewhere(s, current)), sentences[0])
    return RelapseVerdict(
        verdict="RELAPSE",
        alternative=rejection.alternative,
        rejected_at=rejection.rejected_at,
        evidence=evidence.strip()[:300],
        reason=(
            f"puts something like {rejection.alternative!r} forward again (learned score {probability:.2f} "
            f">= {scorer.threshold}), rejected at user turn {rejection.rejected_at}"
        ),
    )

