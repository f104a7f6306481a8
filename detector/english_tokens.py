"""spaCy's English tokenizer, run from its rules without importing spaCy.

Importing spaCy takes about a second, longer than everything else a `pivot hook` process does
for a turn; and most English turns need it ("don't", "let's", "3.8", a full stop). Yet the
tokenizer of `spacy.blank("en")` is rules and nothing else: prefix, suffix and infix regular
expressions, a URL pattern and a table of special cases. Those are read from spaCy once per
spaCy version, kept in the user cache as JSON, and applied here by the same algorithm
(`Tokenizer._split_affixes`, `_attach_tokens` and the special-case matcher of spacy/tokenizer.pyx).
tests/test_text.py checks the tokens against spaCy's own on the whole corpus and on random chunks.

Whitespace never joins tokens in spaCy, so everything here works on one whitespace-free chunk.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

RULES_FORMAT = 1


@dataclass(frozen=True)
class TokenizerRules:
    """What spaCy's English tokenizer decides by, in plain Python."""

    prefix_search: Callable[[str], re.Match[str] | None]
    suffix_search: Callable[[str], re.Match[str] | None]
    infix_finditer: Callable[[str], Any]
    token_match: Callable[[str], re.Match[str] | None]
    url_match: Callable[[str], re.Match[str] | None]
    # A special case's tokens by its text ("don't" → "do", "n't").
    specials: dict[str, tuple[str, ...]]
    # Special cases that affix splitting would cut up (":)" inside "(:)"): spaCy finds them
    # afterwards as token sequences; keyed by that sequence.
    split_specials: dict[tuple[str, ...], str]
    # The most tokens a split special case spans: the matcher tries no longer sequence, so a chunk
    # of thousands of tokens ("((((…") costs a pass, not every pair of its tokens.
    longest_split: int = 0

    @classmethod
    def from_patterns(cls, patterns: dict[str, Any]) -> TokenizerRules:
        """Compile the JSON form written by `patterns_from_spacy`."""
        if patterns.get("format") != RULES_FORMAT:
            raise ValueError("tokenizer rules of another format")
        never = re.compile(r"(?!)")

        def compiled(name: str) -> re.Pattern[str]:
            return re.compile(patterns[name]) if patterns.get(name) is not None else never

        specials = specials_of(patterns)
        partial = cls(
            compiled("prefix").search,
            suffix_search_near_the_end(compiled("suffix")),
            compiled("infix").finditer,
            compiled("token_match").match,
            compiled("url_match").match,
            specials,
            {},
        )
        split = {
            tuple(partial.affix_tokens(text, with_specials=False)): text
            for text in specials
            if partial.prefix_search(text) or partial.suffix_search(text) or any(partial.infix_finditer(text))
        }
        return replace(partial, split_specials=split, longest_split=max(map(len, split), default=0))

    def tokens(self, chunk: str) -> list[str]:
        """spaCy's tokens (original case) of one whitespace-free chunk."""
        return self._apply_split_specials(self.affix_tokens(chunk, with_specials=True))

    def affix_tokens(self, chunk: str, with_specials: bool) -> list[str]:
        """`_split_affixes` then `_attach_tokens`: prefixes, the middle (special case, URL, or
        split at infixes), suffixes in reverse order of removal."""
        if with_specials and chunk in self.specials:
            return list(self.specials[chunk])
        prefixes: list[str] = []
        suffixes: list[str] = []
        rest = self._split_affixes(chunk, prefixes, suffixes, with_specials)
        return prefixes + self._middle(rest, with_specials) + suffixes[::-1]

    def _split_affixes(self, text: str, prefixes: list[str], suffixes: list[str], with_specials: bool) -> str:
        last_size = 0
        while text and len(text) != last_size:
            if self.token_match(text) or (with_specials and text in self.specials):
                break
            last_size = len(text)
            prefix_match = self.prefix_search(text)
            pre_len = prefix_match.end() - prefix_match.start() if prefix_match else 0
            if pre_len:
                minus_pre = text[pre_len:]
                if minus_pre and with_specials and minus_pre in self.specials:
                    prefixes.append(text[:pre_len])
                    return minus_pre
            suffix_match = self.suffix_search(text[pre_len:])
            suf_len = suffix_match.end() - suffix_match.start() if suffix_match else 0
            if suf_len:
                minus_suf = text[:-suf_len]
                if minus_suf and with_specials and minus_suf in self.specials:
                    suffixes.append(text[-suf_len:])
                    return minus_suf
            if pre_len and suf_len and pre_len + suf_len <= len(text):
                prefixes.append(text[:pre_len])
                suffixes.append(text[-suf_len:])
                text = text[pre_len:-suf_len]
            elif pre_len:
                prefixes.append(text[:pre_len])
                text = text[pre_len:]
            elif suf_len:
                suffixes.append(text[-suf_len:])
                text = text[:-suf_len]
        return text

    def _middle(self, text: str, with_specials: bool) -> list[str]:
        if not text:
            return []
        if with_specials and text in self.specials:
            return list(self.specials[text])
        if self.token_match(text) or self.url_match(text):
            return [text]
        tokens: list[str] = []
        start = 0
        for match in self.infix_finditer(text):
            if match.start() == 0:
                continue  # an infix at the very start does not split
            if match.start() != start:
                tokens.append(text[start : match.start()])
            if match.start() != match.end():
                tokens.append(text[match.start() : match.end()])
            start = match.end()
        if text[start:]:
            tokens.append(text[start:])
        return tokens

    def _apply_split_specials(self, tokens: list[str]) -> list[str]:
        """The special-case matcher: longest sequences first, then leftmost; overlaps dropped."""
        if not self.split_specials:
            return tokens
        found = [
            (start, end)
            for start in range(len(tokens))
            for end in range(start + 1, min(start + self.longest_split, len(tokens)) + 1)
            if tuple(tokens[start:end]) in self.split_specials
        ]
        if not found:
            return tokens
        chosen: dict[int, int] = {}
        seen: set[int] = set()
        for start, end in sorted(found, key=lambda span: (span[0] - span[1], span[0])):
            if start not in seen and end - 1 not in seen:
                chosen[start] = end
            seen.update(range(start, end))
        result: list[str] = []
        index = 0
        while index < len(tokens):
            special_end = chosen.get(index)
            if special_end is None:
                result.append(tokens[index])
                index += 1
            else:
                result.extend(self.specials[self.split_specials[tuple(tokens[index:special_end])]])
                index = special_end
        return result


# How far from a chunk's end a suffix is looked for. Every branch of spaCy's suffix pattern
# matches at most 5 characters, but one: a run of full stops ("\.\.+$"), and a run goes on to the
# left as far as it runs (tests/test_text.py checks both against the installed spaCy).
SUFFIX_WINDOW = 16


def suffix_search_near_the_end(pattern: re.Pattern[str]) -> Callable[[str], re.Match[str] | None]:
    """`pattern.search`, read from SUFFIX_WINDOW characters before the end: the same match, found in
    a constant time. Affix splitting asks for the suffix once per prefix it strips, and a search
    from the start of the chunk each time made a chunk of 8,000 "(" take four seconds. A match
    that starts right at the window's edge may be a run of full stops that starts further left;
    only then is the whole chunk searched. (Lookbehinds still see the characters before the
    window.)"""

    def search(text: str) -> re.Match[str] | None:
        start = len(text) - SUFFIX_WINDOW
        if start <= 0:
            return pattern.search(text)
        found = pattern.search(text, start)
        return pattern.search(text) if found is not None and found.start() == start else found

    return search


def patterns_from_spacy(tokenizer: Any) -> dict[str, Any]:
    """The JSON form of a spaCy tokenizer's rules (its regular expressions and special cases)."""

    from spacy.attrs import ORTH

    def pattern(bound: Any) -> str | None:
        return None if bound is None else bound.__self__.pattern

    return {
        "format": RULES_FORMAT,
        "prefix": pattern(tokenizer.prefix_search),
        "suffix": pattern(tokenizer.suffix_search),
        "infix": pattern(tokenizer.infix_finditer),
        "token_match": pattern(tokenizer.token_match),
        "url_match": pattern(tokenizer.url_match),
        "specials": {
            text: [token[ORTH] for token in tokens]
            for text, tokens in tokenizer.rules.items()
            if not any(char.isspace() for char in text)
        },
    }


@lru_cache(maxsize=1)
def english_specials() -> dict[str, tuple[str, ...]]:
    """The special cases alone ("don't" → "do", "n't"): enough to tell that a chunk of plain
    letters is one token, without compiling the affix patterns (a tenth of a second of a hook
    process, which a Chinese turn with a Latin name in it does not need)."""
    return specials_of(_english_patterns())


def specials_of(patterns: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """The special cases of the JSON form, by text."""
    return {text: tuple(tokens) for text, tokens in patterns["specials"].items()}


@lru_cache(maxsize=1)
def english_rules() -> TokenizerRules:
    """The rules of `spacy.blank("en")` for the installed spaCy, from the user cache when there."""
    try:
        return TokenizerRules.from_patterns(_english_patterns())
    except (ValueError, KeyError, TypeError, re.error):
        # A damaged pattern in the cache: rebuild it, and let the special cases be read again
        # from the rebuilt file, so both come from the same rules.
        patterns = _patterns_from_installed_spacy()
        _english_patterns.cache_clear()
        english_specials.cache_clear()
        return TokenizerRules.from_patterns(patterns)


@lru_cache(maxsize=1)
def _english_patterns() -> dict[str, Any]:
    """The JSON form of the rules, from the user cache when it is there and of this format."""
    try:
        patterns = json.loads(_rules_file().read_text(encoding="utf-8"))
        if isinstance(patterns, dict) and patterns.get("format") == RULES_FORMAT and isinstance(patterns.get("specials"), dict):
            return patterns
    except (OSError, ValueError):
        pass  # absent or damaged: read the rules from spaCy again
    return _patterns_from_installed_spacy()


def _patterns_from_installed_spacy() -> dict[str, Any]:
    """Read the rules from spaCy (importing it: about a second) and write them to the cache."""
    import spacy

    from detector.paths import write_atomically

    patterns = patterns_from_spacy(spacy.blank("en").tokenizer)
    write_atomically(_rules_file(), json.dumps(patterns, ensure_ascii=False))
    return patterns


def _rules_file() -> Path:
    from importlib.metadata import version

    from detector.paths import cache_dir

    return cache_dir() / f"spacy-{version('spacy')}-en-tokenizer.json"
