"""Which kin groups and categories of the lexicon an alternative belongs to.

Looked up with sets of stems and plain substring tests, not regexes: the hook runs in a fresh
process, where compiling a pattern per form would cost more than the whole check. The forms' lookup
keys are computed once, at import.
"""

from __future__ import annotations

from functools import lru_cache

from detector.relapse.vocabulary import CATEGORIES, KIN_GROUPS, LATIN_TOKEN_RE, LATIN_WORD_RE
from detector.relapse.words import stem_of


def kin_of(sources: tuple[str, ...], names: frozenset[str], single_cores: set[str]) -> set[str]:
    """Forms of every kin group one of whose forms the alternative's names or descriptions
    contain, word by word ("单独做一个 App" holds both words of "单独 app"). Proper names count
    whole only: "AWS Secrets Manager" brings in no AWS kin. A one-character form ("狗") counts
    only when it is the whole name ("养狗"), not a word inside another ("把猫送去寄养")."""
    kin: set[str] = set()
    for group in KIN_GROUPS:
        if any(form in names or _has_form(sources, form, single_cores) for form in group):
            kin.update(group)
    return kin


def categories_of(sources: tuple[str, ...], names: frozenset[str]) -> set[str]:
    """The category phrases of every category one of whose members names the alternative, and the
    other members ("Remix" for a rejected Next.js, "Dagster" for Airflow): a sibling product brings
    the same kind of option back."""
    forms: set[str] = set()
    for category, members in CATEGORIES:
        if any(member in names or _has_form(sources, member, set()) for member in members):
            forms.update(category + members)
    return forms


def members_of(sources: tuple[str, ...], names: frozenset[str]) -> set[str]:
    """When the alternative is a category ("消息队列", "a document database"), its members name
    it: "上一个 Kafka" re-proposes a rejected "消息队列"."""
    members: set[str] = set()
    for category, category_members in CATEGORIES:
        if any(phrase in names or _has_form(sources, phrase, set()) for phrase in category):
            members.update(category_members)
    return members


@lru_cache(maxsize=1024)
def current_categories(current: str) -> frozenset[str]:
    """The category phrases and members that fit the current decision too: they name neither."""
    lowered = current.lower()
    phrases: set[str] = set()
    for category, members in CATEGORIES:
        if any(_has_form((lowered,), form, set()) for form in members + category):
            phrases.update(category + members)
    return frozenset(phrases)


def _has_form(sources: tuple[str, ...], form: str, single_cores: set[str]) -> bool:
    """Does every word of `form` occur in the sources (a Latin word by stem, anything else as
    text)? Sets, not regexes: the hook runs in a fresh process, where compiling a pattern per form
    would cost more than the whole check."""
    if len(form) == 1:
        return form in single_cores
    stems, text = _source_index(sources)
    return all(key in stems if latin else key in text for latin, key in _form_keys(form))


@lru_cache(maxsize=2048)
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


def _warm_form_keys() -> None:
    """Every kin and category form's lookup keys, once per process at import: a cold check in a
    fresh hook process then spends its time on the reply, not on the lexicon."""
    for group in KIN_GROUPS + tuple(phrases + members for phrases, members in CATEGORIES):
        for form in group:
            _form_keys(form)


_warm_form_keys()
