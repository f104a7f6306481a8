"""Tidying of extracted spans, so that "就用方案B吧！" yields 方案B and "the Redis idea." yields
"the Redis idea"; the same cleaning serves cue groups and span patterns."""

from __future__ import annotations

import re

from detector.text import has_cjk

_EDGE_PUNCT = " \t\n,.;:!?，。；：！？、\"'“”‘’「」『』()（）[]【】<>《》-—~…*`"
# Particles and fillers that hug a span without being part of what it names.
# The English words end at a word boundary: "to" is no prefix of "too much hassle", nor "use" of "user".
_LEADING = re.compile(
    r"^(?:(?:用|使用|采用|走|选|改用|换用|那就|就|还是|再|把|了(?!解)|的(?!确|士))\s*|(?:the idea of|to|with|using|use|go with)\b\s*)",
    re.IGNORECASE,
)
_NAMING_VERBS = frozenset("走用选")
_TRAILING = re.compile(r"(?:吧|了|啊|呀|呢|嘛|哈|的话|这个|那个|这块|那块|这边|那边|这部分|那部分|吗|\b(?:instead|then|now|please|again|too))$", re.IGNORECASE)


# A replacement that names no new direction: a word for "something else" or a pointer ("换个说法",
# "换个别的 option", "用它", "a different way", "另一个思路"), a verdict ("直接排除", "这个先撤掉",
# "上门体检车这个不考虑了" read as "上" + "门体检车这个不考虑"), a
# negation ("不要每个里程碑交了").
_NO_CHOICE_RE = re.compile(
    r"^(?:个|一个|另一个|另一种|另外一个|另外的|换个|换一个)?(?:别的|其他|其它|说法|思路|方向|方案|办法|做法|路子|方式|它|something else|"
    r"another one|other ones?|options?)(?:\s?options?)?$|(?:^|\s)(?:that|this|it|them)$|^(?:不|别|没|非)|排除|放弃|去掉|删掉|撤掉|"
    r"不考虑|不行|算了|作废|没戏|免了|^一下$|"
    r"拿掉|砍掉|跳过|^(?:a |an )?(?:different|new|other|another) (?:way|direction|approach|route|angle|idea|plan|tack)s?"
    r"(?: entirely| altogether)?$",
    re.IGNORECASE,
)


def clean_span(value: str, kind: str = "") -> str:
    """Strip edge punctuation, fillers and particles; keep the words that name the thing. A
    replacement that names no new direction, or one Chinese character ("还是少" gave "少"), is
    no replacement: empty."""
    text = value.strip(_EDGE_PUNCT)
    for _ in range(2):  # particles can stack: "方案B吧了" is rare, "B 吧 !" is not
        text = _TRAILING.sub("", text).strip(_EDGE_PUNCT)
        lead_dropped = _LEADING.sub("", text).strip(_EDGE_PUNCT)
        # A one-character verb stays where it is half the name: "走地" (under the floor) is no "地"
        # (an adverb goes: "还是少" says no more than "少").
        verb_kept = len(lead_dropped) == 1 and has_cjk(lead_dropped) and text[:1] in _NAMING_VERBS
        text = text if verb_kept else lead_dropped
    if kind == "replacement" and (_NO_CHOICE_RE.search(text) or (len(text) == 1 and has_cjk(text))):
        return ""
    return text
