"""The state figures of `pivot eval`: the gold state the labels leave, and the tracker scored on it."""

from __future__ import annotations

from detector.detect import Detector
from detector.schema import Transcript
from detector.state_figures import gold_state, state_figures

OPTIONS = "方案A：Redis 集中式缓存。\n方案B：本地 LRU 缓存。\n方案C：CDN 边缘缓存。"


def _conversation(*user_turns: dict[str, str]) -> Transcript:
    turns: list[dict[str, str]] = [{"role": "user", "text": "缓存怎么做", "label": "NONE"}, {"role": "assistant", "text": OPTIONS}]
    for turn in user_turns:
        turns += [{"role": "user", **turn}, {"role": "assistant", "text": "好的。"}]
    return Transcript.model_validate({"id": "c", "lang": "zh", "turns": turns})


def test_the_gold_state_replays_rejections_pivots_and_reopenings() -> None:
    transcript = _conversation(
        {"text": "A 不行，运维扛不住", "label": "REJECT", "target": "方案A"},
        {"text": "C 也不要了，换 B", "label": "PIVOT", "target": "方案C", "replacement": "方案B"},
        {"text": "回头再看看方案A", "label": "REOPEN", "target": "方案A"},
    )
    gold = gold_state(transcript.turns)
    assert gold.rejected == ["方案C"] and gold.decision == "方案B"


def test_the_tracker_is_scored_turn_by_turn_and_at_the_end() -> None:
    """Rules mode finds "A 不行" and "方案C不行，换成方案B": A and C are on the list and B is the
    decision, as the gold labels say; a rejection with no cue ("这几个我都再想想") it misses."""
    transcript = _conversation(
        {"text": "A 不行，运维扛不住", "label": "REJECT", "target": "方案A"},
        {"text": "方案C不行，换成方案B", "label": "PIVOT", "target": "方案C", "replacement": "方案B"},
        {"text": "我们天天在调参数，烦死了", "label": "NONE"},
    )
    figures = state_figures(Detector("rules"), [transcript])
    assert figures["conversations"] == 1
    assert figures["rejection_recorded"] == 1.0 and figures["pivot_decision_set"] == 1.0
    assert figures["final_rejected_precision"] == figures["final_rejected_recall"] == figures["final_rejected_exact"] == 1.0

    missed = _conversation({"text": "这几个我都再想想", "label": "REJECT", "target": "方案A"})
    figures = state_figures(Detector("rules"), [missed])
    assert figures["rejection_recorded"] == 0.0 and figures["final_rejected_recall"] == 0.0


def test_conversations_without_a_gold_rejection_are_not_counted() -> None:
    quiet = _conversation({"text": "好，就按B来", "label": "NONE"})
    assert state_figures(Detector("rules"), [quiet])["conversations"] == 0


def _recorded(options: str, rejection: str, target: str) -> float:
    """`rejection_recorded` of a conversation where the user rejects, with this gold target, one
    of the options the assistant listed."""
    turns = [
        {"role": "user", "text": "what are my options?", "label": "NONE"},
        {"role": "assistant", "text": options},
        {"role": "user", "text": rejection, "label": "REJECT", "target": target},
    ]
    transcript = Transcript.model_validate({"id": "c", "lang": "en", "turns": turns})
    return float(state_figures(Detector("rules"), [transcript])["rejection_recorded"])


def test_a_rejected_option_counts_by_its_whole_name_and_its_exact_label() -> None:
    """The list shows a long option cut short ("1(Make the bucket requester-pays so they…)"):
    the gold target is found in the option's whole summary. A label must be equal to count:
    Option 1 is not "the 10-year plan" because "1" is inside "10"."""
    options = "Options:\n1. Make the bucket requester-pays so they cover their own egress costs\n2. Keep paying for egress"
    rejection = "drop option 1, they will never agree"
    assert _recorded(options, rejection, "requester-pays so they cover their own egress") == 1.0
    assert _recorded(options, rejection, "the 10-year plan") == 0.0


def test_an_option_counts_when_its_summary_holds_every_word_of_the_gold_target() -> None:
    """Neither "a garden party at home with a marquee" nor the gold "garden party with a marquee"
    contains the other, yet they are one option. A word it lacks, or a number or letter it lacks
    (content words leave them out: "方向C" is not "三个方向"), and it is another."""
    options = "Three ideas:\n1. A restaurant private room\n2. A rented village hall\n3. A garden party at home with a marquee"
    rejection = "no to option 3, it's scotland in october"
    assert _recorded(options, rejection, "garden party with a marquee") == 1.0
    assert _recorded(options, rejection, "garden party with a bouncy castle") == 0.0
    assert _recorded(options, rejection, "garden party with 2 marquees") == 0.0


def test_standing_constraints_are_scored_on_turns_tagged_with_a_hard_negative_kind() -> None:
    """A conversation that rejects nothing still counts for the constraints: after a turn tagged
    `standing_constraint` a constraint should be kept, after any other hard negative none."""
    transcript = _conversation(
        {"text": "以后所有接口都必须兼容 Python 3.8", "label": "NONE", "hard_negative": "standing_constraint"},
        {"text": "预算是两万，不是三万", "label": "NONE", "hard_negative": "fact_correction"},
        {"text": "表格里的数字写错了", "label": "NONE", "hard_negative": "fact_correction"},
        {"text": "好，就按B来", "label": "NONE"},
    )
    figures = state_figures(Detector("rules"), [transcript])
    assert figures["conversations"] == 0  # no gold rejection: the list figures do not count it
    assert figures["constraint_turns"] == 1 and figures["constraint_kept"] == 1.0
    assert figures["constraint_on_other_hard_negatives"] == 0.5  # "预算是两万" reads as a budget, a correction or not
