"""A polite decline of what the assistant just offered to do: "不用了 我妹在京都 她帮我们订" after
"需要我帮你查一下小火车的订票时间吗？", "no thanks, I'll book it myself" after "Want me to book the table?".

The label guide rules such a decline a REJECT of the offer, and a plain "no" to "anything else?"
NONE: nothing was offered. In the training and dev data, 54 turns open with a decline right
after a reply that ends on an offer: 41 are REJECT, and most of the 13 NONE answer "还需要我做什么
吗？" (no offer, here) or decline a specific offer against the guide. The model reads most such turns
right, but not a decline whose reasons say someone else will do it ("我妹在京都 她帮我们订", NONE at
0.78): it sees a short turn about a sister, not an answer to the question. Joining the turn to the
reply's question is a rule of the fusion (detect.py), like a prohibition of a proposed option.

Every pattern is a plain alternation or a bounded class: linear in the turn's length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from detector.courtesies import KINDNESS
from detector.cues.spans import clean_span
from detector.features import last_assistant_text
from detector.schema import Turn

# "No need to trouble you", the decline that may come anywhere in the turn (`_LATER_DECLINE_RE`),
# said plainly or formally ("不必麻烦了，谢谢您").
_NO_TROUBLE = r"不(?:用|必)麻烦(?:您|你)?(?:了|啦)?|不麻烦(?:您|你)了"
# The turn opens with a decline, and it is the whole first clause: "不用了", "不用写了", "no thanks, …"; thanks
# may come first ("非常感谢您的好意，one-pager 就不用麻烦您了"), and the thing the decline names ("流程图
# 就不麻烦您了").
_DECLINE_RE = re.compile(
    # An interjection may lead the English ones: "Ah no thank you, that's kind, but our Carys does all
    # the words", "oh you're alright", "God, no, I'll write my own scenes".
    rf"^\s?(?:(?:ah|oh|aw|erm|um|well|god|gosh|lord|good lord),?\s(?=no\b|nah\b|nope\b|thanks|thank you|you'?re\b))?(?:(?:(?:非常|十分)?(?:感谢|谢谢|多谢)(?:您|你)?(?:的好意)?|thanks|thank you|thx)[,，]\s?)?(?:不用(?:了|啦|喇)?|不用不用|(?:不用|不必)(?:全部|都|再|重新)?(?:重写|写|弄|做|整理|准备|画|列|查|订|约|安排)(?:了|啦)?|不需要了?|不必了?|免了|先不用了?|暂时不用|{_NO_TROUBLE}|麻烦不用了|"
    # The offer's thing named first: "告警不用你写 运维那边有统一的监控平台", "sql 不用了 平台自带", "简本暂不需要，谢谢",
    # "集點卡的部分就不用麻煩了".
    r"(?!麻烦|谢谢)(?P<named>(?:[A-Za-z0-9][^，,。.!！?？\s]{0,11} ){0,2}?[^，,。.!！?？\s]{1,12}?)\s?(?:(?:不用|不需要|用不着|不劳)你(?:写|弄|做|管|来|操心|帮忙|费心)?|(?:就|也|都|先)?(?:不用了|不需要了|不(?:用|必)?麻烦(?:您|你)?了)|暂时?不(?:用|需要)了?|"
    # Cantonese's "唔使喇", as normalisation reads it (`cantonese.as_mandarin`): "transaction cost 嗰part
    # 唔使喇 thx".
    r"不用(?:喇|啦)|"
    # The user doing it: "貼文我自己寫就好，謝謝你～" (normalised to simplified characters).
    r"(?:我|我们)自己(?:来|写|弄|做|搞|处理|安排|改)(?:就好|就行|就可以))|"
    r"no,? thanks?|no thank you|no need|nah,? (?:i'?m|we'?re) good|i'?m good|we'?re good|not needed|i'?ll pass|no ta|"
    # British and Irish: "ah no you're alright, my cousin does electrics", "no no, you're grand".
    r"(?:no,? ){0,3}you'?re (?:alright|all right|grand|grand so|ok|okay)|"
    # New Zealand and Australia: "Nah she'll be right, I'll just ring Dave".
    r"(?:(?:yeah,? )?(?:nah|no),? )?she'?ll be right|"
    # Thanks first, then the no: "Thanks, not necessary", "Thank you, but no —", "That's kind of
    # you, but my son-in-law has already drawn one up".
    # A bare "but" only after kindness named: "thanks, but can you make it shorter" asks for more.
    rf"(?:thanks|thank you|cheers|{KINDNESS}),? "
    r"(?:but )?(?:no|not necessary|not needed|no need|we'?re (?:ok|fine|good|covered)|i'?m (?:ok|fine|good|covered))\b|"
    rf"(?:{KINDNESS}),? but\b|"
    # A no, then that it is done already: "nah we got a spreadsheet → json pipeline already".
    r"(?:no|nah|nope)(?=[,.]? [^.!?\n]{0,60}\balready\b)|"
    # "Nah, don't need that, my buddy's a lawyer".
    r"(?:(?:no|nah|nope),? )?(?:i |we )?(?:don'?t|do not) need (?:that|it|one|this)\b|"
    # A no, then that the user does it: "nah i'll write the postmortem, …", "God, no, I'll write my
    # own scenes".
    r"(?:no|nah|nope)(?=[,.]? i'?ll (?:just )?(?:write|do|draft|handle|sort|make|book|put together|set up|take care of)\b)|"
    r"not necessary|"
    # "Not today, thank you": the polite no to a specific offer; a bare "not today" to "anything
    # else, e.g. …?" only ends the session.
    r"not (?:today|this time)(?=[,.]?\s?(?:thanks|thank you|cheers)\b)|"
    # Formal: "That will not be necessary, thank you; the clerk drafts all recommendations".
    r"(?:that|this|it)(?:'s not| is not| isn'?t| will not be| won'?t be| would not be| wouldn'?t be) (?:necessary|needed)|"
    # Not now, on a condition: a decline that may come back ("not yet. maybe once we have paying
    # users"; the label guide's "先不做，等预算下来再说"). Without one it may only say the time is not
    # ripe ("not yet, dont have the new office"), which the data reads as no answer to the offer.
    r"(?:not yet|not now|not right now|maybe later)(?=[^\n]{0,40}?\b(?:once|until|till|when|after|unless)\b))"
    r"(?=\s?(?:[,，。.!！~～]|\s|thanks|谢谢|哈|啦|$))",
    re.IGNORECASE,
)
# Or says it after saying why, in the middle or at the end: "screener 我们有 template 了 不用麻烦～谢谢
# 🙏", "文案 agency 会出 不用麻烦了 🙏 50 台改 30 台", or after thanks, naming the thing: "公告写得很温暖，
# 谢谢您。集点卡的部分就不用麻烦了".
_LATER_DECLINE_RE = re.compile(
    rf"(?:^|[\s,，。.!！~～])(?:(?P<named>[^\s,，。.!！?？~～]{{1,12}}?)(?:就|都|也)|就|都|也)?(?:{_NO_TROUBLE})(?=\W|$)"
)
# The reply ends by offering to do something: "需要我帮你查一下…吗？", "Want me to draft it?", or
# says it can on request: "需要的话我可以写个脚本，帮你生成 manifest。", "If you like, I can draft
# it."; one short sentence may follow the offer, saying why ("Want me to also plan a QA hire? With
# 3 new people shipping, bugs can pile up.").
_OFFER_RE = re.compile(
    r"(?:(?:需要|要不要|要|用不用)我(?:帮你|帮您|给你|给您|替你|来|再|先|顺便){0,2}(?P<zh>[^。？?！!\n]{2,100}?)(?:吗|么|嘛)?\s?[？?]"
    r"|(?:需要的话|如果需要|有需要的话|要是需要|如果你需要|如果您需要)[,，]?\s?我(?:还|也)?(?:可以|能)(?:帮你|帮您|给你|给您|再|先|顺便){0,2}(?P<zh_if>[^。？?！!\n]{2,80}?)[。.！!]"
    r"|\b(?:want me to|shall i|should i|would you like me to|do you want me to|can i|i can also|i could also"
    # "Would it help if I wrote a small script that …?"
    r"|would it (?:help|be useful|be helpful) if i)\s"
    r"(?:also\s)?(?P<en>[^?.!\n]{2,240}?)\?"
    # The thing first, then whether it would help: "would a template for a production log - … - be
    # useful for keeping them in order?"
    r"|\bwould (?P<en_would>(?:a|an|some)\s[^?.!\n]{2,200}?) be (?:useful|helpful|of use)\b[^?.!\n]{0,80}\?"
    r"|\bif (?:you(?:'d)? (?:like|want)|(?:it(?:'s| is|'d be|would be) )?(?:useful|helpful)|it(?:'d| would)? helps?),? i (?:can|could) (?:also\s)?(?P<en_if>[^?.!\n]{2,240}?)[.!]"
    # The condition after: "I could draft a short letter to the estates team if that helps?"
    r"|\bi (?:can|could) (?:also\s)?(?P<en_then_if>[^?.!\n]{2,240}?),? if (?:that|it)(?:'d| would)? helps?[?.!])"
    r"(?:\s{0,2}[^?？\n]{1,120})?\s*$",
    re.IGNORECASE,
)
# What an offer adds after the thing it offers: how it is made or whom it serves ("a printable
# weekly calendar with the sleep windows, caffeine cutoffs and meal times laid out", "a template
# for your team to use when …", "a frame-data format (startup, active, …) you could author"). The
# thing is what the user turns down, and the state matches rejected options by their words: the
# whole offer put "caffeine" on the rejected list.
_OFFER_TAIL_RE = re.compile(
    r"\s?\(.*$|\s(?:with|so that|so you|for you|for your|that you|you could|you can)\b.*$"
    # What it would hold, set off by a dash: "a one-page spec for the electrician — total load, …".
    r"|\s[—–-]\s.*$"
    # What it would hold or what it is for, after a comma: "…guideline，包括选拔标准…", "…模板，方便向 APAC 申请".
    r"|[,，]\s?(?:包括|包含|含|方便|以便|用来|便于|可以|including|covering)[^\n]*$",
    re.IGNORECASE,
)
# Offers of nothing in particular: "还需要我做什么吗？", "Anything else I can help with?".
_NOTHING_OFFERED_RE = re.compile(r"做什么|做点什么|帮忙|帮什么|别的|其他|其它|还有什么|anything|something else", re.IGNORECASE)


def declined_offer(text: str, context: Sequence[Turn]) -> str | None:
    """What the last reply offered to do, when the (normalised) turn opens by declining it, or says
    不用麻烦了 after its reason: the thing as the decline names it ("前端那边不用你管" → 前端), else as
    the offer does."""
    decline = _DECLINE_RE.match(text) or _LATER_DECLINE_RE.search(text)
    if decline is None:
        return None
    offer = _OFFER_RE.search(last_assistant_text(context).strip())
    if offer is None:
        return None
    offered = next(found for found in offer.group("zh", "zh_if", "en", "en_would", "en_if", "en_then_if") if found).strip()
    offered = _OFFER_TAIL_RE.sub("", offered) or offered
    if _NOTHING_OFFERED_RE.search(offered):
        return None
    # The words that only point at the thing go as they go from any span ("前端那边" → 前端).
    return clean_span(decline.groupdict().get("named") or "", "target") or offered
