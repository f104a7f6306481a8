"""A turn that goes back to an option an earlier reply offered ("back to adamw", "回到时间线")
against the same words going back to something nobody offered."""

from __future__ import annotations

import pytest

from detector.cues.engine import default_engine
from detector.returns import returned_option
from detector.schema import Label, Turn
from detector.text import normalize

_OPTIMIZERS = "Two optimizers to try: 1. AdamW with a cosine schedule; 2. SGD with momentum 0.9. I'd start with 1."
_FORECAST = "Options: 1. A single global LightGBM model with lag features; 2. N-BEATS trained per store."
_LAYOUT = "两种组织方式：方案一：按时间线组织，从立项写到上线；方案二：按主题组织，每章一个问题。"
_LESSONS = "可以考虑：1. 钢琴，需要每天陪练；2. 美术，课上完成作品。"
_TRIP = "Day plan: Tokyo → Hakone → Kyoto. Shops: 1. Pokémon Center Mega Tokyo; 2. Nintendo Tokyo in Shibuya."
_FUNDING = "Funding routes: 1. A publisher deal for the console ports; 2. Steam Early Access to fund the rest of the work."


def _context(*replies: str) -> list[Turn]:
    """A conversation whose assistant turns are the replies, the user's turns in between."""
    turns: list[Turn] = []
    for reply in replies:
        turns += [Turn(role="user", text="what next?"), Turn(role="assistant", text=reply)]
    return turns


def _returned(text: str, *replies: str) -> str | None:
    found = returned_option(normalize(text), _context(*replies), default_engine())
    return found.name if found is not None else None


@pytest.mark.parametrize("replies, text, name", [
    ((_OPTIMIZERS, "SGD it is: lr 0.1, momentum 0.9, step decay."), "sgd diverges unless the lr is tiny. back to adamw", "AdamW"),
    ((_FORECAST, "Then N-BEATS, one model per store."), "N-BEATS WAPE is 14.1 vs 11.8. going back to lightgbm direct", "A single global LightGBM"),
    ((_LAYOUT, "那就按主题写。"), "按主题写了两章，太碎了。还是回到时间线吧", "按时间线组织"),
    ((_LESSONS, "那就先学美术。"), "婆婆愿意每天陪练的话，钢琴又能考虑了", "钢琴"),
])
def test_a_return_to_an_option_an_earlier_reply_offered_names_it(replies: tuple[str, ...], text: str, name: str) -> None:
    assert (_returned(text, *replies) or "").startswith(name)


@pytest.mark.parametrize("replies, text", [
    ((_TRIP,), "we fly into Osaka → Kyoto → back to Tokyo for the last night"),  # Tokyo is no first word of the shop
    ((_FUNDING,), "Back to funding. I'm not doing anything with the publisher route for now"),  # a new subject
    ((_OPTIMIZERS, "SGD it is."), "should we go back to adamw?"),  # a question
    ((_OPTIMIZERS, "SGD it is."), "my lead wants to go back to adamw, I disagree"),  # reported
    ((_OPTIMIZERS, "SGD it is."), "ok back to work, the run is going"),  # nothing offered
    ((), "back to adamw"),  # no reply offered anything
])
def test_going_back_to_what_no_reply_offered_or_in_passing_is_no_return(replies: tuple[str, ...], text: str) -> None:
    assert _returned(text, *replies) is None


def test_a_return_is_a_reopening_of_the_option_even_beside_a_drop(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"肘子放弃，回到佛跳墙吧" drops one dish and returns to another: the label guide's REOPEN, with
    the dish returned to as its target (left a PIVOT, the tracker recorded 佛跳墙 as dropped)."""
    context = _context("选项：1. 整鱼，清蒸或红烧；2. 烤羊排；3. 佛跳墙；4. 东坡肘子。", "东坡肘子要提前一天卤好。")
    detection = shipped_detector.detect("肘子太咸了，没时间重卤。肘子放弃，回到佛跳墙吧，买现成的半成品", context)
    assert detection.label is Label.REOPEN
    assert "佛跳墙" in (detection.target or "")
