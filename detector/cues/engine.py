"""The cue engine: run every lexicon that fits the turn's scripts, then let the guards veto.

A cue that matches is not yet a rejection. It is suppressed, with the reason recorded, when it
sits in a quote, code or a pasted log, or when its sentence is negated ("我不是说这个方向不对"),
a deliberative question ("要不要放弃A？"), a hypothetical ("what if we dropped Redis?") or someone
else's view the user does not adopt ("my manager wants to scrap it, but I disagree").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from detector.cues.anchors import AnchorIndex
from detector.cues.lexicon import (
    SPAN_GROUPS,
    CompiledCue,
    GuardKind,
    LazyPattern,
    Lexicon,
    default_lexicon,
    pattern_anchors,
)
from detector.cues.spans import clean_span
from detector.schema import CueHit, Label, SuppressedCue, SuppressionReason
from detector.text import (
    CLAUSE_MARK_RE,
    Region,
    SentenceIndex,
    has_cjk,
    has_latin,
    mask_regions,
    protected_regions,
    region_covering,
)

# Very long turns are pastes; what the user means is said at the start or the end. Matching a
# head and a tail window keeps the cost of a 1 MB turn the same as that of a 16 KB one.
WINDOW_CHARS = 8_000
# How far around a cue its guards look: a sentence with no punctuation can be a whole paste.
GUARD_SCOPE = 200
# How far into a sentence a report may open it: "我老婆说", "my cofounder keeps saying".
REPORT_REACH = 30
# A Chinese A-not-A question right after the cue's clause, weighing it, asks about it: "现在是回到
# 窗口开始，会不会太宽容？" describes and asks; it goes back to nothing ("…还得翻一翻，会不会有什么配置
# 我们不知道？" asks something new).
_ASKS_ABOUT_IT_RE = re.compile(
    r"[^:：。!！?？;；\n]{0,30}?[,，]\s?(?:那)?(?:会不会|是不是|算不算)(?:有点|太|过于|不够|更)[^,，。!！;；\n]{0,16}[?？]"
)
_LABEL_RANK = {Label.REOPEN: 3, Label.PIVOT: 2, Label.REJECT: 1}


@dataclass(slots=True)
class CueMatch:
    """What the cue layer found in one turn."""

    fired: list[CueHit] = field(default_factory=list)
    suppressed: list[SuppressedCue] = field(default_factory=list)
    spans: dict[str, str] = field(default_factory=dict)
    truncated: bool = False


class _CompiledGuard(LazyPattern):
    __slots__ = ("anchors", "kind")

    def __init__(self, kind: GuardKind, pattern: str, flags: int) -> None:
        super().__init__(pattern, flags)
        self.kind = kind
        # Read by the other-sense guards, which look around each cue for a word ("pass", "kill"):
        # without one near it, the pattern cannot match and is not run.
        self.anchors = pattern_anchors(pattern) if kind == "other_sense" else None


class _CompiledSpan(LazyPattern):
    __slots__ = ("anchors", "kind")

    def __init__(self, kind: str, pattern: str, flags: int) -> None:
        super().__init__(pattern, flags)
        self.kind = kind
        self.anchors = pattern_anchors(pattern)  # one of them is in every match; None when unknown


class CueEngine:
    """Matches cue lexicons against normalised text and applies the guards."""

    def __init__(self, lexicons: Sequence[Lexicon]) -> None:
        self.lexicons = {lexicon.lang: lexicon for lexicon in lexicons}
        self._cues: dict[str, list[CompiledCue]] = {}
        self._anchor_index: dict[str, AnchorIndex] = {}
        self._spans: dict[str, list[_CompiledSpan]] = {}
        self._guards: list[_CompiledGuard] = []
        for lexicon in lexicons:
            flags = re.IGNORECASE if lexicon.lang == "en" else 0
            self._cues[lexicon.lang] = [CompiledCue(spec, flags) for spec in lexicon.cue]
            self._anchor_index[lexicon.lang] = AnchorIndex([cue.anchors for cue in self._cues[lexicon.lang]])
            self._spans[lexicon.lang] = [_CompiledSpan(s.kind, s.pattern, flags) for s in lexicon.span]
            self._guards += [_CompiledGuard(g.kind, g.pattern, flags) for g in lexicon.guard]
        # The guards that only qualify another (a conclusion ends a question's reach, an adoption
        # undoes a report), read by kind rather than filtered out of every guard at each cue.
        self._conclusions = [g for g in self._guards if g.kind == "conclusion"]
        self._adoptions = [g for g in self._guards if g.kind == "adoption"]
        self._reports = [g for g in self._guards if g.kind == "reported"]

    def compile_all(self) -> None:
        """Compile every cue, span and guard pattern now, not on first use: for a process that will
        read many turns (a scan, the server), and before a scan forks, so its workers share the
        compiled patterns instead of each compiling the lexicons again."""
        for pattern in [*(c for cues in self._cues.values() for c in cues), *(s for spans in self._spans.values() for s in spans), *self._guards]:
            _ = pattern.regex

    @property
    def cue_ids(self) -> list[str]:
        """Every cue id, in lexicon order: the classifier's cue feature columns."""
        return [cue.spec.id for lang in sorted(self._cues) for cue in self._cues[lang]]

    @cached_property
    def restating_cue_ids(self) -> frozenset[str]:
        """The cues marked `restates` in the lexicons: they say an earlier no again."""
        return frozenset(cue.spec.id for cues in self._cues.values() for cue in cues if cue.spec.restates)

    def match(self, text: str) -> CueMatch:
        """Find cues in normalised text, split them into fired and suppressed, extract spans.

        Everything runs per window (the whole text, or the head and tail of a very long turn),
        and each guard looks at most GUARD_SCOPE characters around its cue, so the cost grows
        linearly with the text and is bounded for any single turn.
        """
        result = CueMatch(truncated=len(text) > 2 * WINDOW_CHARS)
        languages = _languages(text)
        for offset, window in _windows(text):
            self._match_window(window, offset, languages, result)
        result.fired.sort(key=lambda hit: (hit.start, -hit.weight))
        if result.fired:
            head = text[: 2 * WINDOW_CHARS]
            result.spans = self._extract_spans(head, result.fired, protected_regions(head), languages)
        return result

    def with_spans(self, text: str, match: CueMatch) -> CueMatch:
        """The match with the span patterns' spans too, for a turn labelled positive.

        `match` extracts spans only when a cue fired; most rejections real users type fire none
        ("那颗粒板吧 省点钱", "telluride prices are nuts. pilot then"), and when the model calls
        one positive its replacement, reason and revisit condition are still in the words."""
        if match.fired or match.spans:
            return match
        head = text[: 2 * WINDOW_CHARS]
        return replace(match, spans=self._extract_spans(head, [], protected_regions(head), _languages(head)))

    def _match_window(self, window: str, offset: int, languages: list[str], result: CueMatch) -> None:
        regions = protected_regions(window)
        sentences = SentenceIndex(window)
        lowered = window.lower()
        for lang in languages:
            cues = self._cues.get(lang, [])
            for position in self._anchor_index[lang].candidates(lowered) if cues else ():
                cue = cues[position]
                for hit in self._find(cue, window):
                    veto = self._veto(window, lowered, hit.start, hit.end, regions, sentences, hit.verdict_parts(), cue.spec.asks)
                    hit = hit.model_copy(update={"start": hit.start + offset, "end": hit.end + offset})
                    if veto is None:
                        result.fired.append(hit)
                    else:
                        result.suppressed.append(SuppressedCue(hit=hit, reason=veto[0], evidence=veto[1]))

    def _find(self, cue: CompiledCue, window: str) -> Iterator[CueHit]:
        for match in cue.regex.finditer(window):
            if not match.group().strip():
                continue
            groups = {name: cleaned for name, value in match.groupdict().items() if value and (cleaned := clean_span(value, name))}
            yield CueHit(
                cue_id=cue.spec.id,
                label=cue.spec.label,
                lang=cue.spec.id[:2],  # type: ignore[arg-type]
                weight=cue.spec.weight,
                span=match.group(),
                start=match.start(),
                end=match.end(),
                groups={name: value for name, value in groups.items() if value},
            )

    def guard_for(self, text: str) -> Callable[[int, int], bool]:
        """Whether a span (start, end) of the text is held back by the guards that hold cues back:
        quoted, in code or a log, negated, reported, asked or supposed. For verdicts found outside
        the lexicons (a prohibition of a proposed option, prohibitions.py), read as a cue is."""
        regions, sentences, lowered = protected_regions(text), SentenceIndex(text), text.lower()
        return lambda start, end: self._veto(text, lowered, start, end, regions, sentences, [(start, end)]) is not None

    def _veto(
        self,
        text: str,
        lowered: str,
        start: int,
        end: int,
        regions: list[Region],
        sentences: SentenceIndex,
        verdict: Sequence[tuple[int, int]],
        asks: bool = False,
    ) -> tuple[SuppressionReason, str] | None:
        """The first guard that suppresses the span, with its evidence; None when it stands.
        `lowered` is the text lowered once for all its cues. `verdict` is where in the span the
        verdict sits: a word in another sense there ("CI pass 了") holds the cue back; the same word
        in its target does not ("JR Pass 不要了"). `asks`: the cue's verdict is a question, which the
        question guard does not hold back."""
        region = region_covering(regions, start, end)
        if region is not None:
            return region.kind, text[region.start : region.end][:80]
        sentence_start, sentence_end = sentences.bounds(start)
        sentence_start = max(sentence_start, start - GUARD_SCOPE)
        sentence_end = min(sentence_end, end + GUARD_SCOPE)
        before = text[sentence_start : start]
        asked_from: int | None = None  # read once a question or supposition guard asks for it
        for guard in self._guards:
            if guard.kind == "negation":
                # Also right before the verdict when the span opens with its target: "但也没法 100%
                # 排除" is read as a target "但也没法 100%" and a verdict "排除".
                found = guard.regex.search(before) or (
                    guard.regex.search(text, sentence_start, verdict[0][0]) if verdict and verdict[0][0] > start else None
                )
            elif guard.kind == "reported":
                found = guard.regex.search(before)
                if found and (self._adopted(text[end : end + GUARD_SCOPE]) or self._adopted_since(before[found.end() :])):
                    found = None
            elif guard.kind == "other_sense":
                # Read past the sentence's end: "no way!! it actually works" is one exclamation.
                around = (max(start - GUARD_SCOPE, 0), end + GUARD_SCOPE)
                if guard.anchors is not None and not any(lowered.find(anchor, *around) >= 0 for anchor in guard.anchors):
                    continue
                found = next(
                    (
                        match
                        for match in guard.regex.finditer(text, *around)
                        if any(match.start() < part_end and part_start < match.end() for part_start, part_end in verdict)
                    ),
                    None,
                )
            elif guard.kind == "question" and asks:
                continue  # the verdict is the question itself
            elif guard.kind in ("question", "hypothetical"):
                # Questions and suppositions reach the cue from the sentence's last conclusion on.
                if asked_from is None:
                    asked_from = self._concluded_at(text, sentence_start, start)
                found = guard.regex.search(text[asked_from:sentence_end])
                if found and asked_from + found.start() > end and not _ASKS_ABOUT_IT_RE.match(text, end, sentence_end):
                    found = None  # "drop it. what if ..." only guards what follows it
            else:
                continue
            if found:
                return guard.kind, found.group()  # type: ignore[return-value]
        return None

    def _concluded_at(self, text: str, sentence_start: int, cue_start: int) -> int:
        """Where the sentence's last conclusion before the cue ends, else its start: "万一签证没下来
        就白忙活一场，所以美国就先不考虑了" decides, after the supposition, on its own account."""
        ends = (
            found.end() + sentence_start
            for guard in self._conclusions
            for found in guard.regex.finditer(text[sentence_start:cue_start])
        )
        return max(ends, default=sentence_start)

    def opens_with_report(self, text: str) -> bool:
        """Does the text open by saying someone else said or wants it ("我老婆说惠民保别买，说都是噱头",
        "my lead says no k8s ever"), a view the user has not taken as their own? Read as the
        reported guard reads what comes before a cue."""
        head = text[:REPORT_REACH]
        return any(g.regex.search(head) for g in self._reports) and not self._adopted(text[:GUARD_SCOPE])

    def _adopted(self, after: str) -> bool:
        """Did the user take the reported view as their own ("老板说不行，那就换吧")?"""
        return any(g.regex.search(after) for g in self._adoptions)

    def _adopted_since(self, between: str) -> bool:
        """Did the user take the reported view as their own before the verdict, in a clause of
        their own ("朋友说小红书比抖音好卖 我也觉得是 抖音先不弄了")? An adoption word right after
        the report is still the reported words ("老板说那就不做了")."""
        return any(
            CLAUSE_MARK_RE.search(between, 0, found.start() + 1) is not None  # + 1: a space is a mark by what follows it
            for g in self._adoptions
            for found in g.regex.finditer(between)
        )

    def _extract_spans(
        self, text: str, fired: list[CueHit], regions: list[Region], languages: list[str]
    ) -> dict[str, str]:
        """Spans from the cues' groups, then from the span patterns.

        Cues of the label that outranks (REOPEN over PIVOT over REJECT, as in the rules) speak
        first, the strongest first: in "scrap the new stack and switch back to Django" the
        target is what is reopened, not what the same turn drops.
        """
        spans: dict[str, str] = {}
        for hit in sorted(fired, key=lambda h: (-_LABEL_RANK[h.label], -h.weight)):
            for name, value in hit.groups.items():
                spans.setdefault(name, value)
        for kind, value in self._pattern_spans(mask_regions(text, regions), languages, skip=spans):
            spans[kind] = value
        return spans

    def choice_in(self, text: str) -> str | None:
        """The option a turn says it goes with mid-sentence ("那颗粒板吧 省点钱", "parquet it is"),
        by the replacement span patterns; None when it names none. The tracker reads it where
        the label carries no replacement: a NONE turn (an acceptance in passing) and a REJECT
        that also names where to go."""
        head = text[: 2 * WINDOW_CHARS]
        masked = mask_regions(head, protected_regions(head))
        found = self._pattern_spans(masked, _languages(head), kinds=("replacement",))
        return next((value for _, value in found), None)

    def _pattern_spans(
        self,
        masked: str,
        languages: list[str],
        skip: dict[str, str] | None = None,
        kinds: Sequence[str] = SPAN_GROUPS,
    ) -> Iterator[tuple[str, str]]:
        """(kind, value) of the first span pattern of each kind that matches, in lexicon order;
        kinds in `skip` (already found by a cue) and kinds not asked for are not searched."""
        found = set(skip or ())
        lowered = masked.lower()
        for lang in languages:
            for span in self._spans.get(lang, ()):
                if span.kind in found or span.kind not in kinds:
                    continue
                if span.anchors is not None and not any(anchor in lowered for anchor in span.anchors):
                    continue  # none of the words every match contains: the regex cannot match
                match = span.regex.search(masked)
                if match and (value := clean_span(match.group(span.kind) or "", span.kind)):
                    found.add(span.kind)
                    yield span.kind, value


def _languages(text: str) -> list[str]:
    """The lexicons a text is matched against: zh for CJK characters, en for Latin letters."""
    return [lang for lang, present in (("zh", has_cjk(text)), ("en", has_latin(text))) if present]


def _windows(text: str) -> Iterator[tuple[int, str]]:
    if len(text) <= 2 * WINDOW_CHARS:
        yield 0, text
        return
    yield 0, text[:WINDOW_CHARS]
    yield len(text) - WINDOW_CHARS, text[-WINDOW_CHARS:]


@lru_cache(maxsize=1)
def default_engine() -> CueEngine:
    """The engine over the lexicons installed with the package, built once per process."""
    from detector.cues.memo import pattern_memo

    engine = CueEngine([default_lexicon("zh"), default_lexicon("en")])
    pattern_memo().save()  # every pattern here passed its checks: the next process skips them
    return engine
