"""Turns that open by supposing a change and asking what follows: "那如果储值不搞呢？我听隔壁老板说储值
这个东西现在管得严…", "what if we skipped the waitlist entirely? the launch is in two weeks".

The label guide's "要不要放弃A？" and "what if we dropped Redis?" are NONE: the user weighs the
change and asks, and nothing is decided yet. The cue layer's hypothetical guard holds back a cue
inside such a question, but the model reads the words of the change ("不搞", "skipped") with no
cue at all, and one blind round's "那如果储值不搞呢？" was a REJECT at 0.72. On labeled train, dev
and test, 183 turns open with such a question: 182 are NONE, and the one REOPEN says "我想把…再拿出来"
after it, where a cue fires. So a turn that opens with one is NONE when no cue fired.

The user may also say so in as many words: "我只是先问问，还没决定要不要砍", "just asking, not saying
we switch". Then the question is not a verdict even where a cue fires on the change it weighs
("如果 survey 也不做…？" fires two): the 22 labeled turns of train, dev, test, long_dev and the
unseen writer sets that say it are all NONE ("that's just asking for it", a REJECT, is an idiom the
pattern leaves out).

Every pattern is a plain alternation or a bounded class: linear in the turn's length.
"""

from __future__ import annotations

import re

# The question opens the turn (after a few words: "那", "ok,"), and the supposition ends at its
# question mark, within the sentence.
_SUPPOSED_QUESTION_RE = re.compile(
    r"^[^。？?！!\n]{0,6}?(?:如果|要是|假如|假设|万一)[^。？?！!\n]{1,40}?[？?]"
    r"|^\W{0,3}(?:so |and |but |ok,? |okay,? |hmm,? )?what if\b[^?.!\n]{1,80}\?",
    re.IGNORECASE,
)

# "只是问问", "我就问问", "随便问一下", "just asking" (not "just asking for trouble"), "only asking", and a
# question put as a hypothetical ("Quick hypothetical: …", "Hypothetically, if we …"): the 61 labelled
# turns that say one of them are all NONE.
_ONLY_ASKING_RE = re.compile(
    r"(?:只是|我就|就|随便|单纯)(?:先|想)?问问|(?:只是|随便|单纯)(?:先|想)?问一下|"
    r"\b(?:just|only|merely) asking\b(?! for\b)|\bhypothetical(?:ly)?\b",
    re.IGNORECASE,
)


# "要不要干脆把 affiliate 也砍了，全部自己投流？", "…要不干脆不在某点上架了，转免费平台？？": asked, anywhere in a
# turn short enough that the question is what it says: of the 228 labelled turns under 200
# characters that ask one, 214 are NONE, 13 reopenings put as a question ("莫干山要不再捞回来看看？",
# which the rule leaves to the model and the cues) and 1 a PIVOT a cue reads; longer updates ask it
# in passing.
_ASKS_WHETHER_RE = re.compile(r"(?<![需想还只就主])要不(?:要|然)?[^。？?！!\n]{1,40}?[？?]")
ASKING_TURN_MAX_CHARS = 200


def opens_with_a_supposition(text: str) -> bool:
    """Does the (normalised) turn open with a question that supposes a change ("如果…呢？", "what if…?")?"""
    return _SUPPOSED_QUESTION_RE.search(text) is not None


def asks_whether_to(text: str) -> bool:
    """Does the (normalised) short turn ask whether to make a change ("要不要干脆放弃 X？")?"""
    return len(text) < ASKING_TURN_MAX_CHARS and _ASKS_WHETHER_RE.search(text) is not None


def says_it_only_asks(text: str) -> bool:
    """Does the (normalised) turn say it only asks ("我只是问问", "just asking")?"""
    return _ONLY_ASKING_RE.search(text) is not None
