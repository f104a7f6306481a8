"""Abbreviations spelled out from the conversation before target resolution (detector/acronyms.py)."""

from __future__ import annotations

import pytest

from detector.acronyms import moved, spell_out, spelled_out, spellings
from detector.schema import Label, Turn

TOOLS = "有三种做法：\n1. Great Expectations：功能全\n2. Soda Core：配置轻\n3. 自己写 SQL 检查挂在调度里"


@pytest.mark.parametrize(
    ("letters", "earlier", "spelling"),
    [
        ("GE", TOOLS, "Great Expectations"),
        ("TGTG", "You could list the leftovers on Too Good To Go at closing.", "Too Good To Go"),
        ("DS", "你可以考虑转 data scientist，或者继续做分析", "data scientist"),
        ("RLS", "Use row-level security in Postgres for tenant isolation.", "row-level security"),
    ],
)
def test_an_abbreviation_is_spelled_as_the_conversation_spelled_it(letters: str, earlier: str, spelling: str) -> None:
    assert spelled_out(letters, [earlier]) == spelling


@pytest.mark.parametrize(
    ("letters", "earlier"),
    [
        ("PI", "the posing increases the effect size"),  # words that happen to open with the letters
        ("PR", "装 pytest-randomly 把顺序打乱"),  # one hyphenated name is no two words
        ("PM", "it costs $40 per month"),  # a function word at an edge
        ("IF", "that is fine by me"),
    ],
)
def test_words_that_only_open_with_the_letters_spell_nothing(letters: str, earlier: str) -> None:
    assert spelled_out(letters, [earlier]) is None


def test_an_abbreviation_the_conversation_also_uses_stays_as_it_is() -> None:
    """"RLS" said by the assistant too is the name both share: nothing to spell out."""
    earlier = ["Option 2: row level security (RLS) on every table."]
    assert spellings("RLS 哪天出个 bug 就是串数据", earlier) == {}


def test_offsets_move_with_the_spelling() -> None:
    spelled = spellings("no RN. flutter", ["I'd suggest React Native for the build."])
    text, edits = spell_out("no RN. flutter", spelled)
    assert text == "no React Native. flutter"
    assert text[moved(7, edits) :] == "flutter"
    assert moved(0, edits) == 0


@pytest.mark.parametrize(
    ("reply", "text", "target"),
    [
        ("1. Weekly menu with 5 cheap recipes.\nFor the app itself, I'd suggest React Native.", "no RN. flutter", "React Native"),
        (TOOLS, "GE 之前试过，配置太啰嗦，放弃", "Great Expectations"),
    ],
)
def test_a_rejection_by_abbreviation_targets_the_spelled_name(shipped_detector, reply: str, text: str, target: str) -> None:  # type: ignore[no-untyped-def]
    """"GE" shares no word with "Great Expectations": the target had been "配置", or another option."""
    context = [Turn(role="user", text="which one?"), Turn(role="assistant", text=reply)]
    detection = shipped_detector.detect(text, context)
    assert detection.label in (Label.REJECT, Label.PIVOT)
    assert detection.target is not None and target in detection.target
