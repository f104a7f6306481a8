"""Where a sentence names a rejected alternative, and how strongly.

Strong: a name, a kin form, a label or a whole phrase. Weak: part of a description, a category, a
pointer back ("the option we dropped"); a weak mention needs an explicit suggestion to relapse.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from detector.relapse.names import CjkName, NamePattern, Names
from detector.relapse.vocabulary import BACK_REFERENCE_RE, CJK_RUN_RE, LATIN_TOKEN_RE
from detector.text import stem_of


@dataclass(frozen=True, slots=True)
class Mention:
    """Where a sentence names a rejected alternative; `strong` when by a name, a kin form or a
    whole phrase, weak when only by part of a description (it then needs a proposal to count)."""

    start: int
    end: int
    text: str
    strong: bool = True
    # How it names the alternative: "name" (a name, kin form, label or whole phrase), "kind" (a
    # category or sibling product), "pointer" ("the option we dropped"), "part" (words of a
    # description), "cjk" (characters of a CJK name), "reason" (the rejection's reason argued away).
    # The learned scorer weighs them apart.
    kind: str = "name"


def find_mentions(sentence: str, names: Names) -> list[Mention]:
    """Where the sentence names the alternative: anchors first, then shared distinctive words."""
    lowered = sentence.lower()
    found = _matches(names.anchors, lowered, strong=True, kind="name")
    if names.cased:
        # Inside Chinese text a Latin word is a name whatever its case ("用 compose 起依赖").
        text = lowered if CJK_RUN_RE.search(sentence) else sentence
        pattern = names.cased_any if text is lowered else names.cased
        found += _matches(pattern, text, strong=True, kind="name")
    if names.kinds:
        found += _matches(names.kinds, lowered, strong=False, kind="kind")
    found += _pointers(sentence)
    if names.words:
        found += _word_mentions(lowered, names.words)
    if names.cjk:
        found += _cjk_mentions(lowered, names.cjk)
    return _merged(found)


def _matches(pattern: re.Pattern[str] | NamePattern | None, text: str, strong: bool, kind: str) -> list[Mention]:
    """Every match of a names pattern, as mentions of the given strength and kind."""
    if pattern is None:
        return []
    return [Mention(m.start(), m.end(), m.group(), strong, kind) for m in pattern.finditer(text)]


@lru_cache(maxsize=4096)
def _pointers(sentence: str) -> tuple[Mention, ...]:
    """Pointers back ("the option we dropped") in a sentence: the same for every option, so found
    once per sentence, not once per option it is read against."""
    return tuple(_matches(BACK_REFERENCE_RE, sentence, strong=False, kind="pointer"))


def _merged(mentions: list[Mention]) -> list[Mention]:
    """Overlapping or adjacent mentions become one, so "frying" inside "deep frying" is read with
    "deep", and "存日志" after "MongoDB " with it; the merged mention is as strong, and of the kind,
    of its stronger part."""
    merged: list[Mention] = []
    for mention in sorted(mentions, key=lambda m: (m.start, -m.end)):
        if merged and mention.start <= merged[-1].end + 1:
            last = merged[-1]
            kind = mention.kind if mention.strong and not last.strong else last.kind
            if mention.end > last.end:
                merged[-1] = Mention(last.start, mention.end, last.text, last.strong or mention.strong, kind)
            elif mention.strong and not last.strong:
                merged[-1] = Mention(last.start, last.end, last.text, True, kind)
            continue
        merged.append(mention)
    return merged


def _word_mentions(lowered: str, parts: tuple[frozenset[str], ...]) -> list[Mention]:
    """A part is mentioned when half its distinctive words are ("tutoring" of "tutoring center");
    strongly when all of them are."""
    tokens = _stemmed_tokens(lowered)
    found = []
    for words in parts:
        hits = [(start, end, stem) for start, end, stem in tokens if stem in words]
        covered = len({stem for _, _, stem in hits})
        if hits and covered * 2 >= len(words):
            start, end, _ = hits[0]
            found.append(Mention(start, end, lowered[start:end], strong=covered == len(words), kind="part"))
    return found


def _tokens_of(lowered: str) -> tuple[tuple[int, int, str], ...]:
    """Stemmed words with offsets; a hyphenated word also as its pieces, and two words in a row
    also joined ("first person" meets "first-person")."""
    tokens = []
    previous: tuple[int, int] | None = None
    for match in LATIN_TOKEN_RE.finditer(lowered):
        word = match.group().rstrip(".")
        tokens.append((match.start(), match.end(), stem_of(word)))
        if "-" in word:
            tokens += [(match.start(), match.end(), stem_of(piece)) for piece in word.split("-") if piece]
        if previous is not None and match.start() - previous[1] == 1:
            tokens.append((previous[0], match.end(), stem_of(f"{lowered[previous[0]:previous[1]]}-{word}")))
        previous = (match.start(), match.end())
    return tuple(tokens)


# Cached: a reply's sentences are read against every rejected option and every option still on
# the table, and stemming them again for each was a tenth of a long conversation's time.
_stemmed_tokens = lru_cache(maxsize=4096)(_tokens_of)


@dataclass(frozen=True, slots=True)
class ReplyWords:
    """What a reply's sentences hold, read once per reply, so that whether a rejected option can be
    mentioned in them at all (`may_mention`) is a few lookups: a long conversation reads each reply
    against dozens of rejections, and most name none of them."""

    text: str  # the sentences, joined by line breaks (no form matches across one)
    lowered: str
    stems: frozenset[str]  # every stem `_word_mentions` may meet in a sentence
    pointers: bool  # a pointer back ("the option we dropped") stands in some sentence

    @classmethod
    def of(cls, sentences: Sequence[str]) -> ReplyWords:
        text = "\n".join(sentences)
        lowered = text.lower()
        stems = frozenset(stem for _, _, stem in _tokens_of(lowered))
        return cls(text, lowered, stems, any(_pointers(sentence) for sentence in sentences))


def may_mention(reply: ReplyWords, names: Names) -> bool:
    """Could `find_mentions` find the option in one of the reply's sentences? False only where it
    cannot: no pointer back, no opening word of a name, kind or cased name, no stem of a
    description's words and no character pair of a CJK name anywhere in them."""
    if reply.pointers or any(words & reply.stems for words in names.words):
        return True
    if names.anchors is not None and names.anchors.may_match(reply.lowered):
        return True
    if names.kinds is not None and names.kinds.may_match(reply.lowered):
        return True
    if names.cased is not None and names.cased.may_match(reply.text):
        return True
    if names.cased_any is not None and names.cased_any.may_match(reply.lowered):
        return True
    return any(part in reply.lowered for name in names.cjk for part in (*name.pairs, *name.triples))


def _cjk_mentions(lowered: str, names: tuple[CjkName, ...]) -> list[Mention]:
    """A CJK name is mentioned strongly by three of its characters in a row ("竞业限制" of
    "合同里加竞业限制条款"), weakly by a word at one of its ends ("起诉" of "法律途径起诉"), by half
    its distinctive pairs, or by two of them; never by a modifier without its generic head."""
    found = []
    for name in names:
        if name.head and name.head not in lowered:
            continue
        # The earliest triple in the text: the name's triples are a set, and taking whichever
        # came first out of it made the mention (and the verdict's wording) vary from run to run.
        triple = min((t for t in name.triples if t in lowered), key=lowered.find, default=None)
        if triple is not None:
            position = lowered.find(triple)
            found.append(Mention(position, position + 3, triple, kind="cjk"))
            continue
        hits = sorted((lowered.find(pair), pair) for pair in name.pairs if pair in lowered)
        at_edge = any(pair in name.edges for _, pair in hits)
        if hits and (at_edge or len(hits) * 2 >= len(name.pairs) or len(hits) >= 2):
            together = _side_by_side(lowered, [pair for _, pair in hits]) if len(hits) >= 2 else None
            position, pair = together or hits[0]
            # Strong when two of its pairs stand together ("每天 … 站会" of "全员每天站会"), not
            # when one is in another word: "基金" of "指数基金" and "主动" of "只有主动基金的几分之
            # 一" are no "主动管理型偏股基金", and the mention is where the pairs meet.
            strong = at_edge and together is not None
            found.append(Mention(position, position + len(pair), pair, strong=strong, kind="cjk"))
    return found


def _side_by_side(lowered: str, pairs: list[str], reach: int = 6) -> tuple[int, str] | None:
    """The first place one of the pairs stands with another within `reach` characters after it."""
    places = sorted((at, pair) for pair in pairs for at in _places(lowered, pair))
    for index, (at, pair) in enumerate(places):
        if any(0 < other - at <= reach and other_pair != pair for other, other_pair in places[index + 1 :]):
            return at, pair
    return None


def _places(lowered: str, pair: str) -> list[int]:
    places, at = [], lowered.find(pair)
    while at >= 0:
        places.append(at)
        at = lowered.find(pair, at + 1)
    return places
