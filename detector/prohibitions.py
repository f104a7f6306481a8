"""A user turn that forbids an option the assistant has just proposed: "别用 Redis", "no retry decorator".

The form alone says little. "别用表格" and "don't use semicolons" are standing instructions, and
in the training data a turn that opens with "别用 X" is more often one of those than a rejection.
What tells them apart is the object: an option on the table ("一是用 tracemalloc 在生产环境抓快照")
or something nobody proposed. A linear classifier cannot join the form and its object by itself
(it sees "别用" and, separately, that the turn names an option): given the join as a context
feature, it learned a weight too small to move a bare "别用 tracemalloc" (dev level, the turn NONE
at 0.86), because the n-grams of the many instructions outweigh it. So the join is a rule of the
fusion (detect.py): a turn that forbids an option the assistant just proposed is a rejection.
Over the labeled training and dev data it holds for 176 turns, 156 of them gold REJECT, PIVOT or
REOPEN; most of the others change a step inside the chosen plan ("skip the history import in
step 2").

The user's own dislike of the option forbids it too ("I'm not a fan of Airflow here", "I'd rather
not run airflow", "gonna pass on the paella", "我不太想在 ES 上投入"): the model read such short
turns as NONE at 0.6–0.8, the data holding few of them. Only the user's own: "my lead is not a fan of X" is reported, "孩子不喜欢 X" is not
the user's, "not a fan of airflow's UI" is about a part of it, and "I don't want the worker
hammering it" or "I don't want X to …" is a wish about what the option does. An option that opens
with its verb, as a coding agent lists them ("1. Raise MAX_CONTENT_LENGTH to 50 MB"), is forbidden
by that verb: "no, don't raise it globally", "don't fail over, the replica is 20 min behind"; and
"i said no X" says it again of what the reply just brought back. These forms newly hold for seven
turns of the training and dev data, all gold positives.

"forget X", "ditch X" and "scrap X" are orders of the same kind ("forget japan" alone read NONE at 0.80).

The object must open with the option's own words (`openings.opened_by`: "no retry decorator",
"别在生产环境抓快照"): "no problem with Redis" or "不要太担心 Redis" forbid nothing. A prohibition
inside a question, a condition, a quote, code or reported speech ("要不要干脆别用 Redis？", "if
legal says no, then no webhooks", "my lead says don't use k8s") or one the user disowns ("我没说不
用 Redis") forbids nothing either: the cue layer's guards read it, as they read a cue
(`CueEngine.guard_for`), and so does a clause that ends in a question mark (`held_back`).

Every pattern here is a plain alternation or a bounded class, linear in the turn's length, and a
turn's first MAX_MATCHES prohibitions of each form are read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from detector.alternatives import Proposal, option_by_short_name
from detector.constraints import REPLY_FORMAT_RE
from detector.cues.engine import CueEngine
from detector.features import last_assistant_text, reply_options
from detector.openings import option_named, verdict_objects
from detector.schema import Turn
from detector.text import CJK_CHAR

# An order, not a fact about someone: "don't use X", not "we don't use X".
_NO_SUBJECT = r"(?<!\bwe )(?<!\bi )(?<!\bthey )(?<!\byou )(?<!\bpeople )(?<!\bteams )"
# The user's own view, not someone else's: "not a fan of X", not "my lead is not a fan of X".
_NOT_SOMEONE_ELSES = r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!'s )"
# The verb and the start of its object: "别用 X", "不要再上 X", "甭整 X" (not "别每月重算" or "不要比国内
# 低": an adverb or a comparison follows; nor "更别说", "let alone"); "don't use X", "let's not do X"
# said as an order (not "we don't use X", a fact); "no X", "not X", "skip the X", "avoid X" opening a
# clause (not "a rubber chicken not a hedgehog", a correction).
_FORBID_BEFORE_RE = re.compile(
    r"(?:(?<![特区分类差告离识辨级性个])别(?![的人处说])|(?<![要用])不要|(?<!用)不用|(?<=说了)不能|(?<=说过)不能|甭|不准|不许|免了|不打算|不考虑|不想|(?:(?<=我)|(?<=俺)|(?<=咱)|(?<=^)|(?<=[\s，。,.!！?？;；：:]))不(?:太|大|怎么)?(?:想|喜欢))(?:再|去|先|在)?"
    r"(?:用|上|搞|整|做|走|选|碰|弄|加|装|引入|接|考虑|折腾)?\s?(?!每|比|太|那么|这么|那样|这样)"
    r"|" + _NO_SUBJECT + r"\b(?:don'?t|do not|let'?s not|let us not|we won'?t|we will not|never|no need to)\s+"
    r"(?:bother with|go with|bring in|use|add|do|try|introduce|pick|touch|go for|go|build|set up|rely on)\b\s?(?:the |a |an |any )?"
    # A rejection said again of what the reply just brought back: "i said no AWS and i meant it".
    r"|\b(?:i|we)(?: already| just| clearly)? (?:said|told you) no (?:to )?"
    # An option that opens with its verb ("1. Raise MAX_CONTENT_LENGTH to 50 MB"), forbidden by
    # that verb: "don't raise it globally".
    r"|" + _NO_SUBJECT + r"\b(?:don'?t|do not|let'?s not|no need to)\s(?=[a-z])"
    r"|" + _NOT_SOMEONE_ELSES + r"\bnot (?:really |much of |exactly |the biggest |a (?:huge|big) |super |that much of )?(?:a )?fan of (?:the |a |an )?"
    r"|\bi (?:really |just |honestly |still )?(?:don'?t|do not) (?:love|like|trust|dig|care for|(?:want|need) (?!(?:\S+ ){0,3}(?:to|\S+ing)\b)) ?(?:the |a |an )?"
    r"|\b(?:i'?d|we'?d|i would|we would) (?:much )?rather not (?:use |do |add |go with |bring in |deal with |pay for |touch |have |run |buy )?(?:the |a |an )?"
    r"|\b(?:i|we|i'?ll|we'?ll|i will|we will|i'?d|we'?d|gonna|going to|hard|let'?s)(?: have to| probably| just)? pass on (?:the |a |an )?"
    r"|" + _NOT_SOMEONE_ELSES + r"\bnot (?:really |totally )?(?:feeling|sold on|keen on|crazy about|loving) (?:the |a |an )?"
    r"|\b(?:stop|quit) (?:suggesting|recommending|proposing|pushing|bringing up|mentioning) (?:the |a |an )?"
    r"|(?P<bare>\b(?:no need for|no|not(?!\s(?:just|only|even|quite|really|sure|yet|exactly|necessarily|that|so|too|as|very|all|always|my|our|your|his|her|their|me|us|him|them|it)\b)"
    r"|skip|avoid|nix|leave out|keep out|forget(?: about)?|ditch|scrap)\s+(?:the |a |an |any |with )?)",
    re.IGNORECASE,
)
# The object first, then the verb: "Redis 别用了", "retry 就别弄了", "X 不要了", "X 免了".
_FORBID_AFTER_RE = re.compile(
    r"(?:就|还是|先|也)?(?:别|不要|甭|不用)(?:再)?(?:用|上|搞|整|做|走|弄|加|装|考虑|折腾)?了|(?:就|也)?免了"
)

# An object in the possessive is a part of the option, not the option: "not a fan of airflow's UI
# (but let's go with it)", "no Redis's cluster mode".
_ASPECT_RE = re.compile(r"\s*[\w-]+['’]s\b")
# An object that is the reply's format is an instruction about the reply, whatever option shares
# its characters: "别用表格了，分点写" forbids no "内表格式" of an option's description.
_FORMAT_OPENING_RE = re.compile(rf"\s*(?:{REPLY_FORMAT_RE.pattern})", re.IGNORECASE)

# An object that is an amount is a parameter inside the plan, not an option: "融资额改成 1200 万，不要
# 1500" changes the sum the assistant proposed (the label guide's "改成3个人" is NONE). A single
# digit may still be an option's number ("不要 2"), so an amount has two digits or a unit.
_AMOUNT_RE = re.compile(r"\s*(?:\d[\d,.]*\d|\d\s?(?:[万千百亿%]|k\b|m\b))", re.IGNORECASE)

# A verb with a complement of manner says how to do a thing, not which: "参数不要设置得过于具体"
# forbids no option that opens with 设置 ("不要得到…" has no such complement).
_MANNER_RE = re.compile(rf"\s*[{CJK_CHAR}]{{1,3}}得(?!到)")


def forbidden_option(text: str, context: Sequence[Turn], engine: CueEngine) -> Proposal | None:
    """The option of the assistant's last turn that this (normalised) user turn forbids, or None."""
    previous = last_assistant_text(context)
    if not previous or not (_FORBID_BEFORE_RE.search(text) or _FORBID_AFTER_RE.search(text)):
        return None  # reading the reply's options costs more than looking for a prohibition
    proposals = reply_options(previous)
    return prohibited_proposal(text, proposals, engine.guard_for(text)) if proposals else None


def prohibited_proposal(text: str, proposals: Sequence[Proposal], guarded: Callable[[int, int], bool]) -> Proposal | None:
    """The proposal the turn forbids verb-first, or None (see the module's docstring). `guarded`
    says whether a span is held back as a cue would be (`CueEngine.guard_for`)."""
    if not proposals:
        return None
    objects = [
        (obj, from_end)
        for obj, from_end in verdict_objects(text, _FORBID_BEFORE_RE, _FORBID_AFTER_RE, guarded, _may_follow_comma)
        if not _ASPECT_RE.match(obj)
        and not _FORMAT_OPENING_RE.match(obj)
        and not _AMOUNT_RE.match(obj)
        and not (not from_end and _MANNER_RE.match(obj))
    ]
    return option_named(objects, proposals) or _named_by_short_name(objects, proposals)


def _named_by_short_name(objects: Sequence[tuple[str, bool]], proposals: Sequence[Proposal]) -> Proposal | None:
    """The one option a short name forbids, when the object opens with no option's words: "stop
    suggesting ES" after "2. Move search to Elasticsearch" (the model, which saw the form twice in
    training, read it NONE at 0.60)."""
    for obj, from_end in objects:
        words = obj.split()
        if words and (found := option_by_short_name(words[-1] if from_end else words[0], proposals)) is not None:
            return found
    return None


def _may_follow_comma(bare: str) -> bool:
    """A bare "no X" may follow a comma ("ok, no webhooks"); a bare "not X" there sets a correction
    against what came before ("a rubber chicken, not a hedgehog")."""
    return not bare[:4].lower().startswith("not")
