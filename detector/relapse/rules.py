"""The hand-set decision: the first mention of an alternative that the rules read as put forward.

A mention relapses when it is not framed and comes with something put forward (or a rebuttal of the
rejection's reason, or a next sentence that points back at it and proposes). `verdict` reads this
first; the learned scorer (`scorer`) takes its answer as one of its features.
"""

from __future__ import annotations

import re

from detector.relapse.mentions import Mention, find_mentions
from detector.relapse.names import Names
from detector.relapse.rebuttal import rebuttal
from detector.relapse.sentences import located
from detector.relapse.stance import (
    clause_of,
    conceded_then_proposed,
    framed,
    proposes,
    revived,
    start_of_segment,
    takes_up,
)
from detector.relapse.stance_cues import (
    CAUSAL_RE,
    CLAUSE_RE,
    CONTRAST_RE,
    DIRECTIVE_BEFORE_RE,
    IMPERATIVE_CLAUSE_RE,
    JOINS_ANOTHER_RE,
    LIST_ITEM_RE,
    OFFERS_RE,
    OPENING_MARKS,
    PURPOSE_BEFORE_RE,
    REBUTS_RE,
    REPORTS_WORK_RE,
    SAID_DROPPED_RE,
    SLOT_LEAD_RE,
    SLOT_RE,
    SUGGESTS_RE,
)

# A reply names an option in at most this many places per sentence worth reading (the first
# unframed one decides anyway).
MAX_MENTIONS = 12
# How far before a mention a verb that governs it is looked for ("create a Notion workspace").
_DIRECTIVE_WINDOW = 32
# A code line that starts so removes or comments, it adds nothing: a diff's removed line, a comment.
_NOT_ADDED_MARKS = ("-", "#", "//", "--", "<!--", "/*", "*")
# A code line that starts so is a diff's added line: the reply shows what it added, whatever the
# sentence before the block says ("Done:", "Fixed in values + template:"). Not a file header ("+++").
_DIFF_ADDED_RE = re.compile(r"\s{0,2}\+(?!\+)")


def relapsing_mention(
    sentences: list[str], names: Names, current: str, reason: frozenset[str]
) -> tuple[str, Mention] | None:
    """The first sentence, with its mention, that the rules read as putting the alternative
    forward; None when every mention is framed or nothing is put forward."""
    left_open: Mention | None = None  # an unframed mention of the sentence before, put forward by none
    offering = False  # inside a list the reply introduced as options ("墙面有几个方向：", "Options:")
    for sentence in sentences:
        offering = introduces_options(sentence) or (offering and LIST_ITEM_RE.match(sentence) is not None)
        mention, unframed = read_sentence(sentence, names, current, reason, offered=offering)
        mention = mention or rebuttal(sentence, reason, current)
        if mention is None and left_open is not None and takes_up(sentence, current):
            mention = left_open  # "Quizzes on Kahoot are fun. Maybe bring them back?"
        left_open = unframed
        if mention is not None:
            return sentence, mention
    return work_shown(sentences, names, current, reason)


def work_shown(sentences: list[str], names: Names, current: str, reason: frozenset[str]) -> tuple[str, Mention] | None:
    """The first line of a code block the reply says it added that names the alternative: "I also
    set up the prod backend so the three nodes share counts:" and then `backend: {Hammer.Backend.Redis,
    …}`. An agent that quietly does the rejected thing says no word of proposing it; the code is the
    proposal. Not a diff's removed line or a comment ("- redis:", "# was Redis"), and only after a
    sentence that reports the work and opens the block with a colon: a block quoted to explain an
    error, or one the reply shows without saying it did it, is no such report."""
    reported = False
    for _, sentence, in_code in located(sentences):
        if not in_code:
            reported = sentence.rstrip().endswith((":", "：")) and REPORTS_WORK_RE.search(sentence) is not None
            continue
        if not (reported or _DIFF_ADDED_RE.match(sentence)) or sentence.lstrip().startswith(_NOT_ADDED_MARKS):
            continue
        for mention in find_mentions(sentence, names)[:MAX_MENTIONS]:
            if mention.strong and not framed(masked(sentence, mention), mention, current, reason):
                return sentence, mention
    return None


def read_sentence(
    sentence: str, names: Names, current: str, reason: frozenset[str], offered: bool = False
) -> tuple[Mention | None, Mention | None]:
    """The first mention in the sentence that puts the alternative forward, if any, and the first
    unframed one (which the next sentence may still put forward by pointing back at it).
    `offered`: the sentence is an item of a list the reply introduced as options."""
    mentions = find_mentions(sentence, names)
    if not mentions:
        return None, None
    unframed = None
    framed_segment = -1  # the segment of a mention said to be what was dropped ("the X you dropped")
    for mention in mentions[:MAX_MENTIONS]:
        start = start_of_segment(sentence, mention.start)
        if start == framed_segment:
            continue  # "the GEE route you dropped: standard GEE needs MCAR": named again, in that frame
        if framed(masked(sentence, mention), mention, current, reason):
            if SAID_DROPPED_RE.search(sentence, mention.end, clause_of(sentence, mention)[1]):
                framed_segment = start  # said to be what was dropped: the frame holds for the segment
            continue
        unframed = unframed or mention
        # A name must come with something put forward, part of a description with an explicit
        # suggestion: a name alone is as often logistics ("Uig (on Skye)") as a relapse.
        if SUGGESTS_RE.search(sentence, start) or (mention.strong and put_forward(sentence, start, mention, current)):
            return mention, unframed
        if mention.strong and opens_item(sentence, mention, offered):
            return mention, unframed
    return (mentions[0] if conceded_then_proposed(sentence, current) else None), unframed


def put_forward(sentence: str, start: int, mention: Mention, current: str) -> bool:
    """Does the segment propose or praise, does a verb right before the mention put it forward
    ("Put AWS ElastiCache in front", "建一个 Notion 工作区"), or is the mention's clause an
    instruction ("If writes explode, park the event log in DynamoDB"), or is it brought back ("把旧的
    Jenkins 机器重新开起来")?"""
    if proposes(sentence, mention, start, len(sentence), current) or argues_away(sentence, mention.end):
        return True
    clause_start, clause_end = clause_of(sentence, mention)
    if instructs(sentence, mention, clause_start) or revived(sentence, mention, clause_start, clause_end):
        return True
    return directed(sentence, start, mention) or reports_doing(sentence, mention, clause_start)


def introduces_options(sentence: str) -> bool:
    """Does the sentence introduce a list of options ("墙面有几个方向：", "Three options:")? Only one
    that ends on a colon can: the pattern (about 8 µs on a long sentence) is read for those alone,
    since every sentence of a reply is asked once per rejected option."""
    return sentence.rstrip().endswith((":", "：")) and OFFERS_RE.search(sentence) is not None


def opens_item(sentence: str, mention: Mention, offered: bool) -> bool:
    """Is the mention in the first clause of a list item the reply introduced as options ("C. 卫生间
    墙面做微水泥，…"), or of a slot of a schedule it lays out ("Sun: 25-min italki chat …")? Either
    puts it forward; steps, changelogs and recaps are no such list."""
    item = LIST_ITEM_RE.match(sentence) if offered else None
    if item is not None:
        return CLAUSE_RE.search(sentence, item.end(), mention.start) is None
    # In a slot, the mention is what the slot holds, only words of how much before it ("25-min"):
    # not the slot's own day ("Saturday" of "a Vegas weekend"), nor one part of a dish ("香煎豆腐+糙米").
    slot = SLOT_RE.match(sentence)
    return slot is not None and mention.start >= slot.end() and SLOT_LEAD_RE.fullmatch(sentence, slot.end(), mention.start) is not None


def instructs(sentence: str, mention: Mention, clause_start: int | None = None) -> bool:
    """Does the mention's clause (starting at `clause_start`, found when not given) open with a
    bare verb ("park the event log in DynamoDB")?"""
    start = clause_of(sentence, mention)[0] if clause_start is None else clause_start
    return IMPERATIVE_CLAUSE_RE.match(sentence, start) is not None


def directed(sentence: str, start: int, mention: Mention) -> bool:
    """Does a verb right before the mention govern it ("create a Notion workspace")?"""
    window = sentence[max(start, mention.start - _DIRECTIVE_WINDOW) : mention.start].rstrip(OPENING_MARKS)
    return DIRECTIVE_BEFORE_RE.search(window) is not None


def reports_doing(sentence: str, mention: Mention, clause_start: int) -> bool:
    """Does the agent report, earlier in the mention's clause (from `clause_start`), work that the mention is part of
    ("I reintroduced a minimal `Event` SQLAlchemy model", "I added a small index through
    sqlite-net", "I put the stats call behind `@upstash/redis`")? An agent that quietly does the
    rejected thing names it as the means of what it did, not as the object of a verb."""
    report = REPORTS_WORK_RE.search(sentence, clause_start, mention.start)
    # Not across a conjunction: "I kept the LRU and left Redis out" reports other work.
    return report is not None and not any(
        joint.search(sentence, report.end(), mention.start) for joint in (JOINS_ANOTHER_RE, CONTRAST_RE, CAUSAL_RE)
    )


def argues_away(sentence: str, start: int) -> bool:
    """Is the option said, after its mention, to make a problem go away ("OpenTofu …, so licensing
    wouldn't be an issue")? Not when the problem is only what it was built for ("GraphQL 想解决的问题",
    "what GraphQL was designed to solve")."""
    for match in REBUTS_RE.finditer(sentence, start):
        purpose = PURPOSE_BEFORE_RE.search(sentence[max(start, match.start() - 16) : match.start()])
        if purpose is None and sentence[match.end() : match.end() + 1] != "的":
            return True
    return False


def masked(sentence: str, mention: Mention) -> str:
    """The sentence with the mention's own words blanked: "the option we dropped" points back, it
    does not rule anything out."""
    return sentence[: mention.start] + " " * (mention.end - mention.start) + sentence[mention.end :]
