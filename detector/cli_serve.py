"""Argument definitions of the `pivot` serve commands (registered by detector.cli).

Only argument definitions live here: FastAPI and uvicorn are imported inside the run functions,
so commands on the per-turn path (`pivot hook`) never pay for them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from detector.errors import PivotError

TOKEN_ENV = "PIVOT_SERVE_TOKEN"


def register(commands: Any, add_model_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add this module's subcommands to the `pivot` parser."""
    serve = commands.add_parser(
        "serve", help="HTTP API: the hook, the detector and the states, over loopback"
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, loopback only)"
    )
    serve.add_argument("--port", type=int, default=8765, help="port to bind (default: 8765)")
    serve.add_argument(
        "--store",
        type=Path,
        help="SQLite state file, shareable with `pivot hook --store` (default: user state folder)",
    )
    serve.add_argument(
        "--token",
        default=os.environ.get(TOKEN_ENV),
        help=f"require `Authorization: Bearer TOKEN` on /v1 (default: ${TOKEN_ENV}; unset means no token)",
    )
    serve.add_argument(
        "--max-body-bytes",
        type=int,
        default=1_048_576,
        help="larger request bodies get 413 (default: 1048576)",
    )
    add_model_options(serve)
    serve.set_defaults(run=_run_serve)

    schema = commands.add_parser("schema", help="print the JSON Schema of the public models")
    schema.add_argument("name", nargs="?", help="one model (e.g. Suggestion); all of them when omitted")
    schema.add_argument("--out", type=Path, help="write one NAME.json per model into this folder instead")
    schema.set_defaults(run=_run_schema)


def _run_serve(args: argparse.Namespace) -> int:
    from detector.server import ServerSettings, build_tracker, serve

    if args.max_body_bytes < 1:
        raise PivotError("--max-body-bytes must be at least 1")
    if not 0 <= args.port <= 65535:
        raise PivotError(f"--port {args.port}: must be between 0 and 65535")
    tracker = build_tracker(args.store, args.mode, args.model, args.trust_model)
    serve(
        tracker,
        args.host,
        args.port,
        ServerSettings(token=args.token or None, max_body_bytes=args.max_body_bytes),
    )
    return 0


def _run_schema(args: argparse.Namespace) -> int:
    from detector.server import PUBLIC_MODELS, schema_text

    names = [args.name] if args.name else list(PUBLIC_MODELS)
    texts = {name: schema_text(name) for name in names}
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            (args.out / f"{name}.json").write_text(text, encoding="utf-8")
        print(f"wrote {len(texts)} schemas to {args.out}", file=sys.stderr)
    elif args.name:
        sys.stdout.write(texts[args.name])
    else:
        print(
            json.dumps({name: json.loads(text) for name, text in texts.items()}, indent=2, ensure_ascii=False)
        )
    return 0
