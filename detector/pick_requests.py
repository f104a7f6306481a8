"""A turn that is only a choice handed back to the assistant: "legion vs proart. just pick one",
"全量微调和LoRA哪个好", "A 还是 B 你帮我选".

It names two options and asks the assistant to choose; it turns neither down. The model read
"legion vs proart. just pick one" as a pivot away from the first (0.69), the tracker recorded
Legion as rejected, and the reply that recommended the other and compared it with Legion was
flagged as a relapse. The rule is held to turns that are nothing else: a verdict beside the request
("sleep 绝对不要 2 和 3 哪个好", "airtable's a nonstarter … axiscare vs wellsky, which one") fires a
cue and keeps its label, and a looser reading of any "which one" or "you pick" in a turn changed 13
labels of train and dev, all of them positives that turn one option down and ask about the rest.
In train and dev the whole-turn form holds for 5 turns: 4 NONE and the cued REJECT above.
All patterns are bounded (linear time), like the cue lexicons.
"""

from __future__ import annotations

import re

_OPTION = r"[^,.;!?，。？！\n]{1,30}?"
_PICK_ONLY_RE = re.compile(
    # No word of the turn says no: "sleep 绝对不要 2 和 3 哪个好" turns sleep down first.
    r"^(?![^\n]{0,90}?(?:不|没|别|\bno\b|\bnot\b|n't\b|\bnever\b|\bnope\b|\bnah\b))"
    rf"\s?(?:ok |okay |so |hmm |ugh |fine |alright )?{_OPTION}\s?(?:vs\.?|versus|or|还是|和|跟)\s?{_OPTION}[\s?.!。？,，]*"
    r"(?:(?:just |you |u |then )?(?:pick|choose|decide)(?: one| for me)?|which one|你(?:帮我)?(?:选|定|挑)(?:一个|吧)?|选哪个|哪个好)"
    r"[\s.!?。？！]*$",
    re.IGNORECASE,
)


def only_asks_for_a_pick(text: str) -> bool:
    """Is the (normalised) turn two options and a request that the assistant choose, nothing more?"""
    return _PICK_ONLY_RE.match(text) is not None
