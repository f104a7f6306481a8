"""A user turn that goes back to an option the assistant offered earlier: "back to adamw", "going
back to lightgbm direct", "Airbnb comes back in", "回到时间线", "钢琴又能考虑了".

The lexicons' reopening cues read a return only with a word that says the option is an earlier
one ("back to the original plan", "回到最开始的方案"): "back to work", "回到正题" and "get back to
you" go back to nothing under discussion. So on dev the model read 31 of 152 reopenings as NONE,
several of them a bare name after "back to". What tells a return is its object: an option an
assistant turn of the conversation put forward, named by its own first words (or its last, when
the verb comes after: "Airbnb comes back in", "钢琴又能考虑了"), as `openings.opened_by` reads a
prohibition's, and by the first words of its name (`openings.option_named`, `whole_name`): "→ Osaka →
back to Tokyo" returns to no "Pokémon Center Mega Tokyo", and "Back to funding." changes the
subject. Over the labelled training data the rule holds for 140 turns, 131 of them gold REOPEN
and 8 PIVOT ("回到巴厘岛吧" after dropping its rival); on dev for 15, all REOPEN. So it is a rule
of the fusion (detect.py): the turn is a REOPEN, as the label guide has a return even when the
same turn drops the current option, and the option is the target. (Left the model's PIVOT, "肘子
放弃，回到佛跳墙吧" recorded 佛跳墙 as what the pivot drops.)

A return inside a question, a condition, a quote, code or reported speech ("should we go back to
Kafka?", "my lead wants to go back to Jenkins") is none: the cue layer's guards read it, as they
read a cue. Every pattern is a plain alternation or a bounded class, linear in the turn's length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from detector.alternatives import Proposal, extract_proposals
from detector.cues.engine import CueEngine
from detector.features import recent_assistant_texts
from detector.openings import option_named, verdict_objects
from detector.schema import Turn
from detector.text import normalize

# The verb, then what it returns to: "back to X", "going back to X", "revisit X", "回到 X", "恢复 X".
_RETURN_BEFORE_RE = re.compile(
    r"\b(?:(?:go(?:ing)?|get(?:ting)?|switch(?:ing)?|mov(?:e|ing)|head(?:ing)?|fall(?:ing)?|come|coming)\s)?back to\s"
    r"(?:the |our |my |using |doing )?"
    r"|\b(?:return(?:ing)? to|revert(?:ing)? to|revisit(?:ing)?|reconsider(?:ing)?|un-?veto(?:ing)?|resurrect(?:ing)?|"
    r"bring(?:ing)? back|reinstat(?:e|ing))\s(?:the |our |my )?"
    r"|(?:回到|回归|改回|换回|退回到?|重新考虑|再考虑一下|重新评估|再评估一下|恢复)\s?",
    re.IGNORECASE,
)
# What it returns to, then the verb: "Airbnb comes back in", "let's pick the upgrade back up",
# "flink is back on the table", "钢琴又能考虑了", "referral 重来一次".
_RETURN_AFTER_RE = re.compile(
    r"\s(?:back up|comes? back|is back|back on the table|back in play|resurrected)\b"
    r"|又(?:可以|能考虑|行)了|重来一次|得回来|可以回来|又回来了|重新(?:掂量|考虑)",
    re.IGNORECASE,
)
# How many of the conversation's assistant turns, the latest last, may hold the option returned to.
EARLIER_REPLIES = 8


def returned_option(text: str, context: Sequence[Turn], engine: CueEngine) -> Proposal | None:
    """The option an earlier assistant turn offered that this (normalised) user turn goes back to,
    or None."""
    if not (_RETURN_BEFORE_RE.search(text) or _RETURN_AFTER_RE.search(text)):
        return None  # reading the replies' options costs more than looking for a return
    replies = recent_assistant_texts(context, EARLIER_REPLIES)
    options = [option for reply in replies for option in extract_proposals(normalize(reply))]
    if not options:
        return None
    objects = verdict_objects(text, _RETURN_BEFORE_RE, _RETURN_AFTER_RE, engine.guard_for(text))
    return option_named(objects, options, whole_name=True)
