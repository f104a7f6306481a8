"""The `pivot` command: parses arguments and calls the library; nothing else lives here.

Heavy modules (scikit-learn, the server, dask) are imported inside the subcommand that needs
them, so `pivot hook` and `pivot detect --mode rules` start fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from detector.errors import PivotError


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except PivotError as exc:
        print(f"pivot: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pivot: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pivot",
        description="Detect rejections, pivots and reopenings in bilingual agent conversations.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    detect = commands.add_parser("detect", help="label a user turn, or every user turn of a conversation")
    detect.add_argument("text", nargs="?", help="the user turn; '-' reads it from standard input")
    detect.add_argument("--file", type=Path, help="a transcript file (JSONL): label every user turn in context")
    detect.add_argument("--json", action="store_true", help="print JSON (one object per turn with --file)")
    _add_model_options(detect)
    detect.set_defaults(run=_run_detect)

    train = commands.add_parser("train", help="train a model on labeled transcripts")
    train.add_argument("train_files", nargs="+", type=Path, metavar="TRAIN.jsonl")
    train.add_argument("--dev", type=Path, required=True, help="labeled dev file: model selection and thresholds")
    train.add_argument("--out", type=Path, required=True, help="where to write NAME.joblib (and NAME.json beside it)")
    train.add_argument("--test", type=Path, help="held-out file whose figures are recorded in the manifest (never tuned on)")
    train.set_defaults(run=_run_train)

    evaluate = commands.add_parser("eval", help="score a model on labeled transcripts")
    evaluate.add_argument("file", type=Path, help="labeled transcripts (JSONL)")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object")
    _add_model_options(evaluate)
    evaluate.set_defaults(run=_run_eval)
    return parser


def _add_model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mode",
        choices=["rules", "classifier", "hybrid"],
        default=None,
        help="which layer decides (default: hybrid when a model is available, else rules)",
    )
    parser.add_argument("--model", type=Path, help="a model file (default: the shipped model)")
    parser.add_argument(
        "--trust-model", action="store_true", help="load --model even if its hash is not trusted (it can run code)"
    )


def _detector(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from detector.loading import build_detector

    return build_detector(mode=args.mode, model_path=args.model, allow_untrusted=args.trust_model)


def _run_detect(args: argparse.Namespace) -> int:
    from detector.display import format_detection

    if (args.text is None) == (args.file is None):
        raise PivotError("give either TEXT (or '-' for standard input) or --file TRANSCRIPT.jsonl")
    detector = _detector(args)
    if args.file is None:
        text = sys.stdin.read() if args.text == "-" else args.text
        detection = detector.detect(text)
        print(detection.model_dump_json(indent=2) if args.json else format_detection(detection))
        return 0
    from detector.formats import read_transcripts

    for transcript in read_transcripts(args.file):
        for index, turn in enumerate(transcript.turns):
            if turn.role != "user":
                continue
            detection = detector.detect(turn.text, transcript.turns[:index], lang=transcript.lang)
            if args.json:
                record = {"conversation_id": transcript.id, "turn": index, **detection.model_dump(mode="json")}
                print(json.dumps(record, ensure_ascii=False))
            else:
                print(f"── {transcript.id or '?'} turn {index}: {turn.text[:80]}")
                print(format_detection(detection, indent="   "))
    return 0


def _run_train(args: argparse.Namespace) -> int:
    from detector.learn import train

    train(args.train_files, args.dev, args.out, test_path=args.test, log=lambda line: print(line, file=sys.stderr))
    return 0


def _run_eval(args: argparse.Namespace) -> int:
    from detector.display import format_figures
    from detector.learn import evaluate, load_labeled

    figures = evaluate(_detector(args), load_labeled([args.file]))
    print(json.dumps(figures, ensure_ascii=False) if args.json else format_figures(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
