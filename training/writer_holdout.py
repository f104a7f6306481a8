"""Figures on writers the model never learned from, measured inside the training data.

    python -m training.writer_holdout data/train.jsonl [MORE.jsonl ...] --hold-out '^s7' [--json]

Dev and test were split by conversation from batches whose writers also wrote most of train, so
they reward learning those writers' habits. The writers who will use the product are new, and a
model drops far more on a new writer's conversations than dev shows. Holding a writer's whole
batches out of training (their conversation ids share a prefix) and scoring them measures that
drop, and says whether a change (more data, a feature) carries over to new writers, without
spending the held-out sets in `data/new_writers/`, which must stay unseen to mean anything.

The held-out conversations leave the training files; the model is trained on the rest as
`pivot train` would (dev still tunes the thresholds) and scored on them in hybrid and
classifier mode.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from detector.classifier import load_model
from detector.detect import Detector, Mode
from detector.errors import InputError
from detector.formats import read_transcripts
from detector.learn import evaluate, load_labeled, train
from detector.schema import Transcript


def split_by_id(
    transcripts: Iterable[Transcript], hold_out: re.Pattern[str]
) -> tuple[list[Transcript], list[Transcript]]:
    """The conversations to train on and those held out (conversation id matches `hold_out`)."""
    kept: list[Transcript] = []
    held: list[Transcript] = []
    for transcript in transcripts:
        (held if hold_out.search(transcript.id or "") else kept).append(transcript)
    return kept, held


def _write(transcripts: Sequence[Transcript], path: Path) -> Path:
    path.write_text("".join(t.model_dump_json(exclude_none=True) + "\n" for t in transcripts), encoding="utf-8")
    return path


def writer_holdout(train_paths: Sequence[Path], dev_path: Path, hold_out: str) -> dict[str, Any]:
    """Train without the conversations whose id matches `hold_out`, score them; the figures."""
    pattern = re.compile(hold_out)
    # Read once, validated: a bad record is refused with its file and line, not as a bare JSON error.
    kept, held = split_by_id((t for path in train_paths for t in read_transcripts(path)), pattern)
    if not held or not kept:
        side = "no conversation" if not held else "every conversation"
        raise InputError(f"--hold-out {hold_out!r} matches {side} of {', '.join(map(str, train_paths))}")
    with tempfile.TemporaryDirectory(prefix="writer-holdout-") as scratch:
        kept_path, held_path = _write(kept, Path(scratch, "kept.jsonl")), _write(held, Path(scratch, "held.jsonl"))
        # A throwaway model: its hash stays out of the user's trust store, and it is opened as
        # the file this function just wrote.
        manifest = train([kept_path], dev_path, Path(scratch, "model.joblib"), log=lambda _: None, trust=False)
        classifier = load_model(Path(scratch, "model.joblib"), allow_untrusted=True)
        held_turns = load_labeled([held_path])
        scored = {
            mode.value: evaluate(Detector(mode, classifier=classifier), held_turns, with_state=False)
            for mode in (Mode.HYBRID, Mode.CLASSIFIER)
        }
    keys = ("macro_f1", "binary_f1", "none_false_positive_rate", "target_match", "per_lang", "per_label")
    return {
        "hold_out": hold_out,
        "conversations": {"trained_on": len(kept), "held_out": len(held)},
        "held_out_turns": len(held_turns),
        "held_out_figures": {mode: {key: figures[key] for key in keys} for mode, figures in scored.items()},
        "dev_figures": manifest["dev_figures"]["hybrid"],
    }


def _table(result: dict[str, Any]) -> str:
    conversations = result["conversations"]
    rows = [
        (
            f"held out {result['hold_out']!r}: {conversations['held_out']} conversations, "
            f"{result['held_out_turns']} labeled turns; trained on {conversations['trained_on']} conversations"
        ),
        f"{'':12}{'macro_f1':>9}{'zh':>7}{'en':>7}{'mixed':>7}{'NONE fp':>9}{'target':>8}",
    ]
    named = [(f"{mode}", figures) for mode, figures in result["held_out_figures"].items()]
    for name, figures in named + [("dev hybrid", result["dev_figures"])]:
        per_lang = [figures["per_lang"].get(lang, {}).get("macro_f1") for lang in ("zh", "en", "mixed")]
        cells = "".join(f"{value:>7.3f}" if value is not None else f"{'-':>7}" for value in per_lang)
        rows.append(
            f"{name:12}{figures['macro_f1']:>9.3f}{cells}{figures['none_false_positive_rate']:>9.3f}{figures['target_match']:>8.3f}"
        )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.writer_holdout", description=__doc__.splitlines()[0])
    parser.add_argument("train", type=Path, nargs="+", help="labeled transcript files to train on")
    parser.add_argument("--hold-out", required=True, help="regular expression on conversation ids to hold out")
    parser.add_argument("--dev", type=Path, default=Path("data/dev.jsonl"), help="tunes the thresholds, as in `pivot train`")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args(argv)
    try:
        result = writer_holdout(args.train, args.dev, args.hold_out)
    except (InputError, re.error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.json else _table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
