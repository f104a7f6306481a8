"""Cue lexicons: TOML data files validated by pydantic, one per language.

A lexicon holds three kinds of entries:
- `[[cue]]`: a pattern that signals REJECT, PIVOT or REOPEN, with a weight and optional named
  groups `target`, `replacement`, `reason`, `revisit_if`;
- `[[span]]`: a pattern that only extracts a span (a reason or a revisit condition) wherever the
  phrasing allows, whichever cue fired;
- `[guards]`: patterns that, found around a cue, mean the cue is not the user's own rejection.

Why patterns are checked before they are compiled: DESIGN §6 asks that no input can hang the
program. Python regexes backtrack, so a lexicon could, by accident, hold a pattern that takes
exponential time. `check_pattern_is_linear` refuses every unbounded quantifier (`*`, `+`, `{n,}`),
every quantifier nested inside another, and more than three variable-width repeats per pattern.
With those rules the work done at one starting position is bounded by a constant (at most
MAX_REPEAT ** MAX_VARIABLE_REPEATS steps, in practice far fewer), so a search costs at most that
constant times the length of the text: linear. The engine also matches only a head and a tail
window of very long turns, and bounds how far each guard looks (engine.py), so no single turn,
however long, costs more than a fixed amount.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

# re._parser is the stdlib's own regex parser (the old sre_parse); it gives us the pattern tree.
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from detector.errors import LexiconError
from detector.paths import package_file
from detector.schema import Label

MAX_REPEAT = 200
MAX_VARIABLE_REPEATS = 3
SPAN_GROUPS = ("target", "replacement", "reason", "revisit_if")
GuardKind = Literal["negation", "question", "hypothetical", "reported", "adoption", "conclusion", "other_sense"]
_FRAGMENT_REF = re.compile(r"<<([A-Z_]+)>>")
_NAMED_GROUP_RE = re.compile(r"\(\?P<(\w+)>")
_REPEAT_OPS = {sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, getattr(sre_parse, "POSSESSIVE_REPEAT", None)}


def check_pattern_is_linear(pattern: str) -> None:
    """Raise ValueError unless every quantifier in pattern is bounded and none is nested."""
    tree = sre_parse.parse(pattern)
    variable_repeats = _count_repeats(tree, inside_repeat=False)
    if variable_repeats > MAX_VARIABLE_REPEATS:
        raise ValueError(
            f"{variable_repeats} variable-width repeats; at most {MAX_VARIABLE_REPEATS} keep matching linear"
        )


def _count_repeats(tree: object, inside_repeat: bool) -> int:
    count = 0
    for op, arg in tree:  # type: ignore[attr-defined]
        if op in _REPEAT_OPS:
            low, high, sub = arg
            if high == sre_parse.MAXREPEAT or high > MAX_REPEAT:
                raise ValueError(f"unbounded or too wide quantifier (max {MAX_REPEAT}); write {{0,N}}")
            if inside_repeat and high > 1:
                raise ValueError("nested quantifier: a repeated group may not contain another repeat")
            # An optional item (`x?`) at most doubles the paths; only wider repeats multiply.
            if high > 1 and high > low:
                count += 1
            count += _count_repeats(sub, inside_repeat=high > 1)
        elif op is sre_parse.SUBPATTERN:
            count += _count_repeats(arg[-1], inside_repeat)
        elif op is sre_parse.BRANCH:
            # Alternatives are tried one after another, so their repeats do not multiply.
            count += max((_count_repeats(branch, inside_repeat) for branch in arg[1]), default=0)
        elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
            # Lookarounds are atomic (never re-entered on backtracking): their cost adds to the
            # match instead of multiplying it, so they are checked for bounds but not counted.
            _count_repeats(arg[1], inside_repeat)
    return count


class _Pattern(BaseModel):
    """Shared validation of a regex held in a lexicon entry."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str

    @field_validator("pattern")
    @classmethod
    def _pattern_is_safe(cls, value: str) -> str:
        from detector.cues.memo import pattern_memo

        if pattern_memo().is_safe(value):
            return value  # proven on this machine before (memo.py)
        try:
            re.compile(value)
            check_pattern_is_linear(value)
        except (re.error, ValueError) as exc:
            raise ValueError(f"bad pattern {value!r}: {exc}") from exc
        pattern_memo().mark_safe(value)
        return value


class CueCapture(BaseModel):
    """A turn a cue fires on, and what its named groups capture there.

    `examples` only show that the pattern matches; a capture runs the whole engine (guards,
    windows, normalisation) and pins the span the detector will read, so a pattern edited for
    one phrasing cannot silently move the span of another. Only the groups given are checked.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    target: str | None = None
    replacement: str | None = None
    reason: str | None = None
    revisit_if: str | None = None

    def expected_groups(self) -> dict[str, str]:
        return self.model_dump(exclude_unset=True, exclude={"text"})


class CueSpec(_Pattern):
    """One cue: a pattern that signals a label."""

    id: str = Field(pattern=r"^(zh|en)\.(reject|pivot|reopen)\.[a-z0-9_]+$")
    label: Literal[Label.REJECT, Label.PIVOT, Label.REOPEN]
    weight: float = Field(gt=0.0, le=1.0)
    examples: list[str] = Field(min_length=1, description="phrases the pattern must match (tested)")
    captures: list[CueCapture] = Field(
        default_factory=list, description="turns the engine must fire the cue on, with its spans (tested)"
    )
    misses: list[str] = Field(
        default_factory=list,
        description="turns that share the cue's words but not its verdict: the engine must not fire it (tested)",
    )
    note: str = ""
    restates: bool = Field(
        default=False,
        description="the cue says a rejection again ('like I said, no Redis'): a turn where it fires "
        "answers a reply that brought the option back, and is no reopening of it",
    )
    asks: bool = Field(
        default=False,
        description="the cue's verdict is put as a question ('why would we pay for X when we already "
        "have Y?'): the question guard does not hold it back",
    )

    @field_validator("pattern")
    @classmethod
    def _groups_are_known(cls, value: str) -> str:
        unknown = set(_NAMED_GROUP_RE.findall(value)) - set(SPAN_GROUPS)
        if unknown:
            raise ValueError(f"unknown named groups {sorted(unknown)}; use {SPAN_GROUPS}")
        return value


class SpanSpec(_Pattern):
    """A pattern that extracts a reason or a revisit condition from any positive turn."""

    kind: Literal["reason", "revisit_if", "replacement", "target"]
    examples: list[str] = Field(min_length=1)
    misses: list[str] = Field(
        default_factory=list, description="turns the pattern must not match: their words look like it (tested)"
    )

    @model_validator(mode="after")
    def _captures_its_kind(self) -> SpanSpec:
        if self.kind not in _NAMED_GROUP_RE.findall(self.pattern):
            raise ValueError(f"span pattern must have a named group ({self.kind})")
        return self


class GuardSpec(_Pattern):
    """A pattern that marks its sentence as negated, a question, hypothetical or reported."""

    kind: GuardKind


class Lexicon(BaseModel):
    """All cues, spans and guards of one language.

    `fragments` name pattern pieces used by many cues (what counts as "a direction", say); a
    pattern, or a later fragment, refers to one as `<<NAME>>` and it is expanded before
    validation.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    lang: Literal["zh", "en"]
    fragments: dict[str, str] = Field(default_factory=dict)
    cue: list[CueSpec]
    span: list[SpanSpec] = Field(default_factory=list)
    guard: list[GuardSpec] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _expand_fragments(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not data.get("fragments"):
            return data
        fragments: dict[str, str] = {}

        def expand(pattern: Any) -> Any:
            if not isinstance(pattern, str):
                return pattern

            def lookup(match: re.Match[str]) -> str:
                name = match.group(1)
                if name not in fragments:
                    raise ValueError(f"unknown fragment <<{name}>> in {pattern!r}")
                return fragments[name]

            return _FRAGMENT_REF.sub(lookup, pattern)

        # A fragment may use the fragments above it (NEW and NEW_LAZY share their guards).
        for name, pattern in data["fragments"].items():
            fragments[name] = expand(pattern)
        data = dict(data)
        for section in ("cue", "span", "guard"):
            data[section] = [
                {**entry, "pattern": expand(entry.get("pattern"))} if isinstance(entry, dict) else entry
                for entry in data.get(section, [])
            ]
        return data

    @model_validator(mode="after")
    def _ids_unique_and_cjk_safe(self) -> Lexicon:
        ids = [cue.id for cue in self.cue]
        duplicates = sorted({cue_id for cue_id in ids if ids.count(cue_id) > 1})
        if duplicates:
            raise ValueError(f"duplicate cue ids: {duplicates}")
        for cue in self.cue:
            if not cue.id.startswith(self.lang + "."):
                raise ValueError(f"cue {cue.id} is in the {self.lang} lexicon but not named {self.lang}.*")
            # \b means nothing between two CJK characters (both are \w), so a zh pattern that
            # relies on it silently never matches inside a sentence.
            if self.lang == "zh" and r"\b" in cue.pattern:
                raise ValueError(f"cue {cue.id}: CJK patterns must not use \\b")
        return self


class LazyPattern:
    """A lexicon pattern, compiled on first use.

    Compiling runs Python's regex parser, and the lexicons hold about 460 patterns: a `pivot
    hook` process checks one turn, which needs a handful of them (the anchor index rules out
    most cues, and spans and guards are read only when a cue fires or the turn is positive).
    """

    __slots__ = ("_flags", "_regex", "pattern")

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags
        self._regex: re.Pattern[str] | None = None

    @property
    def regex(self) -> re.Pattern[str]:
        if self._regex is None:
            self._regex = re.compile(self.pattern, self._flags)
        return self._regex


class CompiledCue(LazyPattern):
    """A validated cue with its literal anchors."""

    __slots__ = ("anchors", "spec")

    def __init__(self, spec: CueSpec, flags: int) -> None:
        super().__init__(spec.pattern, flags)
        self.spec = spec
        self.anchors = pattern_anchors(spec.pattern)


def pattern_anchors(pattern: str) -> frozenset[str] | None:
    """The pattern's literal anchors (anchors.py), read from the per-machine memo when it has
    them: parsing every pattern again was a third of a `pivot hook` process's start-up."""
    from detector.cues.anchors import anchors_of
    from detector.cues.memo import pattern_memo

    found, anchors = pattern_memo().anchors(pattern)
    if not found:
        anchors = anchors_of(pattern)
        pattern_memo().remember_anchors(pattern, anchors)
    return anchors


def load_lexicon(path: Path) -> Lexicon:
    """Read and validate one lexicon file; errors name the file and the entry."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LexiconError(f"{path}: cannot read lexicon: {exc}") from exc
    try:
        return Lexicon.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise LexiconError(f"{path}: invalid lexicon at {where}: {first['msg']}") from exc


@cache
def default_lexicon(lang: Literal["zh", "en"]) -> Lexicon:
    """The lexicon installed with the package for one language."""
    return load_lexicon(package_file("cues", "lexicons", f"{lang}.toml"))
