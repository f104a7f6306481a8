"""A conversation's first turn: what it can turn down.

Nothing has been discussed yet, so an opening turn rejects, drops or brings back only what came
before the conversation, and it says so: "scrap the sharding plan from yesterday", "上次聊的那个
microservices 拆分方案作废", "that postmortem template you drafted has 14 sections". An opening that
refers to no earlier talk is a request, however negative its words: "checkout button does nothing
on safari", "浴缸就不考虑了，地方太小", "react 项目状态管理全靠 context，换啥". The model reads such
words as verdicts: on the writers of two folds it never saw (`python -m training.writer_holdout`,
`^s7` and `^s11`) it raised 29 false alarms on 1,115 opening turns, none of which is a rejection;
27 refer to no earlier talk, and this rule clears the 19 of them no strong cue backs. A strong cue
("…is dead", "作废") still stands on its own: an opening that uses one is about something the user
already has ("the sourdough project is off").

Only a caller that holds the whole conversation knows a turn opens it (`Detector.detect_in`, the
tracker, and so `pivot eval`, `pivot scan` and the hook): a turn checked on its own
(`pivot detect TEXT`) may have had a conversation before it that the caller did not pass.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from detector.schema import Turn

# Words that point at talk before this conversation, or at what the assistant said then.
# Bounded alternations only (linear time, like the cue lexicons).
_EARLIER_TALK_RE = re.compile(
    # Not "last year", "last month" or "last night": "so we're not scrambling in the final
    # fortnight, as we were last year", "I did a wedding last month for £1,400" are the user's own
    # history (of the labelled openings that say them, 50, 31 and 14 are NONE; two say "last month"
    # and reject).
    r"yesterday|last (?:time|week|session|sprint)|earlier|this morning|"
    r"we (?:discussed|talked|outlined|made|drafted|agreed|picked|chose|decided|went with)|"
    r"you (?:suggested|recommended|drafted|did|said|proposed|gave|wrote|made)|"
    r"(?:上|前)(?:次|回|周|个月|一版|一次)|之前|昨天|刚才|前面|你(?:说|给|推荐|建议|提)",
    re.IGNORECASE,
)


def opens_the_conversation(context: Sequence[Turn]) -> bool:
    """Is this the first turn: no earlier turn with text?"""
    return not any(turn.text for turn in context)


def refers_to_earlier_talk(text: str) -> bool:
    """Does the turn point at something said before this conversation ("the plan from yesterday",
    "上次定的", "the template you drafted")?"""
    return _EARLIER_TALK_RE.search(text) is not None
