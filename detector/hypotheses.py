"""A user turn that rules out the cause the assistant just suspected: "不是 DNS，dig 出来 2ms",
"it's not a race, it fails with a single worker too", "防火墙不是，我直接关了也一样".

While diagnosing a fault, the assistant's proposals are suspicions ("可能是 DNS 解析慢导致的", "could
be a timing issue in the fixture teardown"), and the user's verdict on one is a denial of it, often
with the evidence and nothing else: no reject verb, no "instead". The label guide calls that a
rejection (a direction of inquiry is abandoned), and an assistant that suspects the same cause
again ten turns later relapses as surely as one that re-proposes a rejected design. The model read
"it's not timing. I added sleeps and it still fails" as NONE (0.59 in session 22): "not X" is as
often a correction of a fact ("not 504, 502"). What tells them apart is the pair: the denial's
object is the cause the reply just suspected (or the reply before it, while the assistant runs one
check on its list of suspects). So the pair is a rule of the fusion (detect.py), as
a prohibition of a proposed option is (prohibitions.py), and the suspected cause is the target.

The denial must open its clause ("so not memory", "应该不是这个"); inside a question, a condition,
a quote, code or reported speech ("不是防火墙吧？", "if it's not DNS then…", "my lead says it's not
the cache") it rules out nothing: the cue layer's guards read it, as they read a cue.

Every pattern here is a plain alternation or a bounded class, linear in the text's length, and a
turn's first MAX_MATCHES denials of each form are read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import islice

from detector.alternatives import Proposal, extract_proposals, is_deictic, proposal_by_label
from detector.corrections import corrects_a_fact
from detector.cues.engine import CueEngine
from detector.features import PREVIOUS_ASSISTANT_CHARS, assistant_texts_latest_first
from detector.openings import MAX_MATCHES, held_back, opened_by, verdict_objects
from detector.schema import Turn
from detector.text import normalize

# A suspicion in the reply and the cause it names, to the end of its clause: "could be a timing
# issue", "I suspect the connection pool", "my guess is DNS", "可能是 DNS 解析慢导致的", "怀疑是连接池打满了",
# "最常见原因是 gres.conf 写法不对", "最典型的解释是过拟合".
_SUSPICION_RE = re.compile(
    r"(?:\b(?:could|might|may)(?: well| also)? be(?: caused by| due to| down to| related to)?"
    r"|\b(?:probably|likely|possibly|maybe)(?: (?:it'?s|this is|that'?s|caused by|due to))?"
    r"|\bI (?:suspect|bet|guess|think)(?: (?:it'?s|this is|that'?s|the issue is|the problem is|the cause is))?"
    r"|\b(?:my|the) (?:next |main |first |top |best |other )?(?:guess|bet|hunch|suspicion|suspect|money) (?:is|would be)(?: (?:on|that))?(?: it'?s)?"
    r"|\b(?:looks|smells|sounds|seems) like(?: (?:it'?s|a case of))?"
    r"|\bthe (?:most )?(?:likely|probable|usual|typical|classic|common|obvious) (?:culprit|cause|suspect|explanation) (?:here )?is"
    r"|\b(?:my|the) (?:main |biggest |bigger |first )?(?:worry|concern) (?:here )?(?:is|would be)|\bI'?m (?:most |more )?worried about"
    r"|\bsuspect(?:ing)?)"
    # Not a denial: "Probably not you." suspects nothing.
    r"\s+(?:that |it'?s |this is )?(?:a |an |the |your |some )?(?!not\b|nothing\b)(?P<cause>[^,.;!?\n]{2,80})"
    r"|(?:(?:很?可能|有可能|也许|估计|大概率|多半|八成|应该|看起来|感觉)是|我?怀疑(?:是)?|像是|疑似|看着像"
    # The worry named: "我比较担心的是 SRM：如果 treat 组里…".
    r"|我?(?:比较|最|更)?担心的是"
    # The cause named as the usual or the textbook one: "最常见原因是 gres.conf 写法不对", "最典型的解释是过拟合",
    # "问题多半出在连接池" ("常见原因" without 最 heads a list, _LIST_HEAD_RE).
    r"|(?:最常见的?|一般的?|最典型的?|最可能的?|典型的)(?:原因|解释)(?:多半|大概|一般)?(?:是|就是)|问题(?:多半|大概|可能|应该)?出在)"
    # A dot inside a name ("gres.conf") does not end the cause; a colon does ("SRM：如果 treat 组…").
    r"\s?(?P<cause_zh>(?:[^,.;:!?\n，。；：！？]|\.(?=\w)){2,40})",
    re.IGNORECASE,
)
# Words of a fault being diagnosed, in the reply or the turn: a suspicion elsewhere is a guess at a
# fact or at what the user wants ("我估计是周三的航班更便宜" / "不是周三，是周四"; "sounds like you want a
# script" / "not a script, a notebook"), and denying it corrects the assistant, which the label
# guide calls NONE.
_FAULT_RE = re.compile(
    r"\b(?:errors?|fail(?:s|ed|ing|ure)?|crash(?:es|ed|ing)?|bugs?|broken|slow(?:er|ness)?|latency|time[ds]? ?out|timeouts?"
    r"|hang(?:s|ing)?|leak(?:s|ing)?|spikes?|flak(?:y|iness)|exceptions?|oom(?:killed)?|deadlocks?|races?|corrupt(?:ed|ion)?"
    r"|drops?|dropped|lost|issues?|problems?|causes?|caused|culprit|symptoms?|debug(?:ging)?|regression|outage|down|[45]\d\d)\b"
    r"|报错|错误|失败|超时|慢|卡顿|卡住|崩|挂了|异常|泄漏|泄露|故障|问题|原因|导致|引起|排查|掉线|不通|抖动|重启|飙|满了|打满",
    re.IGNORECASE,
)
# The cause first, then the suspicion: "subject lines could be the issue", "连接池可能是瓶颈".
_SUSPECT_FIRST_RE = re.compile(
    r"(?P<cause>[^,.;:!?\n，。；：！？]{2,40}?)\s?(?:(?:could|might|may)(?: well| also)? be|is probably|is likely)"
    r" (?:the|a|part of the|your) (?:issue|problem|culprit|cause|bottleneck)\b"
    r"|(?P<cause_zh>[^,.;:!?\n，。；：！？]{2,20}?)(?:很?可能|也许|估计|大概率|多半)(?:是|就是)?(?:问题所在|原因|瓶颈|罪魁祸首|元凶)",
    re.IGNORECASE,
)
# A reply that lists its suspects: "可能原因：1) …；2) …", "常见原因有这么几个", "My suspects: 1) …",
# "Likely culprits:", "Common causes:", "it's usually one of a few causes:".
_LIST_HEAD_RE = re.compile(
    r"(?:可能(?:的)?原因|原因可能(?:有|是)|排查方向|怀疑(?:对象|方向|点)|几种可能|几个可能)\s?(?:有|是)?\s?[:：]?"
    r"|(?<!最)常见(?:的)?原因|原因(?:有|大概有|一般有)?(?:这么|以下)?几(?:个|种|类|点)"
    r"|\b(?:possible|likely|probable|potential|usual|common|typical|a few|several) (?:causes|culprits|suspects|explanations)\b"
    r"|\bmy (?:top )?suspects\b",
    re.IGNORECASE,
)
# Where a suspected cause ends: "DNS 解析慢导致的超时" is DNS 解析慢; "a race condition between the
# two writers" is a race condition: what follows a preposition places the cause, and a target
# is found by its name.
_CAUSE_END_RE = re.compile(
    r"导致|引起|造成|引发|搞的|的问题|的原因|的锅"
    r"|\s(?:that|which|causing|because|since|so|where|when|and then|if|with|in|on|for|between|from|at|—|-)\s",
    re.IGNORECASE,
)
# The denial, verb first: "it's not X" (typed "its not X" too), "so not X", "ruled out X", "不是 X",
# "排除了 X".
_DENY_BEFORE_RE = re.compile(
    r"(?:\b(?:it|that|this)(?:'?s| is| was)\s+(?:definitely |probably |prob |def |clearly |really |just |also )?not"
    r"|\b(?:it|that|this) (?:isn'?t|wasn'?t)"
    r"|(?P<bare>\bnot(?!\s(?:just|only|even|quite|really|sure|yet|exactly|necessarily|that|so|too|as|very|all|always|much|many|a lot|bad|great|good)\b))"
    r"|\b(?:ruled|rule|ruling) out|\b(?:eliminated|excluded|crossed off))"
    r"\s+(?:a |an |the |your |my |our |any )?"
    r"|(?<![是说])(?:应该|肯定|也|并|都|确实|绝对|多半|基本)?不是(?!说|很|太|特别|所有|每|不|吧|啊|吗|因为|为了)\s?"
    r"|排除(?:了|掉)?\s?",
    re.IGNORECASE,
)
# The object first, then the denial: "timeout's not it", "the cache is fine", "防火墙不是", "DNS 没问题".
_DENY_AFTER_RE = re.compile(
    r"(?:(?:'s|\sis|\swas|\sare|\swere) not|\s(?:is|was|are|were)n'?t)\s(?:it|the (?:issue|problem|cause|culprit|bottleneck))\b"
    r"|\s(?:is|are|was|were|looks?|looked|seems?)\s(?:fine|ok|okay|clean|healthy|normal)\b"
    r"|\s(?:is|was|got|can be) ruled out\b|\schecks out\b"
    r"|(?:也|都|应该|确实|肯定)?(?:不是|没问题|没毛病|可以排除|排除了|无关|没关系)(?![吧吗])"
    r"|(?:这个|这种)?(?:推测|猜测|假设|怀疑|可能)?(?:站不住|说不通|不成立)",
    re.IGNORECASE,
)
# "跟 X 无关", "和这个没关系": the object between a preposition and the denial.
_UNRELATED_RE = re.compile(r"(?:跟|和|与)(?P<obj>[^,;!?，。；！？\n]{1,20}?)(?:无关|没关系|没啥关系|关系不大)")
# How far back a symptom counts: the turns of the current exchange and the one before.
DIAGNOSIS_TURNS = 4
# How many of the assistant's last turns may hold the suspect a denial names: the list, and one
# reply on a check run since.
SUSPECT_REPLIES = 2
# A denial that calls its object the problem, and the object: "不是学习率的问题", "学习率不是问题",
# "the pool size isn't the issue", "it's not the pool size that's the problem".
_NOT_THE_PROBLEM_RE = re.compile(
    r"(?<![是说])(?:应该|肯定|也|并|确实)?不是(?P<obj>[^,.;:!?\n，。；：！？]{2,12}?)的?(?:问题|原因|锅)"
    r"|(?P<obj_first>[^,.;:!?\n，。；：！？\s]{2,12}?)(?:也|都|应该|确实|肯定|其实)?不是(?:问题所在|问题|原因|瓶颈)"
    r"|(?P<obj_en>\b[\w\- ]{2,30}?) (?:is|was)(?:n'?t| not) (?:really |actually )?(?:the |a |our |an )?(?:issue|problem|cause|culprit|bottleneck)\b"
    r"|\b(?:it'?s|that'?s|it is) not (?:the |a |our )?(?P<obj_it>[\w\- ]{2,30}?),? (?:that'?s |that is )?(?:the )?(?:issue|problem)\b",
    re.IGNORECASE,
)
# What the user says of the object before denying it: "温度我测过了不是这个", "网络我们排查过了不是":
# the topic is the object; the check run on it is not part of its name.
_CHECKED_TAIL_RE = re.compile(r"\s?(?:我|我们|都|也)?(?:已经|早就|刚)?(?:测|查|看|试|验|量|核对|确认|排查|检查|验证|对比)(?:过了|过|了)$")
# A guess at what the user means or wants ("you need the 2023 form", "你理解的需求不一样") names no cause.
_ABOUT_THE_USER_RE = re.compile(r"(?:you|you're|your)\b|你|您", re.IGNORECASE)


@lru_cache(maxsize=1024)
def suspected_causes(reply: str) -> tuple[Proposal, ...]:
    """The causes a reply (as the assistant wrote it) suspects, in order: each a proposal whose
    label is the cause's short name ("idle timeout") and whose summary is the clause that
    suspects it ("idle timeout on the ALB"), which the user may name by any of its words. The
    items of a list of suspects ("可能原因：1) …；2) …", "My suspects: 1) stale statistics…") are
    causes too. Its end is read, where a long reply gives its guess.

    Cached: the detector reads the last reply for them, and the tracker again for the rejection."""
    reply = normalize(reply)[-PREVIOUS_ASSISTANT_CHARS:]
    causes: dict[str, Proposal] = {}
    for match in _SUSPECT_FIRST_RE.finditer(reply):
        clause = (match.group("cause") or match.group("cause_zh")).strip(" :：,，*`'\"")
        if len(clause) >= 2 and not _ABOUT_THE_USER_RE.match(clause):
            causes.setdefault(clause, Proposal(clause, clause))
    for match in _SUSPICION_RE.finditer(reply):
        if reply[match.end() : match.end() + 1] in ("?", "？"):
            continue  # "sounds like you want a script?" asks the user
        clause = (match.group("cause") or match.group("cause_zh")).strip(" :：,，*`'\"")
        cause = _CAUSE_END_RE.split(clause, maxsplit=1)[0].strip(" :：,，*`'\"了吧的")
        if len(cause) >= 2 and not _ABOUT_THE_USER_RE.match(cause) and not _LIST_HEAD_RE.search(match.group()):
            causes.setdefault(cause, Proposal(cause, clause))
    if _LIST_HEAD_RE.search(reply):
        for item in extract_proposals(reply):
            cause = _CAUSE_END_RE.split(item.name, maxsplit=1)[0].strip(" :：,，*`'\"了吧的")
            causes.setdefault(cause, Proposal(cause, item.summary))
    return tuple(causes.values())


def ruled_out_cause(text: str, context: Sequence[Turn], engine: CueEngine) -> str | None:
    """The cause one of the assistant's last SUSPECT_REPLIES turns suspects that this
    (normalised) user turn rules out, or None.

    A list of suspects stays open while the assistant runs one check: "常见原因：…3. 从库磁盘 IO
    瓶颈", then a reply on the binlog positions, then "iostat 看过了 … 不是磁盘". Only the last
    reply is pointed at ("应该不是这个"); an older one must be named."""
    replies = list(islice(assistant_texts_latest_first(context), SUSPECT_REPLIES))
    if not replies or not (_DENY_BEFORE_RE.search(text) or _DENY_AFTER_RE.search(text) or _UNRELATED_RE.search(text)):
        return None  # reading the replies costs more than looking for a denial
    if corrects_a_fact(text):
        return None  # "更正下，实盘是四个月不是三个月": a figure set right rules out no suspect
    guarded: Callable[[int, int], bool] | None = None
    for age, reply in enumerate(replies):
        causes = suspected_causes(reply)
        if not causes:
            continue
        if guarded is None:
            if not _diagnosing(text, context):
                return None
            guarded = engine.guard_for(text)
        found = denied_cause(text, causes, guarded, pointed=age == 0)
        if found is not None:
            return found.label
    return _ruled_out_fix(text, context, replies[0], guarded, engine)


def _ruled_out_fix(
    text: str, context: Sequence[Turn], reply: str, guarded: Callable[[int, int], bool] | None, engine: CueEngine
) -> str | None:
    """The fix the last reply listed that works on what the turn says is not the problem, or None.

    A reply often lists fixes, not suspects ("一是把学习率降到 1e-5 并加 warmup；二是少解冻几层…"), and
    each fix suspects what it changes: "我觉得不是学习率的问题，是标注有问题" turns down the first, as
    surely as a denied suspect. Only a denial that calls its object the problem counts ("不是 1e-5，
    是 3e-5" corrects a number), and only by the fix's own words: "不是这个问题" cannot tell which
    fix it means, nor "不是 3.4%" which one is numbered 3."""
    found_denials = list(islice(_NOT_THE_PROBLEM_RE.finditer(text), MAX_MATCHES))
    if not found_denials:
        return None  # most denials say no "problem": the guards are not read for them
    guarded = guarded or engine.guard_for(text)
    denials = [match for match in found_denials if not held_back(text, match.start(), match.end(), guarded)]
    if not denials or not _diagnosing(text, context):
        return None
    fixes = extract_proposals(normalize(reply)[-PREVIOUS_ASSISTANT_CHARS:])
    if len(fixes) < 2:
        return None
    for match in denials:
        obj = next(group for group in match.groups() if group is not None).strip()
        if is_deictic(obj) or not any(ch.isalpha() for ch in obj):
            continue
        if proposal_by_label(obj, fixes, by_position=False) is not None:
            continue
        found = opened_by(obj, fixes)
        if found is not None:
            return found.display
    return None


def _diagnosing(text: str, context: Sequence[Turn]) -> bool:
    """Is a fault being diagnosed: named in the turn or in the last few turns before it (the
    symptom is often in the user's first message, the reply only guesses at its cause)?"""
    recent = (turn.text[-PREVIOUS_ASSISTANT_CHARS:] for turn in context[-DIAGNOSIS_TURNS:])
    return any(_FAULT_RE.search(part) for part in (text, *recent))


def denied_cause(
    text: str, causes: Sequence[Proposal], guarded: Callable[[int, int], bool], pointed: bool = True
) -> Proposal | None:
    """The suspected cause the turn denies, or None (see the module's docstring). A bare "not X"
    must open a sentence: after a comma it sets a correction against what came before ("the pool
    again, not the cache one"). `pointed`: may "不是这个" point at the causes (they are the last
    reply's)?"""
    for obj, from_end in verdict_objects(text, _DENY_BEFORE_RE, _DENY_AFTER_RE, guarded):
        found = _denied(obj, causes, pointed, from_end=from_end)
        if found is not None:
            return found
    for match in islice(_UNRELATED_RE.finditer(text), MAX_MATCHES):
        if not held_back(text, match.start(), match.end(), guarded):
            found = _denied(match.group("obj"), causes, pointed)
            if found is not None:
                return found
    return None


def _denied(obj: str, causes: Sequence[Proposal], pointed: bool, from_end: bool = False) -> Proposal | None:
    """The cause the denial's object names by its own words, or the only one when it just points
    ("应该不是这个", "不是这个原因") at the last reply's."""
    if is_deictic(obj):
        return causes[0] if pointed and len(causes) == 1 else None
    return opened_by(_CHECKED_TAIL_RE.sub("", obj) or obj, causes, from_end=from_end)
