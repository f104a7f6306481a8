"""Tidying of extracted spans, so that "就用方案B吧！" yields 方案B and "the Redis idea." yields
"the Redis idea"; the same cleaning serves cue groups and span patterns."""

from __future__ import annotations

import re

_EDGE_PUNCT = " \t\n,.;:!?，。；：！？、\"'“”‘’「」『』()（）[]【】<>《》-—~…*`"
# Particles and fillers that hug a span without being part of what it names.
_LEADING = re.compile(r"^(?:(?:用|使用|采用|走|选|改用|换用|那就|就|还是|再|the idea of|to|with|using|use|go with)\s*)", re.I)
_TRAILING = re.compile(r"(?:吧|了|啊|呀|呢|嘛|哈|的话|这个|那个|吗|instead|then|now|please|again|too)$", re.I)


def clean_span(value: str) -> str:
    """Strip edge punctuation, fillers and particles; keep the words that name the thing."""
    text = value.strip(_EDGE_PUNCT)
    for _ in range(2):  # particles can stack: "方案B吧了" is rare, "B 吧 !" is not
        text = _TRAILING.sub("", text).strip(_EDGE_PUNCT)
        text = _LEADING.sub("", text).strip(_EDGE_PUNCT)
    return text
