"""Hostile input, property-based: the detector, the tracker, the readers and the hook never crash.

Hypothesis feeds arbitrary Unicode (CJK, emoji, right-to-left, control and zero-width characters,
lone surrogates), cue-laden text, very long turns and long conversations. What must hold: no
exception escapes except a PivotError (the user-facing kind), labels stay in the label set, and
every cue offset points inside the normalised text at the span it reports.
"""

from __future__ import annotations

import gzip
import json
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from detector.cues.engine import default_engine
from detector.detect import Detector
from detector.errors import PivotError
from detector.formats import BadRecord, Record, iter_file
from detector.hook import PreTurnHook, handle_hook_input
from detector.loading import build_detector
from detector.schema import Detection, Label, Turn
from detector.store import MemoryStore
from detector.text import normalize
from detector.tracker import ConvergenceTracker

LABELS = set(Label)
SETTINGS = settings(
    database=None,  # no .hypothesis/ folder in the source tree; failures print their example
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)

# Characters that break naive text code: zero-width, bidi controls, BOM, C0/C1 controls, line and
# paragraph separators, full-width forms, combining marks, emoji with joiners and skin tones.
NASTY = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u202e",
    "\u202d",
    "\u2066",
    "\u2069",
    "\u061c",
    "\x00",
    "\x07",
    "\x1b",
    "\x7f",
    "\x85",
    "\u2028",
    "\u2029",
    "\r\n",
    "\t",
    "\v",
    "\f",
    "Ａ",
    "，",
    "。",
    "？",
    "！",
    "「",
    "」",
    "“",
    "”",
    "``",
    "```",
    "> ",
    "e\u0301",
    "👨‍👩‍👧",
    "👍🏽",
    "🇨🇳",
    "مرحبا بالعالم",
    "שלום",
    "אבל לא",
    "こんにちは",
    "한국어",
    "𠀀𪚥",
    "\U0010ffff",
    "\ufffd",
]
SURROGATES = ["\ud800", "\udfff", "\udc00x\ud83d"]
CJK = st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), max_size=20)


@lru_cache(maxsize=1)
def cue_examples() -> list[str]:
    """Every example phrase of every shipped cue: text the patterns are known to match."""
    engine = default_engine()
    return [example for cues in engine._cues.values() for cue in cues for example in cue.spec.examples]


def piece(allow_surrogates: bool = False) -> st.SearchStrategy[str]:
    choices = [
        st.text(max_size=30),
        CJK,
        st.sampled_from(NASTY),
        st.sampled_from(cue_examples()),
        st.sampled_from(
            ["不是说", "要不要", "what if ", "my manager wants to ", "?", "？", "\n", "。", '"', "'"]
        ),
    ]
    if allow_surrogates:
        choices.append(st.sampled_from(SURROGATES))
    return st.one_of(*choices)


def turn_text(allow_surrogates: bool = False, max_pieces: int = 12) -> st.SearchStrategy[str]:
    return st.lists(piece(allow_surrogates), max_size=max_pieces).map("".join)


@lru_cache(maxsize=1)
def hybrid_detector() -> Detector:
    return build_detector()


def check_detection(detection: Detection, text: str) -> None:
    """The invariants every Detection must keep, whatever the text."""
    assert detection.label in LABELS
    assert set(detection.scores) <= LABELS
    assert all(0.0 <= score <= 1.0 for score in detection.scores.values())
    assert 0.0 <= detection.confidence <= 1.0
    normalized = normalize(text)
    hits = list(detection.explanation.fired) + [s.hit for s in detection.explanation.suppressed]
    for hit in hits:
        assert hit.label in LABELS
        assert 0 <= hit.start <= hit.end <= len(normalized), (hit, len(normalized))
        assert normalized[hit.start : hit.end] == hit.span
    assert detection.explanation.rule


# -- detect ------------------------------------------------------------------------------------


@SETTINGS
@given(text=turn_text(allow_surrogates=True))
def test_rules_detector_survives_any_text(text: str) -> None:
    check_detection(Detector("rules").detect(text), text)


@SETTINGS
@given(text=turn_text(), context=st.lists(turn_text(max_pieces=4), max_size=4))
def test_hybrid_detector_survives_any_text_and_context(text: str, context: list[str]) -> None:
    turns = [Turn(role="assistant" if i % 2 else "user", text=t) for i, t in enumerate(context)]
    check_detection(hybrid_detector().detect(text, turns), text)


@pytest.mark.parametrize("text", ["\ud800", "drop it \udfff", "这个方向不对\udc00"])
def test_hybrid_detector_survives_lone_surrogates(text: str) -> None:
    check_detection(hybrid_detector().detect(text), text)


@settings(max_examples=8, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    unit=st.one_of(st.sampled_from(cue_examples()), st.sampled_from(NASTY), CJK.filter(bool)),
    size=st.integers(min_value=20_000, max_value=120_000),
    tail=turn_text(max_pieces=3),
)
def test_very_long_turns_keep_offsets_inside_the_text(unit: str, size: int, tail: str) -> None:
    text = (unit + " ") * (size // (len(unit) + 1) + 1) + tail
    for detector in (Detector("rules"), hybrid_detector()):
        detection = detector.detect(text)
        check_detection(detection, text)
        if len(normalize(text)) > 2000:
            assert len(detection.explanation.normalized_text) <= 2001


# -- tracker -----------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    turns=st.lists(st.tuples(st.sampled_from(["user", "assistant"]), turn_text(max_pieces=6)), max_size=30)
)
def test_tracker_survives_random_conversations(turns: list[tuple[str, str]]) -> None:
    tracker = ConvergenceTracker(Detector("rules"), MemoryStore())
    users = 0
    for role, text in turns:
        if role == "user":
            users += 1
            suggestion = tracker.observe_user("c", text)
            if suggestion is not None:
                assert suggestion.turn == users
                assert all(d.label in LABELS for d in suggestion.detections)
                assert suggestion.block
        else:
            verdict = tracker.observe_assistant("c", text)
            assert verdict.verdict in ("RELAPSE", "OK")
    state = tracker.state("c")
    assert state.turn == users
    assert len(state.recent_turns) <= tracker.config.context_turns
    assert {r.alternative_id for r in state.rejected} <= {a.id for a in state.alternatives}


def test_tracker_handles_a_conversation_of_two_thousand_turns() -> None:
    examples = cue_examples()
    tracker = ConvergenceTracker(Detector("rules"), MemoryStore())
    for i in range(1000):
        tracker.observe_user("long", f"{examples[i % len(examples)]} 第{i}轮 turn {i}")
        tracker.observe_assistant(
            "long", f"方案A：Redis {i}\n方案B：本地 LRU\nOption {i % 7}: something else"
        )
    state = tracker.state("long")
    assert state.turn == 1000
    assert len(state.recent_turns) == tracker.config.context_turns
    assert state.model_dump_json()  # still serialisable after 2,000 turns


# -- readers -----------------------------------------------------------------------------------


def _read_all(data: bytes, suffix: str) -> list[Record | BadRecord]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
        items = list(iter_file(path))
    for item in items:
        assert isinstance(item, (Record, BadRecord))
        assert item.line >= 0
        if isinstance(item, BadRecord):
            assert str(item).startswith(str(path))
    return items


@SETTINGS
@given(data=st.binary(max_size=2000), suffix=st.sampled_from([".jsonl", ".json", ".jsonl.gz"]))
def test_readers_survive_random_bytes(data: bytes, suffix: str) -> None:
    _read_all(data, suffix)


@SETTINGS
@given(data=st.binary(max_size=500))
def test_readers_survive_a_random_file_named_gz_that_is_not_gzip(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "broken.jsonl.gz"
        path.write_bytes(data)
        assert all(isinstance(item, (Record, BadRecord)) for item in iter_file(path))


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), turn_text(max_pieces=4)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
ROLES = st.sampled_from(["user", "assistant", "system", "tool", "human", "gpt", "", "USER"])
OURS = st.fixed_dictionaries(
    {
        "id": st.text(max_size=8),
        "turns": st.lists(
            st.fixed_dictionaries({"role": ROLES, "text": turn_text(max_pieces=4)}), max_size=5
        ),
    }
)
OPENAI = st.fixed_dictionaries(
    {
        "messages": st.lists(
            st.fixed_dictionaries(
                {"role": ROLES, "content": st.one_of(turn_text(max_pieces=4), JSON_VALUES)}
            ),
            max_size=5,
        )
    }
)
SHAREGPT = st.fixed_dictionaries(
    {"conversations": st.lists(st.fixed_dictionaries({"from": ROLES, "value": JSON_VALUES}), max_size=5)}
)
# JSON text with escaped lone surrogates, which json.loads accepts and turns into unpaired code points.
SURROGATE_LINES = st.sampled_from(
    [
        '{"turns": [{"role": "user", "text": "drop it \\ud800"}]}',
        '{"messages": [{"role": "user", "content": "\\udc00 scrap plan A"}]}',
        '{"conversations": [{"from": "human", "value": "\\ud83d"}]}',
        '{"id": "\\udfff", "turns": [{"role": "user", "text": "x"}]}',
        '{"turns": [{"role": "\\ud800", "text": "x"}]}',
    ]
)


@SETTINGS
@given(
    records=st.lists(
        st.one_of(
            OURS.map(json.dumps),
            OPENAI.map(json.dumps),
            SHAREGPT.map(json.dumps),
            JSON_VALUES.map(json.dumps),
            SURROGATE_LINES,
            st.text(max_size=40),
        ),
        max_size=8,
    ),
    as_array=st.booleans(),
)
def test_readers_survive_random_json_records(records: list[str], as_array: bool) -> None:
    if as_array:
        text, suffix = "[" + ",\n".join(records) + "]", ".json"
    else:
        text, suffix = "\n".join(r.replace("\n", " ") for r in records), ".jsonl"
    items = _read_all(text.encode("utf-8", "surrogatepass"), suffix)
    for item in items:
        if isinstance(item, Record):
            assert all(turn.role in ("user", "assistant", "system", "tool") for turn in item.transcript.turns)


# -- the hook ----------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def rules_hook() -> PreTurnHook:
    return PreTurnHook(store=MemoryStore(), mode="rules")


HOOK_REQUESTS = st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries(
        {
            "conversation_id": st.one_of(st.text(max_size=6), JSON_SCALARS),
            "turn": st.one_of(
                JSON_VALUES, st.fixed_dictionaries({"role": ROLES, "text": turn_text(max_pieces=6)})
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "hook_event_name": st.just("UserPromptSubmit"),
            "session_id": st.one_of(st.text(max_size=6), JSON_SCALARS),
            "prompt": st.one_of(turn_text(max_pieces=6), JSON_SCALARS),
        }
    ),
)


def _run_hook(raw: str) -> None:
    try:
        output = handle_hook_input(rules_hook(), raw)
    except PivotError:
        return
    assert isinstance(output, str)
    if output:
        answer = json.loads(output)
        assert isinstance(answer, dict)
        for detection in answer.get("detections", []):
            assert detection["label"] in {label.value for label in Label}


@SETTINGS
@given(request=HOOK_REQUESTS)
def test_hook_survives_random_json(request: object) -> None:
    _run_hook(json.dumps(request))


@SETTINGS
@given(raw=st.one_of(st.text(max_size=60), st.binary(max_size=60).map(lambda b: b.decode("latin-1"))))
def test_hook_survives_random_non_json(raw: str) -> None:
    _run_hook(raw)


@pytest.mark.parametrize(
    "raw",
    [
        '{"conversation_id": "c", "turn": {"role": "user", "text": "drop it \\ud800"}}',
        '{"conversation_id": "c", "turn": {"role": "assistant", "text": "方案A \\ud800"}}',
        '{"hook_event_name": "UserPromptSubmit", "session_id": "\\udc00", "prompt": "x"}',
    ],
)
def test_hook_rejects_lone_surrogates_with_a_user_facing_error(raw: str) -> None:
    _run_hook(raw)


@pytest.mark.parametrize("command", [["scan", "--workers", "1", "--quiet"], ["detect", "--json", "--file"]])
def test_commands_survive_a_lone_surrogate_in_a_transcript(tmp_path: Path, command: list[str]) -> None:
    import subprocess
    import sys

    log = tmp_path / "surrogate.jsonl"
    log.write_text(
        '{"id": "s1", "turns": [{"role": "user", "text": "drop the Redis idea \\ud800"}]}\n', encoding="utf-8"
    )
    result = subprocess.run(
        [sys.executable, "-m", "detector.cli", *command, str(log), "--mode", "rules"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in result.stderr, result.stderr
