"""Human-readable text for the terminal: detections now, evaluation tables later.

JSON output is the models' own `model_dump_json`; this module only serves people reading a
terminal, so its format may change without breaking anyone.
"""

from __future__ import annotations

from detector.schema import Detection


def format_detection(detection: Detection, indent: str = "") -> str:
    """A few aligned lines: the label, the spans, the cues that fired and those suppressed."""
    exp = detection.explanation
    lines = [
        f"label: {detection.label.value}  (confidence {detection.confidence:.2f}, lang {detection.lang}, "
        f"decided by {exp.decided_by})"
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
