"""Whether a mention is framed where it stands: ruled out, history, compared against, negated.

A sentence is read in contrast segments ("…, but …") and comma clauses: explicit verdicts reach over
a segment, negations and verdicts against the option only over their clause. When unsure, a mention
counts as framed: a false alarm on a reply that names the option as rejected is the worst error.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from detector.relapse.mentions import Mention
from detector.relapse.names import names_of
from detector.relapse.stance_cues import (
    AGAINST_RE,
    AGREEMENT_RE,
    CAUSAL_RE,
    CLAUSE_RE,
    COMMA_RE,
    CONCESSION_RE,
    CONCESSIVE_OPENER_RE,
    CONTRAST_RE,
    FRAMED_AFTER_RE,
    HISTORY_BEFORE_RE,
    HISTORY_RE,
    INNER_NEGATION_RE,
    LAST_WORD_RE,
    NEGATED_BEFORE_RE,
    NEGATED_RIGHT_BEFORE_RE,
    NEGATING_WORD_RE,
    NEGATION_BEFORE_KEY_RE,
    OPENING_MARKS,
    POINTS_BACK_RE,
    PROPOSES_RE,
    REASON_TURNED_RE,
    REBUTS_RE,
    REFERS_BACK_RE,
    REVIVAL_NEGATED_RE,
    REVIVAL_REPORTED_RE,
    REVIVES_AFTER_RE,
    REVIVES_BEFORE_RE,
    RULED_OUT_RE,
    SUGGESTS_RE,
    VERDICT_CLAUSE_RE,
)
from detector.relapse.words import key_matches


def framed(sentence: str, mention: Mention, current: str, reason: frozenset[str] = frozenset()) -> bool:
    """Is the mention ruled out, history, compared against, negated, or explained by the reason it
    was rejected for ("hardwood would show scratches" when the dog scratches it)?

    Explicit verdicts (已否决, ruled out) reach over the whole contrast segment; negations and
    verdicts against the option only over their own clause, so "托管的不用操心" does not frame a
    Redis named in the clause before it. A later "but" that rules the option out or returns to the
    current decision frames what came before ("Redis would be nice, but you ruled it out").
    """
    if mention.end <= opening_clause_end(sentence):
        return True  # a reason or a concession, subordinate to what the sentence goes on to say
    if INNER_NEGATION_RE.search(sentence, mention.start, mention.end):
        return True  # "冰岛不自驾": the name is split by a negation
    if AGREEMENT_RE.match(sentence) and not any(start < mention.start for start, _ in _boundaries(sentence)):
        return True  # agreeing with the user's rejection
    segment_start = start_of_segment(sentence, mention.start)
    segment_end = end_of_segment(sentence, mention.end)
    if RULED_OUT_RE.search(sentence, segment_start, segment_end):
        return True
    clause_start, clause_end = clause_of(sentence, mention)
    if AGAINST_RE.search(sentence, clause_start, clause_end):
        return True
    window = window_before(sentence, mention, clause_start)
    if negated_before(window) and not (_only_history(window) and revived(sentence, mention, clause_start, clause_end)):
        return True
    if FRAMED_AFTER_RE.search(sentence[mention.end : clause_end]):
        return True
    if VERDICT_CLAUSE_RE.search(sentence, mention.end, segment_end):
        return True
    if _leads_to_current(sentence, mention, segment_end, current):
        return True
    if reason and restates_reason(sentence, clause_start, clause_end, reason):
        return not proposes(sentence, mention, segment_start, segment_end, current, modal=False)
    return _later_segment_returns(sentence, segment_end, current)


@lru_cache(maxsize=512)
def opening_clause_end(sentence: str) -> int:
    """The end of a leading reason or concession clause ("因为猫会应激，" / "Although …,"), or 0."""
    opener = CONCESSIVE_OPENER_RE.match(sentence)
    comma = COMMA_RE.search(sentence, opener.end()) if opener else None
    return comma.start() if comma else 0


@lru_cache(maxsize=512)
def _boundaries(sentence: str) -> tuple[tuple[int, int], ...]:
    """Where a sentence turns: contrast words ("…, but …"), and the comma that closes a leading
    concessive clause ("Even though Redis was rejected, it might …")."""
    opener = CONCESSIVE_OPENER_RE.match(sentence)
    skip = opener.end() if opener else 0  # the "though" of "Even though" opens, it does not turn
    turns = [(m.start(), m.end()) for m in CONTRAST_RE.finditer(sentence, skip)]
    if opener is not None:
        comma = COMMA_RE.search(sentence, opener.end())
        if comma is not None and not any(start < comma.start() for start, _ in turns):
            turns.insert(0, (comma.start(), comma.end()))
    return tuple(turns)


def start_of_segment(sentence: str, position: int) -> int:
    """Where the segment holding `position` starts ("…, but |here")."""
    starts = [end for start, end in _boundaries(sentence) if end <= position]
    return starts[-1] if starts else 0


def end_of_segment(sentence: str, position: int) -> int:
    """Where the segment holding `position` ends ("here| but …")."""
    ends = [start for start, _ in _boundaries(sentence) if start >= position]
    return ends[0] if ends else len(sentence)


def clause_of(sentence: str, mention: Mention) -> tuple[int, int]:
    """The comma clause around the mention, inside its contrast segment."""
    start = max(start_of_segment(sentence, mention.start), _last_clause_break(sentence, mention.start))
    match = CLAUSE_RE.search(sentence, mention.end)
    end = min(match.start() if match else len(sentence), end_of_segment(sentence, mention.end))
    return start, end


def _last_clause_break(sentence: str, position: int) -> int:
    """The end of the last comma (or colon, dash, parenthesis) before `position`, or 0."""
    start = 0
    for match in CLAUSE_RE.finditer(sentence, 0, position):
        start = match.end()
    return start


def negated_before(window: str) -> bool:
    """Does the text just before a mention negate it or compare against it ("不上", "unlike",
    "avoid paying a")? English negations may stand up to two words before the mention."""
    return bool(NEGATED_BEFORE_RE.search(window)) or any(NEGATING_WORD_RE.search(w) for w in _words_back(window))


def _words_back(window: str, words: int = 2) -> Iterator[str]:
    """The window, then the window without its last word, and so on up to `words` words back: the
    patterns read the end of each, so none repeats a group."""
    for _ in range(words + 1):
        yield window
        last = LAST_WORD_RE.search(window)
        if last is None:
            return
        window = window[: last.start()]


def window_before(sentence: str, mention: Mention, clause_start: int) -> str:
    """The mention's clause up to the mention, at most 24 characters: where a negation, a history word
    or a revival governs it. A code span's or a quote's opening mark just before the name is left
    out, so the verb before it still reads as governing it ("Deleted `migrations/0188…`")."""
    return sentence[max(clause_start, mention.start - 24) : mention.start].rstrip(OPENING_MARKS)


def _only_history(window: str) -> bool:
    """Is what negates the mention only that it is the old one ("旧的", "the old Jenkins box")? English
    history words may stand up to two words before the mention, as negations may."""
    for words in _words_back(window):
        history = HISTORY_BEFORE_RE.search(words)
        if history is not None:
            return not negated_before(words[: history.start()] + " ")
    return False


def revived(sentence: str, mention: Mention, clause_start: int, clause_end: int) -> bool:
    """Is the old option brought back ("把旧的 Jenkins 机器重新开起来", "bring the old Jenkins box back
    online", "恢复之前的 Jenkins")? A mention as history is framed; one being revived is the relapse
    itself. Not when the revival is negated ("之前的 Jenkins 不会再重新开起来") or reported as done
    ("之前的 Kafka 集群已经恢复正常了")."""
    after = REVIVES_AFTER_RE.match(sentence, mention.end, clause_end)
    before = REVIVES_BEFORE_RE.search(window_before(sentence, mention, clause_start))
    if after is None and before is None:
        return False
    revival_start = after.end() if after is not None else mention.start
    if REVIVAL_REPORTED_RE.search(sentence, clause_start, clause_end):
        return False
    return REVIVAL_NEGATED_RE.search(sentence, clause_start, revival_start) is None


def _leads_to_current(sentence: str, mention: Mention, segment_end: int, current: str) -> bool:
    """"X 容易卡住，所以选了无线吸尘器": the mention is a reason for the current decision."""
    causal = CAUSAL_RE.search(sentence, mention.end, segment_end)
    return causal is not None and names_current(sentence[causal.end() : segment_end], current)


def restates_reason(sentence: str, start: int, end: int, reason: frozenset[str]) -> bool:
    """Does the mention's clause repeat why the option was rejected, without arguing it away?
    "树莓派的缺货还没缓解" explains the rejection; "其实很快", "not stressful", "would solve the ops
    cost" rebut it and are read as proposals."""
    clause = sentence[start:end]
    if REBUTS_RE.search(sentence) or REASON_TURNED_RE.search(clause):
        return False
    lowered = clause.lower()
    for key_start, _, key in key_matches(lowered):
        if key in reason and not NEGATION_BEFORE_KEY_RE.search(lowered[max(0, key_start - 8) : key_start]):
            return True
    return False


def proposes(sentence: str, mention: Mention, start: int, end: int, current: str, modal: bool = True) -> bool:
    """Does the text between `start` and `end` propose or praise, in the mention's own clause or in
    a clause that does not name the current decision? "树莓派缺货，N100 是更稳妥的选择" praises the
    current decision, not the option. Without `modal`, a bare "would" is a prediction ("hardwood
    would show scratches"), not a proposal."""
    for match in PROPOSES_RE.finditer(sentence, start, end):
        if not modal and match.group().lower() in ("would", "'d"):
            continue
        if NEGATED_RIGHT_BEFORE_RE.search(sentence, max(0, match.start() - 2), match.start()):
            continue  # "不安排帐篷", "不引入 MQ": the word is said not to happen
        clause_start = _last_clause_break(sentence, match.start())
        clause_end_match = CLAUSE_RE.search(sentence, match.end())
        clause_end = clause_end_match.start() if clause_end_match else len(sentence)
        holds_mention = clause_start <= mention.start < clause_end
        if holds_mention or not names_current(sentence[clause_start:clause_end], current):
            return True
    return False


def _later_segment_returns(sentence: str, segment_end: int, current: str) -> bool:
    """After a "but": the option is ruled out, or the sentence goes back to the current decision."""
    if segment_end >= len(sentence):
        return False
    tail = sentence[segment_end:]
    return bool(RULED_OUT_RE.search(tail)) or names_current(tail, current)


def conceded_then_proposed(sentence: str, current: str) -> bool:
    """"我知道你不想去京都，不过岚山那边人少，可以去半天": the concession names the option, the
    part after the contrast proposes without returning to the current decision (after a reason
    clause, only when it refers back to the option: "Since Redis …, it would be …")."""
    turns = _boundaries(sentence)
    if not turns:
        return False
    tail = sentence[turns[0][1] :]
    if not CONCESSION_RE.search(sentence, 0, turns[0][0]) and not (
        opening_clause_end(sentence) == turns[0][0] and REFERS_BACK_RE.match(tail)
    ):
        return False
    if RULED_OUT_RE.search(tail) or names_current(tail, current):
        return False
    return bool(PROPOSES_RE.search(tail))


def names_current(text: str, current: str) -> bool:
    """Does the text name the current decision by one of its names? Shared words ("deploys" of
    "deploy script") are too weak to say the sentence turned back to it."""
    if not current:
        return False
    names = names_of(current, "")
    lowered = text.lower()
    return bool(
        (names.anchors and names.anchors.search(lowered))
        or (names.cased and names.cased.search(text))
        or any(t in lowered for name in names.cjk for t in name.triples)
    )


# How far into a sentence a pointer back to the sentence before is looked for.
_POINTER_WINDOW = 60


def takes_up(sentence: str, current: str) -> bool:
    """Does the sentence point back at what the sentence before named and put it forward ("Low-stakes
    quizzes are fun. Maybe bring them back?"), without ruling it out or turning to the current
    decision?"""
    if POINTS_BACK_RE.search(sentence, 0, _POINTER_WINDOW) is None:
        return False
    if RULED_OUT_RE.search(sentence) or HISTORY_RE.search(sentence) or names_current(sentence, current):
        return False
    return bool(SUGGESTS_RE.search(sentence) or PROPOSES_RE.search(sentence))
