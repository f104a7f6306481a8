"""The `pivot` command: parses arguments and calls the library; nothing else lives here.

Heavy modules (scikit-learn, the server, dask) are imported inside the subcommand that needs
them, so `pivot hook` and `pivot detect --mode rules` start fast.
"""

from __future__ import annotations

import argparse
import json
import os
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
    detect.add_argument(
        "--first-turn",
        action="store_true",
        help="TEXT opens its conversation: with no word of earlier talk and no strong cue it turns nothing down",
    )
    _add_model_options(detect)
    detect.set_defaults(run=_run_detect)

    train = commands.add_parser("train", help="train a model on labeled transcripts")
    train.add_argument("train_files", nargs="+", type=Path, metavar="TRAIN.jsonl")
    train.add_argument("--dev", type=Path, required=True, help="labeled dev file: model selection and thresholds")
    train.add_argument("--out", type=Path, required=True, help="where to write NAME.joblib (and NAME.json beside it)")
    train.add_argument("--test", type=Path, help="held-out file whose figures are recorded in the manifest (never tuned on)")
    train.set_defaults(run=_run_train)

    evaluate = commands.add_parser("eval", help="score a model on labeled transcripts")
    evaluate.add_argument("files", type=Path, nargs="+", metavar="FILE", help="labeled transcripts (JSONL), scored together")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object")
    evaluate.add_argument("--compare", type=Path, metavar="PATH", help="a second model: both side by side, with B - A")
    _add_model_options(evaluate)
    evaluate.set_defaults(run=_run_eval)

    relapse = commands.add_parser("eval-relapse", help="score the relapse guard on labeled reply cases")
    relapse.add_argument("file", type=Path, help="JSONL cases: rejected, current_decision, reply, label")
    relapse.add_argument("--json", action="store_true", help="print one JSON object")
    relapse.set_defaults(run=_run_eval_relapse)

    hook = commands.add_parser("hook", help="pre-turn hook: one JSON object on stdin, one on stdout")
    hook.add_argument("--store", type=Path, help="SQLite state file (default: in the user state folder)")
    hook.add_argument(
        "--server",
        metavar="URL",
        help="forward to a running `pivot serve` (e.g. http://127.0.0.1:8765) instead of loading the model here",
    )
    hook.add_argument(
        "--token",
        default=os.environ.get("PIVOT_SERVE_TOKEN"),
        help="bearer token for --server (default: $PIVOT_SERVE_TOKEN)",
    )
    _add_model_options(hook)
    hook.set_defaults(run=_run_hook)

    state = commands.add_parser("state", help="show or reset a conversation's stored state")
    state.add_argument("action", choices=["show", "reset", "list"])
    state.add_argument("conversation_id", nargs="?")
    state.add_argument("--store", type=Path, help="SQLite state file (default: in the user state folder)")
    state.add_argument("--form", choices=["json", "full", "short", "solidified"], default="json")
    state.set_defaults(run=_run_state)

    trust = commands.add_parser("trust", help="trust a model file you obtained elsewhere (it can run code)")
    trust.add_argument("model", type=Path)
    trust.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    trust.set_defaults(run=_run_trust)

    # Commands whose arguments live beside their subsystem; each module is light (argument
    # definitions only) and imports its subsystem inside the command's run function.
    from detector import cli_scan, cli_serve

    cli_scan.register(commands, _add_model_options)
    cli_serve.register(commands, _add_model_options)
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
        detection = detector.detect(text, opens_conversation=args.first_turn)
        print(detection.model_dump_json(indent=2) if args.json else format_detection(detection))
        return 0
    from detector.formats import read_transcripts

    for transcript in read_transcripts(args.file):
        for index, turn in enumerate(transcript.turns):
            if turn.role != "user":
                continue
            detection = detector.detect_in(transcript.turns, index, lang=transcript.lang)
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

    if args.compare is not None:
        from detector.compare import compare_models, format_comparison

        result = compare_models(args.files, args.model, args.compare, args.mode, args.trust_model)
        print(json.dumps(result, ensure_ascii=False) if args.json else format_comparison(result))
        return 0
    figures = evaluate(_detector(args), load_labeled(args.files))
    print(json.dumps(figures, ensure_ascii=False) if args.json else format_figures(figures))
    return 0


def _run_eval_relapse(args: argparse.Namespace) -> int:
    from detector.learn import evaluate_relapse

    figures = evaluate_relapse(args.file)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    else:
        print("  ".join(f"{k} {v}" for k, v in figures.items() if not isinstance(v, dict)))
        for lang, row in figures.get("per_lang", {}).items():
            print(f"  {lang}: " + "  ".join(f"{k} {v}" for k, v in row.items()))
    return 0


def _run_hook(args: argparse.Namespace) -> int:
    raw = sys.stdin.read()
    try:
        output = _hook_output(args, raw)
    except PivotError as exc:
        from detector.hook_client import is_claude_prompt_event

        if not is_claude_prompt_event(raw):
            raise
        # Claude Code treats exit 2 from a UserPromptSubmit hook as "block this prompt": our own
        # failure (a service down, a damaged store) must not swallow what the user typed. Exit 1
        # is reported to the user as a hook error and the prompt goes through.
        print(f"pivot: error: {exc}", file=sys.stderr)
        return 1
    if output:
        print(output)
    return 0


def _hook_output(args: argparse.Namespace, raw: str) -> str:
    if args.server:
        if args.store or args.mode or args.model or args.trust_model:
            raise PivotError("--server: the service has its own store and model; drop --store/--mode/--model")
        from detector.hook_client import forward_hook_input

        return forward_hook_input(raw, args.server, args.token)
    from detector.hook import PreTurnHook, handle_hook_input

    hook = PreTurnHook(store_path=args.store, mode=args.mode, model_path=args.model, allow_untrusted_model=args.trust_model)
    return handle_hook_input(hook, raw)


def _run_state(args: argparse.Namespace) -> int:
    from detector.render import render_block
    from detector.store import SQLiteStore

    store = SQLiteStore(args.store)
    if args.action == "list":
        print("\n".join(store.ids()))
        return 0
    if not args.conversation_id:
        raise PivotError(f"pivot state {args.action} needs a CONVERSATION_ID")
    if args.action == "reset":
        found = store.delete(args.conversation_id)
        print(f"{'reset' if found else 'no state for'} {args.conversation_id} in {store.path}", file=sys.stderr)
        return 0
    state = store.get(args.conversation_id)
    if state is None:
        raise PivotError(f"{store.path}: no state for conversation {args.conversation_id!r}")
    print(state.model_dump_json(indent=2) if args.form == "json" else render_block(state, args.form))
    return 0


def _run_trust(args: argparse.Namespace) -> int:
    from detector.classifier import sha256_file
    from detector.trust import trust_hash

    if not args.model.exists():
        raise PivotError(f"{args.model}: no such file")
    digest = sha256_file(args.model)
    print(
        f"warning: {args.model} is a pickle; loading it runs whatever code it contains. "
        f"Trust it only if you know who built it (sha256 {digest}).",
        file=sys.stderr,
    )
    if not args.yes:
        answer = input("trust this model? [y/N] ") if sys.stdin.isatty() else ""
        if answer.strip().lower() not in ("y", "yes"):
            raise PivotError("not trusted (pass --yes to confirm without a prompt)")
    trust_hash(digest, str(args.model.resolve()))
    print(f"trusted {args.model} ({digest[:12]}…)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
