"""Which tracked options a turn names together with the one it rejects.

"Kafka 和 RabbitMQ 都太重了，不要", "drop 1 and 2", "neither Kafka nor RabbitMQ": one verdict, two
options. The detector reads one target per turn; left at that, the second option stays on the
table, the relapse guard does not watch it, and the agent may offer it again two turns later.

A name joined to the target by a list word counts only where the turn says the verdict covers
the whole list: a totaliser after it ("都", "both", "are all"), "neither"/"both" before it, or a
verb of rejection right before it ("drop X and Y", "不要 X 和 Y"). "Redis 和 Postgres 之间选
Postgres" joins two names and drops neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from detector.alternatives import Proposal, content_keys, parts_of
from detector.text import LABEL_WORD_EN, LABEL_WORD_ZH, stem_of, tokenize_zh

# What may stand between two names of one list: a list word, and at most an article or a
# classifier word before the next name.
_JOINER_RE = re.compile(
    r"\s{0,2}(?:和|与|跟|及|以及|还有|、|/|&|,|\band\b|\bor\b|\bnor\b|也不要|也不用|也不考虑)\s{0,2}"
    r"(?:(?:the|either|also)\s|方案|选项)?\s{0,1}",
    re.IGNORECASE,
)
_TOTAL_AFTER_RE = re.compile(
    r"^\s{0,2}(?:都|全|俩|两个|这两个|这俩|三个|这几个|也都|(?:are|were)\s(?:both|all|out|gone|dead|overkill|too|not|a no|off)\b|(?:both|all)\b)",
    re.IGNORECASE,
)
# Verbs that reject what follows them ("scrap 1 and 3", "drop Kafka and RabbitMQ").
REJECTING_VERBS_EN = r"drop|scrap|ditch|skip|nix|cut|kill|forget|forget about|rule out|exclude"
_TOTAL_BEFORE_RE = re.compile(
    rf"(?:\b(?:both|neither|either)|\b(?:{REJECTING_VERBS_EN}|no|not|without)|不要|不用|不考虑|别用|砍掉|去掉|排除|放弃|不选|不走)\s{{0,2}}(?:方案|选项|the\s)?$",
    re.IGNORECASE,
)
# A Chinese name among the parts of a combined option ("峨眉山" of "成都+乐山+峨眉山").
_CJK_NAME_RE = re.compile(r"[\u4e00-\u9fff]{2,8}")
# A proper name: a capital, then at least two more letters or digits ("Kafka", "SHAP", "S3" is too short).
_PROPER_WORD_RE = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Za-z0-9+#.\-]{2,30}")


def mention(text: str, proposal: Proposal) -> tuple[int, int] | None:
    """Where the text names the proposal: by its short name, else by a proper name in it (a Latin
    word the summary capitalises: "Kafka", "SHAP"; not "tickets" or "labels", which any option may
    say), else by one Chinese part of a combined name ("峨眉山" of "成都+乐山+峨眉山"), else by its
    label ("B", "方案B", "2" when the options were numbered)."""
    lowered = text.lower()
    forms = _forms_of(proposal)
    if forms.name and (at := _word_find(lowered, forms.name)) >= 0:
        return at, at + len(forms.name)
    for form in forms.proper_names:
        if (at := _word_find(lowered, form)) >= 0:
            return at, at + len(form)
    for part in forms.parts:
        if (at := lowered.find(part)) >= 0:
            return at, at + len(part)
    for needle, lone_letter in forms.labels:
        if (at := _word_find(text if lone_letter else lowered, needle)) >= 0:
            return at, at + len(needle)
    return None


def names_a_word_of(text: str, proposal: Proposal) -> bool:
    """Does the text say one word of the option's Chinese name ("直播" of "抖音直播首发", "云南" of
    "云南大理+丽江")? Looser than `mention`: a word of a name is often a common one ("直接" of
    "直接上云"), so it counts only where the rest of the turn already says what is done to an
    option and the question is which (a reopening, a list under one verdict)."""
    return _word_span(text, proposal) is not None


def sole_proper_holder(reference: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """The one proposal whose description opens with the reference as its proper name ("TiDB" of
    "换分布式数据库：TiDB，兼容MySQL协议"; not "MyCat" of "中间件代理：ShardingSphere-Proxy 或 MyCat",
    one product of two, nor "SLB" of "客户端空闲回收调到比 SLB 短", what the option is measured
    against), when only one does.

    A word of a Chinese name ("日本" of "日本大阪京都") is not enough here: it resolved more targets
    to the listed option, but the relapse guard then watched every word of the option's name, and
    on the helpers' conversations caught 3 relapses more for 6 false alarms more."""
    word = reference.strip().lower()
    holders = [proposal for proposal in proposals if _first_proper_name(proposal.summary) == word]
    return holders[0] if len(holders) == 1 else None


def _first_proper_name(summary: str) -> str | None:
    """The proper name that opens the description after the option's name ("换分布式数据库：TiDB，
    兼容MySQL协议" → "tidb"); None when the description opens otherwise ("…调到比 SLB 短")."""
    _, colon, description = summary.partition(":")
    found = _PROPER_WORD_RE.match(description.strip()) if colon else None
    return found.group().lower() if found else None


def _word_span(text: str, proposal: Proposal) -> tuple[int, int] | None:
    """Where the text first says a word of the option's Chinese name, or None."""
    found = [(at, at + len(word)) for word in _cjk_words_of(proposal.name) if (at := text.find(word)) >= 0]
    return min(found, default=None)


@lru_cache(maxsize=8192)
def _cjk_parts_of(name: str) -> tuple[str, ...]:
    """The Chinese parts of a name ("云南大理", "丽江" of "云南大理+丽江")."""
    return tuple(part for part in map(str.strip, parts_of(name)) if _CJK_NAME_RE.fullmatch(part))


@lru_cache(maxsize=8192)
def _cjk_words_of(name: str) -> tuple[str, ...]:
    """The jieba words of two characters or more in the Chinese parts of a name."""
    return tuple(word for part in _cjk_parts_of(name) for word in tokenize_zh(part) if len(word) >= 2)


@dataclass(frozen=True, slots=True)
class _Forms:
    """The ways a text may name one proposal, in the order `mention` tries them."""

    name: str  # the short name, lower-cased ("" when shorter than two characters)
    proper_names: tuple[str, ...]  # the written forms of the proper names in its summary
    parts: tuple[str, ...]  # the Chinese stops of a combined name
    labels: tuple[tuple[str, bool], ...]  # the label's forms, each with: is it a lone capital letter?


@lru_cache(maxsize=8192)
def _forms_of(proposal: Proposal) -> _Forms:
    """Read once per option: a hook in a long conversation asks, for every sentence, which of a
    hundred options it names, and the options stay the same turn after turn."""
    name = proposal.name.lower().strip()
    keys = content_keys(proposal.summary)
    proper_names = tuple(
        form
        for word in _PROPER_WORD_RE.findall(proposal.summary)
        if stem_of(word) in keys or "-" in word and content_keys(word) <= keys
        for form in _written_forms(word.lower())
    )
    # "峨眉山" of "成都+乐山+峨眉山": one stop of a combined option names it.
    parts = tuple(
        part for part in map(str.strip, parts_of(proposal.name)) if len(part) >= 2 and _CJK_NAME_RE.fullmatch(part)
    )
    label = proposal.label.strip()
    key = re.sub(rf"^(?:{LABEL_WORD_ZH}|{LABEL_WORD_EN})\s?", "", label, flags=re.IGNORECASE)
    labels: list[tuple[str, bool]] = []
    for form in dict.fromkeys((label, key)):
        if len(form) == 1 and not form.isascii():
            continue  # "一" of "方案一" is in "一般", "一组": said alone, it names nothing
        # A lone letter names an option only as a capital: "a" in "the pass is a treadmill" is an article.
        lone_letter = len(form) == 1 and form.isascii() and form.isalpha()
        needle = form.upper() if lone_letter else form.lower()
        if needle:
            labels.append((needle, lone_letter))
    return _Forms(name if len(name) >= 2 else "", proper_names, parts, tuple(labels))


def named_together(text: str, target: Proposal, others: Sequence[Proposal]) -> list[Proposal]:
    """The others the text lists with the target under one verdict, in the order it names them."""
    # A word of a Chinese name counts: the list words and the totaliser around it say the rest
    # ("日本和三亚都不去了" after "日本大阪京都" and "海南三亚").
    spans = {id(p): span for p in (target, *others) if (span := mention(text, p) or _word_span(text, p)) is not None}
    if id(target) not in spans:
        return []
    named = sorted((p for p in others if id(p) in spans), key=lambda p: spans[id(p)][0])
    chain = [target]
    start, end = spans[id(target)]
    grew = True
    while grew:
        grew = False
        for proposal in named:
            if proposal in chain:
                continue
            p_start, p_end = spans[id(proposal)]
            if p_start >= end and _JOINER_RE.fullmatch(text[end:p_start]):
                chain.append(proposal)
                end, grew = p_end, True
            elif p_end <= start and _JOINER_RE.fullmatch(text[p_end:start]):
                chain.insert(0, proposal)
                start, grew = p_start, True
    if len(chain) < 2:
        return []
    if not (_TOTAL_AFTER_RE.match(text[end:]) or _TOTAL_BEFORE_RE.search(text[:start])):
        return []
    return [p for p in chain if p is not target]


def _written_forms(word: str) -> list[str]:
    """How a hyphenated name may be typed: "chatglm-6b", "chatglm6b", and for a versioned name the
    name alone, "chatglm" ("postgres" alone is not "postgres-backed")."""
    if "-" not in word:
        return [word]
    head, _, version = word.partition("-")
    alone = [head] if len(head) >= 3 and version[:1].isdigit() else []
    return list(dict.fromkeys([word, word.replace("-", ""), *alone]))


def _word_find(lowered: str, needle: str) -> int:
    """The first place the needle stands as a whole Latin word (CJK needs no boundary), or -1.

    A plain substring search, not a regex: every option's names are new text, so a pattern
    would be compiled for nearly every search (Python's cache of them holds 512)."""
    at = lowered.find(needle)
    while at >= 0:
        end = at + len(needle)
        before = lowered[at - 1] if at else " "
        after = lowered[end] if end < len(lowered) else " "
        if not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum()):
            return at
        at = lowered.find(needle, at + 1)
    return -1
