"""Turns that are only courtesies: "不用客气", "不用急，慢慢来", "no worries, take your time".

They are acknowledgements (the label guide's NONE), but the model reads 不用 and "no" as the
words of a polite decline ("不用了" to "要不要我帮你订？" is a REJECT) and called "不用客气" and
"没事，不用道歉" rejections of whatever the assistant had proposed. A courtesy is about the
conversation, never about an option: a turn made only of them is NONE whatever the model says.
Across train, dev, test and long_dev, 143 labelled turns are made only of courtesies, all NONE.

Only the whole turn counts: "不用急，先把方案A砍了" rejects, and "no thanks" (a decline) is no
courtesy. A decline of an offer ("不用了", "不用麻烦了", "no thanks") is not in the list.
"""

from __future__ import annotations

import re

# Kindness named, as a decline opens ("That's kind of you, but …", "That is a kind thought, but …",
# "I appreciate it, but no", "That's awfully kind, but I think I'll leave the wiring to the
# electrician"; declines.py) and as a clause that gives no reason (reasons.py).
KINDNESS = (
    r"(?:that'?s|that is) (?:(?:very |really |real |awfully |terribly |ever so |so |most )?kind(?: of you)?|a (?:very |really )?(?:kind|nice|generous) (?:thought|offer))|"
    r"(?:i )?appreciate (?:it|the offer|the thought)"
)
# Longer than this, a turn says more than a courtesy does.
_MAX_CHARS = 60
_PIECE_SPLIT_RE = re.compile(r"[,，.。!！~～、;；…]+")
_COURTESY = (
    r"(?:不用|不必|别)(?:客气|谢谢?|谢我|急|着急|道歉|抱歉|担心|紧张|内疚|自责|不好意思)(?:啦|了|哈|哦|呀|的)?"
    r"|没事儿?|没关系|慢慢来|不急|不着急|辛苦了?|谢谢(?:你|啦)?|多谢|好的?|嗯{1,3}"
    r"|no worries|no problem|no rush|no hurry|no need to (?:apologi[sz]e|thank me|be sorry|rush|hurry)"
    r"|you'?re welcome|don'?t worry(?: about it)?|take your time|all good|it'?s (?:fine|ok|okay|all good)"
    r"|thanks?(?: you)?|np|ok(?:ay)?|sure"
)
# One piece between punctuation: up to three courtesies run together ("不用急慢慢来", "ok thanks").
_PIECE_RE = re.compile(rf"(?:{_COURTESY})(?:\s{{0,2}}(?:{_COURTESY})){{0,2}}", re.IGNORECASE)


def is_courtesy(text: str) -> bool:
    """Is the (normalised) turn made only of courtesies?"""
    if len(text) > _MAX_CHARS:
        return False
    pieces = [piece.strip() for piece in _PIECE_SPLIT_RE.split(text) if piece.strip()]
    return bool(pieces) and all(_PIECE_RE.fullmatch(piece) for piece in pieces)
