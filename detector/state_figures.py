"""How right the tracked state is at the end of a labeled conversation: what the agent would pin.

Per-turn figures (`learn.evaluate`) score labels and targets one turn at a time; the product is
the state those turns leave behind: the options listed as rejected, and the current decision.
The gold state follows the gold labels in order: a REJECT or PIVOT adds its target to the
rejected list, a PIVOT's replacement becomes the decision (and leaves the list), a REOPEN takes
its target off. The tracker, fed the same turns (assistant turns too), gives the predicted state.
Two texts denote the same option when `same_thing` says so, as for `target_match`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from detector.alternatives import content_keys
from detector.detect import Detector
from detector.schema import ConvergenceState, Label, Transcript, Turn
from detector.text import squeeze

# Latin letters and digits in runs of one or two: option letters and numbers ("方向C", "3x").
_SHORT_TOKEN_RE = re.compile(r"(?<![a-z0-9])[a-z0-9]{1,2}(?![a-z0-9])")


def same_thing(predicted: str | None, gold: str | None) -> bool:
    """Do two spans denote the same thing: equal after normalisation, or one contains the other.
    The measure of `target_match` and of the state figures alike."""
    if not predicted or not gold:
        return False
    a, b = squeeze(predicted), squeeze(gold)
    return bool(a and b) and (a == b or a in b or b in a)


@dataclass
class GoldState:
    """The state the gold labels of one conversation leave behind."""

    rejected: list[str] = field(default_factory=list)
    decision: str | None = None


def gold_state(turns: Sequence[Turn]) -> GoldState:
    """Replay the gold labels: rejections add, reopenings and pivots' replacements take away."""
    state = GoldState()
    for turn in turns:
        if turn.role != "user" or turn.label is None or not turn.label.is_positive or not turn.target:
            continue
        if turn.label is Label.REOPEN:
            state.rejected = [r for r in state.rejected if not same_thing(r, turn.target)]
            continue
        if not any(same_thing(r, turn.target) for r in state.rejected):
            state.rejected.append(turn.target)
        if state.decision is not None and same_thing(state.decision, turn.target):
            state.decision = None
        if turn.label is Label.PIVOT and turn.replacement:
            state.decision = turn.replacement
            state.rejected = [r for r in state.rejected if not same_thing(r, turn.replacement)]
    return state


def _names_of_rejected(state: ConvergenceState) -> list[list[str]]:
    """Each rejected entry by the names it answers to: as displayed, its option's label, and the
    option's whole summary (the display cuts long names short: "1(sheet pan chicken thighs…)"
    stands for "sheet pan chicken thighs with roasted veg")."""
    options = {a.id: a for a in state.alternatives}
    names = []
    for entry in state.rejected:
        option = options.get(entry.alternative_id)
        names.append([entry.alternative] + ([option.label, option.summary] if option else []))
    return names


def _denotes(names: Sequence[str], gold: str) -> bool:
    """Does an entry with these names denote the gold option? A label must be equal ("方案三"),
    never merely contained: "1" is inside "$10k used car". An option's summary also denotes a gold
    span whose every word it holds: "a garden party at home with a marquee" is the "garden party
    with a marquee" the user turned down, though neither text contains the other (containment
    alone counted the bare word "marquee" right and the whole option wrong)."""
    display, *rest = names
    label, summary = rest if rest else (None, None)
    return (
        same_thing(display, gold)
        or (summary is not None and (same_thing(summary, gold) or _holds_every_word(summary, gold)))
        or (label is not None and squeeze(label) == squeeze(gold))
    )


def _holds_every_word(summary: str, gold: str) -> bool:
    """Every content word of the gold span is in the summary, and so is every short Latin token,
    which content words leave out: "方向C" is not "三个方向"."""
    wanted = content_keys(gold)
    short = set(_SHORT_TOKEN_RE.findall(gold.lower()))
    return bool(wanted) and wanted <= content_keys(summary) and short <= set(_SHORT_TOKEN_RE.findall(summary.lower()))


def _on_list(state: ConvergenceState, gold: str | None) -> bool:
    return gold is not None and any(_denotes(names, gold) for names in _names_of_rejected(state))


def _decided(state: ConvergenceState, gold: str) -> bool:
    """Is the gold replacement the current decision (by its display, label or summary)?"""
    decision = state.current_decision
    if decision is None:
        return False
    option = next((a for a in state.alternatives if a.id == decision.alternative_id), None)
    return _denotes([decision.text] + ([option.label, option.summary] if option else []), gold)


def _matched(predicted: Sequence[Sequence[str]], gold: Sequence[str]) -> int:
    """Pairs of a predicted and a gold option that denote the same thing, each used once."""
    free = list(gold)
    found = 0
    for names in predicted:
        match = next((g for g in free if _denotes(names, g)), None)
        if match is not None:
            free.remove(match)
            found += 1
    return found


def state_figures(detector: Detector, transcripts: Iterable[Transcript]) -> dict[str, Any]:
    """What the tracker records when a gold label says something changed, and the rejected list
    it ends with, over the conversations whose gold labels reject something with a named target.
    And the standing constraints: of the user turns the data tags as one, the share after which
    the state holds a new constraint, and the same share for turns tagged as another hard
    negative, where none should be recorded.

    After each gold REJECT or PIVOT: is its target on the rejected list? After each PIVOT: is its
    replacement the current decision? After each REOPEN of an option the tracker had listed: is
    it off the list? At the end: precision and recall of the rejected list against the gold one.
    """
    from detector.store import MemoryStore
    from detector.tracker import ConvergenceTracker

    counts = dict.fromkeys(("rejections", "recorded", "pivots", "decided", "reopenings", "reopened"), 0)
    kept = dict.fromkeys(("constraint_turns", "constraint_kept", "other_turns", "other_kept"), 0)
    predicted_total = gold_total = matched = exact = conversations = 0
    for transcript in transcripts:
        gold = gold_state(transcript.turns)
        scored = bool(gold.rejected) or gold.decision is not None
        if not scored and not any(_hard_negative(turn) for turn in transcript.turns):
            continue
        conversations += scored
        cid = transcript.id or "conversation"
        tracker = ConvergenceTracker(detector, MemoryStore(isolate=False))
        for turn in transcript.turns:
            if turn.role == "assistant":
                tracker.observe_assistant(cid, Turn(role="assistant", text=turn.text))
                continue
            if turn.role != "user":
                continue
            labelled = scored and turn.label is not None and turn.label.is_positive and bool(turn.target)
            was_on_list = labelled and _on_list(tracker.state(cid), turn.target)
            constraints_before = set(tracker.state(cid).constraints)
            tracker.observe_user(cid, turn.text)
            _count_constraint(kept, turn, set(tracker.state(cid).constraints) - constraints_before)
            if not labelled:
                continue
            state = tracker.state(cid)
            on_list = _on_list(state, turn.target)
            if turn.label is Label.REOPEN:
                # Only an option the tracker had on the list can be taken off it; the others were
                # missed when rejected, which `rejection_recorded` counts.
                counts["reopenings"] += was_on_list
                counts["reopened"] += was_on_list and not on_list
                continue
            counts["rejections"] += 1
            counts["recorded"] += on_list
            if turn.label is Label.PIVOT and turn.replacement:
                counts["pivots"] += 1
                counts["decided"] += _decided(state, turn.replacement)
        if not scored:
            continue
        predicted = _names_of_rejected(tracker.state(cid))
        both = _matched(predicted, gold.rejected)
        predicted_total, gold_total, matched = predicted_total + len(predicted), gold_total + len(gold.rejected), matched + both
        exact += both == len(predicted) == len(gold.rejected)
    precision = matched / predicted_total if predicted_total else 0.0
    recall = matched / gold_total if gold_total else 0.0
    return {
        "conversations": conversations,
        "rejection_recorded": _share(counts["recorded"], counts["rejections"]),
        "pivot_decision_set": _share(counts["decided"], counts["pivots"]),
        "reopening_taken_off": _share(counts["reopened"], counts["reopenings"]),
        "reopenings_of_listed_options": counts["reopenings"],
        "final_rejected_precision": round(precision, 4),
        "final_rejected_recall": round(recall, 4),
        "final_rejected_exact": _share(exact, conversations),
        "constraint_kept": _share(kept["constraint_kept"], kept["constraint_turns"]),
        "constraint_turns": kept["constraint_turns"],
        "constraint_on_other_hard_negatives": _share(kept["other_kept"], kept["other_turns"]),
    }


def _hard_negative(turn: Turn) -> str | None:
    """The hard-negative kind the data tags a user turn with (DESIGN §2), if any."""
    kind = getattr(turn, "hard_negative", None)
    return kind if isinstance(kind, str) and kind else None


def _count_constraint(kept: dict[str, int], turn: Turn, added: set[str]) -> None:
    """Did the turn add a constraint to the state? Counted for turns the data tags as a standing
    constraint (it should) and for turns tagged as another hard-negative kind (it should not:
    corrections, parameter changes, questions, acceptances, formatting, …)."""
    kind = _hard_negative(turn)
    if kind is None:
        return
    prefix = "constraint" if kind == "standing_constraint" else "other"
    kept[f"{prefix}_turns"] += 1
    kept[f"{prefix}_kept"] += bool(added)


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0
