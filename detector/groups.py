"""One verdict over several options of a list: "1-3 are out", "the first two", "none of these",
"all of those except procrastinate", "前两个都不考虑", "一二都不行", "除了方案四都不行".

A turn like these rejects every option it covers, not the one its target span happens to name
("1-3" resolved to option 1, "all of those except procrastinate" to procrastinate, the one option
it keeps). The options are those of one list, the latest the assistant gave: places ("the first
two", "2-3") count in it, and labels ("B and C", "方案一和方案三") name its members.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from detector.alternatives import Proposal, best_overlap, label_kind, number_word, proposal_by_label
from detector.mentions import REJECTING_VERBS_EN
from detector.schema import Alternative
from detector.text import TIME_UNITS_EN

_KEY = r"[1-9]|(?-i:[A-H])(?![A-Za-z])"  # "2", "B"; a capital alone, never "a" or a word's start
_ZH_KEY = r"(?:(?<![A-Za-z0-9])[1-9A-H](?![A-Za-z0-9])|[①-⑨一二三四五六七八九])"  # never the "B" of "InfluxDB"
_OPTION = r"(?:options?|plans?|approaches|ideas|#)\s?"
_ZH_OPTION = r"(?:方案|选项|思路|路线)?"
_PAIR_WORDS = frozenset({"both", "neither", "either", "俩"})
_TIME_UNITS = rf"(?:(?:{'|'.join(TIME_UNITS_EN)}|min|time|step)s?|people|users|percent)\b"

# A place ("2-4", "B and C") is the verdict's subject or object when its clause goes on with a
# predicate ("1-3 are out", "2 and 3, too much infra") or a verdict verb or an option word comes
# before it ("scrap 1-3", "options 2 to 4"); else it is a quantity ("the 2-3 week timeline").
_SUBJECT_END_RE = re.compile(
    r"\s{0,2}(?:$|[,.;:!?)，。；：！？]|(?:are|is|were|all|both|sound|sounds|look|looks|seem|seems|feel|feels|"
    r"won't|wont|don't|dont|can't|cant|aren't|arent|need|needs|require|requires|cost|costs)\b)",
    re.IGNORECASE,
)
_SUBJECT_START_RE = re.compile(
    rf"(?:\b(?:{REJECTING_VERBS_EN}|not|no|nor|neither)\s|{_OPTION})$", re.IGNORECASE
)
_REACH = 200  # characters a clause or sentence is looked for around a group
_SENTENCE_END_RE = re.compile(r"[.!?。！？\n]")
# A space between Chinese words is a pause too: "1 和 5 先不做 等二季度招了人再说 先集中 2 和 4".
_CLAUSE_END_RE = re.compile(r"[,.;!?，。；！？\n]|\bbut\b|但|不过|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
# The clause must say the verdict: "all of them are fine, but redis is overkill" rejects Redis.
_VERDICT_WORD_RE = re.compile(
    r"\b(?:out|no|not|never|none|neither|nor|too|overkill|off\s(?:the\s)?(?:table|list)|dead|bad|wrong|gone|scrap|drop|ditch|skip|nix|cut|"
    r"kill|forget|rule|exclude|hate|meh|nope|pass)\b|n't\b|不|没|否|算了|pass|排除|太|砍|去掉|放弃|作废|拉倒",
    re.IGNORECASE,
)

_EN_RANGE_RE = re.compile(
    rf"(?<![\w.$-])(?P<first>{_KEY})\s?(?:-|–|~|to|through|thru)\s?(?:{_OPTION})?(?P<last>{_KEY})(?![\w.%/:-])(?!\s?{_TIME_UNITS})",
    re.IGNORECASE,
)
_EN_LIST_RE = re.compile(
    rf"(?<![\w.$-])(?P<keys>(?:{_KEY})(?:\s?(?:,|&|/|\band\b|\bor\b|\bnor\b)\s?(?:{_OPTION})?(?:{_KEY})){{1,4}})"
    rf"(?![\w.%/:-])(?!\s?{_TIME_UNITS})",
    re.IGNORECASE,
)
_EN_FIRST_RE = re.compile(
    # "the last two are out", "first 3 options": never "the last two audits".
    r"\b(?P<end>first|top|last|bottom)\s(?P<count>two|three|four|five|[2-5])"
    r"(?=\s(?:options?|ones|plans|ideas|picks|suggestions|choices|are|were|is|sound|look|seem|feel|won't|don't|can't|need|cost)\b|\s?[,.;:!?]|$)",
    re.IGNORECASE,
)
_EN_ALL_RE = re.compile(
    r"\b(?:none|neither|all)\s(?:of\s)?(?:these|them|those|the\sabove|(?:the|your)\s(?:options|suggestions|ideas|picks|choices))\b"
    r"|\b(?:all|both)\s(?:of\sthem\s|three\s|four\s|five\s)?(?:are|were|sound|look|seem|feel)\b"
    r"|\bneither\sone\b|\b(?:like|want|love)\s(?:any|either)\s(?:of\s(?:these|them|those)|one)\b",
    re.IGNORECASE,
)
# People just before "none of them" / "all of them" are what "them" means: "team of six, none of
# them have touched observables" turns down MobX, which it named, not the whole list.
_PEOPLE_BEFORE_RE = re.compile(
    r"\b(?:team|teams|people|devs|developers|engineers|folks|guys|friends|kids|staff|colleagues|coworkers|members|"
    r"users|customers|clients|parents|students|reviewers|investors|of (?:us|two|three|four|five|six|seven|eight|nine|ten))\b"
    r"[^.!?;]{0,30}$",
    re.IGNORECASE,
)
# "both", "all three", "这三个": the group is the whole list only when the list has that many.
_COUNTED_RE = re.compile(r"\b(?:both|neither|either|three|four|five)\b|俩|[两三四五](?:个|种)", re.IGNORECASE)
# "everything except procrastinate", "all but C", "除了方案四都不行": the whole list but one, which
# must be an option of it ("除了篮球比赛拿过奖，其他的什么都没有" spares nothing listed).
_EXCEPT_RE = re.compile(
    r"\b(?:(?:everything|all|every\s(?:option|one)|the\srest|them\sall|all\sof\s(?:them|these|those))\s(?:[\w'-]+\s){0,3}?"
    r"(?:except(?:\sfor)?|other\sthan|besides|apart\sfrom|save\sfor)|(?:all|everything)\sbut)\s"
    r"(?P<kept>[^,.;:!?]{1,40}?)(?=\s(?:are|is|were|all|both|sound|look|seem|feel|have|has|need)\b|[,.;:!?]|$)"
    r"|除(?:了|开|去)(?P<kept_zh>[^，。；：！？,.;:!?]{1,20}?)(?:以外|之外)?(?:[，,]?(?:其他|别的|其余|其它|剩下)的?[^，。！？,.!?]{0,4}?)?(?:都|全)",
    re.IGNORECASE,
)
# A question the verdict word sits in ("能不能", "是不是所有银行都这样") is no verdict.
_ZH_NOT_VERDICT_RE = re.compile(
    r"(.)不\1|差不多|不(?:知道|一定|一样|过|错|少|多|同|是|确定|清楚|了解|冲突|矛盾|影响|难|贵)"
    r"|没(?:意见|问题|毛病|关系|事|差)"
)

_ZH_FOLLOW = r"(?=\s?(?:都|全|也|两个|俩|[,，。;；]|$))"  # not "个": "1-2 个 seat" counts seats
_ZH_RANGE_RE = re.compile(rf"{_ZH_OPTION}(?P<first>{_ZH_KEY})\s?(?:到|至|~|-|—)\s?{_ZH_OPTION}(?P<last>{_ZH_KEY}){_ZH_FOLLOW}")
_ZH_LIST_RE = re.compile(
    rf"(?<![一二三四五六七八九十\d])(?P<keys>{_ZH_OPTION}{_ZH_KEY}(?:(?:\s?[和、跟与及/]\s?|\s){_ZH_OPTION}{_ZH_KEY}){{1,4}}"
    rf"|[一二三四五六七八九①-⑨]{{2,4}})"
)
_CJK_RE = re.compile(r"[\u4e00-\u9fff①-⑨]")
# A list without Chinese in it ("A/B", "1 2") must be followed by the verdict itself, and so must
# bare numbers ("1和2都不要", "1 和 5 先不做"): "1、2 楼" counts floors, and "…先集中 2 和 4" is
# where the user goes. Labels ("方案一和方案三", "②和④", "B 和 D") name options wherever they stand.
_ZH_BARE_NUMBERS_RE = re.compile(r"[\d一二三四五六七八九和、跟与及/\s]+")
_ZH_VERDICT_NEXT_RE = re.compile(r"\s?(?:都|全|也|两个|俩|(?:先|就|暂时|暂且|还是)?(?:不|别|没))")
_ZH_FIRST_RE = re.compile(r"(?P<end>前|后|最后)面?(?P<count>[两二三四五2-5])(?:个(?!月|小时|人|星期|礼拜|工作日)|种|条|套|项)")
_ZH_ALL_RE = re.compile(
    # "所有" and "全部" only before an option word: "所有菜都别放香菜" is a standing constraint.
    r"(?:(?:这|那)(?:几个|几条|几家|几款|些|三个|四个|五个|两个|俩)|上面的?|以上|上述|你(?:说|给|列)的(?:这些|这几个|几个|[两三四五]个)?"
    r"|(?:所有|全部)的?(?=方案|选项|思路|建议|办法|方向|这些))"
    # Between them and "都" an option word, a hedge or nothing: "那几个大客户都认他" is about clients.
    r"的?(?:方案|选项|思路|建议|办法|方向|路线|地方|选择)?(?:说实话|其实|感觉|好像|我们|我|也|就){0,3}(?:都|全)"
    r"|(?<![一\d我你他她们咱])[两三四五](?:个|种)(?:方案|选项)?都|(?<![我你他她们咱])俩都"
    r"|^(?:嗯|呃|唔|哎|额)?[，,\s]?(?:都|全都)(?:不|没|否|pass|太)"
    r"|一个都不(?:要|行|考虑|选|买|喜欢|想要|合适|满意|用)|(?:^|(?<=[，,。\s就也都]))全(?:部)?(?:否|pass|不要|不行|不考虑|排除)"
)


@dataclass(frozen=True, slots=True)
class Group:
    """The options of a list that one verdict covers, by their place in it, and the ones the
    turn spares ("all but 4")."""

    covered: tuple[int, ...]
    spared: tuple[int, ...] = ()


def offered_lists(alternatives: Sequence[Alternative]) -> list[list[Alternative]]:
    """The lists of two options or more the assistant offered, oldest first: the options of one
    reply share their first turn."""
    lists: dict[int, list[Alternative]] = {}
    for alternative in alternatives:
        if alternative.proposed_by == "assistant":
            lists.setdefault(alternative.first_turn, []).append(alternative)
    return [options for _, options in sorted(lists.items()) if len(options) > 1]


def group_reference(text: str, listed: Sequence[Proposal]) -> Group | None:
    """The group of `listed` the text's verdict covers, or None when it names no group of them.

    A group is two options or more (or some, beside one spared); a place outside the list ("1-5"
    of four options), a quantity ("the 2-3 week timeline", "前两个月") or a group the clause says
    nothing against ("all of them are fine, but…") names none."""
    if len(listed) < 2:
        return None
    spared = _spared(text, listed)
    for start, end, places in _mentions(text, listed):
        if places is None or not _says_verdict(text, start, end):
            continue
        covered = tuple(place for place in places if place not in spared)
        if len(covered) >= 2 or (covered and spared):
            return Group(covered, spared)
    return None


def _mentions(text: str, listed: Sequence[Proposal]) -> Iterator[tuple[int, int, tuple[int, ...] | None]]:
    """Each group the text names, where it stands, and the places it covers (None: not all of
    them are in the list). Ranges first, then lists of labels, counts, and "all of them"."""
    for match in (*_EN_RANGE_RE.finditer(text), *_ZH_RANGE_RE.finditer(text)):
        if match.re is _ZH_RANGE_RE or _is_subject(text, match):
            ends = _places_of((match.group("first"), match.group("last")), listed)
            ok = ends is not None and ends[0] < ends[1]
            yield match.start(), match.end(), tuple(range(ends[0], ends[1] + 1)) if ends and ok else None
    for match in _EN_LIST_RE.finditer(text):
        if _is_subject(text, match):
            yield match.start(), match.end(), _sorted(_places_of(re.findall(_KEY, match.group("keys")), listed))
    for match in _ZH_LIST_RE.finditer(text):
        keys = match.group("keys")
        labelled = _CJK_RE.search(keys) is not None and not _ZH_BARE_NUMBERS_RE.fullmatch(keys)
        if not _one_kind(re.findall(_ZH_KEY, keys)):
            continue  # "C 一样没戏", "Plan B 一个 squad": a label beside a word that starts with 一
        if labelled or _ZH_VERDICT_NEXT_RE.match(text, match.end()):
            yield match.start(), match.end(), _sorted(_places_of(re.findall(_ZH_KEY, keys), listed))
    for match in (*_EN_FIRST_RE.finditer(text), *_ZH_FIRST_RE.finditer(text)):
        count = _count(match.group("count"))
        first = 0 if match.group("end").lower() in ("first", "top", "前") else len(listed) - count
        yield match.start(), match.end(), tuple(range(first, first + count)) if count <= len(listed) else None
    for match in _EXCEPT_RE.finditer(text):
        yield match.start(), match.end(), tuple(range(len(listed))) if _kept(match, listed) is not None else None
    for match in (*_EN_ALL_RE.finditer(text), *_ZH_ALL_RE.finditer(text)):
        if _after_a_list(text, match.start()):
            continue  # "专线路径、TCP、服务端这几个方向": the options it names (`named_together`)
        if "them" in match.group().lower() and _PEOPLE_BEFORE_RE.search(text, max(0, match.start() - 60), match.start()):
            continue
        counted = _COUNTED_RE.search(match.group())
        whole = counted is None or _count(counted.group()) == len(listed)
        yield match.start(), match.end(), tuple(range(len(listed))) if whole else None


def _after_a_list(text: str, start: int) -> bool:
    """Does "these" sum up a list its clause has just given ("台面、水槽、烟灶这些都不变")?"""
    return "、" in text[_clause_start(text, start) : start]


def _is_subject(text: str, match: re.Match[str]) -> bool:
    """Is an English range or list of places the verdict's subject or object, not a quantity?"""
    before = text[max(0, match.start() - 40) : match.start()]
    return bool(_SUBJECT_END_RE.match(text, match.end()) or _SUBJECT_START_RE.search(before))


def _says_verdict(text: str, start: int, end: int) -> bool:
    """Does the clause holding the group say the verdict? A group standing alone in its clause
    ("2 and 3, too much infra") takes the next clause's."""
    clause_start, clause_end = _clause(text, start, end)
    sentence_end = _SENTENCE_END_RE.search(text, end, end + _REACH)
    if sentence_end is not None and sentence_end.group() in "?？":
        return False  # "none of these need redis?", "帮我对比一下方案一和方案二，哪个更合适？" ask
    if _says_no(text[clause_start:clause_end]):
        return True
    alone = not re.search(r"\w", text[clause_start:start] + text[end:clause_end])
    if alone and clause_end < len(text):
        return _says_no(text[slice(*_clause(text, clause_end + 1, clause_end + 1))])
    return False


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the clause holding text[start:end] begins and ends, looking at most `_REACH`
    characters either way (a turn without punctuation is read in linear time all the same)."""
    after = _CLAUSE_END_RE.search(text, end, end + _REACH)
    return _clause_start(text, start), after.start() if after else min(len(text), end + _REACH)


def _clause_start(text: str, start: int) -> int:
    reach = max(0, start - _REACH)
    return max((m.end() for m in _CLAUSE_END_RE.finditer(text, reach, start)), default=reach)


def _says_no(clause: str) -> bool:
    return _VERDICT_WORD_RE.search(_ZH_NOT_VERDICT_RE.sub(" ", clause)) is not None


def _one_kind(keys: Sequence[str]) -> bool:
    """Are the keys all letters, all numbers (①② too) or all Chinese numerals, as a list's are?"""
    return len({label_kind(key) for key in keys}) == 1


def _sorted(places: list[int] | None) -> tuple[int, ...] | None:
    return tuple(sorted(set(places))) if places else None


def _count(word: str) -> int:
    """How many a count word says: "both", "three", "3", "两个", "俩"."""
    if word.lower() in _PAIR_WORDS:
        return 2
    return number_word(word) or number_word(word[:1]) or 0


def _places_of(keys: Sequence[str], listed: Sequence[Proposal]) -> list[int] | None:
    """The places in the list the keys name (the option carrying that label, else the key's
    place), or None when one of them names none."""
    places = []
    for key in keys:
        found = proposal_by_label(f"方案{key.upper()}", listed)
        if found is None:
            return None
        places.append(listed.index(found))
    return places


def _spared(text: str, listed: Sequence[Proposal]) -> tuple[int, ...]:
    """The option the turn exempts from its verdict ("all of those except procrastinate", "除了
    方案四都不行")."""
    kept = next((k for m in _EXCEPT_RE.finditer(text) if (k := _kept(m, listed)) is not None), None)
    return (kept,) if kept is not None else ()


def _kept(match: re.Match[str], listed: Sequence[Proposal]) -> int | None:
    """The place of the option an exception names, by its label or its words."""
    kept = (match.group("kept") or match.group("kept_zh") or "").strip()
    found = proposal_by_label(kept, listed, by_position=False) or proposal_by_label(f"方案{kept}", listed)
    found = found or best_overlap(kept, listed)
    return listed.index(found) if found is not None else None
