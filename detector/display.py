"""Human-readable text for the terminal: detections now, evaluation tables later.

JSON output is the models' own `model_dump_json`; this module only serves people reading a
terminal, so its format may change without breaking anyone.
"""

from __future__ import annotations

from typing import Any

from detector.schema import Detection


def format_detection(detection: Detection, indent: str = "") -> str:
    """A few aligned lines: the label, the spans, the cues that fired and those suppressed."""
    exp = detection.explanation
    lines = [
        (
            f"label: {detection.label.value}  (confidence {detection.confidence:.2f}, lang {detection.lang}, "
            f"decided by {exp.decided_by})"
        )
    ]
    spans = [
        (name, getattr(detection, name)) for name in ("target", "replacement", "reason", "revisit_if")
    ]
    if any(value for _, value in spans):
        lines.append("  ".join(f"{name}: {value}" for name, value in spans if value))
    for hit in exp.fired:
        lines.append(f"  fired      {hit.cue_id:<34} {hit.span!r} [{hit.start}:{hit.end}] weight {hit.weight:.2f}")
    for suppressed in exp.suppressed:
        hit = suppressed.hit
        lines.append(
            f"  suppressed {hit.cue_id:<34} {hit.span!r} [{hit.start}:{hit.end}] "
            f"by {suppressed.reason}: {suppressed.evidence!r}"
        )
    if exp.classifier_probability:
        probabilities = ", ".join(f"{k.value} {v:.2f}" for k, v in exp.classifier_probability.items())
        lines.append(f"  classifier {probabilities}; threshold {exp.threshold}")
    lines.append(f"  rule: {exp.rule}")
    return "\n".join(indent + line for line in lines)


def format_figures(figures: dict[str, Any]) -> str:
    """Evaluation figures as a table: headline numbers, per label, per language, confusion matrix."""
    lines = [
        (
            f"n {figures['n']}   binary_f1 {figures['binary_f1']:.3f}   macro_f1 {figures['macro_f1']:.3f}   "
            f"accuracy {figures['accuracy']:.3f}"
        ),
        (
            f"none_false_positive_rate {figures['none_false_positive_rate']:.3f}   target_match {figures['target_match']:.3f}   "
            f"reason_match {figures.get('reason_match', float('nan')):.3f}"
        ),
        "",
        f"{'label':<8} {'precision':>9} {'recall':>7} {'f1':>6} {'support':>8}",
    ]
    for label, row in figures["per_label"].items():
        lines.append(f"{label:<8} {row['precision']:>9.3f} {row['recall']:>7.3f} {row['f1']:>6.3f} {row['support']:>8}")
    lines += ["", f"{'lang':<8} {'n':>6} {'binary_f1':>10} {'macro_f1':>9}"]
    for lang, row in figures["per_lang"].items():
        lines.append(f"{lang:<8} {row['n']:>6} {row['binary_f1']:>10.3f} {row['macro_f1']:>9.3f}")
    state = figures.get("state")
    if state:
        lines += [
            "",
            f"state after the turns, over {state['conversations']} conversations that reject something:",
            (
                f"  rejection on the rejected list {state['rejection_recorded']:.3f}   pivot's replacement is the "
                f"decision {state['pivot_decision_set']:.3f}   reopening of a listed option taken off "
                f"{state['reopening_taken_off']:.3f} ({state['reopenings_of_listed_options']})"
            ),
            (
                f"  final rejected list: precision {state['final_rejected_precision']:.3f}   recall "
                f"{state['final_rejected_recall']:.3f}   exact {state['final_rejected_exact']:.3f}"
            ),
        ]
        if state.get("constraint_turns"):
            lines.append(
                f"  a constraint kept after a standing-constraint turn {state['constraint_kept']:.3f} "
                f"({state['constraint_turns']})   after another hard negative {state['constraint_on_other_hard_negatives']:.3f}"
            )
    labels = list(figures["confusion"])
    lines += ["", "confusion (rows gold, columns predicted)", " " * 8 + "".join(f"{l:>8}" for l in labels)]
    for gold in labels:
        lines.append(f"{gold:<8}" + "".join(f"{figures['confusion'][gold][p]:>8}" for p in labels))
    return "\n".join(lines)
