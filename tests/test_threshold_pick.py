"""How threshold selection weighs dev macro F1, false alarms and the label guide's examples."""

from __future__ import annotations

from detector.classifier import FusionThresholds
from detector.learn import _pick


def _setting(name: float, macro_f1: float, false_alarms: float, misses: int):  # type: ignore[no-untyped-def]
    metrics = {"macro_f1": macro_f1, "none_false_positive_rate": false_alarms}
    return metrics, misses, FusionThresholds(positive=name)


def test_the_best_setting_within_the_headroom_wins_when_the_guide_cannot_tell() -> None:
    chosen = _pick([_setting(1, 0.75, 0.020, 0), _setting(2, 0.70, 0.010, 0), _setting(3, 0.80, 0.028, 0)])
    assert chosen.positive == 1


def test_the_guide_may_spend_the_headroom_but_not_the_promise() -> None:
    within_headroom = _setting(1, 0.750, 0.0250, 1)
    spends_headroom = _setting(2, 0.751, 0.0254, 0)
    breaks_promise = _setting(3, 0.760, 0.0310, 0)
    assert _pick([within_headroom, spends_headroom, breaks_promise]).positive == 2
    assert _pick([within_headroom, breaks_promise]).positive == 1
    costs_macro_f1 = _setting(4, 0.748, 0.0254, 0)
    assert _pick([within_headroom, costs_macro_f1]).positive == 1


def test_the_guide_does_not_buy_an_example_with_macro_f1() -> None:
    assert _pick([_setting(1, 0.750, 0.020, 1), _setting(2, 0.730, 0.020, 0)]).positive == 1


def test_when_nothing_keeps_the_limit_the_fewest_false_alarms_win() -> None:
    assert _pick([_setting(1, 0.75, 0.040, 0), _setting(2, 0.70, 0.035, 0)]).positive == 2


def test_the_bar_for_uncued_turns_is_read_as_a_neighbourhood_not_a_wiggle() -> None:
    """Along the uncued bar (in order), a lone peak among near-ties loses to a level stretch."""
    from detector.learn import _smoothed

    line = [_setting(bar, f1, 0.02, 0) for bar, f1 in ((0.8, 0.770), (0.85, 0.769), (0.9, 0.762), (0.95, 0.771), (1.01, 0.750))]
    assert _pick(line).positive == 0.95  # the raw line's last wiggle
    assert _pick(_smoothed(line)).positive == 0.85  # the level stretch, two neighbours a side
    # Each keeps its own false alarms: a neighbour's cannot carry a setting over the limit.
    assert [metrics["none_false_positive_rate"] for metrics, _, _ in _smoothed(line)] == [0.02] * 5
    assert round(_smoothed(line)[0][0]["macro_f1"], 4) == round((0.770 + 0.769 + 0.762) / 3, 4)
    assert round(_smoothed(line)[2][0]["macro_f1"], 4) == round((0.770 + 0.769 + 0.762 + 0.771 + 0.750) / 5, 4)
