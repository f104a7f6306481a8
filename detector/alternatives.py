"""Alternatives proposed in a conversation, and what a user's reference to one points at.

Users rarely repeat what they reject: they say "这个不行", "A 不要了", "drop the second one". The
detector and the tracker both need to turn such a reference into the alternative it denotes, using
what the assistant (or the user) proposed earlier: explicit labels first, then content overlap,
then the most recent proposal.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import lru_cache

from detector.text import CJK_CHAR, LABEL_MARK, LABEL_WORD_EN, LABEL_WORD_ZH, ends_as_question, stem_of

_ORDINALS_ZH = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_ORDINALS_EN = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}

# A labelled option at the start of a line or after a separator: 方案A：…  Option 2: …  思路二：…
# A short name in brackets between an option's label and its colon: "Option B (story): 'Last spring…'",
# "Plan B (referral + co-branded onboarding): …" (at 30 characters that line was no option).
_TAG = r"[^()（）\n]{1,60}"
_LABELLED_RE = re.compile(
    # After a colon too: "可以考虑三种：方案A：Kafka；方案B：…".
    r"(?:^|(?<=[\n;；。.\s,，:：]))\s{0,4}(?:[-*•]\s{0,2})?(?:\*\*)?"
    # A label's number is on its line: "…on some error path\n2. **Listeners…**" is no "Path 2".
    rf"(?P<label>{LABEL_WORD_ZH}[ \t]?{LABEL_MARK}{{1,2}}"
    rf"|{LABEL_WORD_EN}(?:[ \t]?\d{{1,2}}|[ \t][A-Za-z])(?![A-Za-z])"
    r"|[A-Z](?=\s?[:：.)）]))(?:\*\*)?"
    rf"(?:\s?[(（](?P<tag>{_TAG})[)）](?=\s?[:：]))?"
    # "方案一，每个 tenant 一个 database；方案二，…": a Chinese list often puts a comma after the label.
    r"\s?[:：.)）、，-]\s{0,2}(?P<summary>[^\n]{2,160}?"
    rf"(?=\s{{0,2}}(?:{LABEL_WORD_EN}|{LABEL_WORD_ZH})[ \t]?{LABEL_MARK}{{1,2}}(?:\s?[(（]{_TAG}[)）])?\s?[:：.)），]|\n|$)"
    # A line too long to read to its end is read to 160 characters, as a numbered line or a
    # bullet is: dropping it lost the option ("方案1：next-intl + [locale] 动态段。所有页面…").
    r"|[^\n]{160})",
    re.IGNORECASE,
)
# A numbered line: "1. Redis", "2) SQLite", "3、本地缓存", "(1) …", "(a) …", "一、…", "（二）…"; a
# decimal ("1.5 GB") is no number of an item.
_NUMBERED_RE = re.compile(
    r"^\s{0,4}(?P<label>\d{1,2}(?:\s?[.)](?!\d)\s{1,3}|[、）]\s{0,3})|[(（](?:\d{1,2}|[A-Za-z]|[一二三四五六七八九十]{1,2})[)）]\s{0,3}"
    r"|[一二三四五六七八九十]{1,2}[、.)）]\s{0,3})(?P<summary>[^\n]{2,160})",
    re.MULTILINE,
)
# What opens an item of a list written inline: "1. 青岛 2. 西安", "1) Postgres; 2) SQLite", "(1) retry, or
# (2) mock", "① 分步向导 ② 单页表单", "一、…；二、…", "一是…；二是…", "其一…", "第一，…", and a capital
# after no word ("可以：A. 衔接班；B. 一对一", "A) keep it private, B) …"; not the "f)" of "yourself)" nor
# "Plan A. Then").
_INLINE_MARK = (
    r"(?:\d{1,2}[.)、）](?!\d)|[\u2460-\u2469]|[(（](?:\d{1,2}|[A-Za-z]|[一二三四五六七八九十])[)）]|(?<![A-Za-z0-9])(?<![A-Za-z0-9]\s)(?-i:[A-H])(?:[)）]|\.(?=\s))"
    r"|[一二三四五六七八九十][是、]|其[一二三四五六七八九十]|第[一二三四五六七八九十](?=[，,、:：]))"
)
# An item runs to the next item's mark (an "or" / "或者" before it is no part of it), or to the end
# of its clause or sentence.
_INLINE_NUMBERED_RE = re.compile(
    rf"(?:^|(?<=[\s:：,，;；。]))(?P<label>{_INLINE_MARK})[\s,，:：]{{0,2}}"
    rf"(?P<summary>[^\n;；。]{{1,100}}?)"
    rf"(?=[\s,，]{{0,2}}(?:(?:or|and)\s|或者|或是|或|以及)?\s{{0,2}}{_INLINE_MARK}|[;；。\n]|(?<!e\.g)(?<!i\.e)(?<!etc)(?<!vs)\.(?=\s|$)|$)",
    re.IGNORECASE,
)
# Labelled options set off by a space only, inline: "方案A 上午兵马俑，下午回城；方案B 城墙骑行+碑林+回民街；
# 方案C 华山一日游", "路线一 昆明—大理—丽江，经典；路线二 昆明—建水—元阳". Read only as a list of two or
# more counted labels: one "方案A 很稳" is a remark on an option, not a list.
_SPACED_LABEL = rf"{LABEL_WORD_ZH}{LABEL_MARK}"
_SPACED_LABELLED_RE = re.compile(
    rf"(?:^|(?<=[\n;；。:：]))\s{{0,4}}(?P<label>{_SPACED_LABEL})[ \t]{{1,2}}(?P<summary>[^\n;；。]{{2,100}}?)"
    rf"(?=[\s,，]{{0,2}}{_SPACED_LABEL}[ \t]|[;；。\n]|$)"
)
_LIST_MARK_PUNCTUATION = "()（）.、)）是其第 "
# An enumeration after a colon: "建议配：定期寿险、重疾险、百万医疗".
# A bracket is one piece of its item: "React Query 管服务端数据（缓存、重试、分页）" lists no options.
# Nor a question mark: "看几个问题：\n- 查询维度有几种？只按用户查，还是还有按商户、按时间范围的查询？"
# asks, and its "、" lists no options.
_ENUMERATION_ITEM = r"(?:[^\n。;；:：、()（）?？!！]|[(（][^()（）\n]{0,24}[)）])"
_ENUMERATION_ITEMS_RE = re.compile(rf"{_ENUMERATION_ITEM}+")
_ENUMERATION_RE = re.compile(rf"[:：]\s{{0,2}}(?P<items>{_ENUMERATION_ITEM}{{2,30}}?(?:、{_ENUMERATION_ITEM}{{1,30}}){{1,8}})")
# The word that joins the last item of an enumeration: "TextCNN、TinyBERT、或者 fastText".
_LIST_CONJUNCTION_RE = re.compile(r"^\s?(?:或者|或是|以及|还有|和|或)\s?")
_BULLET_RE = re.compile(r"^\s{0,4}[-*•]\s{1,3}(?P<summary>[^\n]{2,160})", re.MULTILINE)
# A suggestion in the assistant's own voice: "I'd suggest Redis", "I'd add Redux Toolkit for the
# global state" (how coding agents put one), "you could use Firestore", "我建议用 Redis". Not of a
# pronoun ("I'd add it as a second item"): what it stands for was said before. A Chinese count word
# is no part of the name: "可以考虑上一个托管的 ES" proposes 托管的 ES, not "上一个托管的 ES". A point
# inside a number ends nothing: "quartz worktops (~3.5k for this size)" was "quartz worktops (~3".
# "可以考虑一下" proposed "一下". A sentence that opens with 或者 and a verb of choosing offers the
# other option ("建议放在跳板机上。或者放在 K8s 里做 CronJob"). The quickest way named is one too
# ("最快的止血方式是直接回滚到上一个版本"), as "the simplest fix is to …" announces one.
_SUGGESTION_RE = re.compile(
    r"(?:I'?d (?:suggest|recommend|go with|propose|add|use|introduce|reach for|go for|switch to)|I (?:suggest|recommend|propose)"
    r"|my (?:suggestion|recommendation) (?:is|would be)"
    r"|(?:you|we|I) could (?:also )?(?:try|use|add|switch to)|how about|consider (?:using)?"
    r"|(?:(?:do you )?want|would you like) me to (?:add|use|try|switch to|set up)|(?:should|shall) I (?:add|use|try|switch to|set up))\s(?!(?:it|that|this|them|those)\b)(?P<summary>(?:[^.,;!?\n]|(?<=\d)[.,](?=\d)){2,80})"
    r"|(?:(?:我建议|建议你|建议|推荐|不妨|可以考虑|我倾向于|(?:最快|最简单|最省事|最稳妥|最直接)的(?:止血)?(?:方式|办法|方法|做法|路子)(?:是|就是))(?:一下)?|(?:^|(?<=[。\n]))\s?或者(?=\s?(?:先|直接|干脆)?(?:用|放在|放到|换成|改用|试试|选|走)))(?:先|还是|就|直接|干脆)?(?:(?:上|加|搞|换|做|来)(?:一[个套台层]|个)(?![月星小礼周晚早])|(?:用|使用|采用|选|走|去|试试|做)?\s?(?:一[个套台层](?![月星小礼周晚早])(?=\s?\S{2}))?)\s?(?P<summary_zh>[^,，。;；!！?？\n]{2,60})",
    re.IGNORECASE,
)
# A suggestion made by praising its subject: "A Peloton bike is a great investment if you like
# classes", "Postgres is a solid default here", "本地 LRU 缓存是个不错的选择"; a connective
# before it is no part of the name ("Then the park pavilion … is a strong option").
_PRAISED_RE = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=\n))(?:(?:then|so|honestly|overall|personally|in that case),?\s)?"
    r"(?!(?:this|that|it|which|both|either|each|one|all|any|there|these|those|they|you|we|i|either one)\b)"
    r"(?P<summary>(?:an? |the )?[A-Za-z][^.,;:!?\n]{1,40}?) (?:is|are|would be|'d be|makes|make)"
    r" (?:a |an )?(?:really |very |probably |usually |genuinely )?(?:great|good|solid|strong|safe|nice|natural|perfect|ideal|excellent|sensible|reasonable)"
    r" (?:choice|option|fit|pick|investment|default|bet|starting point|way to go)\b"
    r"|(?:^|(?<=[。！？\n]))(?![这那它都两])(?P<summary_zh>[^,，。;；!！?？:：\n]{2,24}?)(?:是个|是一个|会是|算是)(?:很|挺|比较|非常)?(?:不错|好|稳妥|合适|理想)的(?:选择|方案|选项|起点)",
    re.IGNORECASE,
)
# What the assistant says it will do, when it offers no options: "I'll add a Redis cache in front of
# the user service", "Let me switch the tests to pytest-asyncio", "the simplest fix is to bump the
# timeout", "我打算用 Kafka 做消息队列". A coding agent proposes a direction this way, and the user
# answers it ("no, don't add redis"). Not talk about the talk ("I'll explain", "let me know", "I'll
# keep that in mind"), which proposes nothing, and not what it could do: "we could…", "I can
# also…" as proposals lowered dev target_match 0.582 -> 0.577 and macro F1 0.773 -> 0.771.
_ANNOUNCEMENT_RE = re.compile(
    r"(?:\bI'?ll|\bI will|\bI'?m going to|\bI am going to|\blet me|\bI plan to|\bmy plan is to"
    r"|\bthe (?:easiest|simplest|quickest|cleanest|fastest|safest|best) (?:path|fix|option|way|route|approach) (?:is|would be)(?: to)?)"
    r"\s(?!(?:know|explain|help|walk|answer|clarify|summari[sz]e|keep|leave|note|remember|be|make sure|check in|get back"
    r"|wait|stop|think|update you|let you|go ahead|do that|do it|do so|take|start|begin|continue|also|now|then|just|first|try to"
    r"|have|need|want|look into it|put together|draft|write up|give|share|send|see|reply|respond|follow|assume|adjust|tweak"
    r"|update the (?:plan|list|doc)|revise|rework|fix that)\b)(?P<summary>[a-z](?:[^.,;!?\n]|[.,](?=\S)){2,80})"
    r"|我(?:打算|准备|计划|这就|马上)?(?:先|直接|就)?(?:改用|改成|换成|换用|用|采用|引入|接入|加上?|上|把)\s?(?P<summary_zh>[^,，。;；!！?？\n]{2,40})"
    # "我给这几个登录测试加一个重试装饰器", "我来在网关上加一层限流": what it is done to, then the verb.
    r"|我(?:打算|准备|计划|这就|马上|来|现在)?(?:先|直接|就)?(?:给|为|在)(?!想|考虑|犹豫|纠结|看|查)[^,，。;；!！?？\n]{1,20}?"
    # Not what was done ("加上了", "加过"): the verb is read whole before the lookahead.
    r"(?:改用|改成|换成|换用|采用|引入|接入|加上?)(?![了过着上])(?:一?[个层套条道])?\s?(?P<summary_done_to>[^,，。;；!！?？\n]{2,40})",
    re.IGNORECASE,
)
_EMPHASIS_RE = re.compile(r"\*\*|`+")
_GENERIC_SUGGESTION_RE = re.compile(
    r"(?:以下|下面|如下|这几|几种|几个|一些|其他|其它|别的|一起(?:上|用)|(?:两个|两者)?都(?:上|用)|[两二三四五六七八九十\d]\s?(?:种|个|套|条|类|招)|一下(?:吧|呢)?$)"
    r"|(?:the following|a few|some|several|other|another|one of|(?:two|three|four|five|\d) (?:options|ways|approaches|ideas|things))\b",
    re.IGNORECASE,
)
_LONE_CAPITAL_RE = re.compile(r"(?<![A-Za-z])[A-Z](?![A-Za-z])")
# Letters named together: "B 和 C", "A and C", "A、B".
_LETTER_GROUP_RE = re.compile(r"[A-Z](?:\s?(?:和|与|跟|及|、|,|，|\+|&|and\b)\s?[A-Z])+(?![A-Za-z])")
# A dash between two Chinese characters joins ("昆明—大理—丽江", "采摘—分拣—装箱"); elsewhere it ends a name.
_CJK_DASH = rf"(?<=[{CJK_CHAR}])—(?=[{CJK_CHAR}])"
# The arrows and that dash: what joins the stops of a route ("昆明 → 大理 → 丽江", "昆明—大理—丽江").
_ROUTE_JOINER = rf"→|->|=>|{_CJK_DASH}"
_ROUTE_JOINER_RE = re.compile(_ROUTE_JOINER)
_NAME_END_RE = re.compile(rf"[,，;；。(（–:：|]|(?!{_CJK_DASH})—| - |\.\s|\.$")
# A markdown table whose header's first cell says its rows are options, its separator row, and
# its body rows.
_TABLE_RE = re.compile(
    r"^\|\s{0,3}(?:方案|选项|思路|路线|方式|方法|做法|工具|框架|候选|options?|approach(?:es)?|choices?|alternatives?|"
    r"candidates?|tools?|frameworks?|plans?|methods?|strategy|strategies|vendors?|providers?|services?)\s{0,3}\|[^\n]{0,300}\n"
    r"\|[\s:|\-]{3,300}\n(?P<body>(?:\|[^\n]{1,300}(?:\n|$)){2,20})",
    re.IGNORECASE | re.MULTILINE,
)
_DEICTIC_RE = re.compile(
    rf"^(?:这个|那个|这种|那种|这条|那条|这|那|上一个|上个|刚才那个|刚才的|前面那个|它|this|that|it|this one|that one|the last one|"
    rf"the idea|the plan|the approach|the option|the suggestion|your suggestion|your idea|你的建议|你说的|你的方案)"
    rf"(?:[{CJK_CHAR}]{{0,4}}|\s\w{{0,12}})?$",
    re.IGNORECASE,
)
# Words for a kind of option, which name none on their own: "方向" shared with "那数据库方向可以先放一
# 放" is no target of "调大连接池这个方向不对"; "approach" of "that approach won't scale" neither.
# The Chinese ones, with what counts them ("这个", "那条"), also make a pointer (targets.py).
KIND_WORDS_ZH = "方向|方案|思路|路线|路子|路|办法|做法|想法|主意|选项|建议|选择"
KIND_COUNTER_ZH = "一?[个条种套]"
_KIND_WORD_RE = re.compile(
    rf"(?:the\s|[这那]?{KIND_COUNTER_ZH})?(?:{KIND_WORDS_ZH}|"
    r"direction|approach|idea|option|plan|route|path|way|suggestion|solution|alternative|choice)s?",
    re.IGNORECASE,
)
_LABEL_REF_RE = re.compile(
    rf"{LABEL_WORD_ZH}\s?(?P<zh>[A-Za-z\d一二三四五六七八九十\u2460-\u2469])|(?P<letter_zh>[A-Z])\s?方案"
    # Not the verb and its article: "(want me to) plan a dedicated QA hire" names no plan A, while
    # "plan a is out" and "go with plan a" do.
    r"|(?!(?:^|(?<=\bto )|(?<='ll )|(?<=\bcan )|(?<=\blet's )|(?<=\blets )|(?<=\bwe )|(?<=\bi )|(?<=\byou )|(?<=\balso ))"
    r"(?-i:plan a)\s(?!(?:is|was|it|then|and|or|vs|sounds|looks|seems|for|please|first|wins|works|instead|over|again|too|but)\b)[a-z])"
    rf"{LABEL_WORD_EN}\s?#?(?P<en>[A-Za-z\d]{{1,2}}|one|two|three|four|five)\b"
    r"|第\s?(?P<ord_zh>[一二两三四五六七八九十\d])\s?(?:个|种|条)"
    r"|the (?P<ord_en>first|second|third|fourth|fifth|last) (?:one|option|idea|plan|approach|suggestion)"
    # A letter opening the turn: a capital ("B 吧", "B is out"), or a small one right before
    # Chinese ("a不行"); never a small one before a space, or every "a managed Redis" would point
    # at option A. Nor the pronoun: "I don't want a websocket server" names no option I.
    # A digit opening the turn before a verdict or a choice ("2 不行", "3 就免了", "1 sounds like
    # linkedin cringe"); not before a count or a unit ("3 节点太多了", "5,000 resamples").
    r"|^(?P<bare>(?-i:[A-HJ-Z])(?=$|\s|[不就也还的,，])|[a-z](?=$|[不就也还的,，])"
    r"|[1-9](?=$|\s?(?:[不就也还太挺吧]|算了)|\s(?:is|sounds|looks|seems|feels|won't|doesn't|isn't|is out|is off|no)\b|'s\b))"
    # A capital letter standing as a sentence of its own after another ("C is overkill. B, the
    # replica is fine", "A 不行。B 吧"): only before a comma, a full stop or "then"/"吧", where an
    # article or a pronoun never stands.
    r"|(?:(?<=[.!?;]\s)|(?<=[。！？；])\s?)(?P<bare_next>(?-i:[B-HJ-Z]))(?=[,，.。!！]|\s?吧|\sthen\b|$)",
    re.IGNORECASE,
)
# An option letter in running text (`letters_named`).
_LETTER_LABEL_RE = re.compile(
    r"(?<![\w'’.\-])([B-H])(?![\w'’\-])"
    r"|\b(?i:between|and|or|vs\.?|than|from) (A)(?![\w'’\-])"
    r"|(?<![\w'’.\-])(A) (?i:and|or|vs)\b"
)
_WORD_RE = re.compile(rf"[A-Za-z][A-Za-z0-9+#.\-]{{1,30}}|[{CJK_CHAR}]")
_KEY_RE = re.compile(rf"[A-Za-z][A-Za-z0-9+#\-]{{2,30}}|(?=([{CJK_CHAR}]{{2}}))")
# A name with a version number after it, joined or hyphenated: "gpt4", "gpt-4", "qwen-7b", "vue3".
_VERSIONED_RE = re.compile(r"([a-z]{3,})-?(\d{1,3}[a-z]?)")
_STOP_KEYS = frozenset(
    "the and for with that this then but not too use using our you your can will just one two "
    # The words of a label (text.LABEL_WORD_EN) name a kind, not a thing: "route C" shares
    # nothing with "route B", and "the coastal route" nothing with "the mountain route".
    "idea ideas plan plans option options approach approaches choice choices alternative alternatives "
    "path paths route routes strategy strategies proposal proposals scenario scenarios variant variants thing way "
    "这个 那个 我们 你们 一个 可以 还是 就是 不是 什么 怎么 如果 因为 所以 但是 方案 选项 思路 路线 想法 办法 做法".split()
)


NAME_CHARS = 40
_LAST_WORD_BREAK = re.compile(r"[\s\-/]\S*$")


def clip(text: str, limit: int) -> str:
    """The text cut to `limit` characters (at least one), at a word break when the cut falls inside
    a Latin word, then marked with "…": "sheet pan chicken thighs with roasted…", not "…with roasted ve", which
    reads as a different thing and no longer contains the name it stands for."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit, 1)]
    if text[len(cut)].isascii() and text[len(cut)].isalnum() and cut[-1].isascii() and cut[-1].isalnum():
        cut = _LAST_WORD_BREAK.sub("", cut) or cut
    return cut.rstrip(" ,，;；:-") + "…"


@dataclass(frozen=True, slots=True)
class Proposal:
    """An alternative as proposed in one turn: its label (方案A, Option 2) and what it is."""

    label: str
    summary: str
    recommended: bool = False

    @property
    def name(self) -> str:
        """The short name: the summary up to its first separator ("Redis 缓存，部署简单" → "Redis 缓存")."""
        return _short(self.summary)

    @property
    def display(self) -> str:
        """Label and name together, so both "方案A" and "Redis 缓存" can be found in it."""
        if self.label == self.name or not self.name:
            return self.label
        return f"{self.label}({self.name})"


@lru_cache(maxsize=1024)
def extract_proposals(text: str) -> tuple[Proposal, ...]:
    """The alternatives a turn proposes, in order; labelled options win over plain bullets.

    Cached: the same assistant turn is read when it arrives, as the context of the next user
    turn, and again to resolve targets while it stays recent.
    """
    text = _EMPHASIS_RE.sub("", text)  # "1. **Add a Redis cache** in front of…" names "Add a Redis cache"
    proposals = [
        Proposal(_tidy_label(m.group("label")), _tidy_summary(_tagged(m.group("tag"), m.group("summary"))))
        for m in _LABELLED_RE.finditer(text)
        if len(m.group("label")) > 1 or (_opens_item(text, m.start("label")) and _spaced(text, m))
    ]
    if not proposals:
        numbered = _counted(
            [Proposal(_list_label(m.group("label")), _tidy_summary(m.group("summary"))) for m in _NUMBERED_RE.finditer(text)]
        )
        proposals = numbered if len(numbered) >= 2 else []
    if len(proposals) < 2:
        # One numbered line may hold the whole list: "1) An in-app widget… 2) A board… 3) NPS…".
        inline = _counted(
            [
                Proposal(_list_label(m.group("label")), _tidy_summary(m.group("summary").strip(" ,，")))
                for m in _INLINE_NUMBERED_RE.finditer(text)
            ]
        )
        proposals = inline if len(inline) >= 2 else proposals
    if len(proposals) < 2:
        spaced = _counted(
            [Proposal(m.group("label"), _tidy_summary(m.group("summary"))) for m in _SPACED_LABELLED_RE.finditer(text)],
            key=_label_key,
        )
        proposals = spaced if len(spaced) >= 2 else proposals
    if not proposals:
        for match in _ENUMERATION_RE.finditer(text):
            items = (_LIST_CONJUNCTION_RE.sub("", item).strip() for item in _ENUMERATION_ITEMS_RE.findall(match.group("items")))
            proposals += [Proposal(_short(item), item) for item in items if item]
    if not proposals:
        proposals = _bulleted(text)
    if not proposals:
        proposals = _table_options(text)
    if not proposals:
        proposals = _announced(text)
    if len(proposals) >= 2 and all(ends_as_question(p.summary) for p in proposals):
        # "A few questions first: 1. What's your budget? 2. How many guests?" asks; it offers
        # nothing to choose, and "no budget limit" rejects no option.
        proposals = []
    suggested = (
        (match.group("summary") or match.group("summary_zh") or "").strip(" :：,，*")
        for match in [*_SUGGESTION_RE.finditer(text), *_PRAISED_RE.finditer(text)]
    )
    for summary in (part for whole in suggested for part in _either_of(whole)):
        if not summary or _GENERIC_SUGGESTION_RE.match(summary):
            continue  # "可以考虑以下几种方案" announces the list; it proposes nothing itself
        # "我更推荐方案二", "I'd go with option 2": a recommendation among the listed options.
        # "I'd go with the private room" after "- A private room at a restaurant, set menu":
        # a suggestion whose every word one listed option's name holds recommends that option.
        named = _listed_in(summary, proposals) or [p for p in [sole_container(summary, proposals)] if p is not None]
        if named:
            # By label and summary: "推荐E或E+G的组合" names E twice, and the second time E is
            # already marked recommended.
            chosen = {(p.label, p.summary) for p in named}
            proposals = [replace(p, recommended=True) if (p.label, p.summary) in chosen else p for p in proposals]
        elif not any(summary in p.summary or p.name in summary for p in proposals):
            proposals.append(Proposal(_short(summary), summary, recommended=True))
    return tuple(proposals)


# "A or B" in one suggestion, each side a name of its own: not "a 2 or 3 night stay", not "more or
# less", not "whether or not".
_EITHER_RE = re.compile(r"\sor\s(?=[^\W\d])(?!less\b|not\b|so\b|two\b|three\b|more\b|fewer\b)|\s?或者\s?", re.IGNORECASE)


def _either_of(summary: str) -> list[str]:
    """The options one suggestion offers: "quartz worktops (~3.5k) or laminate (~900) if you want
    budget left" offers quartz and laminate, and the user who turns laminate down turns down no
    quartz."""
    parts = [part.strip(" ,，") for part in _EITHER_RE.split(summary, maxsplit=1)]
    if len(parts) != 2 or any(len(part) < 3 for part in parts) or "、" in summary:
        return [summary]  # "TextCNN、TinyBERT、或者 fastText" is a list of three: one suggestion stays one
    left = parts[0]
    inside_brackets = left.count("(") + left.count("（") > left.count(")") + left.count("）")
    return [summary] if inside_brackets else parts  # "洱海边的民宿(双廊或者才村一带)" is one place


def _bulleted(text: str) -> list[Proposal]:
    """Bullets as options, two or more; not the bullets that name one facet of each option in
    turn ("- Cost: …", "- Security: …" under "CircleCI", again under "Buildkite"): a name said
    twice is a facet, and rejecting "CircleCI" had rejected "Security"."""
    bullets = [Proposal(_short(b), b) for b in (m.group("summary").strip() for m in _BULLET_RE.finditer(text))]
    said = Counter(bullet.name.lower() for bullet in bullets)
    options = [bullet for bullet in bullets if said[bullet.name.lower()] == 1]
    return options if len(options) >= 2 else []


def resolve_reference(reference: str | None, text: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """The proposal a user's words point at: explicit label > content overlap > most recent.

    `reference` is the span a cue captured (may be None or deictic, like "这个"); `text` is the
    whole user turn, searched for labels when the span itself has none.
    """
    if not proposals:
        return None
    for source in (reference or "", text):
        by_label = proposal_by_label(source, proposals)
        if by_label is not None:
            return by_label
    if reference and not _DEICTIC_RE.match(reference.strip()):
        by_overlap = _by_overlap(reference, proposals)
        if by_overlap is not None:
            return by_overlap
        return None
    recommended = [p for p in proposals if p.recommended]
    return recommended[-1] if recommended else proposals[0]


def names_label(text: str) -> bool:
    """Does the text name an option by its label ("方案A", "option 2", "第二个", "the first one")?"""
    return _LABEL_REF_RE.search(text) is not None


def label_references(text: str) -> list[str]:
    """The option references a text makes, as written: labels ("方案A", "option 2", a capital
    "B" opening the turn) and places ("the second one", "第二个"). Not a letter that ends a
    word ("give 方案" is not "E 方案"), nor a lower-case article ("a standing desk")."""
    found = []
    for match in _LABEL_REF_RE.finditer(text):
        before = text[match.start() - 1] if match.start() else " "
        if before.isascii() and before.isalpha():
            continue
        found.append(match.group().strip())
    return found


def label_mentions(text: str) -> list[str]:
    """The option labels a text names ("方案A", "option 2"): references that are names, so
    not places ("the second one" points at an option without naming it)."""
    return [reference for reference in label_references(text) if not is_ordinal_reference(reference)]


def is_ordinal_reference(text: str) -> bool:
    """Does the text point at an option by its place ("the second one", "第二个")?"""
    return any(match.group("ord_zh") or match.group("ord_en") for match in _LABEL_REF_RE.finditer(text))


def is_deictic(reference: str | None) -> bool:
    """"这个", "that one", "your idea": words that point rather than name. A pointer with a label
    names: "你说的路线二" is 路线二."""
    return reference is None or (bool(_DEICTIC_RE.match(reference.strip())) and not label_references(reference))


def is_kind_word(text: str) -> bool:
    """"方向", "the approach": a word for what options are, which points at none of them."""
    return _KIND_WORD_RE.fullmatch(text.strip()) is not None


def letters_named(text: str) -> list[str]:
    """The option letters a reply says in running text ("Between A and B, B adds Hakone. Want me
    to draft B?" → A, B, B), which `_LABEL_REF_RE` leaves alone there: a capital B to H standing
    alone is a label, an A only beside "and", "or" or "vs" (elsewhere it is the article)."""
    return [next(letter for letter in match.groups() if letter) for match in _LETTER_LABEL_RE.finditer(text)]


def proposal_by_label(source: str, proposals: Sequence[Proposal], by_position: bool = True) -> Proposal | None:
    """The proposal a label in the text names ("方案B", "option 2", "the second one"), or None:
    never the latest proposal in its place, as `resolve_reference` falls back to when nothing
    else points anywhere ("换 B 吧" with only 方案A proposed names nothing proposed). A label no
    proposal carries names the proposal at its place in the list ("B" the second), unless
    `by_position` is off, or the label is a letter and the list has letters of its own (with
    Plan A and Plan C read, "B" is no Plan C)."""
    matches = list(_LABEL_REF_RE.finditer(source))
    if not matches:
        return None  # most texts name no label: the proposals' keys are not read
    keys = [_label_key(proposal.label) for proposal in proposals]
    lettered_list = any(_is_letter(key) for key in keys)
    for match in matches:
        key = next((value for value in match.groupdict().values() if value), "")
        index = _ordinal(key)
        if key.upper() in keys:
            return proposals[keys.index(key.upper())]
        if match.lastgroup in _LABEL_GROUPS and (numbered := _same_number(key, keys)) is not None:
            return proposals[numbered]  # "1" or "option 1" for 方案一, "方案二" for option 2
        if index is not None and by_position and not (lettered_list and _is_letter(key)):
            if key.lower() == "last":
                return proposals[-1] if proposals else None
            if 1 <= index <= len(proposals) and len(proposals) > 1:
                return proposals[index - 1]  # a lone proposal has no place to name it by
    return None


def _by_overlap(reference: str, proposals: Sequence[Proposal]) -> Proposal | None:
    wanted = {w.lower() for w in _WORD_RE.findall(reference)}
    if not wanted:
        return None
    best, best_score = None, 0.0
    for proposal in proposals:
        have = {w.lower() for w in _WORD_RE.findall(proposal.summary)}
        score = len(wanted & have) / len(wanted)
        if score > best_score:
            best, best_score = proposal, score
    return best if best_score >= 0.5 else None


def _weight(keys: Iterable[str]) -> float:
    """How much a set of keys says: a Latin word carries about as much as 2.5 CJK characters."""
    return sum(2.5 if key.isascii() else 1.0 for key in keys)


def key_share(keys: AbstractSet[str], others: AbstractSet[str]) -> float:
    """The share of `keys` (content keys of one text) that `others` holds too; 0 for no keys."""
    return len(keys & others) / len(keys) if keys else 0.0


@lru_cache(maxsize=8192)
def content_keys(text: str) -> frozenset[str]:
    """Latin words of 3+ letters, stemmed, and CJK character bigrams, minus function words: what
    two mentions of one thing share ("户外的咱不赌" and "户外草坪" share 户外; "retries hide the
    flakiness" and "add a retry decorator" share retry). A hyphenated word counts by its parts:
    "the Postgres queue" names "a Postgres-backed queue". A versioned name counts with and without
    its version: "gpt4" names "GPT-4".

    Cached: every user turn is compared with every alternative the conversation holds, whose
    keys stay the same turn after turn."""
    keys: set[str] = set()
    for match in _KEY_RE.finditer(text.lower()):
        key = match.group(0) or match.group(1)
        parts = [part for part in key.split("-") if len(part) >= 3] if key and "-" in key else [key]
        if key and (versioned := _VERSIONED_RE.fullmatch(key)):
            # "gpt4" and "GPT-4", "vue3" and "Vue 3": the name with its version, and the name.
            parts += [versioned.group(1) + versioned.group(2), versioned.group(1)]
        keys.update(stem_of(part) if part.isascii() else part for part in parts if part and part not in _STOP_KEYS)
    return frozenset(keys)


def best_overlap(text: str, proposals: Sequence[Proposal], minimum: float = 0.3) -> Proposal | None:
    """Among the proposals that share at least `minimum` of their name's content keys with text,
    the one that shares the most ("the Postgres queue" is "a Postgres-backed queue like
    procrastinate", not "a managed queue", though "queue" is half of the latter's name); ties go
    to the larger share, then to the earlier proposal."""
    wanted = content_keys(text)
    best, best_key = None, (0.0, 0.0)
    for proposal in proposals:
        have = content_keys(proposal.name) or content_keys(proposal.summary)
        if have:
            shared = _weight(wanted & have)
            key = (shared, shared / _weight(have))
            if key[1] >= minimum and key > best_key:
                best, best_key = proposal, key
    return best


def sole_container(text: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """The one proposal whose name holds every content key of `text`, when only one does:
    "tracemalloc" names "用 tracemalloc 在生产环境抓快照" though it is a small share of that name.
    The name, not the whole summary: a description's "3 year horizon" is no name "year" points at."""
    return sole_containers([text], proposals)[0]


def sole_containers(texts: Sequence[str], proposals: Sequence[Proposal]) -> list[Proposal | None]:
    """`sole_container` of each text, the proposals' names read once: a long conversation looks
    dozens of short rejections up among dozens of options on every turn."""
    # Which proposals hold each key: a text's holders are the proposals on every one of its keys'
    # lists, found from the shortest list, not by testing every name against every text.
    holders: dict[str, list[int]] = {}
    for index, proposal in enumerate(proposals):
        for key in content_keys(proposal.name):
            holders.setdefault(key, []).append(index)
    found: list[Proposal | None] = []
    for text in texts:
        lists = sorted((holders.get(key, []) for key in content_keys(text)), key=len)
        holding = set(lists[0]).intersection(*lists[1:]) if lists else set()
        found.append(proposals[holding.pop()] if len(holding) == 1 else None)
    return found


def sole_kin(reference: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """The one proposal that names the product the reference is a short name for ("ES" for "Move
    search to Elasticsearch…", "k8s" for "部署到 Kubernetes"), when only one does; by the relapse
    guard's kin groups, loaded only for a reference whose words name no option. Only for a
    reference that shares no word with any option: "just redis" is a plainer form of "Redis
    cluster with sentinel failover", which it leaves, not another name for it."""
    keys = content_keys(reference)
    if not proposals or any(keys & content_keys(proposal.summary) for proposal in proposals):
        return None  # nothing to name, or named by its words: the kin lexicon (50 ms to load) is not needed
    from detector.relapse.kin import short_name_for

    sharing = [proposal for proposal in proposals if short_name_for(reference, proposal.summary)]
    return sharing[0] if len(sharing) == 1 else None


# A word this short may be a product's short name ("ES", "pg", "k8s", "mac").
_SHORT_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9]{1,4}")


def shaped_like_short_name(word: str) -> bool:
    """Is the word as short as a product's short name ("ES", "pg", "k8s", "mac"), which has no
    content word to be found by?"""
    return _SHORT_NAME_RE.fullmatch(word.strip()) is not None


def option_by_short_name(word: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """`sole_kin` of a word shaped like a short name; None for any other word, whose lookup would
    only load the kin lexicon for nothing ("don't use semicolons")."""
    word = word.strip()
    if not shaped_like_short_name(word):
        return None
    return sole_name_head(word, proposals) or sole_kin(word, proposals)


def sole_name_head(word: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """The one proposal whose name opens with the word ("不是GC的问题" after "1. GC频繁"): a word too
    short for content keys, which the ranker cannot weigh. Only the opening word: "SLB" inside
    "客户端空闲回收调到比 SLB 短" is what the option is measured against, not what it is."""
    lowered = word.lower()

    def opens_with_it(name: str) -> bool:
        name = name.strip().lower()
        after = name[len(lowered) : len(lowered) + 1]
        return name.startswith(lowered) and not (after.isascii() and after.isalnum())

    sharing = [proposal for proposal in proposals if opens_with_it(proposal.name)]
    return sharing[0] if len(sharing) == 1 else None


def sole_sharer(text: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """The one proposal that shares any content key with `text`, when only one does: "retries hide
    flakiness" speaks of "add a retry decorator around the network call" and of no other option,
    though retry is a small share of its name. Whole summaries, not names: a name is cut at its
    first comma, and "招应届" also speaks of "思路1：放宽年限，招应届或1到2年经验…"."""
    wanted = content_keys(text)
    sharing = [proposal for proposal in proposals if wanted & content_keys(proposal.summary)] if wanted else []
    return sharing[0] if len(sharing) == 1 else None


# A short capitalised word that may be the tail or head of a product's name ("MQ", "DB").
_AFFIX_RE = re.compile(r"[A-Z][A-Za-z0-9]{1,5}")
_LATIN_NAME_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]+")


def sole_name_affix(reference: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """The one proposal with a word of its name that the reference begins or ends ("MQ" of "引入
    RocketMQ", "Mongo" of "MongoDB Atlas"), when only one has such a word. Only for a short
    capitalised reference: a whole-summary match of any word lost dev rejections (0.61 -> 0.59)."""
    word = reference.strip()
    if not _AFFIX_RE.fullmatch(word):
        return None
    lowered = word.lower()
    sharing = [
        proposal
        for proposal in proposals
        if any(
            len(name) > len(word) and (name.lower().endswith(lowered) or name.lower().startswith(lowered))
            for name in _LATIN_NAME_WORD_RE.findall(proposal.name)
        )
    ]
    return sharing[0] if len(sharing) == 1 else None


def number_word(word: str) -> int | None:
    """The number a digit or a number word says: "3", "①", "three", "third", "三", "两"."""
    if word.isdecimal():
        return int(word)
    if len(word) == 1 and word.isdigit():
        return unicodedata.digit(word)  # "①" is 1
    return _ORDINALS_EN.get(word.lower(), _ORDINALS_ZH.get(word))


# The groups of `_LABEL_REF_RE` that name a label; the others point at a place ("第二个", "the
# second one"), which `by_position` governs ("tokenbf_v1 的第一个参数" is no option 1).
_LABEL_GROUPS = frozenset({"zh", "en", "bare", "bare_next"})


def _same_number(key: str, keys: Sequence[str]) -> int | None:
    """Where among the labels' keys the one that says the key's number in the other script is: "1"
    and "一" are one label, written in digits or in Chinese."""
    number = number_word(key) if key.isdigit() or key in _ORDINALS_ZH else None
    if number is None:
        return None
    for at, other in enumerate(keys):
        if (other.isdigit() or other in _ORDINALS_ZH) and number_word(other) == number:
            return at
    return None


def is_firm_label(reference: str) -> bool:
    """Is the reference a label no word of running text can be: "方案一", "A方案", "option 2",
    "Plan B"; not "plan is", "idea I", a lower-case letter, nor a name ("Route53")?"""
    found = _label_match(reference)
    if found is None:
        return False
    group, key, before = found
    if group == "en" and not before.rstrip("#")[-1:].isspace():
        return False  # "Route53", "plan9": a name, not "route 53"
    capital = _is_letter(key) and key.isupper() and (group != "en" or key != "I")
    return capital or key.isdecimal() or (group == "zh" and key in "一二三四五六七八九十")


def is_lettered_label(reference: str) -> bool:
    """Is the reference a label by a letter ("A方案", "方案B", "plan C")?"""
    found = _label_match(reference)
    if found is None or not _is_letter(found[1]):
        return False
    group, _, before = found
    return group != "en" or before[-1:].isspace()


def _label_match(reference: str) -> tuple[str, str, str] | None:
    """The reference read whole as a label, by `_LABEL_REF_RE`'s labelled forms: (its group, its
    key, what comes before the key); None when it is no such label."""
    match = _LABEL_REF_RE.fullmatch(reference)
    group = match.lastgroup if match is not None else None
    if match is None or group not in ("zh", "letter_zh", "en"):
        return None
    return group, match.group(group), reference[: match.start(group)]


def _is_letter(key: str) -> bool:
    return len(key) == 1 and key.isascii() and key.isalpha()


def _ordinal(key: str) -> int | None:
    if key.lower() == "last":
        return -1
    number = number_word(key)
    if number is not None:
        return number
    if _is_letter(key):
        return ord(key.upper()) - ord("A") + 1
    return None


def _label_key(label: str) -> str:
    """The distinguishing part of a label: 方案A → A, Option 2 → 2, 思路二 → 二."""
    match = re.search(r"([A-Za-z\d一二三四五六七八九十\u2460-\u2469]{1,2})$", label)
    return match.group(1).upper() if match else label.upper()


def _tidy_summary(summary: str) -> str:
    """The summary without the punctuation that closed its sentence ("Option 2: RabbitMQ." is
    "RabbitMQ"): a name ending in a full stop reads as another token."""
    return summary.strip().rstrip(" ;；。.,，") or summary.strip()


def _counted(items: list[Proposal], key: Callable[[str], str] = str) -> list[Proposal]:
    """The items whose labels count up by one (1, 2, 3…; a, b, c…; 一, 二, 三…), from the first
    item's label and among labels of its kind: a list is told from numbers in running text
    ("costs about 50. You…", "Day 1 → Kyoto… 4 → Osaka"), its sub-items ("a)", "b)" under "1.")
    and a second list further down (the steps after the options) by counting. A list may start
    past 1: a second batch of names numbered on from the first ("5. Splitsy 6) Penny & Co").
    `key` is the part of a label that counts ("A" of "方案A")."""
    if not items:
        return items
    kind = label_kind(key(items[0].label))
    start = _ordinal(key(items[0].label)) or 0
    counted: list[Proposal] = []
    for item in (item for item in items if label_kind(key(item.label)) == kind):
        if _ordinal(key(item.label)) != start + len(counted):
            break
        counted.append(item)
    return counted


def label_kind(label: str) -> str:
    """A list label's kind: a number ("2", "②"), a letter ("B") or a Chinese numeral ("二")."""
    return "number" if label.isdigit() else "letter" if label.isascii() else "cjk"


def _list_label(mark: str) -> str:
    """The label of a list item from its mark: "(1) " → "1", "一、" → "一", "二是" → "二"."""
    return mark.strip().strip(_LIST_MARK_PUNCTUATION) or mark.strip()


def _tagged(tag: str | None, summary: str) -> str:
    """The summary of an option with a short name in brackets, the name first: "story: 'Last
    spring…'" for "Option B (story): 'Last spring…'"."""
    return f"{tag.strip()}: {summary}" if tag and tag.strip() else summary


def _tidy_label(label: str) -> str:
    return re.sub(r"\s+", " ", label.strip())


def _listed_in(summary: str, proposals: Sequence[Proposal]) -> list[Proposal]:
    """The listed options a suggestion recommends: by a label it opens with ("方案二", "option 2")
    or by letters ("先做 B 和 C", "go with A and C"). Empty when it names anything not listed: then
    it is an option of its own. A bare number is a listed option's label ("我推荐 3", "I'd go
    with 2"), never an option named "3"."""
    bare = next((p for p in proposals if p.label == summary.strip()), None)
    if bare is not None:
        return [bare]
    letters = _LETTER_GROUP_RE.match(summary)
    if _LABEL_REF_RE.match(summary) and not letters:
        found = [proposal_by_label(summary, proposals)]
    else:
        found = [
            next((p for p in proposals if _label_key(p.label) == letter), None)
            for letter in _LONE_CAPITAL_RE.findall(letters.group() if letters else summary)
        ]
    return [p for p in found if p is not None] if found and None not in found else []


@lru_cache(maxsize=1024)
def announcement(text: str) -> str | None:
    """The one thing a reply says it will do ("I'll add a Redis cache in front of the user
    service" → "add a Redis cache in front of the user service"), or None. A reply announcing more
    than one step announces none: "I'll add the index, then I'll rerun the migration" is a plan.

    Cached: a reply is read for it as its proposal and again as its next step."""
    found = list(_ANNOUNCEMENT_RE.finditer(text))
    if len(found) != 1:
        return None
    summary = next((part for part in found[0].group("summary", "summary_zh", "summary_done_to") if part), "").strip(" :：,，*")
    return None if len(summary) < 3 or _GENERIC_SUGGESTION_RE.match(summary) else summary


def _announced(text: str) -> list[Proposal]:
    """What the assistant says it will do, when it offers no options, as its one proposal,
    recommended (it is the assistant's own pick)."""
    summary = announcement(text)
    return [Proposal(_short(summary), summary, recommended=True)] if summary else []


def _table_options(text: str) -> list[Proposal]:
    """The rows of a markdown table whose first column holds the options ("| 方案 | 改动量 |",
    "| Option | Cost |"): each body row's first cell names one. A table of facts ("| Metric |
    Value |") lists none."""
    for match in _TABLE_RE.finditer(text):
        rows = [line.strip().strip("|").split("|") for line in match.group("body").strip().splitlines()]
        names = [row[0].strip() for row in rows if row and row[0].strip()]
        if len(names) >= 2:
            return [Proposal(_short(name), " | ".join(cell.strip() for cell in row)) for name, row in zip(names, rows)]
    return []


def _spaced(text: str, match: re.Match[str]) -> bool:
    """Is a lone letter's label set off from what follows ("A. Redis", "B：本地缓存"), as code
    never is ("b.update_all(…)")?"""
    between = text[match.end("label") : match.start("summary")]
    return any(c.isspace() or not c.isascii() for c in between)


def _opens_item(text: str, at: int) -> bool:
    """Does `at` open a line, an inline item (after "；" or "。") or a table cell, bullets and spaces
    aside? A lone letter is an option label only there ("A. Redis", "a) Redis", "| A. SSR |"), not
    in "vitamin D. Then…" or "e.g. the log shipper"."""
    while at > 0 and text[at - 1] in " \t-*•":
        at -= 1
    return at == 0 or text[at - 1] in "\n;；。|"


# What joins the items of an option made of several: a route's stops, "X和Y", "X + Y", "X and Y".
# Not 与 or 及, more often inside a word (参与, 及时) than between items.
_PART_JOINER_RE = re.compile(rf"\s*(?:{_ROUTE_JOINER}|[、+＋/&]|以及|和)\s*|\s+(?:and|plus)\s+", re.IGNORECASE)


def is_route(summary: str) -> bool:
    """Does the option's text join stops as a route does ("昆明 → 大理", "昆明—大理—丽江")?"""
    return _ROUTE_JOINER_RE.search(summary) is not None


def parts_of(summary: str) -> list[str]:
    """The items of an option's name, when it lists several ("昆明 1 天 → 大理 3 天 → 香格里拉 2 天",
    "高校就业网和学生群", "成都+乐山+峨眉山", "大理/丽江", "Postgres with TimescaleDB and Metabase");
    one item when it lists none.
    Only the name is read: "Kafka on MSK, replayable and durable" describes one option."""
    return [part for part in _PART_JOINER_RE.split(_name_head(summary)) if part.strip()] or [summary]


@lru_cache(maxsize=8192)
def _short(summary: str) -> str:
    """Cached: `Proposal.name` is asked for every option at every lookup, turn after turn."""
    return clip(_name_head(summary) or summary, NAME_CHARS)


def _name_head(summary: str) -> str:
    """The summary up to its first separator: the option's name, unclipped. A comma between two
    words that describe the thing is inside the name ("A smaller, replica-led version" is not "A
    smaller")."""
    head = _NAME_END_RE.split(summary, maxsplit=1)[0]
    if _ADJECTIVE_BEFORE_COMMA_RE.fullmatch(head) and summary[len(head) : len(head) + 2] == ", ":
        rest = summary[len(head) + 2 :]
        head = f"{head}, {_NAME_END_RE.split(rest, maxsplit=1)[0]}"
    return head.strip(" *`")


# An article and a comparative, then a comma: the first of two words that describe the option.
_ADJECTIVE_BEFORE_COMMA_RE = re.compile(
    r"\s{0,3}\**(?:a|an|the)\s(?:smaller|bigger|larger|cheaper|simpler|lighter|shorter|longer|slower|faster|"
    r"quieter|newer|older|leaner|slimmer|safer|easier|tighter|looser|broader|narrower|lower|higher)",
    re.IGNORECASE,
)
