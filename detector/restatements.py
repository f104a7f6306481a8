"""A rejection said again after the assistant brought the option back: "fb我上面不是说了吗 出单稳定之前
不碰", "no. no retries or sleeps in the handler, i already said that", "maxmemory提到14G？… 前面说过了这
条不行".

The model reads most such turns as NONE (0.6–0.8): in the training data "I said …" is as often a
correction of the user's own words ("its moentech, not delta like i said earlier") or the first
half of a reopening ("i said no agencies, but these guys have references"). What tells them apart
is what the turn names: the thing the last reply put forward, which an earlier user turn had
already said no to. That join needs the conversation, so it is a rule of the fusion (detect.py),
like a prohibition of a proposed option.

A turn that calls the option's return out ("DiD 又来了… 最后那句删掉", "头部 KOL 前面不是删了吗") says
its no by that alone. The earlier no is any earlier user turn with a word of refusal or a verdict
the cue layer reads ("DiD 直接 pass", "quickbooks is out").

Every pattern is a plain alternation or a bounded class: linear in the turn's length.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from detector.alternatives import content_keys
from detector.cues.engine import CueEngine
from detector.features import last_assistant_text
from detector.reasons import concedes
from detector.schema import Label, Turn
from detector.text import CJK_CHAR, LATIN_NAME_RE, clause_spans, normalize

# The user says they said it before.
_SAID_BEFORE_RE = re.compile(
    r"前面说过|前面说了|上面说了|上面不是说了|不是说了|说过了|已经说了|之前说了|之前说过|早说了|早就说了|说了多少遍|就说了|"
    # Said formally: "消息队列的事前面已经说明，今年不具备条件".
    r"(?:前面|之前|上面|上次)(?:已经)?说明过?了?|已经说明|(?:此前|之前|前面)已(?:经)?明确|"
    r"又绕回|怎么又|"
    r"我说了(?!算)|"
    r"\bi (?:already |literally |just |clearly )?(?:said|told you)(?: that)?\b(?! (?:before|earlier|wrong)\b)|"
    r"\bwe(?: went|'ve been| have been| already went) over (?:this|that)\b|\bwe covered (?:this|that)\b|\blike i said\b|\bas i said\b|"
    r"\bwe (?:literally |just |already ){1,2}(?:did|went through|discussed|covered|talked about)\b",
    re.IGNORECASE,
)
# A return called out, which is a no by itself: "又来了…", "你咋又绕到云上去了", "前面不是删了吗",
# "说了不是超时", "Again with the app?", "you've snuck terragrunt back in", "don't keep bringing
# back". "又来了一个报错" is news, not a call. A bare English "again" is not one: "the app is up
# again", "escape rooms might work again" (six train and dev turns, none a rejection).
_CALLED_OUT_RE = re.compile(
    rf"(?:你|怎么)?又来了?(?![{CJK_CHAR}])|(?:你|咋|怎么)又(?:写|加|提|放|塞|绕|整|扯|搬|兜)|说了不是|"
    # "第4条又是应急组那套，删。"
    rf"又是[^,，。;；!！?？]{{1,12}}?那(?:套|个|种|一套)|"
    r"不是(?:已经)?(?:删|砍|去|否|排除|拿|划|毙|pass)掉?了吗|"
    r"^again with\b|\b(?:snuck|sneaked|slipped|smuggled) (?:[\w-]+ ){1,4}?back\b|\b(?:stop|keep) bringing (?:[\w-]+ ){0,4}?back\b|"
    r"\bthought we (?:crossed|ruled|struck|took) (?:[\w-]+ ){1,4}?(?:off|out)\b|"
    # Said of the reply: "the draft appears to reintroduce set visiting hours", "the final line brings
    # back the mention of security".
    r"\bre-?introduc(?:e|es|ed|ing)\b|\b(?:brings|brought) back\b",
    re.IGNORECASE,
)
# ...and that it was a no.
# "框架的事说过了，换不了": what cannot be done is a no too.
_NO_RE = re.compile(r"不(?:行|碰|要|考虑|用|做|接|整|找|去|买|选)|不予|删(?![除了掉]?吗)|[换动改]不了|以后再说|别|算了|\bno\b|\bnot\b|n't\b|\bnever\b", re.IGNORECASE)
# A self-correction is no verdict: "not 200 like i said", "i told you wrong before"; nor is taking
# it back ("then I take back what I said about duotone, since it'd be no extra drawing work").
_CORRECTION_RE = re.compile(
    r"\btake back what i (?:said|told you)\b|\btake (?:it|that) back\b|收回(?:我)?(?:前面|之前|刚才)?(?:说的|的话)|\bcorrection\b|\bmy bad\b|\bsorry\b(?! if i (?:wasn't|was not) clear)|\bwrong\b|\bscratch (?:what|that)\b|说错了|记错了|搞错了|"
    r"\bnot [\w .-]{1,30}? (?:like|as) i (?:said|told you)\b",
    re.IGNORECASE,
)
_CJK_RUN_RE = re.compile(rf"[{CJK_CHAR}]{{2,}}")
_LONGEST_CJK_NAME = 6
# Characters of grammar and of saying: a run holding one is no name ("说过", "这条", "不是").
_FUNCTION_CHARS_RE = re.compile("[的了是我你他她它们这那就也还都在有和与或把被给让要会能不没很太吧呢啊吗嘛个些上下里说过前面之已经早条别再]")
_CAPITALISED_SHORT_NAME_RE = re.compile(r"[A-Z][A-Za-z0-9]{1,3}")
_EDGES = " ,.;:!?，。；：！？"
# A full stop ends a sentence before a space, not inside "0.5".
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|[。！？\n]")
# A restatement is short and pointed; in a longer turn that says "I said" only the clause that says
# it, or the one before, is read: the rest reports or reconsiders. A return called out may sit in a
# longer turn that goes on to other business.
MAX_CHARS = 120
MAX_CALLED_OUT_CHARS = 320
# How many of the user's earlier refusals are searched for the name.
MAX_REFUSALS = 20


def restated_rejection(text: str, context: Sequence[Turn], engine: CueEngine) -> str | None:
    """What the turn turns down again, said as the last reply said it: a name both the reply and an
    earlier user turn hold (the longest in the clause that says it was said before, or in the
    clause before or after it; in a call-out, the longest in the sentence that calls the return
    out, else the first); None when the turn is no such restatement."""
    if len(text) > MAX_CALLED_OUT_CHARS:
        return None
    said = _SAID_BEFORE_RE.search(text)
    said_again = _said_again(text, said) if said is not None else None  # the words that say it
    called_out = _CALLED_OUT_RE.search(text)
    if not (said_again is not None or called_out) or _CORRECTION_RE.search(text):
        return None
    # A concession before a call-out leads up to it ("the ID format was it, cheers, but you've
    # snuck terragrunt back in"); after it, or anywhere in an "I said" turn, it takes the no back.
    if concedes(text[called_out.start() :] if called_out is not None and said_again is None else text):
        return None
    reply = last_assistant_text(context).lower()
    # An "I said" names what it turns down in the words that say it; a call-out, anywhere.
    named = said_again if said_again is not None and called_out is None else text
    found = [(name, key) for name in dict.fromkeys(_names(named)) if (key := _key_in(name, reply)) is not None]
    if not found:
        return None
    in_reply, keys = [name for name, _ in found], [key for _, key in found]
    # The earlier user turns that said no to something, the latest few: where the first rejection
    # is. Only those that name what the reply says are read by the cue layer, each once.
    earlier = [turn.text for turn in context[:-1] if turn.role == "user"][-MAX_REFUSALS:]
    refused = [said.lower() for said in earlier if any(key in said.lower() for key in keys) and _refuses(said, engine)]
    shared = [name for name, key in zip(in_reply, keys) if any(key in said for said in refused)]
    if not shared:
        return None
    if called_out is not None:
        # The return is called out where it is named ("Again with the app?"), else the turn names
        # it first ("central kitchen we already say no right… don't keep bringing back").
        sentence = _sentence_around(text, called_out.start()).lower()
        in_sentence = [name for name in shared if name.lower() in sentence]
        shared = in_sentence or [min(shared, key=lambda name: text.lower().find(name.lower()))]
        return _as_the_reply_says(max(shared, key=len), text, reply)
    # The longest name in the clause that says it was said before, else in the one before it, else
    # the one after ("仓库那个都说过了 没窗户. … 小学练习卷多" turns down 仓库, not the longer 练习卷;
    # "like I said, no redis" names it after).
    if said is not None:
        for clause in _clauses_around(text, said.start()):
            in_clause = [name for name in shared if name.lower() in clause.lower()]
            if in_clause:
                return _as_the_reply_says(max(in_clause, key=len), text, reply)
    return _as_the_reply_says(max(shared, key=len), text, reply)


def _clauses_around(text: str, position: int) -> tuple[str, str, str]:
    """The clause (`text.clause_spans`) that holds the position, the one before it and the one
    after it ("" where none)."""
    spans = clause_spans(text)
    at = next((index for index, (_, clause_end) in enumerate(spans) if clause_end > position), len(spans) - 1)

    def clause(index: int) -> str:
        return text[spans[index][0] : spans[index][1]] if 0 <= index < len(spans) else ""

    return clause(at), clause(at - 1), clause(at + 1)


def _said_again(text: str, said: re.Match[str]) -> str | None:
    """The words of at most MAX_CHARS in which the turn says its no and that it said so before: the
    whole turn, or in a longer one that goes on to other business the clause that says "I said",
    else the one before it, else that clause and the one after it, whichever first says no ("no
    influencers. I said. not micro, not macro, not nano. anyway – which competitions…", "框架的事说过了
    换不了" of "框架的事说过了，换不了。给我写个…");
    None when it says no no. `said` is where it says it said so before."""
    if len(text) <= MAX_CHARS:
        return text if _NO_RE.search(text) is not None else None
    # The clause that says "I said", else the one before it, else the one after, with the clause
    # that says "I said", which names the option ("框架的事说过了" + "换不了"): the first that says no.
    said_in, before, after = _clauses_around(text, said.start())
    candidates = (said_in, before, f"{said_in} {after}")
    return next((clause for clause in candidates if len(clause) <= MAX_CHARS and _NO_RE.search(clause)), None)


def _key_in(name: str, reply: str) -> str | None:
    """The name as the (lowercased) reply says it, itself or its singular ("no influencers. I
    said." after "a micro-influencer seeding round"); None when the reply does not name it."""
    key = name.lower()
    if key in reply:
        return key
    singular = key[:-1] if len(key) > 4 and key.endswith("s") and not key.endswith("ss") else None
    return singular if singular is not None and singular in reply else None


def _sentence_around(text: str, at: int) -> str:
    """The sentence of the text that holds the position: "Again with the app?" of "Again with the
    app? I told you from the beginning, yam phones!"."""
    start = 0
    for end in _SENTENCE_END_RE.finditer(text):
        if end.start() >= at:
            return text[start : end.start()]
        start = end.end()
    return text[start:]


def _refuses(said: str, engine: CueEngine) -> bool:
    """Does an earlier user turn say no: a word of refusal, or a verdict the cue layer reads?"""
    return _NO_RE.search(said) is not None or any(hit.label is not Label.REOPEN for hit in engine.match(normalize(said)).fired)


def _as_the_reply_says(name: str, text: str, reply: str) -> str:
    """The name with the words beside it in the turn that the reply says with it: "comparison
    group" of "no comparison group, waitlist or otherwise" after "…a waitlist comparison group…"."""
    words = text.split()
    at = next((i for i, word in enumerate(words) if name in word), None)
    if at is None or not words[at].isascii():
        return name
    start, end = at, at + 1
    while start > 0 and words[start - 1].isascii() and " ".join(words[start - 1 : end]).lower().strip(_EDGES) in reply:
        start -= 1
    while end < len(words) and words[end].isascii() and " ".join(words[start : end + 1]).lower().strip(_EDGES) in reply:
        end += 1
    return " ".join(words[start:end]).strip(_EDGES)


def _names(text: str) -> Iterator[str]:
    """The Latin names of the turn (a content word, or a short name in capitals: "FB", "ES") and
    every run of two to six Chinese characters inside its runs that holds no grammar."""
    for word in LATIN_NAME_RE.findall(text):
        word = word.rstrip(".-")  # "no quickbooks." names "quickbooks"
        if content_keys(word) or _CAPITALISED_SHORT_NAME_RE.fullmatch(word):
            yield word
    for run in _CJK_RUN_RE.findall(text):
        for size in range(min(len(run), _LONGEST_CJK_NAME), 1, -1):
            for start in range(len(run) - size + 1):
                piece = run[start : start + size]
                if not _FUNCTION_CHARS_RE.search(piece):
                    yield piece
