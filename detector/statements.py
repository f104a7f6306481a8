"""Statements the tracker records besides rejections: acceptances, standing constraints, next steps.

An acceptance ("好，就按B来", "sounds good, go with option 2") is NONE for the classifier (nothing
is rejected) but sets the current decision. A standing constraint ("必须兼容 Python 3.8", "we
can't add new infrastructure") holds for the rest of the conversation. The assistant's stated next
step ("下一步：压测", "Next, I'll write the migration") is what the block lists under next action.
A course the user puts forward in a closing question ("what about a management command run from
cron?") is the user's own proposal.
All patterns are bounded (no nested or unbounded repeats), like the cue lexicons.
"""

from __future__ import annotations

import re

from detector.alternatives import announcement
from detector.text import (
    CJK_CHAR,
    LABEL_WORD_EN,
    LABEL_WORD_ZH,
    clause_spans,
    ends_as_question,
    has_cjk,
    sentences,
)

# A word of assent before a choice ("好，就按B来", "ok option 2"); one list for every statement.
_ASSENT = r"好的?|行|可以|嗯{1,3}|ok(?:ay)?|sure|yes|yeah|yep|yup|cool|alright|fine|great|perfect|sounds good|agreed|deal"
# "stick with X", typed "stick w/ X" too: what stays is chosen.
_STICK_WITH = r"stick (?:with|w/)"
_ACCEPT_RE = re.compile(
    rf"^(?:{_ASSENT})?[,，.!！。 ]{{0,3}}"
    r"(?:就|那就|那|we'?ll|let'?s|i'?ll|go|ok)?\s{0,2}"
    rf"(?:按|用|选|走|定|上|去|采用|选择|go with|(?:we'?re |i'?m )?going with|use|do|pick|choose|take|{_STICK_WITH}|settle on|book)\s{{0,2}}"
    r"(?P<choice>[^,，。.!！?？;；\n]{1,40}?)\s{0,2}(?:来|吧|了|吧。|then|it is)?\s{0,2}[,，。.!！]?\s{0,2}$"
    rf"|^(?:{_ASSENT})[,，.!！。 ]{{0,3}}(?P<deictic>就这么定了|就这样|就它了|就这个|let'?s do (?:that|it)|go (?:for|with) it|that works|works for me)",
    re.IGNORECASE,
)
# A yes and a name, the whole turn: "yes PWA" to "So PWA it is?", "ok supabase". Only a Latin name,
# and not a word that is itself assent or thanks ("yes please", "ok thanks", "yeah exactly").
_ASSENT_AND_NAME_RE = re.compile(
    rf"(?:{_ASSENT})[,.!\s]{{1,3}}(?!(?:please|pls|thanks|thank|thx|ty|exactly|right|true|correct|definitely|absolutely"
    r"|makes|got|go|do|that|this|it|lol|haha|done|same|both|neither|all|none|fair|will|i|we|you|so|and|but|then|now|sure|thing|one"
    rf"|{_ASSENT})\b)(?P<choice>[A-Za-z][\w.+#-]{{1,20}}(?: [\w.+#-]{{1,20}}){{0,2}}?)[.!~]{{0,3}}$",
    re.IGNORECASE,
)
# Where a clause ends; a colon too: "就按你说的：前 4 周每周 200 条" accepts what was said.
# Chinese typed fast breaks its clauses with a space: "按user_id分的话 商家后台按商家查咋办" is two.
_CJK_SPACE = rf"(?<=[{CJK_CHAR}])\s(?=[{CJK_CHAR}])"
_CLAUSE_SPLIT_RE = re.compile(rf"[,，;；。!！?？:：\n]|\.(?:\s|$)|{_CJK_SPACE}")
_CJK_CLAUSE_BREAK_RE = re.compile(_CJK_SPACE)
_CLAUSE_ACCEPT_RE = re.compile(
    # A label needs no verb: "行 就方案一 redis预扣" (the assent before it and a space, no comma).
    # After 那就 a name needs no verb either: "行 那就直连 用官方sdk"; not "那就算了", "那就不用了".
    # A topic may open it ("分片键就按你说的 user_id 加基因法"), not a suggestion ("要不就用 X"), and
    # "还是" chooses too ("还是上 X 吧").
    rf"(?:(?:{_ASSENT})\s{{1,2}})?(?:(?:(?!要不|要么|难道|是不是)[{CJK_CHAR}]){{0,6}}?(?:那就|就)|那|我们就|咱们就|先|还是(?=用|选|走|上|按))(?:按|用|选|走|定|上(?<=还是上)|试(?:一下|下|试)?|(?=方案|选项|思路|第)"
    r"|(?<=那就)(?!不|别|没|算|这|那|先|再|好|行|是|对|可以|要|得|会|能|去掉|放弃))"
    r"\s?(?P<choice>[^吗呢]{1,20}?)\s?(?:来|吧|了|就行|试试|看看)?$"
    rf"|(?:(?:let'?s|we'?ll|i'?ll) (?:go with|{_STICK_WITH}|settle on|do|use|pick|take|try|go for)"
    # An order to take one of the options: "…, try the trigram index", "so go with the queue then".
    rf"|(?:(?:ok|okay|so|then|just|fine|alright)[,\s]{{1,2}})?(?:try|go with|go for|{_STICK_WITH}|pick)"
    # Said after a word of assent, "do" and "use" take an option too: "ok do pg_repack + autovacuum
    # tuning. write me the runbook" (not a bare "do X", which is any instruction).
    rf"|(?:{_ASSENT})[,.!\s]{{1,3}}(?:let'?s |just )?(?:do|use)"
    # "so" or "then" before a bare label: "it's a city grant, so A", "then option 2".
    r"|(?:so|then)(?= (?:option |plan |approach )?(?-i:[A-H])$| (?:option|plan|approach) [1-9]$))"
    # Not how to go on: "try again", "try something else", "try harder".
    r" (?!(?:again|something|another|anything|harder|later|once more)\b)"
    r"(?P<choice_en>[^\s]{1,12}(?: [^\s]{1,12}){0,3}?)(?: then| instead| for now| first)?$",
    re.IGNORECASE,
)
# A label, then that it suits: "A sounds more like us", "option 2 looks right to me".
_LABEL_SOUNDS_RIGHT_RE = re.compile(
    rf"(?P<choice>(?:{LABEL_WORD_EN} )?(?-i:[A-H])|(?:{LABEL_WORD_EN} )?[1-9]) (?:sounds|looks|seems|feels) "
    r"(?:(?:more |most |much more )?like (?:us|our thing|the one|the right one|what we need)|(?:really |pretty )?(?:good|great|right|best|better|fine|perfect|ideal))\b",
    re.IGNORECASE,
)
# A whole turn that only picks an option by its label, with at most a yes before it and a word of
# assent after: "yes, 1 first", "ok option 2", "2 sounds good", "好，第二个", "2吧", "先上1". The
# label alone says nothing unless an option list it names was just offered, which the tracker checks.
_BARE_CHOICE_RE = re.compile(
    rf"^(?:(?:{_ASSENT}|那就|就|先上|先|选|要|let'?s do|let'?s go with|go with)[,，.!！\s]{{0,3}}){{0,3}}"
    rf"(?P<choice>(?:{LABEL_WORD_EN}|{LABEL_WORD_ZH})\s?(?:[1-9]|[A-H]|[一二三四五六七八九])|[1-9]|[A-H]|[一二三四五六七八九]|"
    r"第[一二三四五六七八九1-9](?:个|种|条|套)?(?:方案|选项|思路)?|"
    r"the (?:first|second|third|fourth|fifth|last)(?: one| option| plan| approach)?)"
    r"\s{0,2}(?:first|please|pls|then|it is|sounds good|works|is fine|is good|for now|吧|可以|行|好了|就行|"
    r"先来|先做|先上|来吧)?[。.!！~\s]{0,3}$",
    re.IGNORECASE,
)
_ASSENT_OPENING_RE = re.compile(rf"(?:{_ASSENT})\b", re.IGNORECASE)
# A first sentence that only praises or agrees with the reply: "Love it.", "This is great.", "Sounds
# good.", "不错。", "同意。". Not a bare "ok" or "好的", which as often open a new topic ("好的。另外…").
_APPROVAL_RE = re.compile(
    # A bare "ok." or "Alright." assents without approving anything ("Alright. We're stopping the VC
    # raise"); before an approval it is part of it ("ok yeah i like that").
    r"^(?:(?:ok|okay|yeah|yes|yep|sure|alright)[,，!！. ]{1,3}){0,2}"
    r"(?:(?:love (?:it|this|that)|(?:this|that|it) (?:is|looks|sounds) (?:great|good|perfect|lovely)|"
    r"(?:sounds|looks) (?:good|great|perfect)|perfect|great|agreed|very good|nice|"
    r"i (?:really )?(?:like|love) (?:it|this|that)|(?:that|this) works|works for me|(?:that|this|it) makes sense|makes sense|"
    r"不错|挺好|很好|同意|没问题|喜欢)(?:的|了)?[,，!！。.~ ]{0,3}){1,3}$",
    re.IGNORECASE,
)
# A word that turns a clause against what it names: "redis is out", "not for me", "不要".
_NEGATION = r"\b(?:no|not|out|never)\b|n't|不|别|没"
_NEGATION_RE = re.compile(_NEGATION, re.IGNORECASE)
# An option named after a word of assent and sealed by the next clause: "ok yes, toast delivery
# for the everyday stuff, let's do that. cakes pickup only for now", "可以，就酒店，定了。问一下…".
# What follows may drop something else; what the opening names is taken, never dropped.
_ASSENTED_RE = re.compile(
    rf"^(?:{_ASSENT})(?:[,，.!！。 ]{{1,3}}(?:{_ASSENT}))*[,，.!！。 ]{{1,3}}(?:就|那就)?"
    # Not a word of assent again ("嗯 可以，就这样"), nor a clause with a verdict ("ok, redis is out").
    rf"(?!(?:{_ASSENT})[,，.!！。 ])(?![^,，。.!！?？;；:：\n]{{0,40}}?(?:{_NEGATION}))"
    # The approval beside the name is no part of it: "ok contract-to-hire sounds good, let's do that".
    r"(?P<choice>[^,，。.!！?？;；:：\n]{2,40}?)(?:\s(?:sounds|looks) (?:good|great|fine|right))?\s?吧?[,，。.!！]\s{0,2}"
    r"(?:let'?s do (?:that|it|this)|let'?s go with (?:that|it)|(?:就这么|方向|那就)?定了|就这样|就它了|"
    r"that'?s the (?:plan|one)|sounds good|works for me)",
    re.IGNORECASE,
)
# The same, the option first: "postgres on render yes. redis tho… one more service to babysit"
# takes Postgres, whatever the rest drops; "Plan A is a yes." takes Plan A; "Salt! Yes." too.
_NAMED_THEN_YES_RE = re.compile(
    r"^(?!(?:ok|okay|so|and|but|well|i|we|you|it|that|this|is|are|do|does|did|was|can|should|would)\b)(?P<choice>[^,，。.!！?？;；:：\n]{2,40}?)(?:\s(?:is|'s)(?: a)?)?!?\s(?:yes|yep|yeah|for sure|definitely)[.,!]",
    re.IGNORECASE,
)
# An option named, then approved, as the turn's first clause: "等级制可以，不过门槛按 200 来设",
# "nightly export works for me", "Postgres sounds good", "actual budget sounds right", "ynab
# then". Not "X 也可以" (one more possibility), "X 不行" or "X 没问题吗" (a rejection, a question),
# nor "X works" alone, which reports a fact.
_ENDORSED_RE = re.compile(
    r"^(?P<zh>[^,，。.!！?？;；:：\n]{1,20}?)\s{0,2}(?<![也都还倒是不没别])(?:可以|没问题|不错|挺好)(?:的|吧|啊)?$"
    # A filler may close it: "hood river sounds great actually", "option 2 looks good tbh".
    r"|^(?P<en>[^,.;:!?\n]{1,40}?) (?:(?:sounds|looks) (?:(?:really|so|pretty|very) )?(?:good|great|right|perfect|best|fine|amazing|lovely|awesome)"
    r"|works for me|is fine by me|it is|wins|then"
    # "3 is nice", "option B is the one", "the second is perfect", "the flyer in the water bill is
    # smart", "the traverse board is a charming suggestion".
    r"|(?:is|'s) (?:(?:really|so|pretty|very) )?(?:nice|good|great|perfect|solid|smart|clever|brilliant|lovely|charming|the one|the best|best|my fav(?:ou?rite)?)"
    r"|(?:is|'s) an? (?:(?:really|very) )?(?:good|great|smart|clever|brilliant|lovely|charming|nice) (?:idea|suggestion|call|shout|choice))"
    r"(?: (?:actually|honestly|tbh|though|to me|lol|then))?$",
    re.IGNORECASE,
)
# An amount or a frequency, which sets a parameter of the plan: "三个月", "199", "每周 200 条", "2 weeks".
_AMOUNT_RE = re.compile(
    r"\d|[一二两三四五六七八九十半几]{1,3}(?:个|次|周|天|月|年|小时|分钟|条|块|元|万)|每|(?:one|two|three|four|five|a few|a couple) ",
    re.IGNORECASE,
)
# The user putting a new course forward as a question that closes the turn: "what about a
# management command run from cron?", "how about just using RQ instead?", "要不直接用 crontab 跑脚本？".
# A course, not a topic: an indefinite article, a verb of doing or "instead" ("what about the audit
# log?" asks about a topic; "what about Redis?" may ask either, and is left alone).
_USER_SUGGESTION_RE = re.compile(
    r"(?:^|(?<=[,.;:!?\n]))\s{0,2}(?:so |ok |okay |then |and |hmm,? |or )?"
    r"(?:(?:what|how) about|why not|could we|can we)\s(?:just\s|simply\s)?"
    r"(?:use |using |switch to |switching to |move to |moving to |go with |going with )?"
    r"(?P<en>(?!(?:it|them|that|this|those|these)\b)(?:(?:a|an|another|add|adding|run|running|write|writing|build|building|try|trying)\s)[^?\n]{2,80}?"
    r"|[^?\n]{2,60}?(?=\sinstead))(?:\sinstead)?\s?\?\s{0,2}$"
    r"|(?:^|(?<=[,.;:!?，。；：！？\n]))\s{0,2}(?:那|那就)?(?:要不|不如|干脆)(?:就|还是|直接|干脆)?(?:用|试试|换成|改用|改成|上|走)\s?"
    r"(?P<zh>[^,.;:!?，。；：！？\n]{2,30}?)(?:吧|呢)?\s?[?？。]?\s{0,2}$",
    re.IGNORECASE,
)
_NEXT_STEP_RE = re.compile(
    # "Next, …" opens its sentence: "I'd look at a Crosstrek next, 2015-2016 …" announces no step.
    r"(?:下一步|接下来|\bnext steps?\b|(?:^|(?<=[.!?\n])\s{0,2})next,|\bnext up\b|\bthen I'?ll\b|\bI'?ll now\b|接着)\s{0,2}[:：,，]?\s{0,2}"
    r"(?:我会|我们|I'?ll|we'?ll|is to|is|are to|are|would be|是)?\s{0,2}"
    r"(?P<step>(?:[^。.!！?？\n]|\.(?=\w)){3,80})",
    re.IGNORECASE,
)


def acceptance_choice(text: str) -> str | None:
    """What the user accepts ("B", "option 2", or "" for "就这么定了"); None if not an acceptance."""
    stripped = text.strip()
    match = _ACCEPT_RE.search(stripped)
    if match is None:
        named = _ASSENT_AND_NAME_RE.match(stripped)
        return named.group("choice") if named else None
    choice = (match.group("choice") or "").strip()
    return None if _no_choice(choice) else choice


# "take E off the list", "take the vests out": the verb of choosing with off or out removes.
_TAKEN_OFF_RE = re.compile(r"\b(?:off|out)(?: (?:of )?(?:the |our |my )?(?:list|table|running|plan|menu|shortlist))?$", re.IGNORECASE)


def _no_choice(words: str) -> bool:
    """Do these words, read after a verb of choosing, name no option: several clauses ("按
    user_id分的话 商家后台按商家查咋办"), a supposition (…的话), a complaint ("定制柜5万太多了吧",
    which only opens with 定) or a removal ("take E off the list")?"""
    return bool(_CJK_CLAUSE_BREAK_RE.search(words)) or "的话" in words or says_it_fails(words) or bool(_TAKEN_OFF_RE.search(words))


def accepted_clause(text: str) -> str | None:
    """What a clause of a longer turn accepts, in the plain forms of a choice ("好，就按第二个来，
    tracemalloc 先不考虑" → "第二个", "…, let's go with option 2"); the whole-turn forms of
    `acceptance_choice` are too loose for a clause ("上次那个计划" is no "上 X"). An amount is
    no choice of an option: "先试三个月", "先定199", "按每周 200 条" set a parameter."""
    for clause in _CLAUSE_SPLIT_RE.split(text):
        match = _CLAUSE_ACCEPT_RE.match(clause.strip()) or _LABEL_SOUNDS_RIGHT_RE.match(clause.strip())
        if match:
            found = match.groupdict()
            choice = (found.get("choice") or found.get("choice_en") or "").strip()
            return None if _AMOUNT_RE.match(choice) else choice
    return None


# A reply settling on the one option left: "Then it's GitHub Actions.", "那就剩 Redis 预扣减",
# "那就周更一篇深度长文，…", "That leaves the LRU cache." Near its start: further in, "那就" is advice.
_SETTLED_WITHIN = 80
_SETTLED_RE = re.compile(
    r"(?:^|(?<=[。.!！;；\n]))\s{0,2}(?:(?:then|so) it'?s|that leaves(?: us with| you with)?|which leaves(?: us with)?|"
    r"那就(?:剩下?|只剩下?|是|选|定)?|只剩下?)\s?"
    # One option, not two still to choose from: "那就看A区对口公办和B区积分统筹", "那就在 auditorium 和餐馆里选".
    r"(?![^,，。.!！?？;；:：\n]{0,40}?(?:和|或|还是|跟|与|\band\b|\bor\b|\bvs\.?|\bbetween\b|里选|中选))"
    r"(?P<option>[^,，。.!！?？;；:：\n]{2,40}?)\s?(?:了|吧)?(?=[,，。.!！;；:：\n]|$)",
    re.IGNORECASE,
)
# A complaint: what fails, or is too much, too late, too slow, or not enough ("…太多了", cut before
# its 了 too: "太多"; "光靠炕肯定不够"); not the question "X 行不行", nor praise ("太好了").
_FAILS_RE = re.compile(r"太(?!好|棒|赞|爽|开心|喜欢)[^,，。;；!！?？\s]{1,4}(?:了|$)|(?:去|玩|用|吃|看|听|写|做|讲)烂了|来不及|[^\s]不了|(?:买|找|拿|抢|约|订|办)不到|(?<!行)不行|行不通|走不通|扛不住|撑不住|不现实|不靠谱|恶心|难用|坑太多|一堆坑|(?<!不)麻烦(?!你|您|帮)|费劲|腰斩|(?<!够)不够|不管用|不顶用|\b(?:won'?t work|too (?:slow|expensive|much|late)|(?:isn'?t|aren'?t|not) enough)\b", re.IGNORECASE)
# What an option is taken for, after its name: "toast delivery for the everyday stuff".
_QUALIFIER_RE = re.compile(r"\s(?:for|on|in|at|during|until|from)\s.*$", re.IGNORECASE)


def assented_option(text: str) -> str | None:
    """The option a turn opens by taking, sealed by the clause after it ("ok yes, toast delivery
    for the everyday stuff, let's do that. …" → "toast delivery", without what it is taken for); None
    for any other turn. A longer turn that goes on to drop something else reads as a rejection or
    a pivot, whose target must not be the option it took."""
    stripped = text.strip()
    match = _ASSENTED_RE.match(stripped) or _NAMED_THEN_YES_RE.match(stripped)
    return _QUALIFIER_RE.sub("", match.group("choice")).strip() if match else None


def settled_option(reply: str) -> str | None:
    """The option a sentence near a reply's start settles on ("Makes sense. Then it's GitHub
    Actions." → "GitHub Actions", "理解，…。那就剩 Redis 预扣减，…" → "Redis 预扣减"); None for any
    other reply."""
    match = _SETTLED_RE.search(reply[:_SETTLED_WITHIN])
    return match.group("option").strip() if match else None


def says_it_fails(text: str) -> bool:
    """Do these words say something fails or costs too much ("牵扯的系统太多了", "来不及", "扛不住")?
    Then they name no place to go."""
    return _FAILS_RE.search(text) is not None


def endorsed_option(text: str) -> str | None:
    """The option a turn approves by name in its first clause ("等级制可以，不过…" → "等级制",
    "option 3 works for me" → "option 3") or its last sentence; None for any other turn, and for a
    question."""
    if ends_as_question(text):
        return None
    first = _first_clause(text)
    said = sentences(text)
    # Or its last sentence, after the verdicts on the others: "C is not gonna fly … D obviously
    # no. B... we tried that last year, it was a mess. A sounds right".
    clauses = dict.fromkeys((first, said[-1].strip(" .。!！") if len(said) > 1 else first))
    return next((named for clause in clauses if (named := _endorsed_in(clause)) is not None), None)


def _first_clause(text: str) -> str:
    """The turn's opening clause, up to the first mark (`_CLAUSE_SPLIT_RE`)."""
    return _CLAUSE_SPLIT_RE.split(text.strip(), maxsplit=1)[0].strip()


def _endorsed_in(clause: str) -> str | None:
    """The option a whole clause approves by name ("等级制可以" → "等级制", "Postgres sounds good")."""
    match = _ENDORSED_RE.match(clause)
    return (match.group("zh") or match.group("en")).strip() if match is not None else None


def praised_opening(text: str) -> str | None:
    """The option a turn approves by name as it opens ("The traverse board is a charming suggestion.
    I must apologise…", "The flyer in the water bill is smart, they already get mail from us",
    "Salt! Yes. Mages who are permanently parched…"): what follows talks about the option taken.
    None for any other turn, and for an opening that negates ("so the running plan is not for me
    then") or asks ("Redis is smart? no")."""
    stripped = text.strip()
    first = _first_clause(stripped)
    named = _NAMED_THEN_YES_RE.match(stripped)
    praised = _endorsed_in(first) or (named.group("choice").strip() if named else None)
    if praised is None or _NEGATION_RE.search(first) or ends_as_question(next(iter(sentences(stripped)), stripped)):
        return None
    return praised


def bare_choice(text: str) -> str | None:
    """The option label a turn picks and says nothing else ("yes, 1 first" → "option 1", "好，第二个"
    → "第二个", "一吧" → "第一个"), or its first sentence does after a word of assent ("yes, B. but
    can we skip Osaka?") or as a place ("the second one. but drop 'vibes'"); None for any other
    turn. A lone digit or letter comes back as "option 2": said alone, it is a label, which in
    running text it would not be. (A first sentence without the assent may be the first item of the
    user's own list: "1. the cache is cold".)"""
    text = text.strip()
    match = _BARE_CHOICE_RE.match(text)
    if match is None:
        first = next(iter(sentences(text)), text)
        match = _BARE_CHOICE_RE.match(first) if first != text else None
        # A place is no item of the user's own list: "the second one. but drop 'vibes'" picks too.
        opens_with_place = match is not None and match.start("choice") == 0 and _is_place(match.group("choice"))
        if match is not None and not (_ASSENT_OPENING_RE.match(first) or opens_with_place):
            match = None
    return None if match is None else _label_chosen(match)


def _is_place(choice: str) -> bool:
    """Is the choice `_BARE_CHOICE_RE` read a place in the list ("the second one", "第二个"), not a label?"""
    return choice.lower().startswith(("the ", "第"))


def _label_chosen(match: re.Match[str]) -> str:
    """The label a bare choice picks, as a reference: a lone digit or letter is "option 2", a lone
    Chinese numeral ("一吧", "就二吧") the option at that place, "第一个"."""
    choice = match.group("choice")
    if len(choice) == 1 and not choice.isascii():
        return f"第{choice}个"
    return f"option {choice.upper()}" if len(choice) == 1 else choice


def opens_with_approval(text: str) -> bool:
    """Does a turn of several sentences open with one that only approves of the reply ("Love it.
    Make it 3 nights in Kanazawa instead of 2")? What follows then adjusts what was approved."""
    parts = sentences(text.strip())
    return len(parts) >= 2 and _APPROVAL_RE.match(parts[0].strip()) is not None


def opening_choice(text: str) -> str | None:
    """The option a turn of several sentences takes in its first, as a whole turn would take it
    ("行，方案一。颜色别用白色了，换成浅灰", "Going with option 1. Actually, use Intelligent-Tiering
    instead of Standard"): what follows changes the option taken, it does not leave it."""
    parts = sentences(text.strip())
    if len(parts) < 2:
        return None
    first = parts[0].strip()
    match = _BARE_CHOICE_RE.match(first)
    return _label_chosen(match) if match is not None else acceptance_choice(first)


def user_suggestion(text: str) -> str | None:
    """The course the user's turn puts forward in its closing question, if any ("a management
    command run from cron" of "I said no celery. what about a management command run from
    cron?"): a proposal of the user's own, which a later "ok do that" takes."""
    match = _USER_SUGGESTION_RE.search(text.strip())
    if match is None:
        return None
    return (match.group("en") or match.group("zh")).strip()


# 了 after a verb reports the action done (not 了解, "to understand"; not 为了 or 除了, "in order to"
# and "except").
_DONE_RE = re.compile(r"^了|(?<![为除])了(?!解)")


def next_step_in(text: str) -> str | None:
    """The next step an assistant turn announces, if it does: after "next step" / "接下来", else
    the one thing it says it will do ("I'll create a search_prefixes table…"). What it reports as
    done is no next step: "我改成了按 binlog 的 offset 排序", "我加了一个 systemd timer", "我把切天改成
    Asia/Shanghai 重跑了一遍" (a verb with 了)."""
    match = _NEXT_STEP_RE.search(text)
    if match:
        return match.group("step").strip()
    announced = announcement(text)
    return None if announced is None or _DONE_RE.search(announced) else announced



_LATER_RE = re.compile(
    # "等明年运维扩招了，…", "等预算批下来，…": the condition opens the turn and says it has to be
    # met first ("等等"/"等下" is "wait"; "要是你觉得合适，…" is no condition to wait for).
    r"^(?:等到?(?!等|下|一下|会)|哪天|除非)\s{0,2}[^，,。;；!！?？\n]{2,30}?\s{0,2}(?:了|的时候|之后|以后|下来|到位)\s{0,2}[，,]"
    # "once we hire another ops person, …", "when the budget clears, …" (not "once again, …",
    # "when it comes to caching, …").
    r"|^(?:once(?!\s(?:again|more|or)\b)|when(?!\s(?:it comes to|I said|you said)\b)|as soon as|whenever)"
    r"\s[^,.;!?\n]{3,80}?\s{0,2},"
    # "… we can revisit redis once we hire another ops person." (not "once a week", "once again":
    # how often, not when).
    r"|(?<=\s)once\s(?!(?:a|an|per|every|more|again|or)\b)[^,.;!?\n]{3,80}?\s{0,2}[.!]?\s{0,2}$",
    re.IGNORECASE,
)


def reopening_condition(text: str) -> str | None:
    """The condition of a reopening said for later ("等明年运维扩招了，Redis 可以回头再看看",
    "we can revisit redis once we hire another ops person"): the option comes back when it holds,
    not now. None for a reopening meant now ("now that we hired, let's revisit redis")."""
    match = _LATER_RE.search(text.strip())
    if match is None:
        return None
    return match.group().strip(" ，,。.!！")  # the user's words, as revisit_if keeps them


# A clause that gives a reason, a feeling, a doubt or a condition, or negates, or points at
# something without naming it: not a new direction.
NOT_A_CHOICE_RE = re.compile(
    r"[?？吗呢]|^(?:我|你|他|她|它|咱|大家)|不|没|别|非|太|再|要求|说|换个|其他|其它|怕|省得|免得|因为|毕竟|反正|而且|但是|可是|如果|要是|感觉|觉得|估计|可能|应该|这个|那个|这样|那样|其实|"
    r"\b(?:no|not|nope|never|nothing|n't|too|because|since|as|so|but|if|when|though|although|maybe|probably|"
    r"i|i'm|i've|im|it|it's|its|that|that's|this|they|he|she|we|we're|you|there|which|who|what|why|how|is|are|was|were|"
    r"has|have|had|would|could|should|will|can|does|did|do|thanks|thank|keep|lol|haha|ugh|hmm|ok|okay|yeah|"
    r"another|other|else)\b",
    re.IGNORECASE,
)
# Words that say "I choose" around the choice itself: before it, and closing it.
_OPENING_CHOICE_FRAME_RE = re.compile(
    r"(?:(?:just|then|so|let'?s|we'?ll|i'?ll|go with|use|do|pick|plain)\s)+|"
    # A one-character verb only after a framing word: "上海", "做饭" and "走读" keep theirs.
    # A 那 that opens a pointer ("那些搬 dbt", "那笔钱挪去…") points; it frames no choice, nor does
    # the 只 of a word ("只读副本", "只要", "只有"); "只能" frames one ("那只能 Tableau 了").
    r"(?:(?:那(?![些个笔种条边里么样位家次天])|就|还是|干脆|直接|统一|只能|只(?![读要有是能会好剩不]))+(?:改用|换成|改成|转战|用|走|定|选|上|去|做|找|配|搞|换|改)?)",
    re.IGNORECASE,
)
_CLOSING_CHOICE_FRAME_RE = re.compile(
    r"(?:(?:^|\s)(?:then|instead|it is|route|please)|吧|就行|就好|即可|替代|代替|顶上|顶着|凑合(?:着|用|一下)?|将就(?:着|一下)?|(?<!算)了)+$",
    re.IGNORECASE,
)
# A choice's closing frame ("…就行了吧", "… instead please") is never longer than this; the 了 of 算了
# is a verdict, not a frame ("自习室算了" named "自习室算" where the pivot went). Searched for
# from every position of the text, a long run of 了 with something after it cost the square of
# its length (a 20,000-character run took 9 s); searched for only in the last characters, the
# cost is linear.
_CLOSING_FRAME_REACH = 40


def without_choice_frame(text: str) -> str:
    """The text without the words that frame a choice around it ("let's go with X", "那就改用X吧")."""
    opening = _OPENING_CHOICE_FRAME_RE.match(text)
    start = opening.end() if opening else 0
    closing = _CLOSING_CHOICE_FRAME_RE.search(text, max(start, len(text) - _CLOSING_FRAME_REACH))
    return text[start : closing.start() if closing else len(text)]


def closing_choice(text: str) -> str | None:
    """The new direction a pivot names last and bare, with no cue to frame it: "…, no thanks.
    global lightgbm", "…那北线不走了，定南线", "…社保不交了，商业保险替代".

    Read only where the detector calls a turn a PIVOT and nothing else says where it goes: the
    clause that ends such a turn is the new direction unless it reasons, doubts, negates or
    points ("…交给代理 省得来回折腾" ends with a reason, and names nothing) or complains ("…麻烦",
    `says_it_fails`). A turn of one clause is the rejection itself."""
    stripped = text.strip(" 。.!！~")
    clauses = [stripped[start:end] for start, end in clause_spans(stripped)]
    # A clause of filler only ("…, screws, please") leaves the choice to the one before it.
    while clauses and not (choice := without_choice_frame(clauses[-1]).strip()):
        clauses.pop()
    if len(clauses) < 2 or NOT_A_CHOICE_RE.search(clauses[-1]):
        return None
    too_long = len(choice) > 16 if has_cjk(choice) else len(choice.split()) > 5
    return None if too_long or len(choice) < 2 or says_it_fails(choice) else choice
