"""Where a pivot goes when no cue frames it: the clause a learned ranker picks, or nothing.

The cue layer finds a replacement only where a frame announces one ("switch to X", "改用X",
"X instead"). Most pivots say it plainly in a clause of their own: "TCA is too much to learn for
2 people, let's keep it simple with MVVM", "多线程那个要改代码…不搞了。让风控扩容", "nah something
with pasta". Without a replacement the tracker kept the old decision, so the agent's checkpoint
said the conversation was still going where the user had just turned it from.

The candidates are the turn's clauses and the same clauses without the words that frame a choice
("let's", "I'm going with", "那就改用", "先找"). A gradient-boosted tree ensemble
(training/replacement_ranker.py, scored by detector/trees.py like the target ranker) scores them
by where the clause stands against the verdict, whether it reasons, complains, asks or negates,
and whether it repeats the rejected target. It learned from the gold pivots of data/train.jsonl
and, to learn when to say nothing, from the gold rejections, whose clauses name no replacement.
The best candidate is the replacement only when its score clears `MIN_SCORE`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING

from detector.alternatives import content_keys, key_share
from detector.features import assistant_texts_latest_first, reply_options
from detector.paths import package_file
from detector.reasons import clause_kinds
from detector.schema import Turn
from detector.statements import NOT_A_CHOICE_RE, accepted_clause, says_it_fails, without_choice_frame
from detector.text import clause_spans, count_cjk, ends_as_question, has_cjk

if TYPE_CHECKING:
    from detector.targets import TargetQuery
    from detector.trees import TreeEnsemble

RANKER_FILE = "replacement_ranker.npz"

# The ranker's logit a candidate must reach (0 is even odds): see REJECTION_WEIGHT in
# training/replacement_ranker.py for the held-out figures it was chosen by.
MIN_SCORE = 0.0

# The words that open a Chinese choice: who chooses, how firmly, and the verb of choosing. A verb
# of one character counts only after such a word: "改完顺序之后" and "看看日志" start with no choice.
# No word of the first group is two others of it back to back (那就 is 那 and 就): a run of them
# reads one way only, so a long run with no verb after it fails in linear time, not exponential.
_ZH_CHOICE_LEAD_RE = re.compile(
    r"^(?:(?:我们|咱们|咱|我|先|就|那(?![些个笔种条边里么样位家次天])|还是|干脆|直接|统一|只|再|都|给他|给她|给)+"
    r"(?:改用|换成|改成|转战|切到|切回|转去|转向|换到|用上|试试|上|用|走|定|选|做|找|配|搞|换|改|去|按|买|挂|请|租|招|加|查|看|试|弄|叫|约|订)"
    r"|(?:改用|换成|改成|转战|切到|切回|转去|转向|换到|用上|试试))"
)
# At most this many leading English words are dropped to reach the choice ("I'm calling a plumber").
_MAX_DROPPED_WORDS = 4
# A question particle closing a clause: "qdrant 呢" proposes qdrant.
_ASKING_PARTICLE_RE = re.compile(r"\s?(?:呢|吗|嘛)$")
# With the forms of speech that say no in their own way: "Leaves me nothin for the record", "A visiting
# artist every month disnae build regulars" say why, not where.
_NEGATION_RE = re.compile(
    r"不|没|别|\b(?:no|not|nope|never|n't|nothing|nothin'?|nuthin'?|ain'?t|naw|nae|disnae|dinnae|cannae|isnae|wouldnae|don'?t|won'?t|can'?t)\b",
    re.IGNORECASE,
)
_FIRST_PERSON_RE = re.compile(r"^(?:我|咱|\b(?:i|i'?m|i'?ll|we|we'?re|we'?ll|let'?s)\b)", re.IGNORECASE)
# A clause that only says no, only that the user moves, or only announces that something follows
# names no replacement: "算了", "行吧", "nah", "switching", "change of plan", "换个思路".
_BARE_VERDICT_RE = re.compile(
    r"(?:算了|行吧|好吧|不要了|不用了|免了|不搞了|不做了|不弄了|作罢|拉倒|换吧|改吧|换个思路|换个方向|改主意了|计划有变|"
    r"\b(?:pass|no|nah|nope|meh|ok|okay|fine|switching|swapping|changing|never ?mind|nvm|forget it|skip it|scrap (?:it|that)|"
    r"drop (?:it|that)|no thanks|hard pass|whatever|ugh|then|change of plans?|new plan|on second thought|actually|wait|hmm+|"
    r"scratch that|done|that'?s it|period)\b|[\s,.!~…])+",
    re.IGNORECASE,
)
# Words that give a reason or console: a clause with one says why, not where ("起码是本专业",
# "就当买个清净", "at least it's in-house").
_REASON_MARK_RE = re.compile(
    r"起码|至少|就当|反正|省得|免得|因为|毕竟|不然|要不然|否则|\b(?:at least|because|since|so that|otherwise|anyway)\b",
    re.IGNORECASE,
)
# Clauses that name no replacement whatever the ranker scores them: a request for new options
# ("给我点 different 一点的选项?", "show me some other ideas": the label guide's "no, show me other
# options" is a PIVOT to nowhere yet), and a yes-no question ("Can Buildkite agents run on that
# instead of the Elastic stack?" asks whether, it goes nowhere; "what about X?" loses its frame, and
# "could you redo it with argparse?" is a request).
_ASKS_FOR_OPTIONS = (
    r"(?:给我|来|推荐|再|还有|有没有|换)[^,，。;；!！\n]{0,16}?(?:选项|方案|思路|建议|选择|地方|办法|主意|方式|做法|形式|路子|打法)[^,，。;；!！\n]{0,4}?[?？吗呢]?$"
    r"|\b(?:show|give|suggest|find|get|send)\s(?:me|us)\s[^,.;!?\n]{0,30}?\b(?:options|alternatives|ideas|suggestions|choices)\b"
    r"|\b(?:show|give|suggest|find|get|send)\s(?:me|us)\s(?:something|anything)\s(?:else|different|new)\b"
)
_ASKS_FOR_OPTIONS_RE = re.compile(_ASKS_FOR_OPTIONS, re.IGNORECASE)
_NAMES_NO_CHOICE_RE = re.compile(
    _ASKS_FOR_OPTIONS + r"|^(?:can|could|is|are|does|do|did|would|will|should|has|have)\s(?!(?:we|you|u|i|ya)\b)[^\n]*\?$",
    re.IGNORECASE,
)
_LATIN_RE = re.compile(r"[A-Za-z]")
_DIGIT_RE = re.compile(r"\d")

_KINDS = ("verdict", "reason", "other")
FEATURES: tuple[str, ...] = (
    "clauses",
    "clauses_after",
    "clause_share",
    "dropped_chars",
    "dropped_words",
    "framed",
    "weight",
    "words",
    "cjk_share",
    "clause_negated",
    "negated",
    "question",
    "fails",
    "not_a_choice",
    "first_person",
    "accepts",
    "bare_verdict",
    "reasons",
    "latin",
    "digits",
    "target_share",
    "holds_target",
    "verdict_inside",
    "verdict_before",
    "verdict_after",
    "cue_inside",
    "reply_share",
    "option_share",
    *(f"kind_{kind}" for kind in _KINDS),
    "kind_before_verdict",
)


@dataclass(frozen=True, slots=True)
class ReplacementCandidate:
    """One span that may say where the pivot goes, and the features the ranker scores it by."""

    text: str
    features: dict[str, float]


def candidates(query: TargetQuery, target: str | None, context: Sequence[Turn]) -> list[ReplacementCandidate]:
    """Every clause of the turn and its forms without a choice frame, each once, in turn order."""
    text = query.text
    spans = clause_spans(text)
    if not spans:
        return []
    kinds = clause_kinds(text, spans, [], [])
    target_keys = content_keys(target or "")
    target_lowered = (target or "").lower()
    latest_reply = next(iter(assistant_texts_latest_first(context)), "")
    reply_keys = content_keys(latest_reply)
    option_keys = [content_keys(f"{p.label} {p.summary}") for p in reply_options(latest_reply)] if latest_reply else []
    verdicts = _Spans(query.verdict_spans)
    cues = _Spans(query.cue_spans)
    found: dict[str, ReplacementCandidate] = {}
    for index, (start, end) in enumerate(spans):
        clause = text[start:end]
        if _NAMES_NO_CHOICE_RE.search(_clause_with_mark(text, start, end)):
            continue
        kind = kinds[index]
        clause_features = {
            "clauses": float(len(spans)),
            "clauses_after": float(len(spans) - 1 - index),
            "clause_share": index / (len(spans) - 1) if len(spans) > 1 else 1.0,
            "clause_negated": float(bool(_NEGATION_RE.search(clause))),
            "question": float(ends_as_question(clause) or text[end : end + 1] in ("?", "？")),
            "fails": float(says_it_fails(clause)),
            "first_person": float(bool(_FIRST_PERSON_RE.search(clause))),
            "accepts": float(accepted_clause(clause) is not None),
            "bare_verdict": float(bool(_BARE_VERDICT_RE.fullmatch(clause))),
            "reasons": float(bool(_REASON_MARK_RE.search(clause))),
            "verdict_inside": float(verdicts.starts_within(start, end)),
            "verdict_before": float(verdicts.starts_before(start)),
            "verdict_after": float(verdicts.starts_from(end)),
            "cue_inside": float(cues.overlaps(start, end)),
            **{f"kind_{name}": float(kind == name) for name in _KINDS},
            "kind_before_verdict": float("verdict" in kinds[index + 1 :]),
        }
        for form, dropped_words, framed in _forms(clause):
            if form in found or len(form) < 2:
                continue
            keys = content_keys(form)
            found[form] = ReplacementCandidate(
                form,
                clause_features
                | {
                    "dropped_chars": float(len(clause) - len(form)),
                    "dropped_words": float(dropped_words),
                    "framed": float(framed),
                    "weight": float(len(form) + count_cjk(form)),
                    "words": float(len(form.split())),
                    "cjk_share": count_cjk(form) / len(form),
                    "negated": float(bool(_NEGATION_RE.search(form))),
                    "not_a_choice": float(bool(NOT_A_CHOICE_RE.search(form))),
                    "latin": float(bool(_LATIN_RE.search(form))),
                    "digits": float(bool(_DIGIT_RE.search(form))),
                    "target_share": key_share(keys, target_keys),
                    "holds_target": float(bool(target_lowered) and target_lowered in form.lower()),
                    "reply_share": key_share(keys, reply_keys),
                    "option_share": max((key_share(keys, option) for option in option_keys), default=0.0),
                },
            )
    return list(found.values())


def asks_for_other_options(text: str) -> bool:
    """Does a clause of the turn ask for new options ("有没有别的展示方式", "give me something
    different")? Such a pivot goes nowhere yet, whatever else the turn names."""
    return any(_ASKS_FOR_OPTIONS_RE.search(_clause_with_mark(text, start, end)) for start, end in clause_spans(text))


def _clause_with_mark(text: str, start: int, end: int) -> str:
    """The clause at start:end with the mark that closes it ("有没有别的方案?")."""
    return text[start:end].strip() + text[end : end + 1].strip()


class _Spans:
    """(start, end) spans, sorted once so that each clause's questions cost a binary search: a
    long turn has many clauses and many cue hits, and asking every clause about every hit grew
    with the square of the turn."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [start for start, _ in ordered]
        self.widest_end = list(accumulate((end for _, end in ordered), max))

    def starts_within(self, start: int, end: int) -> bool:
        index = bisect_left(self.starts, start)
        return index < len(self.starts) and self.starts[index] < end

    def starts_before(self, position: int) -> bool:
        return bool(self.starts) and self.starts[0] < position

    def starts_from(self, position: int) -> bool:
        return bool(self.starts) and self.starts[-1] >= position

    def overlaps(self, start: int, end: int) -> bool:
        before_end = bisect_left(self.starts, end)  # the spans that start before the clause ends
        return before_end > 0 and self.widest_end[before_end - 1] > start


def _unframed(text: str) -> str:
    """The text without the words that frame a choice around it; frames stack ("so let's just
    go with X")."""
    for _ in range(3):
        stripped = without_choice_frame(text).strip()
        if stripped == text:
            break
        text = stripped
    return text


def _without_zh_lead(text: str) -> str:
    """A Chinese choice without who chooses and the verb of choosing ("先改用纸质交接本" → "纸质交接本")."""
    lead = _ZH_CHOICE_LEAD_RE.match(text) if has_cjk(text) else None
    return text[lead.end() :].strip() if lead else text


def _forms(clause: str) -> list[tuple[str, int, bool]]:
    """The clause and its shorter forms: (text, leading words dropped, a choice frame removed)."""
    unframed = _unframed(clause)
    forms = [(clause, 0, False), (unframed, 0, unframed != clause), (_without_zh_lead(unframed), 0, True)]
    words = clause.split()
    if not has_cjk(clause):
        forms += [(" ".join(words[count:]), count, False) for count in range(1, min(_MAX_DROPPED_WORDS + 1, len(words)))]
    return forms


def ranked_replacement(query: TargetQuery, target: str | None, context: Sequence[Turn]) -> str | None:
    """The candidate the ranker scores highest, if it clears `MIN_SCORE`; else None. None too for
    a turn that asks for other options: it goes to none yet, and its other clauses say why
    ("象限图太套路了吧，…投资人早看腻了。有没有别的展示方式" goes to no "投资人早看腻")."""
    if asks_for_other_options(query.text):
        return None
    found = candidates(query, target, context)
    if not found:
        return None
    scores = replacement_ranker().decision([[c.features[name] for name in FEATURES] for c in found])
    best = int(scores.argmax())
    if scores[best] < MIN_SCORE:
        return None
    # The ranker scores a clause and its unframed forms alike; the decision reads better without
    # "let's" or "先用…顶着" ("keep it simple with MVVM", "Redis Stream"), or a particle that asks
    # ("qdrant 呢").
    return _ASKING_PARTICLE_RE.sub("", bare_choice(found[best].text)) or None


def bare_choice(text: str) -> str:
    """The choice without the words that frame it, or the text itself when nothing else is left."""
    return _without_zh_lead(_unframed(text)) or text


@lru_cache(maxsize=1)
def replacement_ranker() -> TreeEnsemble:
    """The ranker shipped with the package, loaded on the first pivot without a framed replacement."""
    from detector.trees import TreeEnsemble

    return TreeEnsemble.load(
        package_file(RANKER_FILE),
        FEATURES,
        "reinstall pivot-detector, or rebuild it with `python -m training.replacement_ranker`",
    )
