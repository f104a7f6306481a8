"""A user turn that orders undone the change a coding agent just reported: "revert that", "undo the
pydantic change", "撤回吧，网关只认 session", "改回去".

A coding agent acts before it is judged: it reports "I've switched the worker pool to asyncio" or
"我把登录接口改成了用 JWT", and the user's verdict is an order to undo it. That order rejects the
direction the agent took, and an agent that does it again later relapses as surely as one that
re-proposes a rejected design. The model reads "revert that. we can't add pydantic…" as NONE (0.90
in session 21): the training data holds few such orders, and "revert" / "回滚" there are as often
an operation under discussion ("中间失败要回滚前面的", "add the alarm-based rollback then"). What
tells them apart is the pair: an order opening a clause, right after a reply that reports or
announces a change. So the pair is a rule of the fusion (detect.py), as a prohibition of a
proposed option is (prohibitions.py), and the change the reply reports is the target.

An order may also reach back past the last reply, when it names what an earlier reply did ("back
out the SQLAlchemy models thing from earlier") or points at a change the user has just recalled
("in your first pass you also wrapped fetchConfig with the retry. undo that"); only "revert",
"undo", "roll back" and "back out" reach that far.

The order must open its clause ("no, undo that", "那就回滚", not "要回滚前面的") or follow a polite
request ("can you undo the retry wrapper?", "能不能撤回一下"); inside a question, a condition, a
quote, code or reported speech ("should we revert?", "if it fails, roll it back", "my lead wants to
revert it") it orders nothing: the cue layer's guards read it, as they read a cue.
"revert to X" / "改回 X" name where to go back to: the lexicons' reopening cues read those.

Every pattern here is a plain alternation or a bounded class, linear in the text's length, and a
turn's first MAX_MATCHES orders are read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import islice

from detector.alternatives import announcement, content_keys
from detector.cues.engine import CueEngine
from detector.features import PREVIOUS_ASSISTANT_CHARS, last_assistant_text, recent_assistant_texts
from detector.openings import MAX_MATCHES, clause_after, held_back, opens_clause
from detector.schema import Turn
from detector.text import normalize

# The verbs of undoing, also a verdict's words for the reason finder (reasons.py).
REVERT_VERB = (
    r"(?:\b(?:revert|undo|roll back|rollback|back out|unwind)\b"
    r"|\b(?:change|put|set|switch|move|turn) (?:it|that|this|them|those|these|everything) back\b"
    r"|撤回|回滚|撤销|还原|回退|改回去|改回来|换回去|换回来|恢复原样)"
)
# The order: the verb, with what it undoes put first in Chinese ("把这个改动撤销"); not "revert to X"
# or "改回 X", which name where to go back to. Whether it opens its clause is `opens_clause`'s call.
_REVERT_RE = re.compile(
    r"(?:把(?:它|这个|这些|刚才的|刚刚的|你的)?(?:改动|修改|变更|提交)?\s?)?"
    + rf"(?P<verb>{REVERT_VERB})(?!\s?(?:back\s)?(?:to|into)\b|到|成|为)",
    re.IGNORECASE,
)
# A polite request right before the order: "can you undo the retry wrapper?", "could you revert
# that", "能不能撤回一下". It orders, where "should we revert?" or "要不要撤回？" deliberates.
_REQUEST_RE = re.compile(
    r"(?:\b(?:can|could|would|will) (?:you|we|u)(?: please| pls| just| maybe)?|能不能|能否|可不可以|可以|麻烦你?|请你?)\s{0,2}(?:帮我)?\s{0,2}$",
    re.IGNORECASE,
)
# What a reply says it has done: "I've switched the worker pool to asyncio", "Done. I also bumped
# react-router to v7", "我把登录接口改成了用 JWT", "另外我顺手把 tracker 换成了 Segment", "已把数据库迁到
# MariaDB". The summary runs to the end of its clause.
_CHANGE_VERBS = (
    "updated|changed|switched|replaced|added|removed|deleted|rewrote|rewritten|refactored|migrated|bumped|upgraded|"
    "downgraded|moved|converted|renamed|introduced|implemented|wrapped|made|turned|split|merged|inlined|extracted|"
    "dropped|disabled|enabled|pinned|set"
)
_REPORT_RE = re.compile(
    rf"\bI(?:'ve| have)?(?: also| just| now)? (?P<summary>(?:{_CHANGE_VERBS})\s(?:[^.;!?\n]|\.(?=\S)){{3,100}})"
    r"|(?:我|已经?)(?:已经|刚刚?|刚才|顺便|顺手|也|还|另外|直接)?(?:在\s?[^,;!?，。；！？\n]{1,30}?(?:里|中|上)\s?)?(?:把|给|将|用)"
    r"\s?(?P<summary_zh>[^,;!?，。；！？\n]{2,40}?(?:改成|换成|改为|替换成|设成|设为|迁到|切到|重写|删掉|删除|去掉|加上|"
    r"升级|迁移|拆|合并|封装)[^,;!?，。；！？\n]{0,30})",
    re.IGNORECASE,
)
# A change log's line, the verb opening the sentence with no subject ("Added a retry loop in the
# command:", "Switched the pool to asyncio."): read only when no report says "I", which would be
# read with it as several changes.
_LOG_REPORT_RE = re.compile(
    rf"(?:^|(?<=[.!?]\s)|(?<=\n))(?=[A-Z])(?P<summary>(?i:{_CHANGE_VERBS})\s(?:[^.;!?\n]|\.(?=\S)){{3,100}})"
)
# An order to return to what was there before: "go back to threads", "switch back to the old
# parser", "revert to requests", "改回 session", "换回原来的 requests", "回到 Redux".
_BACK_TO_RE = re.compile(
    r"\b(?:(?:go|switch|change|move|put it|set it|turn it|revert it|roll it|take it)\s+)?back\s+to\s+"
    r"|\b(?:revert|roll back|return) to\s+"
    r"|(?:改|换|切|退|转|用)回(?:到|成|去|来)?(?:用)?\s?|回到\s?|回退到\s?",
    re.IGNORECASE,
)
# A reported change from one thing to another: "switched the worker pool from threads to asyncio",
# "replaced requests with httpx", "swapped moment for dayjs", "把 requests 换成了 httpx", "从 Redux
# 迁移到了 Zustand". The groups alternate: old, new, old, new…
_SWAP_RE = re.compile(
    r"\bfrom\s(?P<old>[^,;]{1,40}?)\s(?:to|over to)\s(?P<new>[^,;]{1,40})"
    r"|\b(?:replaced|swapped)\s(?P<old2>[^,;]{1,40}?)\s(?:with|for|by)\s(?P<new2>[^,;]{1,40})"
    r"|把\s?(?P<old3>[^，。,;；]{1,20}?)\s?(?:换成|替换成|换为|改用)了?\s?(?:用\s?)?(?P<new3>[^，。,;；]{1,20})"
    r"|从\s?(?P<old4>[^，。,;；]{1,20}?)\s?(?:迁移到|迁到|换到|切到|切换到|改到|换成|改成|替换成|改为|换为)了?\s?(?P<new4>[^，。,;；]{1,20})",
    re.IGNORECASE,
)
# Where the name of what a change replaced, or brought in, ends: "asyncio in the worker" is asyncio.
_CHANGE_PLACE_RE = re.compile(r"\s(?:in|on|for|across|everywhere|throughout|inside|at|so|since|because)\b|里|中|上", re.IGNORECASE)
# Words of an order's object that name nothing but the change just reported: pointers ("all of
# that", "the last change", "the thing from earlier") and words for a change.
_GENERIC_OBJECT_KEYS = content_keys(
    "everything all them those these last latest previous step change changes edit edits commit thing stuff part "
    "bit please now again earlier before first pass 改动 修改 一下"
)
# How many replies back an order may reach for the change it undoes: "back out the SQLAlchemy
# models thing from earlier" undoes what a reply three turns before did.
UNDO_REACH_REPLIES = 6
# The user recalling a change of the agent's, in the sentence before the order points at it: "in
# your first pass you also wrapped fetchConfig with the retry. undo that."
_RECALLED_RE = re.compile(
    rf"\byou(?:'ve| have)?(?: also| just| even| then)? (?P<summary>(?:{_CHANGE_VERBS})\s(?:[^.;!?\n]|\.(?=\S)){{3,100}})",
    re.IGNORECASE,
)
# The verbs that reach back: "put that back" after a rejection brings an option back (a
# reopening), and "rollback 的 action item" or "回滚 SQL" is a noun; "revert", "undo" and "back
# out" only undo.
_UNDO_VERB_RE = re.compile(r"revert|undo|roll back|back out|unwind", re.IGNORECASE)
# Words around the thing undone that say which part or when it was done: "the SQLAlchemy models
# thing from earlier" is SQLAlchemy models.
_EARLIER_TAIL_RE = re.compile(
    r"^(?:the|that|this|your)\s|(?:\s(?:part|bit|thing|stuff|change|changes|edit))?(?:\s(?:from (?:earlier|before|the first pass|your first pass)|you (?:added|did|made)(?: earlier)?|earlier))?\s*$",
    re.IGNORECASE,
)
# An order about the user's own work ("revert my last commit", "undo what I did to column F"):
# no direction of the agent's is rejected.
_OWN_WORK_RE = re.compile(r"\b(?:my|mine|I|I'?ve|I'?d)\b|我(?!们)", re.IGNORECASE)
# A scope of the change: "everything outside internal/store", "revert it but keep the tests".
_SCOPE_RE = re.compile(r"\b(?:outside|except|but|apart from|other than|besides|beyond)\b", re.IGNORECASE)
# Where a reported change ends: "bumped react-router to v7 since the old version…", "updated
# `parse_config` to use pydantic models and migrated the call sites".
_CHANGE_END_RE = re.compile(r"\s(?:and|since|because|as|so|which|so that|to fix|to avoid|to make)\s", re.IGNORECASE)


def returned_to(text: str, context: Sequence[Turn], engine: CueEngine) -> tuple[str, str] | None:
    """(what the change brought in, what it replaced) when the assistant's last turn reports a
    change from one thing to another and this (normalised) user turn orders a return to the first
    ("I've switched the worker pool from threads to asyncio" → "hmm go back to threads": ("asyncio",
    "threads")), else None."""
    previous = last_assistant_text(context)
    if not previous:
        return None
    orders = list(islice(_BACK_TO_RE.finditer(text), MAX_MATCHES))
    if not orders:
        return None
    change = reported_change(previous)
    swap = _SWAP_RE.search(change) if change else None
    if swap is None:
        return None
    old, new = (next(group for group in swap.groups(default="")[i::2] if group) for i in (0, 1))
    old, new = (_CHANGE_PLACE_RE.split(part, maxsplit=1)[0].strip(" ,，。") for part in (old, new))
    guarded = engine.guard_for(text)
    for order in orders:
        if held_back(text, order.start(), order.end(), guarded):
            continue
        destination = content_keys(clause_after(text, order.end()))
        if old and new and destination & content_keys(old) and not destination & content_keys(new):
            return new, old
    return None


def reverted_change(text: str, context: Sequence[Turn], engine: CueEngine) -> str | None:
    """The change the assistant's last turn reports (or announces) when this (normalised) user
    turn orders it undone, else an earlier change the order reaches back for (`_earlier_change`),
    else None."""
    previous = last_assistant_text(context)
    if not previous:
        return None
    orders = list(islice(_REVERT_RE.finditer(text), MAX_MATCHES))  # each is read back to its sentence's start
    if not orders:
        return None  # reading the reply costs more than looking for an order
    change = reported_change(previous)
    reaching = [_UNDO_VERB_RE.fullmatch(order.group("verb")) is not None for order in orders]
    if change is None and not any(reaching):
        return None  # nothing reported, and no order that reaches back ("put it back")
    guarded = engine.guard_for(text)
    for order, reaches in zip(orders, reaching, strict=True):
        requested = _REQUEST_RE.search(text, max(0, order.start() - 30), order.start()) is not None
        if not (requested or opens_clause(text, order.start())):
            continue
        if held_back(text, order.start("verb"), order.end(), guarded, requested=requested):
            continue
        undone = clause_after(text, order.end())
        if change is not None and not _names_another_change(undone, change):
            return change
        earlier = _earlier_change(text[: order.start()], undone, context) if reaches else None
        if earlier is not None:
            return earlier
    return None


def _earlier_change(before: str, undone: str, context: Sequence[Turn]) -> str | None:
    """The change an order undoes when the last reply reported none (or another): the one the
    user recalls right before a pointer ("you also wrapped fetchConfig with the retry. undo
    that"), or the thing the order names when an earlier reply of the last UNDO_REACH_REPLIES
    names it ("back out the SQLAlchemy models thing from earlier"). Not the user's own work."""
    if _OWN_WORK_RE.search(undone):
        return None
    named = content_keys(undone) - _GENERIC_OBJECT_KEYS
    if not named:
        recalled = [match.group("summary") for match in _RECALLED_RE.finditer(before) if not _OWN_WORK_RE.search(match.group("summary"))]
        return _CHANGE_END_RE.split(recalled[-1], maxsplit=1)[0].strip() if recalled else None
    replies = recent_assistant_texts(context, UNDO_REACH_REPLIES)
    if any(len(named & content_keys(reply)) * 2 > len(named) for reply in replies):
        return _EARLIER_TAIL_RE.sub("", undone.strip(" ,，。.:：")).strip()
    return None


def orders_undone(span: str) -> bool:
    """Does a cue's span hold an order to undo ("put it back", "改回去")? A reopening cue reads
    those words as a rejected option brought back; after a change the reply reported, they undo it."""
    return _REVERT_RE.search(span) is not None


def _names_another_change(obj: str, change: str) -> bool:
    """Does the order's object name something the reported change does not ("undo the debug prints
    you added earlier" after "I've added a test for the empty file")? A pointer ("that", "the last
    change"), a scope ("everything outside internal/store") or words of the change ("the pydantic
    change") leave it the change."""
    named = content_keys(obj) - _GENERIC_OBJECT_KEYS
    return bool(named) and not _SCOPE_RE.search(obj) and not named & content_keys(change)


@lru_cache(maxsize=1024)
def reported_change(reply: str) -> str | None:
    """The one change a reply (as the assistant wrote it) reports having made, else the one it
    announces, else None: a reply reporting several changes ("I've updated X… I've also removed
    Y") names no single one, and a summary of all of them would be no better a target than the
    cue's. Its end is read, where a long reply reports what it did.

    Cached: the detector reads the last reply for it, and the tracker again for the rejection."""
    reply = normalize(reply)[-PREVIOUS_ASSISTANT_CHARS:]
    reports = list(_REPORT_RE.finditer(reply)) or list(_LOG_REPORT_RE.finditer(reply))
    if len(reports) > 1:
        return None
    summary = (reports[0]["summary"] or reports[0].groupdict().get("summary_zh")) if reports else announcement(reply)
    summary = _CHANGE_END_RE.split((summary or "").replace("`", ""), maxsplit=1)[0].strip(" :：,，*")
    return summary if len(summary) >= 3 else None
