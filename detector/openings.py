"""The clause a verdict sits in: which listed option it opens (or closes) with, where it opens
and ends, and whether the verdict stands there.

"retry decorator please" opens with option 1's "retry decorator", "我觉得 Redis 方案就别弄了"
closes with 方案A's "Redis": a verdict's object names what it is about by its first words, or by
its last when the verb comes after. A verdict held back (guarded as a cue would be, conditional,
or asked: `held_back`) is none. The fusion's rules read these (prohibitions.py, reverts.py,
hypotheses.py), and the classifier's context column reads a turn that opens with an option
("泡馍得单独熬汤，我店才15平"): the model sees the words of the turn and of the reply, not that one
starts with the other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice

from detector.alternatives import Proposal, content_keys, proposal_by_label

# Where a clause ends: the object runs to here, and a guard word only counts inside the sentence.
CLAUSE_END_RE = re.compile(r"[,，;；。.!！?？\n:：]")
# What may stand between a clause's start and an order opening it: "ok. no X", "so no X", "but
# not X", "just undo that", "那就回滚".
_CLAUSE_OPENING_RE = re.compile(
    r"(?:^|[,.;:!?\n，。；：！？()（）\-–—]|\b(?:so|and|but|then|ok|okay|nah|nope|no|yeah|also|just|please|pls|definitely|"
    r"absolutely|honestly|and definitely|then again|hmm|well)"
    r"|那就|那|先|还是|直接|赶紧|马上|帮我|你|请|算了|不行|不对|嗯|呃|唉|哎)\s*$",
    re.IGNORECASE,
)
_SENTENCE_END_RE = re.compile(r"[;；。!！?？\n]|\.(?:\s|$)")
_CONDITION_RE = re.compile(r"如果|要是|假如|万一|除非|否则|\bif\b|\bunless\b|\bin case\b|\botherwise\b", re.IGNORECASE)
# Each match reads the text before it for its guards: the first few matches of each form are
# read, so a long turn full of "no" costs no more than a short one times a constant.
MAX_MATCHES = 16

_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9+#\-]{2,30}")
_NAME_WORD_RE = re.compile(r"[A-Za-z0-9]{1,30}")
# How much of the object counts as its opening: the option's words must come first.
_HEAD_WORDS = 3
_HEAD_CJK_CHARS = 8
# Pointing words after the name, before a verb that follows it.
_POINTER_END_RE = re.compile(r"(?:这个|那个|这种|那种|这条|那条|这块|那块|这事儿?|那事儿?|的)+\s*$")
# Words between the verb and what it forbids: "not doing the stone thing", "no more subscriptions".
_LIGHT_WORDS = frozenset(
    "doing using going having adding running buying building hiring paying taking getting trying "
    "with for the any more another".split()
)


def first_clause(text: str) -> str:
    """The text up to its first clause end: where a turn says what it is about."""
    end = CLAUSE_END_RE.search(text)
    return text[: end.start() if end else len(text)]


def opened_by(obj: str, proposals: Sequence[Proposal], from_end: bool = False) -> Proposal | None:
    """The proposal whose own words open `obj` ("retry decorator please" opens with option 1's
    "retry decorator"), or close it when the verb comes after ("我觉得 Redis 方案就别弄了"), or the
    one its label names ("方案二", "option 2"). The first word must be the option's: "not treating
    assisted living as…" does not forbid assisted living."""
    obj = obj.strip()
    if not obj:
        return None
    by_label = proposal_by_label(obj[-12:] if from_end else obj[:12], proposals, by_position=False)
    if by_label is not None:
        return by_label
    keys = _edge_keys(obj, from_end)
    if not keys:
        return _opened_by_short_name(obj, proposals, from_end)
    best, best_shared = None, 0
    for proposal in proposals:
        # The whole summary: "一部分做 emergency fund，剩下全仓主动型基金" is forbidden by "主动型基金就免了".
        have = content_keys(proposal.summary)
        if keys[0] not in have:
            continue
        shared = sum(1 for key in keys if key in have)
        if shared > best_shared:
            best, best_shared = proposal, shared
    return best


def _opened_by_short_name(obj: str, proposals: Sequence[Proposal], from_end: bool) -> Proposal | None:
    """The one proposal whose name opens with the object's word when that word is too short to be
    a content key: "not pg." denies "pg pool leak", "S3 也不是" the "S3 I/O" suspect."""
    words = _NAME_WORD_RE.findall(obj)
    if not words:
        return None
    word = (words[-1] if from_end else words[0]).lower()
    named = [p for p in proposals if p.name.lower().split(" ", 1)[0].rstrip(":：,，") == word]
    return named[0] if len(named) == 1 else None


def option_named(objects: Iterable[tuple[str, bool]], options: Sequence[Proposal], whole_name: bool = False) -> Proposal | None:
    """The option the first of the verdicts' objects (`verdict_objects`) to name one opens with
    (`opened_by`); with `whole_name`, only one whose object also names the first words of the
    option's name (`names_by_opening`), as a return must."""
    for obj, from_end in objects:
        found = opened_by(obj, options, from_end=from_end)
        if found is not None and (not whole_name or names_by_opening(obj, found, from_end)):
            return found
    return None


def names_by_opening(obj: str, proposal: Proposal, from_end: bool = False) -> bool:
    """Is the object's first word (its last, `from_end`) among the first words of the proposal's
    name? "back to adamw" names "AdamW with warmup", "going back to lightgbm direct" names "A
    single global LightGBM model"; "→ Osaka → back to Tokyo" does not name "Pokémon Center Mega
    Tokyo", nor "back to funding" an option whose description speaks of funding."""
    keys = _edge_keys(obj.strip(), from_end)
    return bool(keys) and keys[0] in _edge_keys(proposal.name, from_end=False)


def _keys_in_order(word: str, from_end: bool) -> list[str]:
    """A word's content keys edge first: "yogurt-based" opens with yogurt and ends with based.
    `content_keys` gives a set, whose order would change with the process's hash seed, and with it
    whether "no yogurt-based stuff" forbids "Greek yogurt with nuts"."""
    parts = word.split("-")
    return [key for part in (reversed(parts) if from_end else parts) for key in sorted(content_keys(part))]


def _edge_keys(obj: str, from_end: bool) -> list[str]:
    """The object's first (or last) few content keys in order, edge first: Latin words past the
    light ones ("doing the", "using"), stemmed as `content_keys` stems them ("retries" meets
    "retry"), or CJK character pairs."""
    if from_end:
        obj = _POINTER_END_RE.sub("", obj)  # "本地复现那个就免了" forbids 本地复现
    if (obj[-1:] if from_end else obj[:1]).isascii():
        words = [w.lower() for w in _LATIN_WORD_RE.findall(obj)]
        words = [w for w in (reversed(words) if from_end else words) if w not in _LIGHT_WORDS]
        return [key for w in words[:_HEAD_WORDS] for key in _keys_in_order(w, from_end)]
    run = obj[-_HEAD_CJK_CHARS:] if from_end else obj[:_HEAD_CJK_CHARS]
    pairs = [run[i : i + 2] for i in range(len(run) - 1)]
    pairs = [pair for pair in (reversed(pairs) if from_end else pairs) if content_keys(pair)]
    return pairs[:_HEAD_WORDS + 1]


def opens_clause(text: str, position: int, comma: bool = True) -> bool:
    """Does an order at `position` (a bare "no X" / "not X", an undo) open its clause? After a
    comma, "not" sets a correction against what came before ("a rubber chicken, not a hedgehog"),
    so it needs a sentence's start there (`comma=False`)."""
    opening = _CLAUSE_OPENING_RE.search(text, max(0, position - 20), position)
    return opening is not None and (comma or opening.group().strip() not in (",", "，"))


def clause_after(text: str, position: int) -> str:
    """The rest of the clause from `position`: the object of a verdict said before it."""
    end = CLAUSE_END_RE.search(text, position)
    return text[position : end.start() if end else len(text)]


def held_back(
    text: str,
    start: int,
    end: int,
    guarded: Callable[[int, int], bool],
    condition_from: int | None = None,
    requested: bool = False,
) -> bool:
    """Is a verdict at text[start:end] no verdict: held back by a cue guard (quoted, in code,
    negated, reported), made conditional by its sentence (read from `condition_from`, else from
    `start`), or asked (its clause ends with a question mark: "revert that? or…", "不是防火墙吧？"),
    unless the question is a polite request (`requested`: "can you revert that?")?"""
    closing = CLAUSE_END_RE.search(text, end)
    asked = not requested and closing is not None and closing.group() in "?？"
    return asked or guarded(start, end) or conditional(text, start if condition_from is None else condition_from)


def start_of(boundary: re.Pattern[str], text: str, position: int) -> int:
    """Where the clause (or sentence) holding `position` starts: after the last boundary before it."""
    last = None
    for last in boundary.finditer(text, 0, position):
        pass
    return last.end() if last else 0


def conditional(text: str, position: int) -> bool:
    """Does the sentence make the verdict conditional ("如果预算不够就不用 memray 了", "if legal says
    no, then no webhooks")? The cue guards let a bare 如果 / if through, since a rejection said with
    its condition is still one; an order (a prohibition, an undo, a ruled-out cause) for a case that
    may not come is none."""
    return _CONDITION_RE.search(text, start_of(_SENTENCE_END_RE, text, position), position) is not None


def verdict_objects(
    text: str,
    verb_first: re.Pattern[str],
    verb_last: re.Pattern[str],
    guarded: Callable[[int, int], bool],
    bare_after_comma: Callable[[str], bool] = lambda bare: False,
) -> Iterator[tuple[str, bool]]:
    """The objects of the turn's standing verdicts, in reading order, each with whether it is read
    from its end: the rest of the clause after a verb-first form ("别用 X", "no X"), then the clause
    before a verb-last one ("X 就别弄了"). A bare form (a pattern's optional group "bare": "no X",
    "not X") must open its sentence, or its clause when `bare_after_comma` allows its words; a
    verdict held back is skipped. The prohibition, the ruled-out cause and the return read their
    objects this way."""
    for match in islice(verb_first.finditer(text), MAX_MATCHES):
        bare = match.groupdict().get("bare")
        if bare and not opens_clause(text, match.start(), comma=bare_after_comma(bare)):
            continue
        if not held_back(text, match.start(), match.end(), guarded):
            yield clause_after(text, match.end()), False
    for match in islice(verb_last.finditer(text), MAX_MATCHES):
        start = start_of(CLAUSE_END_RE, text, match.start())
        if not held_back(text, match.start(), match.end(), guarded, condition_from=start):
            yield text[start : match.start()], True
