"""Argument definitions of the `pivot` scan commands (registered by detector.cli).

`pivot scan` and `pivot suggest-labels` read logs at any size; their work lives in
`detector.scan` and `detector.suggest`, imported inside the run functions so that `pivot hook`
never pays for them (nor for dask or tqdm).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from detector.errors import PivotError

FORMATS = ["auto", "ours", "openai", "sharegpt", "claude"]


def register(commands: Any, add_model_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add this module's subcommands to the `pivot` parser."""
    scan = commands.add_parser(
        "scan",
        help="scan conversation logs (files or folders) for rejections, pivots, reopenings and relapses",
    )
    scan.add_argument("paths", nargs="+", metavar="PATH", help=".jsonl, .json or .gz files, or folders (recursive)")
    _add_input_options(scan)
    scan.add_argument("--out", type=Path, help="write the JSONL records here instead of standard output")
    scan.add_argument("--summary", type=Path, help="also write the summary as JSON to this file")
    scan.add_argument(
        "--workers", type=_positive_int, default=os.cpu_count() or 1, help="parallel workers (default: number of cores)"
    )
    scan.add_argument("--engine", choices=["local", "dask"], default="local", help="local processes or a Dask cluster")
    scan.add_argument(
        "--scheduler", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: a LocalCluster)"
    )
    scan.add_argument("--strict", action="store_true", help="exit with status 1 if any record was bad")
    scan.add_argument("--quiet", action="store_true", help="no progress bar and no summary on stderr")
    add_model_options(scan)
    scan.set_defaults(run=_run_scan)

    suggest = commands.add_parser(
        "suggest-labels",
        help="write the turns the model is least sure of, and cue/classifier disagreements, for labelling",
    )
    suggest.add_argument("paths", nargs="+", metavar="LOGS", help=".jsonl, .json or .gz files, or folders (recursive)")
    _add_input_options(suggest)
    suggest.add_argument("--top", type=_positive_int, default=50, help="how many least-sure turns (default 50)")
    suggest.add_argument("--out", type=Path, required=True, help="labeled-transcript JSONL to correct and train on")
    suggest.add_argument("--model", type=Path, help="a model file (default: the shipped model)")
    suggest.add_argument(
        "--trust-model", action="store_true", help="load --model even if its hash is not trusted (it can run code)"
    )
    suggest.set_defaults(run=_run_suggest)


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format", choices=FORMATS, default="auto", help="record format (default: detected per record; a Claude Code session file, one event per line, from its first lines)"
    )


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[IO[str]]:
    """The --out file, or standard output; the commands write whole lines and flush them."""
    if path is None:
        yield sys.stdout
        return
    try:
        handle = path.open("w", encoding="utf-8")
    except OSError as exc:
        raise PivotError(f"{path}: cannot write ({exc.strerror or exc})") from None
    with handle:
        yield handle


def _report_bad(bad: Any) -> None:
    print(f"pivot: bad record: {bad}", file=sys.stderr)


def _run_scan(args: argparse.Namespace) -> int:
    from detector.scan import DetectorSpec, ScanConfig, run_scan

    if args.scheduler and args.engine != "dask":
        raise PivotError("--scheduler needs --engine dask")
    config = ScanConfig(
        paths=args.paths,
        fmt=args.format,
        spec=DetectorSpec(args.mode, args.model, args.trust_model),
        workers=args.workers,
        engine=args.engine,
        scheduler=args.scheduler,
        progress=not args.quiet and sys.stderr.isatty(),
    )
    with _output(args.out) as out:
        summary = run_scan(config, out, on_bad=_report_bad)
    if args.summary is not None:
        args.summary.write_text(json.dumps(summary.as_dict(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if not args.quiet:
        print(summary.format(), file=sys.stderr)
    if summary.interrupted:
        return 130 if summary.interrupted == "SIGINT" else 143
    return 1 if args.strict and summary.bad_records else 0


def _run_suggest(args: argparse.Namespace) -> int:
    from detector.suggest import suggest_labels

    with _output(args.out) as out:
        counts = suggest_labels(
            args.paths, out, top=args.top, fmt=args.format, model_path=args.model,
            allow_untrusted=args.trust_model, on_bad=_report_bad,
        )
    print(
        f"wrote {counts['written']} turns to {args.out}: {counts['disagreements']} where cues and classifier "
        f"disagree, {counts['least_sure']} least sure (of {counts['user_turns']} user turns; "
        f"{counts['bad_records']} bad records)",
        file=sys.stderr,
    )
    return 0
