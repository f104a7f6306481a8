"""How far a second annotator agrees with the data's labels: the ceiling the model is judged by.

`python -m training.agreement data/dev.jsonl data/agreement/dev_second_pass.jsonl [--model]`

The second pass labels a sample of a split's user turns blind (it saw the label guide and the
conversations, never the labels or the detector), one JSON object per turn:
{"id", "turn_index", "label", "confidence": "sure" | "unsure", "note"}. Agreement is given as
the project's own figures (macro F1 of the second pass against the labels, per label) and as
Cohen's kappa; with --model, the shipped model's macro F1 on the same turns, against either.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from detector.formats import read_transcripts
from detector.learn import label_metrics
from detector.schema import Label, Transcript
from training.datasets import conversation_id


def cohen_kappa(first: Sequence[Label], second: Sequence[Label]) -> float:
    """Agreement beyond what the two label distributions give by chance."""
    observed = sum(a == b for a, b in zip(first, second)) / len(first)
    counts_a, counts_b = Counter(first), Counter(second)
    expected = sum(counts_a[label] * counts_b[label] for label in Label) / len(first) ** 2
    return (observed - expected) / (1 - expected) if expected < 1 else 1.0


def agreement(labeled: Path, second_pass: Path, with_model: bool = False) -> dict[str, Any]:
    """The figures for the turns the second pass labeled."""
    transcripts: dict[str, Transcript] = {conversation_id(t): t for t in read_transcripts(labeled)}
    rows = [json.loads(line) for line in second_pass.read_text(encoding="utf-8").splitlines() if line.strip()]
    keys = [(row["id"], int(row["turn_index"])) for row in rows]
    gold = [transcripts[cid].turns[index].label for cid, index in keys]
    second = [Label(row["label"]) for row in rows]
    if any(label is None for label in gold):
        raise ValueError(f"{second_pass}: a turn it labels has no label in {labeled}")
    figures: dict[str, Any] = {
        "n": len(rows),
        "unsure": sum(row.get("confidence") == "unsure" for row in rows),
        "second_vs_labels": label_metrics(gold, second),  # type: ignore[arg-type]
        "cohen_kappa": round(cohen_kappa(gold, second), 4),  # type: ignore[arg-type]
    }
    if with_model:
        from detector.loading import build_detector

        detector = build_detector()
        predicted = [
            detector.detect_in(t.turns, index, t.lang).label
            for t, index in ((transcripts[cid], index) for cid, index in keys)
        ]
        figures["model_vs_labels_macro_f1"] = label_metrics(gold, predicted)["macro_f1"]  # type: ignore[arg-type]
        figures["model_vs_second_macro_f1"] = label_metrics(second, predicted)["macro_f1"]
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.agreement", description=__doc__.splitlines()[0])
    parser.add_argument("labeled", type=Path, help="the labeled split the sample came from")
    parser.add_argument("second_pass", type=Path, help="the second annotator's labels, one JSON per turn")
    parser.add_argument("--model", action="store_true", help="also score the shipped model on the same turns")
    args = parser.parse_args(argv)
    json.dump(agreement(args.labeled, args.second_pass, args.model), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
