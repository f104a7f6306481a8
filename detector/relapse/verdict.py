"""The verdict: does a reply put a currently rejected alternative forward again?

Every sentence is searched for mentions of every rejected alternative; the first mention that is not
framed and comes with something put forward (or a rebuttal of the rejection's reason, or a next
sentence that points back at it and proposes) decides, and its sentence is the evidence.
"""

from __future__ import annotations

from detector.relapse.mentions import Mention, find_mentions
from detector.relapse.names import Names, current_core, names_of
from detector.relapse.rebuttal import reason_keys, rebuttal
from detector.relapse.sentences import sentences_of
from detector.relapse.stance import (
    clause_of,
    conceded_then_proposed,
    framed,
    proposes,
    start_of_segment,
    takes_up,
)
from detector.relapse.stance_cues import DIRECTIVE_BEFORE_RE, IMPERATIVE_CLAUSE_RE, PURPOSE_BEFORE_RE, REBUTS_RE, SUGGESTS_RE
from detector.schema import ConvergenceState, RelapseVerdict
from detector.text import normalize

# A reply names an option in at most this many places per sentence worth reading (the first
# unframed one decides anyway).
_MAX_MENTIONS = 12
# How far before a mention a verb that governs it is looked for ("create a Notion workspace").
_DIRECTIVE_WINDOW = 32


def check_reply(state: ConvergenceState, reply: str) -> RelapseVerdict:
    """RELAPSE when a reply puts a currently rejected alternative forward again.

    The first relapsing mention decides; its sentence is the evidence. Alternatives the user
    reopened are no longer in `state.rejected`, so replies about them are OK.
    """
    text = normalize(reply)
    if not text or not state.rejected:
        reason = "no rejected alternative to relapse to" if text else "empty reply"
        return RelapseVerdict(verdict="OK", reason=reason)
    current = current_core(state.current_decision.text) if state.current_decision else ""
    sentences = sentences_of(text)
    for rejection in state.rejected:
        names = names_of(rejection.alternative, current)
        reason = reason_keys(rejection.reason or "", current)
        left_open: Mention | None = None  # an unframed mention of the sentence before, put forward by none
        for sentence in sentences:
            mention, unframed = _read_sentence(sentence, names, current, reason)
            mention = mention or rebuttal(sentence, reason, current)
            if mention is None and left_open is not None and takes_up(sentence, current):
                mention = left_open  # "Quizzes on Kahoot are fun. Maybe bring them back?"
            left_open = unframed
            if mention is not None:
                return RelapseVerdict(
                    verdict="RELAPSE",
                    alternative=rejection.alternative,
                    rejected_at=rejection.rejected_at,
                    evidence=sentence.strip()[:300],
                    reason=f"re-proposes {mention.text!r}, rejected at turn {rejection.rejected_at}",
                )
    return RelapseVerdict(
        verdict="OK", reason="no rejected alternative is put forward again (mentions frame them as ruled out)"
    )


def _read_sentence(
    sentence: str, names: Names, current: str, reason: frozenset[str]
) -> tuple[Mention | None, Mention | None]:
    """The first mention in the sentence that puts the alternative forward, if any, and the first
    unframed one (which the next sentence may still put forward by pointing back at it)."""
    mentions = find_mentions(sentence, names)
    if not mentions:
        return None, None
    unframed = None
    for mention in mentions[:_MAX_MENTIONS]:
        if framed(_masked(sentence, mention), mention, current, reason):
            continue
        unframed = unframed or mention
        # A name must come with something put forward, part of a description with an explicit
        # suggestion: a name alone is as often logistics ("Uig (on Skye)") as a relapse.
        start = start_of_segment(sentence, mention.start)
        if SUGGESTS_RE.search(sentence, start) or (mention.strong and _put_forward(sentence, start, mention, current)):
            return mention, unframed
    return (mentions[0] if conceded_then_proposed(sentence, current) else None), unframed


def _put_forward(sentence: str, start: int, mention: Mention, current: str) -> bool:
    """Does the segment propose or praise, does a verb right before the mention put it forward
    ("Put AWS ElastiCache in front", "建一个 Notion 工作区"), or is the mention's clause an
    instruction ("If writes explode, park the event log in DynamoDB")?"""
    if proposes(sentence, mention, start, len(sentence), current) or _argues_away(sentence, mention.end):
        return True
    if IMPERATIVE_CLAUSE_RE.match(sentence, clause_of(sentence, mention)[0]):
        return True
    window = sentence[max(start, mention.start - _DIRECTIVE_WINDOW) : mention.start]
    return DIRECTIVE_BEFORE_RE.search(window) is not None


def _argues_away(sentence: str, start: int) -> bool:
    """Is the option said, after its mention, to make a problem go away ("OpenTofu …, so licensing
    wouldn't be an issue")? Not when the problem is only what it was built for ("GraphQL 想解决的问题",
    "what GraphQL was designed to solve")."""
    for match in REBUTS_RE.finditer(sentence, start):
        purpose = PURPOSE_BEFORE_RE.search(sentence[max(start, match.start() - 16) : match.start()])
        if purpose is None and sentence[match.end() : match.end() + 1] != "的":
            return True
    return False


def _masked(sentence: str, mention: Mention) -> str:
    """The sentence with the mention's own words blanked: "the option we dropped" points back, it
    does not rule anything out."""
    return sentence[: mention.start] + " " * (mention.end - mention.start) + sentence[mention.end :]
