"""The reason a rejection gives, when no reason pattern frames it.

Reason patterns ("because …", "太贵了", "the ops cost is too high") find few of the reasons people
give: on the dev split, 31 of the 445 detected positives whose reason the labels mark. Most
reasons are a clause of their own beside the verdict, with no word that announces them: "my
room is small, it wouldn't fit. forget U", "烤鸡不行，我家没烤箱", "Mongo 不考虑了，订单必须要
transaction". So the turn is read clause by clause: the clauses holding a cue or a verdict word
are the verdict, the one naming the replacement is the new choice, and the reason is the run of
plain clauses beside the verdict, the one before it first (people say the consequence, then the
verdict: 248 against 214 the other way round, on dev).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Literal

from detector.courtesies import KINDNESS
from detector.reverts import REVERT_VERB
from detector.schema import CueHit
from detector.statements import accepted_clause
from detector.text import CJK_CHAR, SENTENCE_END_RE, clause_spans, ends_as_question, squeeze

# Words that make a clause the verdict or the new choice rather than the reason for it. The
# English ones that also build ordinary sentences ("no one on call", "figure it out", "and then it
# crashed") count only where verdicts put them: opening or closing the clause.
_VERDICT_RE = re.compile(
    r"不行|不要|不用|算了|免了|不考虑|不搞|不做|不弄|不碰|不看|不去|不买|不上|不选|否了|否掉|作废|放弃|拿掉|去掉|删掉|砍掉|"
    r"跳过|略过|不合适|不适合|行不通|走不通|没戏|作罢|排除|别指望|指望不上|别(?:用|搞|做|想|弄|折腾|考虑)|换成|改成|改用|换用|还是|就行|就好|"
    # "私教不请了", "酒店就不回头了", "那我不自己瞎弄了": 不 and a verb closing the clause, not a
    # complaint's "不够了", "吃不消了", "睡不着了" (an adjective or a complement after 不).
    r"不(?!够|行|错|对|好|少|多|便宜|贵|方便|舒服|划算|值|到|及|起|住|下|动|着|清|懂|来|开|完|了|消|得|成)[\u4e00-\u9fff]{1,4}了$|"
    r"先搁着|先放着|先放一放|先搁一搁|"
    r"吧$|pass$|^(?:so )?(?:no|nah|nope|meh|pass)\b|\b(?:out|then|it is|no|nah|nope)$|"
    r"\b(?:(?:skip|scrap|drop)(?:s|ped|ping)?|ditch(?:ing)?|kill(?:ing)?(?! (?:us|me|our|my|them)\b)|forget|nix|veto|"
    r"no thanks|hard pass|rule out|let'?s|go with|going with|instead|switch|switching|"
    r"not doing|not going|revisit|back to|bring back|reconsider|screw|non-starter|no-go|no go|deal ?breaker|"
    r"off the table|not happening|hard no|no way|pass on)\b|"
    # A hypothesis ruled out ("it's not the network", "so not that either", "不是网络的问题").
    r"^(?:so |ok |okay )?(?:it|that|this)(?:'s not| is not| isn'?t)\b|\bnot (?:that|it|this) either\b|"
    r"^(?:so |ok |okay )?not \S+(?: \S+)?$|\bruled out\b|"
    r"^(?:应该|肯定|也|并|确实)?不是.{1,20}$|不是$|无关$|没关系$|没毛病$|可以排除$|"
    # An order to undo what the assistant did ("revert that", "撤回吧").
    + REVERT_VERB,
    re.IGNORECASE,
)
# A clause that is only filler, one word or a run of them ("ok you know what, let's revisit Redux
# Toolkit"): it carries neither verdict nor reason.
_FILLER_RE = re.compile(
    r"(?:(?:ok|okay|hmm+|um+|uh+|ugh|yeah|yes|well|so|also|honestly|actually|anyway|wait|right|lol|haha|you know what|"
    r"look|listen|alright|oh|嗯|哦|啊|额|呃|好吧|好的|行吧|那|其实|说实话|我想了想|想了想|对了|fine|sure|argh|damn|man)[\s,]*)+",
    re.IGNORECASE,
)
# A clause that only thanks, or names kindness (courtesies.KINDNESS): "非常感谢您的好意，one-pager 就
# 不用麻烦您了", "That's real kind of you, but no".
_THANKS_RE = re.compile(
    r"(?:非常|十分|真的|太)?(?:感谢|谢谢|多谢)(?:您|你)?(?:的)?(?:好意|建议|提醒|耐心|帮忙)?(?:了|啦)?"
    r"|(?:thanks|thank you|cheers)(?: so much| very much| a lot)?(?: for (?:the|your) (?:offer|help|thought))?"
    rf"|{KINDNESS}",
    re.IGNORECASE,
)
_LINE_BREAK_RE = re.compile(r"\n")
# A clause about the conversation itself: the user thought again, has news, had an idea.
_META_RE = re.compile(
    r"想了想|想到(?:个|一个)?(?:办法|主意)|好主意|好消息|坏消息|刚回我|回我了|更新一下|"
    r"\b(?:thinking (?:again|about it)|on second thought|second thoughts|update|good news|bad news|one more thing|"
    r"good idea|great idea|un-?parking|circling back)\b"
    # A clause that only says who the user talked to, or that they thought ("我跟老板聊了", "我想了两天",
    # "talked to my wife"): what follows is what was said.
    r"|^(?:我|我们)?(?:跟|和)[^,，]{1,8}(?:聊|谈|商量|沟通)(?:了|过)(?:一下)?$|^(?:我|我们)?想了(?:两|几|一|半)?(?:天|下|晚|个晚上)$"
    r"|^(?:so |ok )?(?:I |we )?(?:talked|spoke|checked) (?:to|with) [\w' ]{1,24}$",
    re.IGNORECASE,
)
# Where a reason turns from what it grants to what counts ("sounds cool but …", "便宜是便宜，但是 …").
# A 不过 right after a character is a verb's complement ("批不过来"), no "but".
_CONCESSION_RE = re.compile(rf"\s(?:but|though|however)\s|但是|可是|(?<![{CJK_CHAR}])不过", re.IGNORECASE)
MAX_REASON_CLAUSES = 2
MAX_REASON_CHARS = 120

# What a clause does in the turn: gives the verdict (or the new choice), gives the reason, or neither
# (a filler, a question, the replacement's or the revisit condition's own clause).
ClauseKind = Literal["verdict", "reason", "other"]


def concedes(text: str) -> bool:
    """Does the text turn on a "but" ("i said no agencies, but these guys have references")?"""
    return _CONCESSION_RE.search(text) is not None


def reason_clause(text: str, fired: Sequence[CueHit], other_spans: Sequence[str | None]) -> str | None:
    """The clauses that give the reason for the verdict, or None when the turn does not separate
    them: one clause only ("要改主键就不做了"). A turn with no clause recognisable as the verdict
    (the model heard it in the complaint) is its own reason when it is all complaint and short.

    `other_spans` are what the turn's other spans already hold (the replacement, the condition
    to revisit on): their clauses say where to go and when to come back, not why."""
    spans = clause_spans(text)
    if len(spans) < 2:
        return None
    kinds = clause_kinds(text, spans, fired, other_spans)
    if "verdict" not in kinds:
        # No word of the turn says the verdict: the model heard it in the complaint itself
        # ("Elasticsearch 我们之前维护过，太痛苦了"), which is then the reason, if it is short.
        run = _run(kinds, 0, step=1)
        if not run or len(run) < kinds.count("reason"):
            return None
        start, end = spans[run[0]][0], spans[run[-1]][1]
        return text[start:end] if end - start <= MAX_REASON_CHARS else None
    first_verdict = kinds.index("verdict")
    last_verdict = len(kinds) - 1 - kinds[::-1].index("verdict")
    # Before the verdict, else right after it ("Redux 就算了，团队里一半人是新人，学习曲线太陡。先试 C",
    # where the turn goes on to a choice), else after the last one.
    run = (
        _run(kinds, first_verdict - 1, step=-1)
        or _run(kinds, first_verdict + 1, step=1)
        or _run(kinds, last_verdict + 1, step=1)
    )
    if not run:
        return None
    start, end = spans[min(run)][0], spans[max(run)][1]
    return _after_concession(text[start:end]) if end - start <= MAX_REASON_CHARS else None


def _after_concession(reason: str) -> str:
    """What a reason says after granting something: "Kyushu sounds cool but my partner gets motion
    sick" gives its reason after "but"; what it grants is no reason to reject."""
    parts = _CONCESSION_RE.split(reason)
    return parts[-1].strip() if len(parts) > 1 and len(squeeze(parts[-1])) >= 6 else reason


def before_verdict(text: str) -> str:
    """The clauses of `text` before the first that says a verdict: "只能看相关，不能说因果，审稿人一定
    会抓这点，算了吧" holds as a constraint without its "算了吧"; "" when the first clause is one."""
    for start, end in clause_spans(text):
        if _VERDICT_RE.search(text[start:end]):
            return text[:start].rstrip(" ,，;；、")
    return text


def widen_reason(text: str, reason: str, fired: Sequence[CueHit], other_spans: Sequence[str | None]) -> str:
    """A reason pattern's capture as the user said it: the whole clause it sits in, with the
    reason clauses beside that one.

    Patterns capture the complaint's core ("太重" of "Keycloak 太重了，我们运维就一个人，不考虑";
    "pricing for 120 engineers is way over…", cut at twenty characters), and the block then gives
    a fragment as the reason. The clause is kept only when nothing in it besides the capture is
    a verdict: "scrap it because the ops cost is too high" keeps "the ops cost is too high"."""
    at = text.find(reason)
    if at < 0:
        return reason
    spans = clause_spans(text)
    home = next((i for i, (start, end) in enumerate(spans) if start <= at and at + len(reason) <= end), None)
    if home is None:  # the capture runs over several clauses: it already says what it says
        return reason
    start, end = spans[home]
    if _VERDICT_RE.search(text[start:at] + " " + text[at + len(reason) : end]):
        return reason
    kinds = clause_kinds(text, spans, fired, other_spans)
    # Never across a line break: the next paragraph of a long message is about something else.
    # Nor back into a sentence before, when the capture's clause has a subject of its own ("升级
    # PG 这事 DBA 排期到明年了。Milvus 太重了" rules Milvus out for its weight, not for the DBA's
    # calendar); a bare "too slow" still says why with the sentence before ("that's 4 deploys.").
    boundary = SENTENCE_END_RE if text[start:at].strip() else _LINE_BREAK_RE
    before = [i for i in _run(kinds, home - 1, step=-1)[: MAX_REASON_CLAUSES - 1] if not boundary.search(text[spans[i][1] : start])]
    after = [i for i in _run(kinds, home + 1, step=1)[: MAX_REASON_CLAUSES - 1] if "\n" not in text[end : spans[i][0]]]
    first, last = min([home, *before]), max([home, *(after if not before else [])])
    widened = text[spans[first][0] : spans[last][1]]
    return widened if len(widened) <= MAX_REASON_CHARS else reason


def clause_kinds(
    text: str, spans: list[tuple[int, int]], fired: Sequence[CueHit], other_spans: Sequence[str | None]
) -> list[ClauseKind]:
    """What each clause does in the turn; `other_spans` (the replacement, the revisit condition)
    mark their own clauses as neither verdict nor reason."""
    others = [squeezed for span in other_spans if span and (squeezed := squeeze(span))]
    ends = sorted(hit.end for hit in fired)
    read = [_kind(text, start, end, ends, others) for start, end in spans]
    kinds: list[ClauseKind] = []
    for index, kind in enumerate(read):
        if kind == "question":
            # A question right before the verdict is rhetorical, the complaint said as one: "$99 a
            # year to tell me I'm broke? nah", "天天下雨在别墅里发呆吗 巴厘岛这次不去了".
            kind = "reason" if read[index + 1 : index + 2] == ["verdict"] else "other"
        kinds.append(kind)
    return kinds


def _kind(text: str, start: int, end: int, cue_ends: Sequence[int], others: Sequence[str]) -> ClauseKind | Literal["question"]:
    clause = text[start:end]
    # A cue can run over several clauses ("羊肉太膻了，…不做羊肉了"): its verdict is where it ends.
    # `cue_ends` are sorted, so a turn of thousands of clauses and cues is read in n log n.
    # A clause that takes another option ("就按第二个来", "let's go with option 2") is the new choice.
    ends_here = bisect.bisect_right(cue_ends, start) < bisect.bisect_right(cue_ends, end)
    if ends_here or _VERDICT_RE.search(clause) or accepted_clause(clause):
        return "verdict"
    squeezed = squeeze(clause)
    if any(other in squeezed for other in others):
        return "other"
    bare = clause.strip(" .!~…")
    if _FILLER_RE.fullmatch(bare) or _THANKS_RE.fullmatch(bare) or _META_RE.search(clause) or len(squeezed) < 3:
        return "other"
    if ends_as_question(clause) or text[end : end + 1] in ("?", "？"):
        return "question"
    return "reason"


def _run(kinds: list[ClauseKind], index: int, step: int) -> list[int]:
    """The reason clauses next to each other from `index` on, going by `step`, at most a few."""
    run: list[int] = []
    while 0 <= index < len(kinds) and kinds[index] == "reason" and len(run) < MAX_REASON_CLAUSES:
        run.append(index)
        index += step
    return run
