"""Written Cantonese read in Mandarin's function words, one character for one.

A Hong Kong user types "呢个 approach 唔得", "唔使 la", "算数啦 唔好再搞佢哋", "转做 WhatsApp 啦":
the cues, the lexicons and the training data are written in Mandarin, so each of these went unread
(a blind helper's Hong Kong conversation: 10 of 16 turns read right, three of its six rejections
NONE; 13 with this module and the declines read through it). Cantonese says the same no with its
own function words, and the content words ("approach", "WhatsApp", "POS") are shared; so the
negations, particles and pronouns are mapped to their Mandarin forms ("唔得" → "不行", "咗" → "了",
"佢哋" → "他们") and every layer after normalisation reads the turn as it reads Mandarin.

Every replacement has the length of what it replaces, so offsets stay those of the text. Only a text
with a character that written Mandarin does not use (`_MARKER_RE`) is touched: "唔" alone is also a
Mandarin "hmm" ("唔 这个多余了"), so it is mapped only when a CJK character follows at once, and
"系" (Cantonese "係", is) is a "是" only after the words that lead it in Cantonese ("唔系", "就系",
"真系"), never inside "关系" or "系统". Every pattern is an alternation of fixed strings.
"""

from __future__ import annotations

import re

# Words first, longest first, then single characters: each maps to a string of its own length.
_WORDS = {
    "唔使": "不用",
    "唔洗": "不用",
    "唔得": "不行",
    "唔好": "不要",
    "唔该": "谢谢",
    "唔啱": "不对",
    "系咪": "是不",
    "乜嘢": "什么",
    "而家": "现在",
    "依家": "现在",
    "头先": "刚才",
    "搞掂": "搞定",
    # "唔好住" and "唔使住" are "not yet" (住, an aspect particle): "租 studio 暂时唔好住啦，等…先算",
    # "唔使住，copy 我哋 in-house 有個 copywriter 會寫".
    "唔好住": "先不要",
    "唔使住": "先不用",
    "返转头": "回过头",
}
_CHARACTERS = {
    "咗": "了",
    "嘅": "的",
    "哋": "们",
    "佢": "他",
    "冇": "没",
    "嗰": "那",
    "喺": "在",
    "啲": "些",
    "嚟": "来",
    "睇": "看",
    "揾": "找",
    "搵": "找",
    "啱": "对",
    "谂": "想",
    "俾": "给",
}
_WORDS_RE = re.compile("|".join(sorted(_WORDS, key=len, reverse=True)))
_CHARACTERS_RE = re.compile(
    "[" + "".join(_CHARACTERS) + "]"
    r"|唔(?=[\u4e00-\u9fff])"  # the negation, not the "hmm" before a space
    r"|(?<=[唔不就真都先仲又即只嘅的佢我你])系(?!统|列|数)"  # "唔系", "就系", "佢系": is
    r"|呢(?=[个些度条间种类次排份样部位]|[一两二三四五六七八九十几]{1,2}[个条间种样部位])"  # "呢个", "呢两个": this
    r"|(?<=[改转换用想谂拎搬行去再])返"  # "改返", "谂返": back
    r"|(?<=算)数(?=[啦喇吧])"  # "算数啦": forget it ("说话算数" keeps its word)
)
_SINGLE = {**_CHARACTERS, "唔": "不", "系": "是", "呢": "这", "返": "回", "数": "了"}
# Characters of written Cantonese that written Mandarin does not use: the mapped ones, 唔, and those
# of 乜嘢.
_MARKER_RE = re.compile("[" + "".join(_CHARACTERS) + "唔乜嘢]")


def as_mandarin(text: str) -> str:
    """The text with written Cantonese's function words in Mandarin, offsets unchanged; a text
    without a Cantonese character is returned as it is."""
    if not _MARKER_RE.search(text):
        return text
    text = _WORDS_RE.sub(lambda match: _WORDS[match.group(0)], text)
    return _CHARACTERS_RE.sub(lambda match: _SINGLE[match.group(0)], text)
