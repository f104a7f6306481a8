"""Standing constraints a user turn states: rules that hold for the rest of the work.

"必须兼容 Python 3.8", "we can't add new infrastructure", "no paid tools, that's a hard rule from
finance", "以后所有job都别用root跑", "never log token values, hashed or not": the state keeps them
so that an agent whose history was trimmed still plans inside them.

A sentence states one when it carries a mark of a rule that outlives the turn:
- a word of rules and requirements ("hard rule", "non-negotiable", "规定", "硬性", "一律");
- a scope over all the work ("whatever we do", "from now on", "以后都", "所有…都", "整个 app 都");
- "never" / "always" said of what we do, "no X … ever", "no X anywhere";
- a modal of obligation or a limit ("we must", "it has to", "at most", "不能超过", "预算", "必须"),
  or a budget said as an amount ("on a 20k budget", "a car under 15k").
In a turn that rejects nothing, a prohibition of something nobody proposed is a preference that
stands as well ("no cilantro in anything", "别推荐网红打卡点"): the fusion has already read a
prohibition of an option on the table as a rejection (prohibitions.py), so what is left here is the
label guide's "standing constraints or preferences not aimed at a discussed option".

What is no constraint: a question ("can we skip the cache?", "要不要限制到 5 个?"), a condition ("if
the budget is 5k …"), a diagnosis ("it must be the DNS"), a resignation to a course ("那只能笔试了"),
and a one-off instruction about the reply's format ("no tables pls"), unless it is said to hold
for good ("no emojis ever"). A heading that announces rules ("Rules that apply to every draft:")
gives the lines listed under it.

Every pattern is a bounded alternation, linear in the turn's length.
"""

from __future__ import annotations

import re

from detector.cues.lexicon import LazyPattern, pattern_anchors
from detector.reasons import before_verdict
from detector.text import clause_spans, ends_as_question


class _Anchored(LazyPattern):
    """A pattern searched only where one of its literal anchors occurs (cues/anchors.py), as the
    cue engine's are: most sentences carry no mark, and a plain substring test is far cheaper than
    the search. Compiled on first use, so a hook process pays for none it does not need."""

    __slots__ = ("anchors",)

    def __init__(self, pattern: str, flags: int = 0) -> None:
        super().__init__(pattern, flags)
        self.anchors = pattern_anchors(pattern)

    def search(self, text: str, lowered: str) -> re.Match[str] | None:
        if self.anchors is not None and not any(anchor in lowered for anchor in self.anchors):
            return None
        return self.regex.search(text)


# At most this many constraints are read from one turn; a pasted policy may hold dozens.
MAX_PER_TURN = 6
# A sentence longer than this is cut to the clause that carries the mark.
MAX_CHARS = 120

# Sentences: split at sentence marks and line breaks; a full stop inside "3.8" or "v1.2" is no end.
_SENTENCE_RE = re.compile(r"(?:[^。！？!?；;\n.]|\.(?=[^\s]))+")
_BARE_SCOPE_RE = re.compile(r"(?:ever|never|always|period|in anything|anywhere|at all|ever again|永远|任何时候都是)", re.IGNORECASE)
_HEADING_RE = re.compile(r"rules?|constraints?|requirements?|规矩|规定|要求|约束|原则|前提", re.IGNORECASE)
# A quotation of some length: a pasted clause, message or listing, not a word in quotes.
_QUOTATION_RE = re.compile(r"“[^”]{20,600}”|\"[^\"\n]{20,600}\"|‘[^’]{20,600}’|「[^」]{20,600}」")
_CODE_SPAN_RE = re.compile(r"`[^`\n]{0,400}`")
_LIST_ITEM_RE = re.compile(r"^\s{0,4}(?:[-*•·]|\d{1,2}[.)、]|[一二三四五六七八九十][、.])\s*")

# Words of rules and requirements, and scopes over all the work.
_RULE_RE = _Anchored(
    r"\b(?:hard|strict|firm|standing|team|house|company|general|golden|ground|our|my) rules?\b"
    r"|\brules? (?:that apply|for (?:the|this|every|all|any|our)|from)\b|\bthat'?s (?:a|the|our|my) rule\b|\bit'?s (?:a|the) rule\b"
    r"|\bnon-?negotiable\b|\bhard (?:constraint|requirement|limit|line|no|stop)\b|\b(?:constraints?|requirements?) ?:"
    r"|\bwhatever we (?:do|build|pick|choose)\b|\bfrom now on\b|\bgoing forward\b|\bfrom day one\b|\bacross the board\b"
    r"|\bno matter what\b|\bunder no circumstances\b|\bat all times\b"
    # Said to be remembered for the rest of the work: "i'm vegetarian btw, so work around that",
    # "anything before 7pm weekdays is impossible for me, keep that in mind".
    r"|\bkeep (?:that|this|it) in mind\b|\bkeep in mind\b|\bjust so you know\b|\bwork around (?:that|it|this)\b"
    r"|\bfor (?:everything|every (?:client|vendor|draft|run|test|project|posting|event|customer|campaign|release|page|service))\b"
    r"|\bin (?:any|all) (?:of )?(?:the |our |my )?\w+|\beverything in (?:our|the|this) \w+ (?:is|are|uses|has|must|should)\b"
    r"|规定|规矩|硬性|硬要求|硬需求|硬杠杠|硬指标|底线|红线|铁律|一律|一概|无论如何|不管[^，。,]{0,12}?都|永远(?:不|别|都)|从今以后|今后|往后"
    r"|以后(?:都|所有|一律|凡是|任何|每次|给我|出)|所有[^，。,]{0,12}?(?:都|一律)|任何[^，。,]{0,12}?(?:都|也)|全程(?:都)?(?:不|别|要)|整个[^，。,]{0,12}?都(?:不|别|要)"
    r"|后面都|都照这个|统一(?:用|成|走|改|写|放)|约束[:：]|前提[:：]|原则[:：]",
    re.IGNORECASE,
)
# "never" / "always" of what is done (not "it never worked", a fact; nor "never mind"), and "no X … ever".
_ALWAYS_NEVER_RE = _Anchored(
    r"(?:^|[,;:(]\s{0,2}|\b(?:i|we|you|please|pls|and|also|just|but|so)\s)(?:never|always)\b(?!\s(?:mind|heard|seen|been|had|got|knew|\w{2,}ed"
    # A state, not a rule: "the writes are continuous, never idle for more than a few secs".
    r"|idle|busy|empty|full|down|late|early|online|offline|available|ready|enough|the same|on time|sure"
    # Where something happens, not a rule: "fails maybe 1 in 5 runs on CI, never locally".
    r"|locally|here|there|in (?:ci|prod|production|staging|dev|practice)|on (?:ci|my machine|prod))\b)"
    r"|\b(?:no|not|n'?t|never)\b[^.!?;\n]{0,50}\bever\b|\bno\b[^.!?;\n]{0,50}\b(?:anywhere|everywhere)\b",
    re.IGNORECASE,
)
# Obligations and limits. A diagnosis is not one: "it must be the DNS", "这必须是缓存的问题".
_MODAL_RE = _Anchored(
    r"(?<!think )\bwe (?:can'?t|cannot|must|have to|may not|are not allowed to|aren'?t allowed to) (?!even\b)"
    r"|\bwe need to (?:support|stay|keep|run|be|work|comply|remain|use|fit) "
    r"|\b(?:it|everything|all of it|each one|this) (?:must|has to|needs to) (?!be (?:the|a|an|some|something|because|caused|related|wrong|broken)\b)"
    r"|\bmust (?:not |never )?(?:stay|support|run|work|keep|go|use|include|have|cover|be (?!(?:the|a|an|some|something|because|caused|related|wrong|broken|it|that|this)\b))"
    r"|\bevery \w+(?: \w+)? (?:has to|must|needs to)\b|\b(?:has|have) to have\b"
    r"|\bhas to (?:stay|support|run|work|be (?!(?:the|a|an|some|something|because|caused|related|wrong|broken|it|that|this)\b))"
    r"|\b(?:is|are) (?:not allowed|required|mandatory|forbidden|banned)\b|\bnot allowed\b|\bno \w+(?: \w+)? allowed\b"
    r"|\bno more than\b|\bat most\b|\bcapped at\b|\bcan'?t (?:exceed|go over|be more than)\b|\bmax(?:imum)? (?:of )?\$?\d"
    r"|\b(?:our|the|my) budget (?:is|of|caps?)\b|\bbudget is\b|\bdeadline\b|\bhard requirement\b"
    # An amount the budget is: "25k total budget", "budget ~$3,500", "under 12k".
    r"|[$£€¥]?\d[\d,.]*\s?(?:k|m|grand)?\s(?:total |overall |max |hard )?budget\b|\bbudget:?\s(?:of |is |about |around |roughly |max |~)?[$£€¥~]?\d"
    r"|\b(?:under|below|max|no more than|at most)\s[$£€¥]\d|\b(?:under|below)\s\d[\d,.]*\s?k\b"
    r"|必须(?!是[^，。,]{0,8}(?:的问题|导致|引起))|务必|一定要|一定得|得兼容|要兼容|不能超过|不超过|别超过|不要超过|(?<![的得])最多(?!能|也就|的)|(?:要|得|必须|需要)至少|至少(?:要|得|留|保留|保证)|上限|下限|封顶"
    r"|预算(?:只有|不超过|上限|最多|控制|就|是|在)"
    # A budget as a ceiling: "预算一个月1000以内", "预算两个人 4w 以内".
    r"|预算[^，。,；;？?]{0,12}?(?:以内|之内|以下)"
    r"|截止(?!到|目前|现在)|禁止|不许|(?<![拿说把])不准(?!确)|不得(?!了|不)|不允许|不让(?:动|改|用|碰|删|加)"
    r"|不能(?:用|有|上|碰|动|删|加|改|出现|写|提|带|超|低于|高于|少于|多于|调|出(?:内网|公司|境|国)|连|访问|依赖|联网|外传|外发|上传|上云)"
    # Only what the user can: "i can only study on weekends", "看房我只能周末", "只能用公司内部部署的".
    r"|\b(?:i|we) (?:can )?only (?:use|study|work|eat|travel|fly|support|deploy|meet|train|afford)\b"
    # Not a resignation to a course ("那只能笔试了", "最后只能贴个装饰贴挡着", "现在只能用 X 绕过去").
    r"|(?<![那就也还再只])(?<!最后)(?<!现在)(?<!去了)(?<!只好)只能(?:用|在|选|周末|晚上|白天|工作日|部署|接受)",
    re.IGNORECASE,
)
# A prohibition opening its clause ("no cilantro", "never apply anything", "别推荐网红店", "不要写太多").
_PROHIBITION_RE = _Anchored(
    r"(?:^(?:and |also |but |so |pls |please |absolutely |oh and )?no (?!(?:problem|worries|worry|idea|rush|thanks|thank|need|way|change|luck|issue|issues|clue|big deal|longer|matter|one|doubt|more questions|"
    r"that|thats|that'?s|this|it|its|it'?s|i|i'?m|i'?ve|i'?ll|im|ive|she|he|they|we|you|not|nothing|none|other|just|sorry|actually|wait|hmm)\b)[a-z'\"]"
    r"|(?:^|[,;:(]\s{0,2})(?:and |also |but |so |pls |please |absolutely |oh and )?(?:please |pls )?(?:don'?t|do not|never) (?:use|add|put|book|suggest|recommend|include|touch|rename|send|log|start|write|turn|apply|give|pick|schedule|plan|go)\b)"
    r"|(?:^|[，,\s]|^[^，,\s]{1,8}?|[里上中])(?:别|不要|甭|不用)(?:再|给我|帮我)?(?:推荐|用|写|排|加|选|订|出现|提|带|碰|动|安排|找|买|放|上|改|删|合|传|开|推|约)",
    re.IGNORECASE,
)
# Not a constraint: a question (`ends_as_question`, and "要不要限制到 5 个", "can we skip the cache"),
# a condition ("if the budget is 5k …").
_QUESTION_RE = re.compile(
    r"呢\s*$|^(?:can|could|should|shall|do|does|did|is|are|would|will) (?:we|i|you|it)\b|要不要|能不能|是不是|可不可以|需不需要",
    re.IGNORECASE,
)
_IF_RE = re.compile(r"\b(?:if|unless)\b|如果|要是|假如", re.IGNORECASE)
_CONDITION_RE = re.compile(r"^(?:if|unless|when|once|in case)\b|^(?:如果|要是|假如|万一|除非)|的话", re.IGNORECASE)
# A worry, a hope or a habit reported is no rule ("我担心以后每次都要我去导").
_NO_RULE_RE = re.compile(r"担心|害怕|怕是|舍不得|\b(?:worried|afraid|i hope|hopefully|today|tonight|this morning)\b|今天|今晚", re.IGNORECASE)
# The reply's format, which a one-off instruction sets ("no tables pls my phone mangles them").
REPLY_FORMAT_RE = re.compile(
    r"\b(?:tables?|bullets?|bullet points|markdown|headers?|headings|emojis?|bold|lists?|paragraphs?|formatting|the reply|your replies)\b"
    r"|表格|列表|分点|加粗|标题|格式|emoji|表情",
    re.IGNORECASE,
)
# An instruction for the reply at hand ("write it in plain english, no jargon", "列个表就行，别写小作文").
_REPLY_ORDER_RE = re.compile(
    r"\b(?:write|rewrite|give me|show|answer|reply|draft|summari[sz]e|explain|make it|keep it|send)\b|帮我(?:写|改|列|排|出)|列个|写个|改一下|写成|只改",
    re.IGNORECASE,
)
# A clause that turns from the constraint to a choice: "so let's use Postgres", "那就走线上", "集成灶吧".
_MOVES_ON_RE = re.compile(r"^(?:so|then|let'?s|instead)\b|^(?:那就|那|就|所以|还是|改|换)|吧$", re.IGNORECASE)
# Words that open a sentence and are not part of the constraint.
_LEADING_RE = re.compile(
    r"^(?:(?:oh |and |also |btw|fyi|ps|p\.s\.|but |so |ok(?:ay)?|plus|one more thing|reminder(?: for [^:]{1,40})?|"
    r"另外|还有|对了|顺便说一句|顺便|补充一下|补充一个约束|另外说一下|先说好啊?|有一点我先说清楚|而且|并且|况且|再说了?|此外|"
    r"(?:我|都|我都|早就?|之前|刚才|前面)?说(?:过了|过|了)|(?:i )?(?:already )?said)[,，:：\s]*)+",
    re.IGNORECASE,
)


def standing_constraints(text: str, prohibitions: bool = True) -> list[str]:
    """The standing constraints the turn states, each as the sentence (or clause) that says it.

    `prohibitions=False` for a turn that rejects, pivots or reopens: there a bare prohibition is the
    verdict on an option, not a rule; the other marks still hold ("Kafka is out, we can't add new
    infrastructure this quarter")."""
    found: list[str] = []
    lines = _own_lines(text)
    listed: set[int] = set()  # lines already read as the items under a heading
    for index, line in enumerate(lines):
        if index in listed:
            continue
        for sentence in _sentences(line):
            if _announces_rules(sentence):
                items = _listed_after(lines, index)
                listed.update(items)
                found += [_LIST_ITEM_RE.sub("", lines[at]).strip().rstrip("。.;；")[:MAX_CHARS] for at in items]
                continue
            constraint = _constraint_in(sentence, prohibitions)
            if constraint:
                found.append(constraint)
        if len(found) >= MAX_PER_TURN:
            break
    return list(dict.fromkeys(c for c in found if c))[:MAX_PER_TURN]


def _own_lines(text: str) -> list[str]:
    """The user's own lines. Pasted text states someone else's rules ("// 不要删除这个全局变量" in a
    pasted file, a clause of the other side's contract in quotes): code blocks, quoted lines
    ("> …") and long quotations become blank lines (so line numbers stay), code spans spaces."""
    lines = []
    in_code = False
    for line in _QUOTATION_RE.sub(" ", text).split("\n"):
        fence = line.lstrip().startswith("```")
        in_code = in_code != fence
        pasted = fence or in_code or line.lstrip().startswith(">")
        lines.append("" if pasted else _CODE_SPAN_RE.sub(" ", line))
    return lines


def _sentences(line: str) -> list[str]:
    """The line's sentences; a bare scope word is said of the sentence before it ("no cilantro.
    ever.")."""
    sentences: list[str] = []
    for match in _SENTENCE_RE.finditer(line):
        sentence = match.group().strip()
        if sentences and _BARE_SCOPE_RE.fullmatch(sentence):
            sentences[-1] += ". " + sentence
        elif sentence:
            sentences.append(sentence)
    return sentences


def _announces_rules(sentence: str) -> bool:
    """A heading that ends with a colon and says rules follow ("Some rules, from the HOA:")."""
    return sentence.endswith((":", "：")) and _HEADING_RE.search(sentence) is not None


def _listed_after(lines: list[str], index: int) -> list[int]:
    """Where the list items under a heading are: the consecutive item lines after it (blank
    lines before the first skipped)."""
    items: list[int] = []
    for at in range(index + 1, len(lines)):
        if not lines[at].strip():
            if items:
                break
            continue
        if not _LIST_ITEM_RE.match(lines[at]) or len(items) == MAX_PER_TURN:
            break
        items.append(at)
    return items


def _constraint_in(sentence: str, prohibitions: bool) -> str | None:
    """The sentence, cleaned, when it states a standing constraint; else None.

    A rule word or a scope may point back at the whole sentence ("no paid tools, that's a hard
    rule from finance"), so the sentence is kept whole; an obligation is said from its own clause
    on ("Kafka is out, we can't add new infrastructure", where the first clause is a verdict)."""
    sentence = _LEADING_RE.sub("", sentence).strip(" ,，-*")
    lowered = sentence.lower()
    if _RULE_RE.search(sentence, lowered) or _ALWAYS_NEVER_RE.search(sentence, lowered):
        found = sentence[:MAX_CHARS].strip()
    elif (modal := _MODAL_RE.search(sentence, lowered)) is not None:
        if _IF_RE.search(sentence[: modal.start()]):
            return None  # "she said if it has to happen she'd rather pick it herself"
        found = _from_clause_of(sentence, modal.start())
    elif prohibitions and _PROHIBITION_RE.search(sentence, lowered) is not None:
        if REPLY_FORMAT_RE.search(sentence) or _REPLY_ORDER_RE.search(sentence):
            return None
        found = sentence[:MAX_CHARS].strip()
    else:
        return None
    if len(sentence) < 4 or ends_as_question(sentence) or _QUESTION_RE.search(sentence):
        return None
    if _CONDITION_RE.search(sentence) or _NO_RULE_RE.search(sentence):
        return None
    return found


def _from_clause_of(sentence: str, offset: int) -> str:
    """The sentence from the start of the clause that holds `offset`, up to a clause that moves
    on to what is done about it ("…, so let's use Postgres", "… 集成灶吧") or says a verdict, at most
    MAX_CHARS long.
    Chinese typed fast ends a clause with a space: "去街道问了 工作室在住宅楼里办不下来 必须商用"
    holds "必须商用"."""
    spans = clause_spans(sentence)
    if not spans:
        return sentence[:MAX_CHARS]
    first = max((i for i, (begin, _) in enumerate(spans) if begin <= offset), default=0)
    last = first
    while last + 1 < len(spans) and not _MOVES_ON_RE.search(sentence[slice(*spans[last + 1])]):
        last += 1
    # Nor past a verdict in the clauses after it ("必须留江浙沪 以后好找工作 华科就算了 …").
    after = before_verdict(sentence[spans[first][1] : spans[last][1]])
    return (sentence[spans[first][0] : spans[first][1]] + after)[:MAX_CHARS].strip()
