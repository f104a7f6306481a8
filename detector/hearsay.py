"""A rejection someone else wants and the user stands against: "owner wants to scrap the scone
program … not happening", "sales is lobbying hard to kill waitlist … I'm not reshuffling the
roadmap", "老板非要把直播砍掉，我不同意".

The label guide's "my boss wants to scrap it, but I disagree" is NONE: the direction under
discussion stays. The cue layer's reported guard holds back "my manager wants to drop X"; it does
not know every party ("registrar", "ops mgr", "sales leadership"), and the user's own "not
happening" then reads as a verdict. The model, on writers it never saw, called six such turns of
the writer folds rejections or pivots. The turn must say both that another party wants the
change and that the user opposes it; in the training, dev and long_dev data, 27 turns do: 26 are
NONE, and one is a reopening, which the rule leaves alone (it reads rejections and pivots only).
All patterns are bounded (linear time), like the cue lexicons.
"""

from __future__ import annotations

import re

_CHANGE = r"(?:drop|scrap|kill|cut|close|ditch|skip|remove|cancel|axe|shelve|abandon|stop|get rid of|go back to|switch to|move to|replace)"
# Someone else wanting the change: "owner wants to scrap", "sales is lobbying hard to kill", "the
# implementation partner keeps pushing to drop", "ops mgr wants to skip".
_WANTED_EN_RE = re.compile(
    r"\b(?:wants? to|wanted to|keeps? (?:pushing|asking|saying we should|insisting we)(?: to| for)?|"
    r"(?:is|are|was|were|keeps?) (?:pushing|lobbying|floating|suggesting|insisting|arguing)(?: hard)?(?: to| for| that we| we)?|"
    r"suggested (?:we )?|floated |thinks we should |says we should |told (?:me|us) to )\s?"
    rf"(?:just |simply |completely |entirely )?{_CHANGE}\b",
    re.IGNORECASE,
)
_WANTED_ZH_RE = re.compile(
    r"(?:老板|领导|老大|总监|经理|同事|朋友|我妈|我爸|老婆|老公|婆婆|奶奶|爷爷|阿姨|客户|甲方|产品|运营|销售|财务|法务|[他她])(?:们)?"
    r"(?:非|坚持|一直|老是|总是)?(?:想|要|说|让|建议|提议|主张|嚷嚷)(?:我们|我)?(?:干脆|直接|把)?.{0,12}?"
    r"(?:砍掉|取消|放弃|别|不要|不做|删掉|换成|改成|停掉|关掉)"
)
# The user's stand against it. Not a bare "but I …": "my boss wants to drop Redis, but I think he
# is right" takes the view.
_OPPOSED_RE = re.compile(
    r"not happening|not gonna happen|not going to happen|(?:i'?m|we'?re) keeping|i (?:really )?don'?t want (?:that|to)|"
    r"i disagree|i don'?t agree|pushing back|push back|over my dead body|we'?re doing it anyway|"
    r"i'?m not (?:reshuffling|doing that|dropping|cutting|killing|scrapping|changing)|i'?d rather (?:not|keep)|no way|"
    r"not convinced|我不同意|不放心|没门|我坚持|我觉得不(?:行|妥|对|合适|靠谱)|我不认同|我还是想|还得往下",
    re.IGNORECASE,
)


def opposed_hearsay(text: str) -> bool:
    """Does the turn report another party wanting to drop or change something, and stand against it?"""
    wanted = _WANTED_EN_RE.search(text) is not None or _WANTED_ZH_RE.search(text) is not None
    return wanted and _OPPOSED_RE.search(text) is not None
