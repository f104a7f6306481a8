"""A pause that keeps the option: "慰问独居老人那部分先放一放，等名单出来再说，不是取消", "park the
widget, not killing it", "Just not right now … Keep it on the list".

The label guide: "先不做，等预算下来再说" is a REJECT with a revisit condition, but an explicit
pause that says the option stays ("这个先放着，不是不要") is NONE: nothing was ruled out. The words
that say so are few and plain; in the training data 73 of the 75 turns with them are NONE, and
the two REJECTs drop another option in another point of the same message ("…不是不做; 3. 方案4
…直接排除"). The model learned the short forms; in a long update, where the pause is one point of
several, it read the pause alone (two of long_dev's false alarms).
All patterns are bounded (linear time), like the cue lexicons.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from detector.text import SentenceIndex

# The option stays: "不是不要", "不是取消", "not killing it", "keep it on the list". Or only the
# talk of it pauses ("抽奖那个先不讨论", "1块钱会员那个先不聊了，等财务回复再说", the northern "先不唠这个了",
# "工具先别讲": 37 of the 41 such train and dev turns with 先不 are NONE, and all 3 with 先别; "先不管了"
# and "先不谈了" more often drop the thing, and are not here), or pauses for a moment ("forget cyberpunk
# for a sec"). "不是说不整" keeps it as "不是不要" does.
_KEPT_RE = re.compile(
    r"先(?:不|别)(?:讨论|聊|唠|说|讲)(?:它|这个|这块)?了?(?![\u4e00-\u9fff])|"
    # Said of the option, not set against something else ("投资人不是不要大数字，是不要只有大数字").
    r"不是(?:说)?(?:不要|不做|不去|不买|不办|不搞|不整|不弄|取消|放弃|砍掉|否掉|不考虑|不用)(?![\u4e00-\u9fff])|不是(?:不要|不做|取消)(?=[哦啊呀的了])|"
    # An order not to strike it off: "CTO还没拍板，所以自研先别从列表里拿掉", "价格可以谈的 先别排除".
    r"(?:先|暂时|还)(?:别|不要)(?:从[^,.!?;，。！？；\s]{1,10}(?:里|中))?(?:排除|拿掉|删掉|去掉|划掉|砍掉|否掉|毙掉)|"
    r"\b(?:(?:i'?m |we'?re )?not (?:dropping|killing|scrapping|cancell?ing|ditching|abandoning) (?:it|this|that|them|these|those)|"
    # "It remains on our list, of course", "still on the list, just not this sprint".
    r"keep (?:it|this|that) on the (?:list|radar)|(?:it|this|that) (?:remains|stays|is still) on (?:the|our|my) (?:list|radar)|(?:^|(?<=[.;,]\s))still on (?:the|our|my) list|not a no|isn'?t a no|don'?t (?:rule|cross|strike) (?:it|this|that|them) (?:out|off) yet|"
    # "forget cyberpunk for a sec lol. how loud is this thing": the talk of it, for a moment; "let's not
    # do the trailer convo rn", "Let us leave the money side for another evening": the talk, for now.
    r"forget (?:about )?[^,.!?\n]{1,40}? for (?:a |one )?(?:sec|second|moment|minute|bit)|"
    r"let'?s not (?:do|have|get into) (?:the |this |that )?[^,.!?\n]{0,30}?(?:convo|conversation|discussion|talk|chat)|"
    r"(?:leave|save|park|keep) [^,.!?\n]{1,40}? for another (?:day|time|evening|session|week|night))\b",
    re.IGNORECASE,
)


def keeps_the_option(text: str, verdicts: Sequence[int] = ()) -> bool:
    """Does the turn pause an option and say it stays, with no verdict elsewhere?

    `verdicts` are where verdict cues fired. One in the sentence that says the option stays, or in
    the sentence before it (where the pause is: "Just not right now, …. Keep it on the list"), is
    the pause; one anywhere else drops something else, and the turn keeps its label."""
    kept = [match.start() for match in _KEPT_RE.finditer(text)]
    if not kept:
        return False
    index = SentenceIndex(text)
    pausing: set[tuple[int, int]] = set()
    for position in kept:
        start, end = index.bounds(position)
        pausing.add((start, end))
        if start > 0:
            pausing.add(index.bounds(start - 1))
    return all(index.bounds(verdict) in pausing for verdict in verdicts)
