"""What a REJECT, PIVOT or REOPEN is about: candidate targets, scored by a small linear model.

A cue's captured group is often not the target: "absolutely not work for hire. I keep the
copyright" captures "keep the"; "no more subscriptions" names a category while the target is the
band the assistant just suggested; "back to adamw" reopens what was proposed four turns ago.
So the target is chosen among candidates that come from three places:
- the cue's own capture (what the user said next to the verdict);
- the options proposed in recent turns (方案A：…, "1) …", "I'd suggest X");
- the phrases the user's turn shares with a recent turn (users name what they reject by part
  of the name it was given: "self hosted runners are a no" after "… bigger self-hosted runners").
Each candidate gets a few features (where it comes from, how recent, whether the user names its
label, where it sits in the turn, whether it is the PIVOT's replacement) and the highest score
wins. The scorer is a gradient-boosted tree ensemble learned from the gold targets of
data/train.jsonl by `python -m training.target_ranker` and shipped as arrays
(target_ranker.npz, scored by detector/trees.py), so detection never imports scikit-learn.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, NamedTuple

from detector.acronyms import moved, spell_out, spellings
from detector.alternatives import (
    KIND_COUNTER_ZH,
    KIND_WORDS_ZH,
    Proposal,
    content_keys,
    extract_proposals,
    is_deictic,
    is_firm_label,
    is_kind_word,
    is_lettered_label,
    is_ordinal_reference,
    key_share,
    label_mentions,
    label_references,
    names_label,
    option_by_short_name,
    proposal_by_label,
    shaped_like_short_name,
    sole_name_head,
)
from detector.cues.engine import CueMatch
from detector.first_turn import opens_the_conversation
from detector.paths import package_file
from detector.schema import Label, Turn
from detector.statements import accepted_clause
from detector.text import (
    CJK_CHAR,
    LATIN_NAME_RE,
    TIME_UNITS_EN,
    has_cjk,
    normalize,
    squeeze,
    zh_words_at,
)

if TYPE_CHECKING:
    from detector.trees import TreeEnsemble

# The fitted ranker, shipped as package data.
RANKER_FILE = "target_ranker.npz"
# How many turns back a target may have been named.
CONTEXT_TURNS = 12

FEATURES = (
    "bias",
    "from_cue",
    "from_proposal",
    "from_shared",
    "from_user",
    "from_label",
    "labelled_option",
    "named_by_label",
    "user_overlap",
    "cue_overlap",
    "replacement_overlap",
    "reason_overlap",
    "recency",
    "in_last_turn",
    "in_context",
    "by_user",
    "recommended",
    "first_option",
    "position",
    "before_cue",
    "cue_closeness",
    "clause_start",
    "mentions",
    "size",
    "tokens",
    "has_digit",
    "turn_is_deictic",
    "reopen_x_recency",
    "reopen_x_by_user",
    "reopen_x_position",
    "deictic_x_recency",
    "deictic_x_proposal",
)

# Accented Latin letters are letters of a word ("Cancún", "café"), not breaks in one: "Canc" was
# once the target of "Cancún is out".
_ACCENTED = "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
# Latin words (no clitic: "hotel's" is "hotel"; "self-hosted" is two words, as in "self hosted")
# and single CJK characters.
_TOKEN_RE = re.compile(rf"[A-Za-z0-9{_ACCENTED}][A-Za-z0-9{_ACCENTED}+#/.]{{0,30}}(?<![./])|[{CJK_CHAR}]")
_FUNCTION_WORDS = frozenset(
    "a an the to of in on for and or but is are was be it its this that these those we you i my our your "
    "with at by from as so not no do don't just then too very more less much all any some one can will "
    "would should could have has had go going get use using back again also like really "
    "did does were been being am what why how when where who which "
    "s re ll ve d m".split()
    # Pronouns and comparisons point at a thing or a person and name no option ("she won't do
    # airbnb", "more than I signed up for"); time units measure one ("$99 a year", "6 weeks off").
    + "he him his she her they them their us me than about need each every per either neither both".split()
    # Places point at where a thing is, not which option ("there is coax in every room").
    + "there here".split()
    # Prepositions say where or how a named thing stands ("the flower border along the fence"):
    # alone, or at a phrase's edge, they name nothing.
    + "along across around between through into onto over under without within beside behind via".split()
    # Courtesies and regrets frame what the user says; they are never what it is about.
    + "thank thanks thx please pls sorry afraid unfortunately sadly".split()
    # Words of judgement and particles of chat name nothing on their own ("nah im good", "自建这个
    # lah 不行", "that's a wee bit much", "I'd rather"): a run of them was once the target.
    + "good rather following wee lah leh lor sia hor".split()
    # Terms of address ("Sir rollback is not possible", "mate. we're not self-hosting airflow").
    + "sir madam maam mate bro dude".split()
    + [form for unit in TIME_UNITS_EN for form in (unit, unit + "s")]
    + "mo yr hr".split()
    + list("的了是我你他她它们这那就也还都在有和与或把被给让要会能不没很太吧呢啊吗嘛个些上下里")
)
# Words that end a noun phrase the user names: verdicts, switches and fillers ("X is out",
# "no X", "别用X", "X不行"). Split points for the user's own phrases, never candidates.
_BREAK_WORDS = frozenset(
    "drop dropped scrap scrapped skip kill cut forget ditch nope nah yeah ok okay instead switch "
    "move moving lets go let out done won don doesn isn aren can couldn shouldn wouldn didn t "
    "never nothing idea thing stuff plan option approach route way sounds seems think".split()
    # Words that open a reason or a condition: what follows is why, not what ("scrap it because …").
    + "because cuz though tho although unless whereas".split()
    # Nor are the words that open a condition or put a verdict off ("not yet. maybe once we have
    # paying users" turns down what was offered, not "once").
    + "once until till maybe perhaps yet".split()
    # Interjections and chat fillers, never what a turn is about ("ugh you know what, …",
    # "lol no more subscriptions", "ill look at it if …" for "I'll").
    + "ugh lol lmao haha hmm hm emm um umm uh meh welp oh ah yep yup well anyway honestly actually "
    "guess know wait ill im idk tbh ngl btw pls plz".split()
    # Verbs of wanting, keeping and undoing say what is done with a thing, never which ("I don't
    # want a websocket server", "keep using moment", "revert that").
    + "want wanna keep keeping revert undo try trying stop pull pulling pulled".split()
    # Words of saying tell what the user did, never which thing ("i already said no to that").
    + "say says said saying tell told already".split()
    # Places in a list point at an option and name none ("drop the first option"): the option is
    # a candidate of its own, found by label.
    + "first second third fourth fifth last latter former previous".split()
    + list("别换改用去走做算掉再先说过想让弄搞试看吧呗哦嗯啦行对错好额呃唉哎哈")
)
# Chinese connectives and adverbs, which a character tokenizer cannot tell from content words.
_CONNECTIVE_RE = re.compile(
    "因为|所以|但是|不过|而且|然后|觉得|感觉|已经|完全|其实|回头|回到|重新|一下|这样|那样|可以|应该|可能|"
    "现在|之前|之后|以后|直接|确实|根本|肯定|真的|还得|打算|决定|考虑|看看|试试|不用|不要|不想|不去|不做|没用|的话|自己"
    # Times and places in the talk point at when a thing was said, never at which ("之前投的", "前面说的").
    "|去年|今年|明年|前面|后面|上次|下次|当时|最近|刚才|后来|时候|莫得|没得"
    # An amount of time measures an option and names none: "晚一年上", "一个月 5000", "两周过去了".
    "|[0-9一二两三四五六七八九十半几每]{1,3}\\s?个?(?:年|月|周|天|晚|小时|分钟|星期|礼拜)"
)
_EDGE = " ,，.。:：;；!！?？\"'“”()（）*`-—"
_DIGIT_RE = re.compile(r"\d")
# A phrase at the head of a clause is what the clause is about ("hotel's a no", "K8s先不做").
_CLAUSE_START_RE = re.compile(r"(?:^|[,，.。;；!！?？:：\n]|\b(?:so|ok|okay|and|but|then|that|the)|那|就|还是|把)\s{0,2}$")
# A filler or a word of opinion that opens a capture names nothing: "算了 ES 不考虑了" rejects ES,
# not "算了 ES"; "emm 不太行" and "我看还是算了" reject what was proposed, not "emm" or "我看"; "ugh
# that's a deal breaker" and "I am afraid it is not viable" reject what "that" and "it" point at.
_LEADING_FILLER_RE = re.compile(
    r"^(?:(?:算了|好吧|行吧|那就|嗯{1,3}|哎|唉|额|呃|我看|我觉得|我感觉|感觉|我想)[,，\s…]{0,3}"
    r"|(?:ok|okay|hmm{0,2}|emm{0,2}|umm?|uh|eh|meh|well|so|actually|honestly|ugh|lol|nah|yeah|oof|sadly|unfortunately"
    r"|i(?:'m| am) afraid|i'm sorry|i am sorry)(?:[,，\s…]{1,3}|$))",
    re.IGNORECASE,
)
# The subject of the verdict after its topic: "crypto" of "crypto 我不碰", "这个" of "这个我们不做".
_TRAILING_SUBJECT_RE = re.compile(r"(?<=[^\s自忘本])\s?(?:我们|咱们|我|咱)$")
# A pointer that can stand beside a name: "这个方向", "那条路", "那个" (not a bare 这 or 那).
_CJK_POINTER = rf"[这那](?:{KIND_COUNTER_ZH})?"
_CJK_POINTER_RE = re.compile(rf"{_CJK_POINTER}(?:{KIND_WORDS_ZH})?(?<=..)")
_ARTICLE_RE = re.compile(r"^(?:the|a|an)\s", re.IGNORECASE)
# A Chinese name, then a pointer with a kind word ("新写入那个方向", "拆读写这个方案").
_NAME_THEN_POINTER_RE = re.compile(rf"(?P<name>[^这那]{{2,20}}?)\s?{_CJK_POINTER}(?:{KIND_WORDS_ZH})")
# A pointer right after a name, with nothing of its own after it: "那个就算了", not "那个方向".
_POINTED_AFTER_RE = re.compile(rf"\s?[这那](?:个|条|种|套|家|款)(?!\s?{KIND_WORDS_ZH})")
_MAX_SHARED_TOKENS = 8
_MAX_USER_TOKENS = 6


@dataclass(frozen=True, slots=True)
class Candidate:
    """One possible target and the features the ranker scores it by."""

    text: str
    features: dict[str, float]
    # A proposal's whole description ("SASRec / BERT4Rec" in "transformer-based sequential
    # recommendation (SASRec / BERT4Rec)"), of which `text` shows the short name only.
    summary: str = ""


@dataclass(frozen=True, slots=True)
class TargetQuery:
    """What target resolution knows about the turn: its text, the cue capture and positions."""

    text: str
    label: Label
    raw: str | None = None
    replacement: str | None = None
    cue_spans: tuple[tuple[int, int], ...] = ()
    # The reason and revisit condition the cues found: words there are why, not what.
    other_spans: tuple[str, ...] = ()
    # The parts of fired cues outside their captured groups: the verdict ("is off the table",
    # "回头再看看"), which splits the user's phrases and is never part of a target.
    verdict_spans: tuple[tuple[int, int], ...] = ()
    # The capture is what the user named right before a pointer ("调大连接池这个方向不对").
    named_beside_pointer: bool = False
    # What the reopening cues captured as coming back ("之前否掉的es可以…" → "es"), tightest first.
    brought_back: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _TurnView:
    """What resolution reads of an earlier turn, computed once per distinct text."""

    key: str
    words: frozenset[str]
    pairs: frozenset[tuple[str, str]]
    proposals: tuple[Proposal, ...]


def query_for(text: str, label: Label, match: CueMatch) -> TargetQuery:
    """The query for a turn the detector labelled `label`, from the cue layer's spans."""
    spans = match.spans
    verdicts = tuple(part for hit in match.fired for part in hit.verdict_parts())
    raw = spans.get("target")
    replacement = spans.get("replacement") if label is Label.PIVOT else None
    beside = _appositive_name(text, raw, verdicts) or _name_before_pointer(raw)
    raw = _name_pointed_at(text, raw) or raw
    if beside is not None and replacement is not None and beside in replacement:
        beside = None  # "走独家许可那条路" names where the pivot goes, not what it leaves
    return TargetQuery(
        text=text,
        label=label,
        raw=beside or raw,
        named_beside_pointer=beside is not None,
        replacement=replacement,
        cue_spans=tuple((hit.start, hit.end) for hit in match.fired),
        other_spans=tuple(spans[name] for name in ("reason", "revisit_if") if spans.get(name)),
        verdict_spans=verdicts,
        # In the order the cues fired where two are as tight: a set's order would change run to run.
        brought_back=tuple(
            sorted(dict.fromkeys(hit.groups["target"] for hit in match.fired if hit.label is Label.REOPEN and hit.groups.get("target")), key=len)
        ),
    )


def _appositive_name(text: str, pointer: str | None, verdicts: Sequence[tuple[int, int]]) -> str | None:
    """What a Chinese pointer stands beside: "调大连接池" of "调大连接池这个方向不对", "拆读写" of "拆读
    写那个方案不行": the user's phrase that ends where the pointer starts. Not a verb's object
    ("别往这个方向查", "drop 这个思路": no phrase ends there) and not in English, which puts the
    verb there ("forget the plan")."""
    index = text.find(pointer) if pointer and _CJK_POINTER_RE.fullmatch(pointer) else -1
    if index <= 0:
        return None
    before = text[:index].rstrip()
    phrases = user_phrases(before + ",", None, verdicts)  # the comma ends the last run
    return phrases[-1] if phrases and before.endswith(phrases[-1]) else None


def _name_pointed_at(text: str, capture: str | None) -> str | None:
    """The name a long capture ends on when the turn points at it right after ("押金两个月 7600
    月租3800 转租那个就算了吧" → 转租): the cue took the clause, and the user's phrase that ends
    where the pointer starts is what it points at."""
    index = text.find(capture) if capture else -1
    if index < 0 or capture is None or not _POINTED_AFTER_RE.match(text, index + len(capture)):
        return None
    phrases = user_phrases(capture + ",")
    return phrases[-1] if len(phrases) > 1 and capture.endswith(phrases[-1]) else None


def _name_before_pointer(capture: str | None) -> str | None:
    """The name a capture gives before its own pointer: "新写入" of "新写入那个方向" (the cue took
    both), as `_appositive_name` finds it in the turn when the capture is the pointer alone."""
    found = _NAME_THEN_POINTER_RE.fullmatch(capture.strip()) if capture else None
    name = found.group("name").strip() if found else ""
    return name if name and _surface(name) is not None else None


class _Collector:
    """Builds candidates, one per distinct normalised text, keeping the best-scoring origin."""

    def __init__(self, query: TargetQuery, turns: Sequence[tuple[int, str, _TurnView]]) -> None:
        self.query = query
        self.turns = turns
        self.lowered = query.text.lower()
        self.turn_keys = content_keys(query.text)
        self.raw_keys = content_keys(query.raw) if query.raw else set()
        self.replacement_keys = content_keys(query.replacement) if query.replacement else set()
        self.other_keys = set().union(*(content_keys(span) for span in query.other_spans))
        self.deictic = _is_deictic_turn(query.text, query.raw, query.replacement)
        self.found: dict[str, Candidate] = {}

    def add(
        self,
        surface: str,
        origin: str,
        distance: int,
        by_user: bool,
        extra: dict[str, float] | None = None,
        summary: str = "",
    ) -> None:
        name = _surface(surface)
        if name is None or (origin == "user" and name.key in self.found):
            return
        keys = name.keys
        index = self.lowered.find(name.text.lower())
        position = _position(self.lowered, index, keys)
        named_in = [d for d, _, view in self.turns if name.key in view.key]
        if distance < 0:  # the user's own phrase: the nearest earlier turn that names it
            distance = named_in[0] if named_in else CONTEXT_TURNS
        recency = 1.0 / (1 + distance)
        reopen = self.query.label is Label.REOPEN
        features = {
            "bias": 1.0,
            f"from_{origin}": 1.0,
            "user_overlap": key_share(keys, self.turn_keys),
            "cue_overlap": key_share(keys, self.raw_keys),
            "replacement_overlap": key_share(keys, self.replacement_keys),
            "reason_overlap": key_share(keys, self.other_keys),
            "recency": recency,
            "in_last_turn": float(distance == 0),
            "in_context": float(distance < CONTEXT_TURNS),
            "by_user": float(by_user),
            "position": position,
            "before_cue": float(index >= 0 and any(index < start for start, _ in self.query.cue_spans[:1])),
            "cue_closeness": _closeness(index, index + len(name.text), self.query.cue_spans),
            "clause_start": float(index >= 0 and _CLAUSE_START_RE.search(self.lowered[max(index - 4, 0) : index]) is not None),
            "mentions": min(len(named_in), 4) / 4,
            "size": name.size,
            "tokens": name.tokens,
            "has_digit": name.has_digit,
            "turn_is_deictic": float(self.deictic),
            "reopen_x_recency": recency * reopen,
            "reopen_x_by_user": float(by_user and reopen),
            "reopen_x_position": position * reopen,
            "deictic_x_recency": recency * self.deictic,
            "deictic_x_proposal": float(self.deictic and origin == "proposal"),
        } | (extra or {})
        previous = self.found.get(name.key)
        if previous is not None:
            # One thing named in several places has the evidence of each (the most recent
            # mention, every origin): merging keeps training independent of shipped weights.
            features = {k: max(features.get(k, 0.0), previous.features.get(k, 0.0)) for k in features | previous.features}
            self.found[name.key] = Candidate(previous.text, features, previous.summary or summary)
        else:
            self.found[name.key] = Candidate(name.text, features, summary)


@dataclass(frozen=True, slots=True)
class _Name:
    """What a candidate's text says on its own, whatever turn it comes from."""

    text: str
    key: str
    keys: frozenset[str]
    size: float
    tokens: float
    has_digit: float


# Words said beside a verdict that never name what it turns down: the people in the story ("老板说…",
# "the client"), grammar and time ("一下", "回来", "个月", "right", "after"), courtesies. No gold target
# of any labelled set is one of them alone; taken as the target, they made the tracker record "老板" or
# "right" as rejected.
_NEVER_A_NAME = frozenset(
    "客户 老板 孩子 老师 房东 学生 物业 领导 同事 公司 老婆 老公 我妈 我爸 一下 回来 改成 换成 谢谢 个月 分钟 问题 "
    "销售 财务 媳妇 partner partners manager wife husband mom dad kids customers clients cto ceo "
    "after right only other whole new off leave fine slow late stay absolutely people time now thanks boss client".split()
)


@lru_cache(maxsize=4096)
def _surface(surface: str) -> _Name | None:
    """The candidate's text without edge punctuation, or None when it names nothing. A closing
    bracket that closes one inside stays: "方案A(Redis 集中式缓存)", not "方案A(Redis 集中式缓存"."""
    text = _TRAILING_SUBJECT_RE.sub("", _LEADING_FILLER_RE.sub("", surface.strip(_EDGE)).strip(_EDGE))
    if text.count("(") > text.count(")") and ")" in surface[surface.find(text) + len(text) :]:
        text += ")"
    key = squeeze(text)
    keys = frozenset(content_keys(text))
    if not key or is_kind_word(text) or text.lower() in _NEVER_A_NAME or (not keys and not _is_short_name(text) and not names_label(text)):
        return None
    tokens = min(len(_TOKEN_RE.findall(text)), 10) / 10
    return _Name(text, key, keys, math.log1p(len(key)), tokens, float(bool(_DIGIT_RE.search(text))))


def candidates(query: TargetQuery, context: Sequence[Turn]) -> list[Candidate]:
    """Every candidate target of a turn, with features; empty when nothing is to be found."""
    turns = _turn_views(context)
    collect = _Collector(query, turns)
    text = query.text
    if query.raw is not None and _names_something(query.raw):
        collect.add(_referent(query.raw, turns), "cue", -1, True)
    turn_labels = label_references(text)
    captured = [] if turn_labels else _bare_label_captured(query)
    references = " ".join(turn_labels or captured)
    # The turn's words outside the pivot's replacement: "embedded recruiter for 3 months then"
    # goes to the embedded recruiter, so "embedded", which the reply also said, is no target.
    outside = _outside_replacement(query)
    mine = _tokens(outside, _inside_names(text))
    for distance, role, view in turns:
        named = proposal_by_label(references, view.proposals) if references else None
        if named is not None and named.label == named.name and (captured or is_lettered_label(references)):
            # A bare letter in running text names an option listed under it, not a place; a
            # lettered label names no place in a list of plain bullets either ("那A方案捡回来吧" is
            # no first "注意网络测验ANT" of the latest list).
            named = None
        for index, proposal in enumerate(view.proposals):
            labelled = proposal.label != proposal.name
            extra = {
                "labelled_option": float(labelled),
                "named_by_label": float(proposal is named),
                "recommended": float(proposal.recommended),
                "first_option": float(index == 0),
            }
            surface = proposal.display if labelled else proposal.name
            collect.add(surface, "proposal", distance, role == "user", extra, proposal.summary)
        for phrase in shared_runs(outside, mine, view):
            collect.add(phrase, "shared", distance, role == "user")
    for mention in label_mentions(text):
        collect.add(_referent(mention, turns), "label", -1, True)
    for phrase in user_phrases(text, query.replacement, query.verdict_spans):
        collect.add(phrase, "user", -1, True)
    return list(collect.found.values())


def _outside_replacement(query: TargetQuery) -> str:
    """The turn with the pivot's replacement blanked: where it goes is not what it leaves."""
    return query.text.replace(query.replacement, _blank(query.replacement)) if query.replacement else query.text


def _turn_views(context: Sequence[Turn]) -> list[tuple[int, str, _TurnView]]:
    """The recent turns with text, newest first: (distance back, role, what the turn proposes)."""
    recent = [t for t in context[-CONTEXT_TURNS:] if t.text]
    return [(distance, t.role, _view(t.text)) for distance, t in enumerate(reversed(recent))]


def labelled_option(surface: str, context: Sequence[Turn]) -> str:
    """The option a bare label names ("1" of "do 1, our own renderer"), shown with what it is, or
    the surface itself: a replacement said by a bare number is recorded as the option it picks."""
    return _referent(surface, _turn_views(context))


def _referent(surface: str, turns: Sequence[tuple[int, str, _TurnView]]) -> str:
    """A bare label ("A", "option 2") stands for the option it names in the latest turn that
    proposed one so labelled ("方案A(Redis 集中式缓存)"): as one candidate with the proposal, it
    carries what the option is, and the user's naming it counts for the proposal."""
    if label_references(surface) != [surface.strip(_EDGE)]:
        return surface
    for _, _, view in turns:
        named = proposal_by_label(surface, view.proposals)
        if named is not None and named.label != named.name:
            return named.display
    return surface


def with_names_spelled_out(query: TargetQuery, context: Sequence[Turn]) -> TargetQuery:
    """The query with each abbreviation the recent turns spell out written as they spell it ("GE
    太重了" after "Great Expectations"), every span and offset moved along; see acronyms.py."""
    found = spellings(query.text, [t.text for t in reversed(context[-CONTEXT_TURNS:]) if t.text])
    if not found:
        return query
    text, edits = spell_out(query.text, found)

    def spelled(part: str) -> str:
        return spell_out(part, found)[0]

    def span(start: int, end: int) -> tuple[int, int]:
        return moved(start, edits), moved(end, edits)

    return replace(
        query,
        text=text,
        raw=query.raw and spelled(query.raw),
        replacement=query.replacement and spelled(query.replacement),
        cue_spans=tuple(span(*s) for s in query.cue_spans),
        other_spans=tuple(map(spelled, query.other_spans)),
        verdict_spans=tuple(span(*s) for s in query.verdict_spans),
        brought_back=tuple(map(spelled, query.brought_back)),
    )


def resolve(query: TargetQuery, context: Sequence[Turn]) -> str | None:
    """The best-scoring candidate target, or None when there is none.

    With no earlier turn there is nothing to resolve against, and the ranker, trained on turns
    in conversations, would weigh the cue's capture against phrases it cannot check: the
    capture, when it names something, is the target.
    """
    query = with_names_spelled_out(query, context)
    if query.named_beside_pointer:
        # "调大连接池这个方向不对": the user says what the pointer points at; no guess outranks that.
        return _referent(query.raw or "", _turn_views(context))
    brought_back = _named_before(query, context) if query.label is Label.REOPEN else None
    if brought_back is not None:
        return brought_back
    if opens_the_conversation(context) and _names_something(query.raw):
        name = _surface(query.raw or "")
        return name.text if name is not None else query.raw
    short = _short_name_of_an_option(query.raw, context)
    if short is not None:
        return short
    # "…so no. let's go with option 2": the replacement is the option its label names.
    replacement = _referent(query.replacement, _turn_views(context)) if query.replacement else None
    left_for = _replacement_test(replacement)
    # "A sounds more like us. … I'd rather we didn't use the council's building control": the
    # option a clause takes by its label is what the turn keeps, never what it drops.
    taken = _taken_by_label(query.text, context)
    scored = [c for c in candidates(query, context) if not left_for(c) and not taken(c)]
    if not scored:
        return None
    named = [c for c in scored if c.features.get("named_by_label")]
    if not named and (label := _label_beyond_reach(_outside_replacement(query), scored)) is not None:
        return label
    others = [c for c in scored if c.features.get("from_proposal") and c not in named and c.features.get("user_overlap", 0.0) > 0]
    if len(named) == 1 and (not others or _label_in_capture(query)) and not _captures_another_name(query, named[0], context):
        # The user named the option by its label or place and no other option by its words
        # ("option 1 is a no", "第一个不太行"): explicit words outrank every learned guess, the
        # recommended option's pull included. Not in "就按第一个来，缓存先不考虑", where the label
        # is the choice and the cache option, named by its words, is what goes. Words of other
        # options elsewhere in the turn do not outrank a label inside the verdict's own capture
        # ("…那剩下就是提前还款… 方案3里指数基金定投那部分就别放进来了").
        return named[0].text
    return _whole_capture(_best(scored), scored).text


def _named_before(query: TargetQuery, context: Sequence[Turn]) -> str | None:
    """What a reopening's cue names as coming back ("之前否掉的es可以重新拉回来看看", "let's revisit
    KMP"), when an earlier turn said it too: the target, whatever the turn drops beside it
    ("…clickhouse就先不推了" is no target of the reopening; the label guide's REOPEN stands). A label
    stands for the option it names."""
    return next((name for capture in query.brought_back if (name := _said_before_name(capture, context))), None)


def _said_before_name(capture: str, context: Sequence[Turn]) -> str | None:
    """The capture as a name, when it is one and an earlier turn said it, however far back: a
    reopening brings back what was rejected long ago."""
    if not _names_something(capture):
        return None
    # A short product name ("es") names something here though it has no content word; a pronoun
    # ("him") does not.
    name = _ARTICLE_RE.sub("", _LEADING_FILLER_RE.sub("", capture.strip(_EDGE)).strip(_EDGE))
    if len(name) < 2 or is_kind_word(name) or name.lower() in _FUNCTION_WORDS:
        return None
    if _surface(name) is None and not shaped_like_short_name(name) and not _DIGIT_RE.search(name):
        return None  # a versioned name ("SD 1.5") names something without a content word
    # A Latin name of three letters or more may be the head of the one said before ("woo" of
    # "WooCommerce"); a shorter one must be said whole ("es" is no "especially").
    tail = "" if len(name) >= 3 and name.isascii() else "(?![A-Za-z0-9])"
    said = re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}{tail}", re.IGNORECASE)
    if not any(said.search(turn.text) for turn in context):
        return None
    return _referent(name, _turn_views(context))


def _label_beyond_reach(text: str, scored: Sequence[Candidate]) -> str | None:
    """The one label the turn names ("还是回到方案一吧"), when no recent turn lists an option under
    it: the list scrolled out of the window the ranker reads, and the label is still what the
    user means. Any option the window does hold is another one, whatever the ranker makes of it;
    the tracker resolves the label against every alternative it has kept."""
    labels = {squeeze(label) for label in label_mentions(text) if is_firm_label(label)}
    said = [c for c in scored if c.features.get("from_label") and squeeze(c.text) in labels]
    return said[0].text if len(said) == 1 else None


def _label_in_capture(query: TargetQuery) -> bool:
    """Are the labels the turn names all inside the verdict's capture ("方案3里指数基金定投")? Not
    a capture about something of the option's ("方案 1 的带宽问题一样"): that compares with it."""
    raw = query.raw or ""
    in_capture = label_references(raw)
    owned = any(raw[raw.find(label) + len(label) :].lstrip().startswith("的") for label in in_capture)
    return bool(in_capture) and in_capture == (label_references(query.text) or _bare_label_captured(query)) and not owned


def _bare_label_captured(query: TargetQuery) -> list[str]:
    """The cue's capture, when it is a bare label standing alone in the turn ("let's revisit A,
    the Postgres load…"): in running text a capital letter is no label (it may be the article),
    but as the verdict's object it is. Not the "B" a cue cut out of "14B 不太行"."""
    capture = (query.raw or "").strip()
    if not capture or label_references(capture) != [capture]:
        return []
    alone = re.search(rf"(?<![A-Za-z0-9]){re.escape(capture)}(?![A-Za-z0-9])", query.text)
    return [capture] if alone is not None else []


def _whole_capture(best: Candidate, scored: Sequence[Candidate]) -> Candidate:
    """The cue's capture instead of a fragment of it, when the conversation named the capture
    as it stands: in "not celery beat, use a k8s cronjob" after "Celery beat is the natural
    fit", celery is still wanted; celery beat is what goes."""
    best_words = _TOKEN_RE.findall(best.text.lower())
    for other in scored:
        if other is best or not (other.features.get("from_cue") and other.features.get("from_shared")):
            continue
        words = _TOKEN_RE.findall(other.text.lower())
        if len(words) > len(best_words) and any(words[i : i + len(best_words)] == best_words for i in range(len(words))):
            return other
    return best


def _captures_another_name(query: TargetQuery, labelled: Candidate, context: Sequence[Turn]) -> bool:
    """Does the verdict's capture name another option than the one the turn names by label, by
    words of its description? In "the RCT is dead on arrival … so let's build around the log
    data, option 2" the capture ("the RCT", of option 1's description) is what goes, and the
    label is the choice, though no option's name holds "RCT"."""
    if not _names_something(query.raw) or label_references(query.raw or ""):
        return False
    captured = content_keys(query.raw or "")
    proposals = {p.display: p for _, _, view in _turn_views(context) for p in view.proposals}
    own = proposals.get(labelled.text)
    if own is None or captured & content_keys(own.summary):
        return False  # "A 那个插画…": the capture says what the labelled option is
    # Most of the capture's words, not one ("each other within a month" names no option by "month").
    return any(
        len(captured & content_keys(p.summary)) * 2 > len(captured) for display, p in proposals.items() if display != labelled.text
    )


def _short_name_of_an_option(raw: str | None, context: Sequence[Turn]) -> str | None:
    """The one recent option a short name names ("stop suggesting ES" after "2. Move search to
    Elasticsearch"), or None. The ranker cannot weigh it: "ES" shares no word with the option, and
    the recommended option ("I'd start with option 1") pulled the target to itself."""
    if raw is None or not raw.strip():
        return None
    proposals = list({p: None for _, _, view in _turn_views(context) for p in view.proposals})
    word = raw.strip()
    if shaped_like_short_name(word):
        named = option_by_short_name(word, proposals)
    elif len(word) > 1 and LATIN_NAME_RE.fullmatch(word):  # one letter is a label, not a name
        # A product's whole name opening one option's name: "gitlab is out" is "4. GitLab CI", not
        # the GitHub option the rest of the turn talks about ("we're not moving off github").
        named = sole_name_head(word, proposals)
    else:
        named = None
    return named.display if named is not None else None


def _taken_by_label(text: str, context: Sequence[Turn]) -> Callable[[Candidate], bool]:
    """Whether a candidate is the option a clause of the turn accepts by its bare label."""
    chosen = accepted_clause(text)
    if not chosen or label_references(chosen) != [chosen]:
        return lambda candidate: False
    display = _referent(chosen, _turn_views(context))
    return _replacement_test(display) if display != chosen else lambda candidate: False


def _replacement_test(replacement: str | None) -> Callable[[Candidate], bool]:
    """Whether a candidate is the pivot's replacement, which a pivot leaves its target for and so
    cannot be what was left: it names the whole replacement ("Loki", "方案B(Loki+Grafana)" in "ES
    那条先不考虑了，上 Loki"). A candidate that shares only a word with it can ("starter from scratch"
    against "starter from a friend"). A proposal is read whole, not by its short name: "SASRec"
    is the option "transformer-based sequential recommendation (SASRec / BERT4Rec)". The
    replacement is read once per turn, not once per candidate."""
    if not replacement:
        return lambda candidate: False
    theirs = squeeze(replacement)
    their_words = content_keys(replacement)

    def names_it(text: str) -> bool:
        # "the restaurant" is "1(a restaurant private room)": every content word of it is there.
        return bool(theirs and theirs in squeeze(text)) or bool(their_words and their_words <= content_keys(text))

    return lambda candidate: any(names_it(t) for t in (candidate.text, candidate.summary) if t)


def shared_runs(text: str, mine: list[_Token], other: _TurnView) -> list[str]:
    """Maximal runs of the user's tokens whose every adjacent pair also occurs in the other
    turn, as the user wrote them, without function words at their edges.

    Adjacent pairs instead of a longest-common-substring table: one pass over each turn, so
    the cost stays linear in the lengths of the two turns. `mine` is `_tokens(text)`.
    """
    if other.words.isdisjoint(token.word for token in mine):
        return []
    runs: list[str] = []
    start = 0
    while start < len(mine):
        if mine[start].word not in other.words:
            start += 1
            continue
        end = start + 1
        while end < len(mine) and end - start < _MAX_SHARED_TOKENS and (mine[end - 1].word, mine[end].word) in other.pairs:
            end += 1
        run = _trim_function_words(mine[start:end])
        # "first", "instead", "之前": never what a turn names.
        if run and not all(token.breaking for token in run) and not _CONNECTIVE_RE.fullmatch(phrase := text[run[0].start : run[-1].end]):
            runs.append(phrase)
        start = end
    return runs


def user_phrases(
    text: str, replacement: str | None = None, verdicts: Sequence[tuple[int, int]] = ()
) -> list[str]:
    """The user's own noun-like phrases: runs of tokens between punctuation, function words,
    connectives and verdicts ("hotel's a no" → hotel; "CQRS+事件溯源那套太重" → CQRS+事件溯源),
    minus the PIVOT's replacement. Blanking keeps every offset, so `verdicts` stay valid, and
    the words are read as written.

    A run that ends the text with nothing after it is no phrase: there it is more often what is
    said of the thing than the thing ("too fussy", "nah we're good", "不合适"). Taking it made 28
    train, dev and long_dev targets differ, one better ("no dynamo") and most a predicate where
    there had been no target (the tracker then resolves the turn to the latest proposal)."""
    inside_names = _inside_names(text)
    if replacement:
        text = text.replace(replacement, _blank(replacement))
    for start, end in verdicts:
        text = text[:start] + _blank(text[start:end]) + text[end:]
    text = _CONNECTIVE_RE.sub(lambda m: _blank(m.group()), text)
    phrases: list[str] = []
    run: list[_Token] = []
    previous = _Token("", 0, 0)
    for token in _tokens(text, inside_names) + [_Token("", len(text) + 1, len(text) + 1)]:
        word, start = token.word, token.start
        gap = text[previous.end : start]
        # "CQRS+事件溯源", "R&D" and a hyphenated word ("LLM pre-label") are one phrase; a number
        # and the Chinese after a space are two ("月租3800 转租").
        breaks = (gap.strip() and not gap.strip() in "+&/" and gap != "-") or token.breaking or _after_a_number(previous, token, gap)
        if breaks or len(run) >= _MAX_USER_TOKENS:
            kept = _trim_function_words(run)
            if kept:
                phrases.append(text[kept[0].start : kept[-1].end])
            run = []
        if word and not token.breaking and not _counter_of_pointer(previous, token):
            run.append(token)
        previous = token
    return phrases


# Counters a pointer takes: "这种桌游" names 桌游; the 种 left after the pointer named "种桌游".
_POINTER_COUNTERS = frozenset("种条套家款样类位台部本件份批")


def _after_a_number(previous: _Token, token: _Token, gap: str) -> bool:
    return bool(gap) and not gap.strip() and previous.word.isdigit() and not token.word.isascii()


def _counter_of_pointer(previous: _Token, token: _Token) -> bool:
    return previous.word in ("这", "那", "哪") and not previous.in_name and not token.in_name and token.word in _POINTER_COUNTERS


def _blank(part: str) -> str:
    """A break of the same length: a comma, then spaces."""
    return ("," + " " * (len(part) - 1)) if part else ""


def _tokens(text: str, inside_names: frozenset[int] | None = None) -> list[_Token]:
    """The turn's tokens; `inside_names` are `_inside_names(text)`, or of the text before parts
    of it were blanked (blanking keeps offsets)."""
    if inside_names is None:
        inside_names = _inside_names(text)
    return [_Token(m.group().lower(), m.start(), m.end(), m.start() in inside_names) for m in _TOKEN_RE.finditer(text)]


class _Token(NamedTuple):
    """A Latin word or one CJK character of a turn, where it sits, and whether it is part of a
    longer Chinese name (上 in 上海, 会 in 会议, 里 in 香格里拉, 用 in 用户), where a character that is a
    function or break word on its own is neither."""

    word: str
    start: int
    end: int
    in_name: bool = False

    @property
    def function(self) -> bool:
        return not self.in_name and self.word in _FUNCTION_WORDS

    @property
    def breaking(self) -> bool:
        return not self.in_name and (self.word in _FUNCTION_WORDS or self.word in _BREAK_WORDS)


@lru_cache(maxsize=1024)
def _inside_names(text: str) -> frozenset[int]:
    """The offsets of the CJK characters that jieba puts inside a word `_is_name_word` accepts.

    Read character by character, "香格里拉不去了" broke at 里 and gave the target "香格", and 上海,
    会议纪要, 用户画像 and 还款计划 lost their first character; jieba reads them whole (dev top-1
    target with gold labels 0.702 -> 0.705). In hybrid mode the classifier has already segmented
    the same runs (`tokenize_zh` is cached); only turns with a target to resolve are read."""
    return frozenset(at for start, word in zh_words_at(text) if _is_name_word(word) for at in range(start, start + len(word)))


def _is_name_word(word: str) -> bool:
    """Could this jieba word be (part of) a name? Not when it is grammar: demonstratives, degree
    words and negations open it (那块, 太长, 不够, 可能), particles, complements and positions
    close it (为了, 改成, 下来, 家里, 现在, 但是, 一个), or it has nothing but function, break and number
    characters (一下, 还是). Letting those bind gave phrases like "温泉团建去不" and "那套" (dev top-1
    0.701)."""
    return (
        len(word) > 1
        and word[0] not in _NEVER_OPEN_A_NAME
        and word[-1] not in _NEVER_CLOSE_A_NAME
        and any(ch not in _GRAMMAR_CHARS and ch not in _NUMBER_CHARS for ch in word)
    )


_GRAMMAR_CHARS = frozenset(w for w in _FUNCTION_WORDS | _BREAK_WORDS if len(w) == 1 and not w.isascii())
_NUMBER_CHARS = frozenset("一二两三四五六七八九十百千万几每半多某第")
_NEVER_OPEN_A_NAME = frozenset("这那哪的了是也就都很太不没别再先我你他她它们把被给让和与或吧呢啊吗嘛些掉呗哦嗯啦额呃唉哎哈可只")
_NEVER_CLOSE_A_NAME = frozenset("了的吧呢啊吗嘛们着过来去掉不在要是有别上下里成到个些")


@lru_cache(maxsize=4096)
def _view(text: str) -> _TurnView:
    normalized = normalize(text)
    words = _TOKEN_RE.findall(normalized.lower())
    return _TurnView(squeeze(normalized), frozenset(words), frozenset(pairwise(words)), extract_proposals(normalized))


def _trim_function_words(run: list[_Token]) -> list[_Token]:
    while run and run[0].function:
        run = run[1:]
    while run and run[-1].function:
        run = run[:-1]
    latin = [token.word for token in run if not has_cjk(token.word)]  # a token is one CJK character or a word
    cjk = len(run) - len(latin)
    # One CJK character alone names nothing; one Latin word of two letters rarely does.
    if cjk + len(latin) == 0 or (cjk == 1 and not latin) or (not cjk and len("".join(latin)) < 3):
        return []
    return run


def _names_something(raw: str | None) -> bool:
    """Is the cue's capture a name, not a pointer ("这个", "that one", "the second option")?"""
    return raw is not None and not is_deictic(raw) and not is_ordinal_reference(raw)


def _is_deictic_turn(text: str, raw: str | None, replacement: str | None) -> bool:
    """Does the turn point ("这个不行", "drop that") rather than name what it rejects?"""
    rest = text.replace(replacement, " ") if replacement else text
    return (raw is not None and not _names_something(raw)) or not content_keys(rest)


def _is_short_name(surface: str) -> bool:
    """"A", "RN", "B2": labels and acronyms too short to have content keys, still names."""
    return bool(re.fullmatch(r"[A-Z][A-Z0-9]{0,3}", surface))




def _position(lowered: str, index: int, keys: AbstractSet[str]) -> float:
    """Where the candidate is mentioned in the turn, 0 (start) to 1; 1.0 when it is not."""
    if not lowered:
        return 1.0
    if index < 0:
        hits = [lowered.find(key) for key in keys if key in lowered]
        index = min(hits) if hits else -1
    return index / len(lowered) if index >= 0 else 1.0


def _closeness(start: int, end: int, spans: Sequence[tuple[int, int]]) -> float:
    """1 inside or touching a fired cue, falling off with the characters between; 0 if absent."""
    if start < 0 or not spans:
        return 0.0
    gap = min(max(cue_start - end, start - cue_end, 0) for cue_start, cue_end in spans)
    return 1.0 / (1.0 + gap / 8)


def _best(found: Sequence[Candidate]) -> Candidate:
    """The candidate the ranker scores highest (the first of equals, as `max` keeps it)."""
    rows = [[c.features.get(name, 0.0) for name in FEATURES] for c in found]
    return found[int(target_ranker().decision(rows).argmax())]


@lru_cache(maxsize=1)
def target_ranker() -> TreeEnsemble:
    """The ranker, fitted by training/target_ranker.py and shipped with the package. Imported
    here, not at module level: numpy is start-up time a rules-mode hook spends only once a turn
    has a target to resolve."""
    from detector.trees import TreeEnsemble

    return TreeEnsemble.load(
        package_file(RANKER_FILE), FEATURES, "reinstall pivot-detector, or rebuild it with `python -m training.target_ranker`"
    )
