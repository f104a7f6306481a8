"""Turns that only remind the assistant of something to do: "don't forget to update the
changelog", "also don't forget the README", "别忘了加索引", "缓存别忘了设过期时间".

The model reads the "don't" and the 别 of a reminder as the words of a rejection ("don't forget to
update the changelog" after a proposal was a REJECT at 0.79, "别忘了加索引" at 0.62, each aimed at
whatever the reply had proposed). A reminder asks for more of the work under way; it turns nothing
down. So a turn whose only word of refusal is the one inside its reminder is NONE, when no cue
fired. A turn with another no beside its reminder ("don't forget we said no redis", "别忘了，缓存
不要了") is left to the cues and the model. Across train, dev, long_dev and the unseen sets, 13
labelled turns hold a reminder and no other no: all NONE.

Every pattern is a plain alternation: linear in the turn's length.
"""

from __future__ import annotations

import re

# "记得" reminds ("记得把日志打开"); "我记得", "还记得", "只记得" recall, and "记得吗" asks.
_REMINDER_RE = re.compile(
    r"\b(?:don'?t|do not|never) forget(?: about)?\b|\bremember to\b|\bmake sure\b"
    r"|别忘了|别忘记|不要忘了|不要忘记|(?<![我还只没不])记得(?![吗吧嘛])",
    re.IGNORECASE,
)
# Any other word that says no, drops or swaps. 不 and 别 inside other words ("不错", "别的") count
# too: a reminder beside them is left to the model, which only narrows this rule.
_OTHER_NO_RE = re.compile(
    r"\bno\b|\bnot\b|n'?t\b|\bnever\b|\bnope\b|\bnah\b|\binstead\b|\brather\b|\bwithout\b|\bskip\b|\bdrop\b"
    r"|不|别|没|否|算了|换|改成|放弃|去掉|砍|而是",
    re.IGNORECASE,
)


def only_reminds(text: str) -> bool:
    """Does the (normalised) turn hold a reminder and no word of refusal outside it?"""
    return _REMINDER_RE.search(text) is not None and _OTHER_NO_RE.search(_REMINDER_RE.sub(" ", text)) is None
