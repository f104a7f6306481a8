"""The anchor prefilter only skips work: it never hides a match (checked on the labeled corpus)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from detector.cues.anchors import AnchorIndex, anchors_of
from detector.cues.engine import default_engine
from detector.formats import read_transcripts
from detector.text import normalize

ROOT = Path(__file__).resolve().parent.parent

@pytest.mark.parametrize("pattern, anchors", [
    ("这个方向(?:不对|错了)", {"这个方向"}),
    ("(?:换成|改用)(?P<replacement>[^,]{1,10})", {"换成", "改用"}),
    ("\\bdrop(?:ping|ped)?\\s(?P<target>[^,]{1,40})", {"drop"}),
    ("(?:a|b)?x{0,3}", None),
    ("[^,]{1,5}", None),
])
def test_anchors_of(pattern: str, anchors: set[str] | None) -> None:
    found = anchors_of(pattern)
    assert (found is None) if anchors is None else found == frozenset(anchors)


def test_index_finds_exactly_the_cues_whose_anchors_occur() -> None:
    index = AnchorIndex([frozenset({"drop", "scrap"}), None, frozenset({"不", "作废"}), frozenset({"dr"})])
    assert index.candidates("let's drop it") == [0, 1, 3]
    assert index.candidates("上个方案作废") == [1, 2]
    assert index.candidates("keep it") == [1]
    assert index.candidates("") == [1]


@lru_cache(maxsize=1)
def _corpus_turns() -> tuple[str, ...]:
    """Every turn of the labeled corpus, normalised: the real text the prefilters must not fool."""
    return tuple(
        normalize(turn.text)
        for name in ("train", "dev", "test")
        for transcript in read_transcripts(ROOT / "data" / f"{name}.jsonl")
        for turn in transcript.turns
    )


def test_prefilter_never_hides_a_match_on_real_turns() -> None:
    engine = default_engine()
    texts = list(_corpus_turns())
    texts += [example for cues in engine._cues.values() for cue in cues for example in cue.spec.examples]
    hidden = []
    for text in texts:
        for lang, cues in engine._cues.items():
            candidates = set(engine._anchor_index[lang].candidates(text.lower()))
            hidden += [
                (cue.spec.id, text[:40])
                for position, cue in enumerate(cues)
                if position not in candidates and cue.regex.search(text)
            ]
    assert hidden == []


def test_span_prefilter_never_hides_a_span_on_real_turns() -> None:
    """A span pattern is skipped when none of its anchors is in the turn; on every turn of the
    corpus and every example, no skipped pattern would have matched."""
    engine = default_engine()
    texts = list(_corpus_turns())
    texts += [
        example for lexicon in engine.lexicons.values() for span in lexicon.span for example in span.examples
    ]
    hidden = [
        (span.kind, text[:40])
        for text in texts
        for spans in engine._spans.values()
        for span in spans
        if span.anchors is not None
        and not any(anchor in text.lower() for anchor in span.anchors)
        and span.regex.search(text)
    ]
    assert hidden == []
