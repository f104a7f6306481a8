"""Latency of `POST /v1/turns` on loopback, warm: p50 and p99 per mode and role.

Starts `pivot serve` (rules, then hybrid) on a free loopback port with a fresh SQLite store,
warms it up, then plays a short bilingual conversation script over and over, one request at a
time on one keep-alive connection, starting a new conversation every script so the state stays
the size of a real conversation rather than growing for the whole run.

    python benchmarks/bench_server.py                # table
    python benchmarks/bench_server.py --json         # one JSON object
    python benchmarks/bench_server.py --modes rules --requests 2000
    python benchmarks/bench_server.py --model my.joblib   # hybrid with another (trusted) model
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving import running_server

# (role, text): options, a rejection, a pivot, chat, a relapse check, mixed language.
SCRIPT: list[tuple[str, str]] = [
    ("user", "我们的接口太慢了，有什么缓存方案？"),
    ("assistant", "方案A：用 Redis 做集中缓存。\n方案B：进程内 LRU 缓存。\n方案C：CDN 边缘缓存。"),
    ("user", "A 不行，运维扛不住，换 B"),
    ("assistant", "好的，按方案B：进程内 LRU 缓存。下一步：确定淘汰策略和容量。"),
    ("user", "容量先定 512MB 吧，必须兼容现有的部署脚本"),
    ("assistant", "明白，不再考虑 Redis。下一步：写压测脚本。"),
    ("user", "What about the CDN option, is it worth it for our API?"),
    ("assistant", "Option 1: keep the LRU cache only.\nOption 2: add a CDN for static responses."),
    ("user", "scrap the CDN idea, our responses are all personalised"),
    ("assistant", "You could also add a Redis cache to fix the latency."),
    ("user", "之前否掉的 Redis 可以重新考虑，如果预算下来的话"),
    ("assistant", "OK, Redis is back on the table as a candidate."),
    ("user", "ok, continue with the load test plan"),
    ("assistant", "Next, I'll write the load test with k6."),
]


@contextmanager
def server_for(mode: str, store: Path, model: Path | None = None) -> Iterator[str]:
    """`pivot serve --mode MODE` (with --model outside rules mode) until the block ends."""
    extra = ["--model", str(model)] if model is not None and mode != "rules" else []
    try:
        with running_server(store, mode, extra) as (url, _):
            yield url
    except RuntimeError as exc:
        raise SystemExit(f"pivot serve --mode {mode}: {exc}") from None


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(url: str, requests: int, warmup: int) -> dict[str, list[float]]:
    """Milliseconds per request, by turn role, after `warmup` unmeasured requests."""
    latencies: dict[str, list[float]] = {"user": [], "assistant": []}
    with httpx.Client(base_url=url, timeout=30) as http:
        for index in range(warmup + requests):
            role, text = SCRIPT[index % len(SCRIPT)]
            body = {"conversation_id": f"bench-{index // len(SCRIPT)}", "turn": {"role": role, "text": text}}
            start = time.perf_counter()
            response = http.post("/v1/turns", json=body)
            elapsed = (time.perf_counter() - start) * 1000
            response.raise_for_status()
            if index >= warmup:
                latencies[role].append(elapsed)
    return latencies


def summarize(latencies: list[float]) -> dict[str, float]:
    return {
        "n": len(latencies),
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(_percentile(latencies, 0.99), 2),
        "mean_ms": round(statistics.fmean(latencies), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--modes", nargs="+", default=["rules", "hybrid"], choices=["rules", "classifier", "hybrid"]
    )
    parser.add_argument("--requests", type=int, default=1400, help="measured requests per mode")
    parser.add_argument("--warmup", type=int, default=140)
    parser.add_argument("--model", type=Path, help="model for classifier/hybrid (default: the shipped one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    machine = {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
    }
    rows = []
    for mode in args.modes:
        with (
            tempfile.TemporaryDirectory() as folder,
            server_for(mode, Path(folder) / "bench.sqlite3", args.model) as url,
        ):
            by_role = measure(url, args.requests, args.warmup)
        all_turns = by_role["user"] + by_role["assistant"]
        for role, values in (("all", all_turns), *by_role.items()):
            rows.append({"mode": mode, "role": role, **summarize(values)})

    if args.json:
        print(json.dumps({"endpoint": "POST /v1/turns", "machine": machine, "results": rows}))
        return 0
    print(
        f"POST /v1/turns, loopback, warm, sequential keep-alive; {machine['cpus']} CPUs, Python {machine['python']}"
    )
    print(f"{'mode':<8} {'turn':<10} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for row in rows:
        print(
            f"{row['mode']:<8} {row['role']:<10} {row['n']:>6} {row['p50_ms']:>8} {row['p99_ms']:>8} {row['mean_ms']:>8}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
