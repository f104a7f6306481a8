"""The anchor prefilter only skips work: it never hides a match (checked on the labeled corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest

from detector.cues.anchors import anchors_of
from detector.cues.engine import default_engine
from detector.formats import read_transcripts
from detector.text import normalize

ROOT = Path(__file__).resolve().parent.parent

# fmt: off
@pytest.mark.parametrize("pattern, anchors", [
    ("这个方向(?:不对|错了)", {"这个方向"}),
    ("(?:换成|改用)(?P<replacement>[^,]{1,10})", {"换成", "改用"}),
    ("\\bdrop(?:ping|ped)?\\s(?P<target>[^,]{1,40})", {"drop"}),
    ("(?:a|b)?x{0,3}", None),
    ("[^,]{1,5}", None),
])
# fmt: on
def test_anchors_of(pattern: str, anchors: set[str] | None) -> None:
    found = anchors_of(pattern)
    assert (found is None) if anchors is None else found == frozenset(anchors)


def test_prefilter_never_hides_a_match_on_real_turns() -> None:
    cues = [cue for cues in default_engine()._cues.values() for cue in cues]
    texts = [
        normalize(turn.text)
        for name in ("train", "dev", "test")
        for transcript in read_transcripts(ROOT / "data" / f"{name}.jsonl")
        for turn in transcript.turns
    ]
    texts += [example for cue in cues for example in cue.spec.examples]
    hidden = [
        (cue.spec.id, text[:40])
        for text in texts
        for cue in cues
        if not cue.may_match(text.lower()) and cue.regex.search(text)
    ]
    assert hidden == []
