"""Which tracked alternative a user's words refer to, and how.

"那 Yjs", "FCM 在国内基本用不了", "香格里拉去不了", "Kafka 和 RabbitMQ 都不要", "ok lvp then, not
hardwood": a turn names an option by its label, a word of its name, a short name it gave in
brackets, one stop of a route, or a list under one verdict; or it only points ("这个", "that").
The tracker asks these questions of every turn; they read the alternatives and the text only,
never the store, so each answers from what it is given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from detector.alternatives import (
    Proposal,
    best_overlap,
    content_keys,
    extract_proposals,
    is_deictic,
    is_route,
    label_mentions,
    parts_of,
    proposal_by_label,
    sole_container,
)
from detector.groups import group_reference, offered_lists
from detector.mentions import mention, named_together, names_a_word_of
from detector.schema import Alternative, ConvergenceState
from detector.text import LATIN_NAME, LATIN_NAME_RE, ends_as_question, squeeze

# Words that point at something said before instead of naming it.
_POINTER_RE = re.compile(
    r"这个|那个|这种|那种|这样|那样|这套|那套|这条|那条|这块|那块|它|现在的|目前的|当前的"
    r"|\b(?:this|that|it|these|those|current|the plan|what we have|so far)\b",
    re.IGNORECASE,
)


# One thing set against another in a clause of its own: a choice ("ok lvp then, not hardwood",
# "plated, not buffet") or a correction ("its harlan community foundation, not harlan county
# foundation").
_SET_AGAINST_RE = re.compile(
    r"(?:^|(?<=[.;:!?\n]))\s{0,2}(?P<taken>[^,.;:!?\n]{1,60}?)(?:\s+then)?,\s?not\s(?:the\s|a\s|an\s)?"
    r"(?P<other>[^,.;:!?\n]{2,60}?)\s?(?=[,.;:!?\n]|$)",
    re.IGNORECASE,
)


def proposal_of(alternative: Alternative) -> Proposal:
    """The alternative as a proposal, for the label and overlap lookups of alternatives.py."""
    return Proposal(alternative.label, alternative.summary)


def proposals_of(alternatives: Sequence[Alternative]) -> list[Proposal]:
    """The alternatives as proposals, in order."""
    return [proposal_of(a) for a in alternatives]


def tracked_by_label(proposal: Proposal, alternatives: Sequence[Alternative]) -> bool:
    """Does a proposal open with the label of an option tracked before its turn? "这个规模我推荐方案A
    Redux Toolkit", a turn after the list that held 方案A, recommends that option: read as a new
    one, it stayed an open question after the user turned 方案A down. Only the opening counts: a
    list item that ends "…。我倾向方案二" is an option of its own."""
    named = [mention for mention in label_mentions(proposal.summary) if len(mention) > 1]
    return bool(named) and proposal.summary.startswith(named[0]) and proposal_by_label(named[0], proposals_of(alternatives), by_position=False) is not None


def speaks_of(reply: str, alternative: Alternative) -> bool:
    """Does the reply name the alternative by a word of its own ("The Legion comes with…" of "a
    Lenovo Legion with an RTX 4070", "好的，住南山" of "住南山，离深圳湾公园近")?"""
    return bool(content_keys(reply) & content_keys(f"{alternative.label} {alternative.summary}"))


def only_speaks_of(reply: str, alternative: Alternative) -> bool:
    """Does the reply speak of the alternative and put nothing else forward: no option of its own,
    no offer or question at its end ("要不要我按预算列几家？", "want me to convert them as
    well?"), which a short "不用了" or "no" answers instead?"""
    return speaks_of(reply, alternative) and not ends_as_question(reply) and not extract_proposals(reply)


def offered_in(reply: str, choice: str) -> bool:
    """Did the reply name this choice, word for word (whole words: "sql" is not in "PostgreSQL")?
    Only then is a choice nothing listed an option."""
    choice = choice.strip()
    if len(choice) < 2 or is_deictic(choice):
        return False
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(choice)}(?![A-Za-z0-9])", reply, re.IGNORECASE) is not None


def named_besides(text: str, target: Alternative, alternatives: Sequence[Alternative]) -> Alternative | None:
    """The alternative the text names by words other than the rejected target's: in "scrap the
    redis cache idea", "cache" names the target, not the "in-process LRU cache"."""
    chosen = best_overlapping(text, alternatives)
    if chosen is None:
        return None
    beyond_target = content_keys(text) - content_keys(f"{target.label} {target.summary}")
    return chosen if content_keys(f"{chosen.label} {chosen.summary}") & beyond_target else None


def naming_words(reference: str | None) -> str | None:
    """The words a reference names something by, or None when it only points ("这个"). "那 Yjs" is
    a name behind the pointer the detector's span kept, not a pointer."""
    if not reference:
        return None
    latin_name = _ONE_LATIN_NAME_RE.fullmatch(reference.strip())
    if latin_name is not None:
        return latin_name.group("word")
    return None if is_deictic(reference) else reference


# One Latin word, perhaps after a pointer the detector's span kept ("那 Yjs").
_ONE_LATIN_NAME_RE = re.compile(rf"(?:那个|这个|那|这)?\s?(?P<word>{LATIN_NAME})")


def bracketed_short_name(reference: str, proposals: Sequence[Proposal]) -> Proposal | None:
    """The one option that gives the reference in brackets as its short name: "FCM 在国内基本用不了"
    turns down "Firebase Cloud Messaging (FCM)", whose name shares no word with it. Only that: a
    short name the option's words merely hold ("balloon" of "A hot air balloon ride…") stays an
    entry of its own, as binding it cost dev reopenings a later short reference no longer found."""
    named = _ONE_LATIN_NAME_RE.fullmatch(reference.strip())
    if named is None:
        return None
    word = named.group("word").lower()
    holding = [proposal for proposal in proposals if word in bracketed_names(proposal.summary)]
    return holding[0] if len(holding) == 1 else None


def short_name_said(text: str, alternatives: Sequence[Alternative]) -> Alternative | None:
    """The one alternative whose bracketed short name the turn says as a word ("ok, redis is back"
    brings back "Managed Key Value store (Redis) for the job queue"), the way a rejection may have
    named it."""
    said = {word.lower() for word in LATIN_NAME_RE.findall(text)}
    holding = [a for a in alternatives if said & bracketed_names(a.summary)]
    return holding[0] if len(holding) == 1 else None


# A short name an option gives in brackets: "Firebase Cloud Messaging (FCM)", "CRDT (Yjs / Automerge)".
_BRACKETED_NAME_RE = re.compile(r"[(（]\s?([A-Za-z][A-Za-z0-9.+#\-]{1,29})\s?[)）,，/]")



def bracketed_names(summary: str) -> set[str]:
    return {name.lower() for name in _BRACKETED_NAME_RE.findall(summary)}


def neither_names_nor_points_at(text: str, alternative: Alternative) -> bool:
    """Does the turn leave the alternative unnamed and point at nothing ("这个", "that", "it")?"""
    return not names_option(text, alternative) and not _POINTER_RE.search(text)


def names_option(text: str, alternative: Alternative) -> bool:
    """Does the turn name the alternative: its name, its label, or a word of its name ("那一对一先停
    了" names "请一对一")?"""
    proposal = proposal_of(alternative)
    return mention(text, proposal) is not None or bool(content_keys(text) & content_keys(proposal.name))


def set_against(text: str) -> list[tuple[str, str]]:
    """Each "X, not Y" of the turn, as (X, Y)."""
    return [(match.group("taken"), match.group("other")) for match in _SET_AGAINST_RE.finditer(text)]


def corrects(right: str, wrong: str) -> bool:
    """Is "right, not wrong" a fact put right, not one option set against another? Its two sides
    share a word ("harlan community foundation, not harlan county foundation"), where "go with
    postgres, not mongo" does not."""
    return bool(content_keys(right) & content_keys(wrong))


def in_a_correction(text: str, reference: str | None) -> bool:
    """Is the reference in what the turn corrects?"""
    if not reference:
        return False
    return any(reference.lower() in wrong.lower() and corrects(right, wrong) for right, wrong in set_against(text))


def holds_a_word_of(text: str, reference: str | None) -> bool:
    """Does the turn hold a word of the detector's target? When not, the target is the detector's
    guess from the turns before (the latest proposal), not what the turn names."""
    return reference is not None and bool(content_keys(text) & content_keys(reference))


def names_a_part_of(reference: str | None, alternative: Alternative) -> bool:
    """Does the reference name only a part of an option made of several ("Metabase" of "Postgres
    with TimescaleDB and Metabase"): neither its label nor most of its name?"""
    if reference is None or is_deictic(reference):
        return False
    proposal = proposal_of(alternative)
    if proposal_by_label(reference, [proposal], by_position=False) is not None:
        return False
    name = content_keys(proposal.name) or content_keys(proposal.summary)
    shared = content_keys(reference) & name
    return len(name) >= 3 and 0 < len(shared) < len(name) / 2


def approved(state: ConvergenceState, words: str) -> Alternative | None:
    """The option a turn approves by name ("等级制可以，不过…"): by its label, or the one option
    whose name holds every word said. Not the option with most words in common: "dark mode 可以"
    approved "做 offline mode", and "Segment 结果没问题" (a finding) the option of a segment analysis."""
    proposals = proposals_of(state.alternatives)
    chosen = proposal_by_label(words, proposals, by_position=False) or sole_container(words, proposals)
    return state.alternatives[proposals.index(chosen)] if chosen is not None else None


def part_named(reference: str | None, alternative: Alternative) -> str | None:
    """The one item of an option made of several that the reference names and mostly is
    ("香格里拉" of "… → 香格里拉 2 天"), or None: the option is not a list, the reference spans
    several items or names the whole, or it is a word of an item rather than the item ("Kafka" of
    "Kafka on MSK with three brokers and ZooKeeper")."""
    if reference is None or is_deictic(reference):
        return None
    parts = parts_of(alternative.summary)
    wanted = squeeze(reference)
    holding = [part for part in parts if wanted and wanted in squeeze(part)]
    if len(parts) < 2 or len(holding) != 1 or 2 * len(wanted) < len(squeeze(holding[0])):
        return None
    return holding[0].strip()


def part_said(text: str, alternative: Alternative) -> str | None:
    """The one stop of a route that the turn says, when it names the route by neither label nor
    any other stop ("香格里拉去不了" of 路线一 "昆明—大理—丽江—香格里拉"): target resolution, which ranks
    whole options first, took the whole route. Only a route (stops joined by → or a dash): the
    labels read a complaint about one part of a plan ("鸡胸肉…吃不下去" of "鸡胸肉+西兰花+糙米") as
    rejecting the plan."""
    if not is_route(alternative.summary) or proposal_by_label(text, [proposal_of(alternative)], by_position=False):
        return None
    said = squeeze(text)
    named = [part for part in parts_of(alternative.summary) if (key := squeeze(part)) and key in said]
    return part_named(named[0], alternative) if len(named) == 1 else None


def listed_with(text: str, target: Alternative, alternatives: Sequence[Alternative]) -> list[Alternative]:
    """The options still on the table that the turn lists with the target under its one verdict
    ("Kafka 和 RabbitMQ 都不要"): they are rejected with it."""
    open_ = [a for a in alternatives if a.status in ("proposed", "current", "reopened") and a.id != target.id]
    proposals = proposals_of(open_)
    together = named_together(text, proposal_of(target), proposals)
    return [a for a, proposal in zip(open_, proposals) if proposal in together]


def group_in(state: ConvergenceState, text: str) -> tuple[list[Alternative], list[Alternative]]:
    """The options of the latest list the assistant offered that the turn's verdict covers as a
    group, and the ones it spares (`group_reference`)."""
    lists = offered_lists(state.alternatives)
    group = group_reference(text, proposals_of(lists[-1])) if lists else None
    if group is None:
        return [], []
    return [lists[-1][i] for i in group.covered], [lists[-1][i] for i in group.spared]


def sole_holder(reference: str | None, alternatives: Sequence[Alternative]) -> Alternative | None:
    """The one alternative whose name holds every word of the reference (`sole_container`)."""
    if not reference or is_deictic(reference):
        return None
    return alternative_of(sole_container(reference, proposals_of(alternatives)), alternatives)


def sole_held(reference: str | None, alternatives: Sequence[Alternative]) -> Alternative | None:
    """The one alternative whose every name word the reference holds ("React" of the reopened
    "Option 1(React + shadcn/ui)"): the short form a rejection recorded it by."""
    if not reference or is_deictic(reference):
        return None
    said = content_keys(reference)
    held = [a for a in alternatives if (keys := content_keys(proposal_of(a).name)) and keys <= said]
    return held[0] if len(held) == 1 else None


def sole_named_by_a_word(text: str, alternatives: Sequence[Alternative]) -> Alternative | None:
    """The one alternative the text names by a word of its Chinese name ("…再做直播" of "抖音直播首发"),
    a small share of the name, which `best_overlapping` passes over."""
    named = [a for a in alternatives if names_a_word_of(text, proposal_of(a))]
    return named[0] if len(named) == 1 else None


def best_overlapping(text: str, alternatives: Sequence[Alternative]) -> Alternative | None:
    """The alternative whose name the text shares the most words with (`best_overlap`)."""
    return alternative_of(best_overlap(text, proposals_of(alternatives)), alternatives)


def alternative_of(found: Proposal | None, alternatives: Sequence[Alternative]) -> Alternative | None:
    """The alternative a lookup over their proposals (`proposals_of`) found."""
    return next((a for a in alternatives if found is not None and a.summary == found.summary), None)
