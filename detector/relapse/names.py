"""How a rejected alternative can be named, compiled once per alternative and current decision.

An alternative is free text ("方案A(Redis 集中式缓存)", "hiring movers"). Its proper names, labels,
kin forms and category members become anchors (strong mentions); the distinctive words of a
description and the character pairs of a CJK name are kept for partial matches (`mentions`). What
the current decision shares with it identifies neither, so it is left out here, once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from detector.relapse.kin import categories_of, current_categories, kin_of, members_of
from detector.relapse.vocabulary import (
    CJK_RUN_RE,
    COMPOUND_HEADS,
    DOTTED_NAME_RE,
    KIND_END_RE,
    LABEL_RE,
    LATIN_TOKEN_RE,
    MIGRATION_FROM_RE,
    MODEL_NUMBER_RE,
    MODIFIERS,
    NAME_END,
    NEVER_NAMES,
    PART_SPLIT_RE,
    PLACE_RE,
    PRODUCT_TAILS,
    PURPOSE_RE,
    REPLACED_RE,
    STOP_WORDS,
    WEAK_BIGRAMS,
    WEAK_WORDS,
    WHOLE_NAMES,
    ZH_FUNCTION_RE,
    ZH_GENERIC_ENDINGS,
    ZH_INNER_VERB_RE,
    ZH_KIND_ENDS,
    ZH_LEAD_RE,
    ZH_LONE_VERBS,
    ZH_NUMERALS,
    ZH_PLACE_RE,
    ZH_SUFFIXES,
)
from detector.relapse.words import WEAK_STEMS, cjk_bigrams, plain_words
from detector.text import normalize, stem_of


@dataclass(frozen=True, slots=True)
class CjkName:
    """A CJK name without a dictionary: its distinctive character pairs, the pairs at its two
    ends (which are real words, unlike pairs straddling a word boundary), and the generic head it
    needs when it has one ("谷歌广告" is not mentioned by "谷歌搜索")."""

    pairs: frozenset[str]
    edges: frozenset[str]
    head: str
    triples: frozenset[str] = frozenset()  # three characters in a row: as good as the name


@dataclass(frozen=True, slots=True, eq=False)
class Names:
    """How one rejected alternative can be mentioned, compiled once (by `names_of`, cached, so
    one alternative has one `Names`: it hashes by identity, a cheap key for the guard's caches)."""

    anchors: NamePattern | None  # names, kin and label, matched on lower-cased text
    cased: NamePattern | None  # names that spell common words ("Go", "Swarm"): case must match
    cased_any: NamePattern | None  # the same, any case, for Chinese sentences
    kinds: NamePattern | None  # category phrases and sibling members ("a message broker", "Pulsar"): weak
    words: tuple[frozenset[str], ...]  # per descriptive part: Latin stems, half of which make a mention
    cjk: tuple[CjkName, ...]


@dataclass(slots=True)
class _Reading:
    """What reading an alternative's text has found so far, part by part."""

    shared: set[str]  # words and character pairs of the current decision
    anchors: set[str] = field(default_factory=set)
    cased: set[str] = field(default_factory=set)
    words: list[frozenset[str]] = field(default_factory=list)
    cjk: list[CjkName] = field(default_factory=list)
    singles: set[str] = field(default_factory=set)  # one-character CJK names ("狗" of "养狗")
    sources: list[str] = field(default_factory=list)  # where kin and category forms are looked for


@lru_cache(maxsize=4096)
def names_of(alternative: str, current: str, listed_with: str = "", also_called: tuple[str, ...] = ()) -> Names:
    """Compile how `alternative` can be mentioned; what it shares with the current decision
    ("wedding" of "Bali wedding" when "backyard wedding" is current) does not identify it.
    `also_called` are other names the user gave it, each read as one more part of its name.

    Nor does what it shares with the options offered beside it (`listed_with`, their summaries):
    that is the frame of the list ("东京" in three Tokyo itineraries, "weekend" in "Nashville
    weekend" and "Vegas weekend"), and a reply that proposes the next "cabin spa weekend" brings
    none of them back. An option whose every name its siblings share keeps them all, and one named by
    nothing but a generic word (WHOLE_NAMES: "手机", "缓存") is named by that word."""
    # "Option 2: RabbitMQ." keeps its full stop in the summary; as a token "RabbitMQ." named nothing.
    text = normalize(alternative).rstrip(" .。;,!")
    label_match = LABEL_RE.match(text)
    label = label_match.group("label") if label_match else None
    body = MIGRATION_FROM_RE.sub(" ", _name_part(text[label_match.end() :] if label_match else text))
    parts = [*PART_SPLIT_RE.split(body), *also_called]
    shared = plain_words(current) | cjk_bigrams(current)
    reading = _read(parts, shared | plain_words(listed_with) | cjk_bigrams(listed_with)) if listed_with else None
    if reading is None or not _names_anything(reading):
        reading = _read(parts, shared)
    if not _names_anything(reading) and (whole := body.strip()) in WHOLE_NAMES and whole not in shared:
        reading.anchors.add(whole)  # "手机" turned down is named by "手机秒表", generic word or not
    return _compiled(reading, current, label)


def _read(parts: list[str], shared: set[str]) -> _Reading:
    """What an alternative's parts say that is not among the `shared` words and pairs."""
    reading = _Reading(shared=shared)
    for part in (p.strip() for p in parts):
        if part:
            _read_part(part, reading)
    return reading


def _names_anything(reading: _Reading) -> bool:
    """Is any of what was read a name of the alternative's own, as `_compiled` will keep it?"""
    return bool(_naming(reading.anchors, reading.shared) or reading.cased or reading.words or reading.cjk)


def _naming(anchors: Iterable[str], shared: set[str]) -> set[str]:
    """The anchors that name an option: not weak words ("app", "plan"), nor words the current
    decision or the option's siblings share with it."""
    return {a for a in anchors if a not in WEAK_WORDS and a not in shared}


def current_core(current: str) -> str:
    """The current decision without what it says it replaces: in "本地 LRU（不用 Redis）" or "an
    in-process LRU instead of Redis", Redis is not part of the current decision."""
    return REPLACED_RE.sub(" ", MIGRATION_FROM_RE.sub(" ", normalize(current)))


def _read_part(part: str, reading: _Reading) -> None:
    """One part of an alternative ("Redis 集中式缓存", "hiring movers"): its proper names, or the
    words of its description, and its CJK names."""
    runs = _name_runs(part)
    proper = _proper_names(part, runs, reading.shared, reading.anchors, reading.cased)
    if proper:
        # "RTX 4090" against a current "RTX 3090": the model number is what tells them apart.
        reading.anchors.update(n.lower() for n in MODEL_NUMBER_RE.findall(part) if n.lower() not in reading.shared)
    kinless = _without_kind_ends(part)
    reading.sources += CJK_RUN_RE.findall(kinless)
    if not any(len(run) > 1 for run in runs):
        reading.sources.append(kinless.lower())  # "Excel macros" may bring in VBA; "AWS Secrets Manager" no AWS
    tokens = LATIN_TOKEN_RE.findall(part)
    if proper and _opened_by_a_verb(tokens, runs):
        opener = stem_of(tokens[0].lower())
        if opener not in reading.shared and opener not in WEAK_STEMS:
            reading.words.append(frozenset({opener}))
    if not proper:
        stems = _descriptive_stems(part, reading.shared)
        if stems:
            reading.words.append(stems)
        if len(part) >= 4 and any(w not in WEAK_WORDS for w in plain_words(part)):
            reading.anchors.add(part.lower())
    cores = _cjk_cores(part)
    for core in cores:
        _read_cjk(core, proper, reading, only_run=len(cores) == 1)


def _read_cjk(core: str, proper: bool, reading: _Reading, only_run: bool) -> None:
    """A CJK name: whole, it is an anchor (beside a proper name only when it is three characters
    or more: "Redis 集中式缓存"); alone, it is also matched in part ("起诉" of "法律途径起诉").

    One character names the option only when it is the part's only CJK run ("鱼" of "养鱼"): beside
    others it is a unit after a number or a verb cut off by one ("天" of "箱根 1 天", "期" of
    "按里程碑分5期", "招" of "先招 1 个 analytics manager"), and every reply has those."""
    shared = reading.shared
    if len(core) == 1:
        if core in ZH_LONE_VERBS or core in ZH_NUMERALS or ZH_FUNCTION_RE.fullmatch(core):
            return  # "做" between "API" and "zero-shot" names nothing, and every reply has one
        reading.singles.add(core)
        if only_run and not proper and core not in shared:
            reading.cjk.append(CjkName(frozenset({core}), frozenset({core}), ""))
    elif core not in WEAK_BIGRAMS and core not in shared and (len(core) >= 3 or not proper):
        reading.anchors.add(core)
        if len(core) == 3 and core[-1] in ZH_SUFFIXES and core[:2] not in WEAK_BIGRAMS | shared:
            reading.anchors.add(core[:2])  # "安卓版" is named by "安卓", "奶茶店" by "奶茶"
    if len(core) >= 3 and not proper:
        reading.cjk += [name for name in (_cjk_name(p, shared) for p in _pieces(core)) if name is not None]


def _without_kind_ends(part: str) -> str:
    """The part without the kinds that end its CJK names after what tells them apart: "莫干山民宿"
    is one 民宿, and its kin ("airbnb", "短租") and every other 民宿 do not bring it back."""
    return KIND_END_RE.sub("", part)


def _compiled(reading: _Reading, current: str, label: str | None) -> Names:
    """The patterns for what was read, with kin forms and category members as names and category
    phrases and sibling members as weak mentions, minus anything the current decision is too."""
    sources = tuple(reading.sources)
    names = frozenset(reading.anchors | {c.lower() for c in reading.cased})
    anchors = _naming(reading.anchors | kin_of(sources, names, reading.singles), reading.shared)
    excluded = current_categories(current)
    anchors |= members_of(sources, names) - excluded - reading.shared
    kinds = categories_of(sources, names | frozenset(anchors)) - excluded - anchors
    return Names(
        _anchor_pattern(frozenset(anchors), label),
        _anchor_pattern(frozenset(reading.cased), None),
        _anchor_pattern(frozenset(c.lower() for c in reading.cased), None),
        _anchor_pattern(frozenset(kinds), None),
        tuple(reading.words),
        tuple(reading.cjk),
    )


def _name_part(summary: str) -> str:
    """The name of an alternative, without the description after it: "Redis 集中式缓存，多实例共享，
    命中率高" is named by "Redis 集中式缓存", and replies talking about hit rates do not name it.
    A separator inside parentheses ("方案A(Redis，集中式)") does not end the name."""
    depth = 0
    for index, char in enumerate(summary):
        depth += char in "(（"
        depth -= char in ")）" and depth > 0
        if depth == 0 and char in NAME_END and index >= 2:
            return summary[:index]
    return summary


def _proper_names(part: str, runs: list[list[str]], shared: set[str], anchors: set[str], cased: set[str]) -> bool:
    """Add the part's proper names to `anchors`, or to `cased` when they spell a common word
    ("Go", "Swarm"); True when the part has one. "Docker Swarm" also names "Swarm", "React Native"
    never "React": the head of a compound product name is another product."""
    found = False
    for run in runs:  # `_name_runs(part)`
        lowered = [t.lower() for t in run]
        if len(run) == 1:
            word = lowered[0]
            if (word in NEVER_NAMES and not run[0].isupper()) or word in shared or (stem_of(word) in WEAK_STEMS and word not in STOP_WORDS):
                continue  # "App", "API": a kind of thing, capitalised
            (cased if word in STOP_WORDS else anchors).add(run[0] if word in STOP_WORDS else word)
            stem = DOTTED_NAME_RE.fullmatch(run[0])
            if stem and stem.group(1).lower() not in shared:
                cased.add(stem.group(1))  # "Next.js" is "Next" in a reply, capitalised
            found = True
            continue
        anchors.add(" ".join(lowered))
        found = True
        for token in _solo_names(run):
            # "GPT-4", "MongoDB" look like names in any case; "Swarm" only capitalised.
            word = token.lower()
            if word not in shared:
                (anchors if _looks_coined(token) else cased).add(word if _looks_coined(token) else token)
    return found


def _opened_by_a_verb(tokens: list[str], runs: list[list[str]]) -> bool:
    """Is the part's one capitalised word a verb that opens a list item ("Knock through to the
    dining room for a peninsula", "Move the cron to Lambda")? A reply says it in any form
    ("knocking through"), so its stem names the option too. What follows it tells a verb from a
    name: a particle or an article ("Needs analysis write-up", "French drain", "Bank feed
    integration" open with names, and "need", "drainage" or "Open Banking" name none of them)."""
    return (
        len(runs) == 1
        and runs[0] == tokens[:1]
        and len(tokens) > 2
        and tokens[0].istitle()
        and tokens[1].lower() in _AFTER_A_VERB
    )


_AFTER_A_VERB = frozenset("the a an through up out off down back over away in into on onto to it them everything all".split())


def _solo_names(run: list[str]) -> list[str]:
    """Which words of a multi-word name name it alone: the product after a vendor ("Apache
    Kafka" → "Kafka", "Docker Swarm" → "Swarm"), the name before generic words ("Redis Cache" →
    "Redis") or before the words a product's full name ends in ("Datadog Logs", "Mendeley Reference
    Manager"), and coined words ("GPT-4 API" → "GPT-4"). "Great Expectations" or "AWS Secrets
    Manager" have none: "Expectations" or "Secrets" alone are other things, and "CS" alone is a
    field, not "MS CS"."""
    lowered = [t.lower() for t in run]
    generic = [stem_of(w) in WEAK_STEMS for w in lowered]
    if lowered[0] in COMPOUND_HEADS and len(run) == 2 and not generic[1]:
        return [run[1]]
    if not generic[0] and lowered[0] not in COMPOUND_HEADS and all(generic[1:]):
        return [run[0]]
    if lowered[-1] in PRODUCT_TAILS and not _ordinary_word(lowered[0]) and lowered[0] not in COMPOUND_HEADS:
        return [run[0]]
    # Not a two-letter acronym of a field or a role ("CS" of "美国 top30 MS CS", "IT", "UI"): many
    # things share those; "S3" or "K8s" name one.
    return [t for t, w in zip(run, lowered) if _looks_coined(t) and w not in COMPOUND_HEADS and (len(t) > 2 or not t.isalpha())]


def _looks_coined(token: str) -> bool:
    """Inner capitals or digits ("MongoDB", "GPT-4", "k8s"): no English word looks like that."""
    return any(c.isdigit() for c in token) or any(c.isupper() for c in token[1:])


def _name_runs(part: str) -> list[list[str]]:
    """The part's proper names as runs of capitalised tokens; Chinese between two tokens ends a
    run: "用 Airflow 建一个 DAG" names Airflow and a DAG, not an "Airflow DAG" that a reply saying
    "搭一个轻量的 Airflow" never names. Not Chinese that ends in 的, which makes the first name a
    modifier of the second: "用了 Safari 不支持的 JS 语法" is about JS syntax, and a reply on the
    Safari bug the conversation is about does not name it by "Safari"."""
    breaks = [match for match in CJK_RUN_RE.finditer(part) if not match.group().endswith("的")]
    starts = [0] + [match.end() for match in breaks]
    ends = [match.start() for match in breaks] + [len(part)]
    has_cjk = bool(CJK_RUN_RE.search(part))
    return [run for start, end in zip(starts, ends) for run in _capital_runs(LATIN_TOKEN_RE.findall(part[start:end]), has_cjk)]


def _capital_runs(tokens: list[str], has_cjk: bool) -> list[list[str]]:
    """Runs of capitalised tokens: one proper name each. A capital that only opens an English
    phrase ("Hiring movers") makes no name; inside Chinese text every capital does ("换成 Go")."""
    runs: list[list[str]] = []
    previous = -2
    for index, token in enumerate(tokens):
        if token.islower() or len(token) < 2:
            continue
        opens_phrase = index == 0 and token.istitle() and len(tokens) > 1
        if opens_phrase and not has_cjk and _ordinary_word(token.lower()):
            continue
        if index == previous + 1 and runs:
            runs[-1].append(token)
        else:
            runs.append([token])
        previous = index
    return runs


def _ordinary_word(word: str) -> bool:
    """A word that starts an English phrase with a capital without being a name ("Hiring",
    "Deep", "Hot"); "Redis cache" keeps "Redis"."""
    return (
        word in STOP_WORDS
        or stem_of(word) in WEAK_STEMS
        or word in MODIFIERS
        or word.endswith(("ing", "ed", "ly", "al", "ive", "ous", "ful", "able", "ic"))
    )


def _descriptive_stems(part: str, shared: set[str]) -> frozenset[str]:
    """The stems of a descriptive part's distinctive words ("movers" of "hiring movers"), up to a
    purpose phrase ("grid search for hyperparameters", "a sweepstakes to attract new users") and,
    when something is left before it, a place ("fruit trees in the backyard")."""
    stems = set()
    head = PURPOSE_RE.split(part, maxsplit=1)[0]
    placed = PLACE_RE.split(head, maxsplit=1)[0]
    tokens = LATIN_TOKEN_RE.findall(placed if plain_words(placed) - WEAK_WORDS else head)
    if len(tokens) > 1 and tokens[0].lower().endswith("ing"):
        tokens = tokens[1:]  # "planting fruit trees": the trees are the option
    for token in tokens:
        word = token.lower()
        if word in STOP_WORDS or word in NEVER_NAMES or word in shared or len(word) <= 2:
            continue
        if stem_of(word) not in WEAK_STEMS:
            stems.add(stem_of(word))
    return frozenset(stems)


def _cjk_cores(part: str) -> list[str]:
    """CJK runs of the part without the light verb in front ("办健身房年卡" → "健身房年卡") and a
    count word at the end: "建一个" between "Airflow" and "DAG" names nothing, and every reply
    that builds something ("在帆软里建一个周报模板") said it."""
    cores = []
    for run in CJK_RUN_RE.findall(part):
        lead = ZH_LEAD_RE.match(run)
        core = run[lead.end() :] if lead and len(run) - lead.end() >= 1 else run
        counted = _COUNT_TAIL_RE.search(core)
        cores.append(core[: counted.start()] if counted and counted.start() > 0 else core)
    return cores


_COUNT_TAIL_RE = re.compile("[一两几这那][个套台层种条家只份次件]$")


def _pieces(core: str) -> list[str]:
    """The name, and for a long one the pieces between the verbs inside it, places dropped:
    "大促当天发短信提醒" → also "短信提醒"; "在客厅做投影墙" → also "投影墙", not "在客厅"."""
    if len(core) < 6:
        return [core]
    pieces = [p for p in ZH_INNER_VERB_RE.split(core) if len(p) >= 2 and not ZH_PLACE_RE.search(p)]
    return [core] + [p for p in pieces if p != core]


def _cjk_name(core: str, shared: set[str]) -> CjkName | None:
    """Pairs that hold a function character ("的账号" of "…过的账号…") name nothing."""
    pairs = frozenset(p for p in cjk_bigrams(core) - WEAK_BIGRAMS - shared if not ZH_FUNCTION_RE.search(p))
    if not pairs:
        return None
    head = core[-2:] if core[-2:] in WEAK_BIGRAMS or core[-2:] in shared else ""
    triples = frozenset(
        core[i : i + 3] for i in range(len(core) - 2) if {core[i : i + 2], core[i + 1 : i + 3]} <= pairs
    )
    ends = {core[:2]} | ({core[-2:]} if len(core) < 4 or core[-2:] not in ZH_KIND_ENDS else set())
    if len(core) >= 4 and core[-1] in ZH_GENERIC_ENDINGS:
        ends.add(core[-3:-1])  # "会员订阅制" ends in a word, "订阅", before its "-制"
    edges = frozenset(ends) & pairs
    return CjkName(pairs, edges, head, triples if len(core) > 3 else frozenset())


def _pieces_of(form: str) -> list[str]:
    return re.split(r"[\s\-]+", form.strip())


def _literal(form: str) -> str:
    """A form as a regex: its words in order, with a space, a hyphen, an underscore, an ampersand
    or nothing between them ("celery beat" in "django_celery_beat", "Hearth & Harvest")."""
    return r"(?:\s?[&+]\s?|[\s\-_])?".join(re.escape(piece) for piece in _pieces_of(form))


class NamePattern:
    """A names pattern, compiled when a text first holds one of its names' opening words.

    Every form the pattern matches starts with one of those words as written, so a text without
    any of them cannot match. Most replies name none of a rejected option's forms, and a scan
    compiled a pattern or four per rejected option, about a tenth of its time.
    """

    __slots__ = ("_openings", "_regex", "pattern")

    def __init__(self, pattern: str, openings: frozenset[str]) -> None:
        self.pattern = pattern
        self._openings = openings
        self._regex: re.Pattern[str] | None = None

    def may_match(self, text: str) -> bool:
        """Does the text hold one of the names' opening words (without which no form matches)?"""
        return any(opening in text for opening in self._openings)

    def _regex_for(self, text: str) -> re.Pattern[str] | None:
        if not self.may_match(text):
            return None
        if self._regex is None:
            self._regex = re.compile(self.pattern)
        return self._regex

    def search(self, text: str) -> re.Match[str] | None:
        regex = self._regex_for(text)
        return regex.search(text) if regex is not None else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        regex = self._regex_for(text)
        return regex.finditer(text) if regex is not None else iter(())


# Names this long or longer count inside a snake_case identifier.
_IDENTIFIER_PART = 4


@lru_cache(maxsize=4096)
def _anchor_pattern(anchors: frozenset[str], label: str | None) -> NamePattern | None:
    """One pattern for all of an alternative's names, longest first: Latin ones on word
    boundaries (a plural allowed), CJK ones anywhere (CJK text has no word boundaries). A label
    counts unless it is being defined anew ("方案A：…" opens a new list, where A may be something
    else).

    Cached by the names themselves, apart from `names_of`: when the current decision changes,
    every rejected option is read again, mostly to the same names, and compiling them was most
    of that work. The pattern compiles when a text first holds one of the names' opening words
    (`NamePattern`)."""
    # Longest first, then alphabetical: a set's order varies with the hash seed, and the pattern
    # (so the text a mention covers) must not.
    latin = sorted((a for a in anchors if a[:1].isascii()), key=lambda a: (-len(a), a))
    other = sorted((a for a in anchors if a and not a[:1].isascii()), key=lambda a: (-len(a), a))
    pieces = []
    forms = [*latin, *other, *([label.lower()] if label else [])]
    # A short name inside an identifier is no mention: "dbt_run_log" does not name dbt. A longer
    # one is one part of it: "flutter_riverpod" and "order_grpc.go" bring back Riverpod and gRPC.
    long_names = [a for a in latin if len(a) >= _IDENTIFIER_PART]
    short_names = [a for a in latin if len(a) < _IDENTIFIER_PART]
    if long_names:
        names = "|".join(_literal(a) for a in long_names)
        pieces.append(rf"(?<![A-Za-z0-9])(?:{names})(?:s|es|'s)?(?![A-Za-z0-9])")
    if short_names:
        names = "|".join(_literal(a) for a in short_names)
        pieces.append(rf"(?<![A-Za-z0-9_])(?:{names})(?:s|es|'s)?(?![A-Za-z0-9_])")
    pieces += [_literal(a) for a in other]
    if label:
        pieces.append(rf"(?<![A-Za-z0-9]){_literal(label.lower())}(?![A-Za-z0-9])(?!\s?[:：.)）])")
    return NamePattern("|".join(pieces), frozenset(_pieces_of(form)[0] for form in forms)) if pieces else None
