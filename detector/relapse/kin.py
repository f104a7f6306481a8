"""Which kin groups and categories of the lexicon an alternative belongs to.

Looked up with sets of stems and plain substring tests, not regexes: the hook runs in a fresh
process, where compiling a pattern per form would cost more than the whole check. The forms' lookup
keys are computed once, at import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from detector.relapse.vocabulary import CATEGORIES, KIN_GROUPS, LATIN_TOKEN_RE, LATIN_WORD_RE
from detector.text import stem_of


def kin_of(sources: tuple[str, ...], names: frozenset[str], single_cores: set[str]) -> set[str]:
    """Forms of every kin group one of whose forms the alternative's names or descriptions
    contain, word by word ("单独做一个 App" holds both words of "单独 app"). Proper names count
    whole only: "AWS Secrets Manager" brings in no AWS kin. A one-character form ("狗") counts
    only when it is the whole name ("养狗"), not a word inside another ("把猫送去寄养")."""
    found = _present_forms(sources, frozenset(single_cores)) | names
    return {form for index in _groups_with(found, _KIN_GROUPS_OF) for form in KIN_GROUPS[index]}


def categories_of(sources: tuple[str, ...], names: frozenset[str]) -> set[str]:
    """The category phrases of every category one of whose members names the alternative, and the
    other members ("Remix" for a rejected Next.js, "Dagster" for Airflow): a sibling product brings
    the same kind of option back."""
    found = _present_forms(sources, frozenset()) | names
    return {form for index in _groups_with(found, _CATEGORY_OF_MEMBER) for form in sum(CATEGORIES[index], ())}


def members_of(sources: tuple[str, ...], names: frozenset[str]) -> set[str]:
    """When the alternative is a category ("消息队列", "a document database"), its members name
    it: "上一个 Kafka" re-proposes a rejected "消息队列"."""
    found = _present_forms(sources, frozenset()) | names
    return {member for index in _groups_with(found, _CATEGORY_OF_PHRASE) for member in CATEGORIES[index][1]}


def short_name_for(name: str, text: str) -> bool:
    """Is `name`, whole, a short form of a product that `text` calls by the first name of a kin
    group? "ES" of "move search to Elasticsearch", "k8s" of "部署到 Kubernetes", "mongo" of
    "MongoDB"; not "EventStoreDB" of "event sourcing" (a product for a technique, kin but not the
    same thing), nor "DynamoDB" of "S3 + Parquet" (the AWS group)."""
    name = name.strip().lower()
    heads = {KIN_GROUPS[index][0] for index in _KIN_GROUPS_OF.get(name, ())}
    heads = {head for head in heads if _abbreviates(name, head)}
    return bool(heads) and bool(heads & _present_forms((text.lower(),), frozenset()))


def same_kin(one: str, other: str) -> bool:
    """Are the two names, each whole, forms of one kin group ("k8s" and "k3s", "Redis" and "Valkey")?"""
    groups = _KIN_GROUPS_OF.get(one.strip().lower(), ())
    return bool(groups) and not set(groups).isdisjoint(_KIN_GROUPS_OF.get(other.strip().lower(), ()))


def _abbreviates(short: str, full: str) -> bool:
    """Does `short` abbreviate `full`: its prefix ("mongo"), its letters in order from the first
    and at most half as many ("es", "pg", "rn"), or a numeronym ("k8s" for "kubernetes")?"""
    full = full.replace(" ", "")
    if len(short) >= len(full) or not short or short[0] != full[0]:
        return False
    if full.startswith(short):
        return True
    if short[1:-1].isdigit():
        return short[-1] == full[-1] and int(short[1:-1]) == len(full) - 2
    letters = iter(full)
    return 2 * len(short) <= len(full) and all(char in letters for char in short)


@lru_cache(maxsize=1024)
def current_categories(current: str) -> frozenset[str]:
    """The category phrases and members that fit the current decision too: they name neither."""
    found = _present_forms((current.lower(),), frozenset())
    indices = _groups_with(found, _CATEGORY_OF_MEMBER) | _groups_with(found, _CATEGORY_OF_PHRASE)
    return frozenset(form for index in indices for form in sum(CATEGORIES[index], ()))


def _has_form(sources: tuple[str, ...], form: str, single_cores: set[str]) -> bool:
    """Does every word of `form` occur in the sources (a Latin word by stem, anything else as
    text)? Sets, not regexes: the hook runs in a fresh process, where compiling a pattern per form
    would cost more than the whole check."""
    if len(form) == 1:
        return form in single_cores
    stems, text = _source_index(sources)
    return all(key in stems if latin else key in text for latin, key in _form_keys(form))


@lru_cache(maxsize=8192)  # above the lexicon's 3,000 forms, which `_warm_form_keys` fills it with
def _form_keys(form: str) -> tuple[tuple[bool, str], ...]:
    """A form's words as lookup keys: (True, stem) for a Latin word, (False, text) otherwise."""
    return tuple(
        (True, stem_of(piece)) if LATIN_WORD_RE.fullmatch(piece) else (False, piece) for piece in form.split()
    )


@lru_cache(maxsize=4096)
def _source_index(sources: tuple[str, ...]) -> tuple[frozenset[str], str]:
    """The stems of the sources' Latin words (hyphenated ones also by piece) and their text."""
    stems = set()
    for token in LATIN_TOKEN_RE.findall(" ".join(sources)):
        stems.add(stem_of(token))
        stems.update(stem_of(piece) for piece in token.split("-") if piece)
    return frozenset(stems), " ".join(sources)


def _groups_with(forms: frozenset[str], groups_of: dict[str, tuple[int, ...]]) -> set[int]:
    return {index for form in forms for index in groups_of.get(form, ())}


def _entry_key(form: str) -> str:
    """The key a form is indexed under: one of its Latin stems when it has one (a set lookup),
    else the first two characters of its first piece (looked up among the text's pairs)."""
    keys = _form_keys(form)
    latin = [key for is_latin, key in keys if is_latin]
    return "L" + latin[0] if latin else "T" + keys[0][1][:2]


def _source_entries(sources: tuple[str, ...]) -> set[str]:
    stems, text = _source_index(sources)
    return {"L" + stem for stem in stems} | {"T" + text[i : i + n] for n in (1, 2) for i in range(len(text))}


@lru_cache(maxsize=4096)
def _present_forms(sources: tuple[str, ...], single_cores: frozenset[str]) -> frozenset[str]:
    """Every lexicon form the sources contain (`_has_form`), found through the index of forms by
    one of their words instead of testing all thousand forms one by one."""
    candidates = {form for entry in _source_entries(sources) for form in _FORMS_BY_ENTRY.get(entry, ())}
    return frozenset({form for form in candidates if _has_form(sources, form, set())} | (_SINGLE_FORMS & single_cores))


def _index_of_groups(groups: Iterable[tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
    """Form → the indices of the groups it belongs to."""
    index: dict[str, list[int]] = {}
    for position, group in enumerate(groups):
        for form in group:
            index.setdefault(form, []).append(position)
    return {form: tuple(positions) for form, positions in index.items()}


def _grouped_by(forms: Iterable[str], key: Callable[[str], str]) -> dict[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for form in forms:
        grouped.setdefault(key(form), []).append(form)
    return {entry: tuple(members) for entry, members in grouped.items()}


def _warm_form_keys() -> None:
    """Every kin and category form's lookup keys, once per process at import: a cold check in a
    fresh hook process then spends its time on the reply, not on the lexicon."""
    for group in KIN_GROUPS + tuple(phrases + members for phrases, members in CATEGORIES):
        for form in group:
            _form_keys(form)


_warm_form_keys()
_KIN_GROUPS_OF = _index_of_groups(KIN_GROUPS)
_CATEGORY_OF_MEMBER = _index_of_groups(members for _, members in CATEGORIES)
_CATEGORY_OF_PHRASE = _index_of_groups(phrases for phrases, _ in CATEGORIES)
_ALL_FORMS = frozenset(_KIN_GROUPS_OF) | frozenset(_CATEGORY_OF_MEMBER) | frozenset(_CATEGORY_OF_PHRASE)
_SINGLE_FORMS = frozenset(form for form in _ALL_FORMS if len(form) == 1)
_FORMS_BY_ENTRY = _grouped_by(sorted(_ALL_FORMS - _SINGLE_FORMS), _entry_key)
