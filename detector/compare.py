"""`pivot eval FILE --model A --compare B`: two models on the same labeled turns, side by side.

Both are scored by `learn.evaluate` on the same turns in the same mode, so a difference in the
figures is a difference between the models, never between evaluation paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from detector.errors import PivotError

HEADLINE = ("binary_f1", "macro_f1", "accuracy", "none_false_positive_rate", "target_match", "reason_match")
# For these a lower figure is better; the table marks which side improved.
LOWER_IS_BETTER = {"none_false_positive_rate"}


def compare_models(
    data: Sequence[Path], model_a: Path | None, model_b: Path, mode: str | None = None, allow_untrusted: bool = False
) -> dict[str, Any]:
    """Evaluate model A (default: the shipped one) and model B; their figures and B − A."""
    from detector.learn import evaluate, load_labeled
    from detector.loading import build_detector, default_model_path

    chosen = mode or "hybrid"
    if chosen == "rules":
        raise PivotError("--compare compares trained models; rules mode uses none (use --mode classifier or hybrid)")
    turns = load_labeled(data)
    figures = {}
    for side, path in (("a", model_a or default_model_path()), ("b", model_b)):
        detector = build_detector(mode=chosen, model_path=path, allow_untrusted=allow_untrusted)
        figures[side] = {"model": str(path), **evaluate(detector, turns)}
    return {"mode": chosen, "files": [str(path) for path in data], **figures, "difference": difference(figures["a"], figures["b"])}


def difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """B − A for the headline figures, each label's F1 and each language's macro F1."""
    diff: dict[str, Any] = {key: round(b[key] - a[key], 4) for key in HEADLINE}
    diff["per_label_f1"] = {
        label: round(b["per_label"][label]["f1"] - a["per_label"][label]["f1"], 4) for label in a["per_label"]
    }
    diff["per_lang_macro_f1"] = {
        lang: round(b["per_lang"][lang]["macro_f1"] - row["macro_f1"], 4)
        for lang, row in a["per_lang"].items()
        if lang in b["per_lang"]
    }
    return diff


def format_comparison(result: dict[str, Any]) -> str:
    """A table: one row per figure, columns A, B, B − A, and which model is better."""
    a, b, diff = result["a"], result["b"], result["difference"]
    rows: list[tuple[str, float, float, float, bool]] = [
        (key, a[key], b[key], diff[key], key in LOWER_IS_BETTER) for key in HEADLINE
    ]
    rows += [
        (f"f1 {label}", a["per_label"][label]["f1"], b["per_label"][label]["f1"], delta, False)
        for label, delta in diff["per_label_f1"].items()
    ]
    rows += [
        (f"macro_f1 {lang}", a["per_lang"][lang]["macro_f1"], b["per_lang"][lang]["macro_f1"], delta, False)
        for lang, delta in diff["per_lang_macro_f1"].items()
    ]
    lines = [
        f"A: {a['model']}",
        f"B: {b['model']}",
        f"{', '.join(result['files'])}: {a['n']} labeled turns, mode {result['mode']}",
        "",
        f"{'figure':<26} {'A':>7} {'B':>7} {'B - A':>8}  better",
    ]
    for name, value_a, value_b, delta, lower_better in rows:
        lines.append(f"{name:<26} {value_a:>7.3f} {value_b:>7.3f} {delta:>+8.3f}  {_better(delta, lower_better)}")
    return "\n".join(lines)


def _better(delta: float, lower_is_better: bool) -> str:
    if abs(delta) < 5e-4:
        return "="
    return "B" if (delta < 0) == lower_is_better else "A"

