"""Speed and memory of pivot-detector, for `--mode rules` and hybrid in one run (issue 5, item 7).

    python benchmarks/bench.py            # full run, a table
    python benchmarks/bench.py --quick    # fewer turns and runs (a smoke test, about a minute)
    python benchmarks/bench.py --json     # one JSON object instead of the table

Figures, each for rules and hybrid (so the ratio shows):
- detect latency p50/p99: `Detector.detect`, warm, one turn at a time, with its context;
- hook latency p50/p99: `PreTurnHook.before_turn` with a SQLite store in a temporary folder;
- the hook on one long conversation (300 user turns): `before_turn` and `after_turn` p50 and p99
  over its last 100 turns, when the state holds every rejection so far;
- scan throughput: user turns per second of `pivot scan` with 1 and 2 workers, from the scan's
  own summary (so interpreter start-up is excluded, model load and pool start are not);
- scan peak memory: the highest memory of the scan's whole process tree (parent + workers),
  sampled every 50 ms from outside, in a child process. Summed as PSS (proportional set size):
  forked workers share the model's pages with the parent, and summing RSS would count those
  pages once per process; peak tree RSS is reported beside it;
- cold start of `pivot hook`: process start to answer, median of N runs, with the package's
  bytecode compiled first, as `pip install` leaves an installed package (a source checkout
  with PYTHONDONTWRITEBYTECODE set, as on the development machine, would otherwise compile
  every module from source in every run);
- model load time: building the detector in a fresh process (imports included).

Input is the labeled data in data/ (test + dev splits), repeated under new ids to the size
asked; the labels are ignored by the scan.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from detector.formats import read_transcripts
from detector.schema import Transcript, Turn

MODES = ("rules", "hybrid")
DATA_FILES = (ROOT / "data" / "test.jsonl", ROOT / "data" / "dev.jsonl")


# ------------------------------------------------------------------------------------------
# Helpers


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (nearest rank) of the values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def transcripts() -> list[Transcript]:
    return [t for path in DATA_FILES for t in read_transcripts(path)]


def user_turns_in_context(items: Sequence[Transcript], limit: int) -> list[tuple[str, list[Turn]]]:
    """(text, the turns before it) for the first `limit` user turns."""
    found = []
    for transcript in items:
        for index, turn in enumerate(transcript.turns):
            if turn.role == "user":
                found.append((turn.text, transcript.turns[:index]))
                if len(found) == limit:
                    return found
    return found


def pivot_command() -> list[str]:
    """The installed console script when there is one (what users run), else `python -m`."""
    script = Path(sys.executable).with_name("pivot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "detector.cli"]


# ------------------------------------------------------------------------------------------
# Measurements


def detect_latency(mode: str, samples: list[tuple[str, list[Turn]]]) -> dict[str, float]:
    """Warm per-turn latency of Detector.detect, in milliseconds."""
    from detector.loading import build_detector

    detector = build_detector(mode=mode)
    for text, context in samples[:20]:
        detector.detect(text, context)
    timings = []
    for text, context in samples:
        started = time.perf_counter()
        detector.detect(text, context)
        timings.append((time.perf_counter() - started) * 1e3)
    return {"p50_ms": percentile(timings, 50), "p99_ms": percentile(timings, 99), "n": len(timings)}


def hook_latency(mode: str, items: Sequence[Transcript], limit: int) -> dict[str, float]:
    """Warm per-turn latency of PreTurnHook.before_turn with a SQLite store, in milliseconds.

    Assistant replies go through `after_turn` (untimed) so the state grows as in real use.
    """
    from detector.hook import PreTurnHook

    with tempfile.TemporaryDirectory() as folder:
        hook = PreTurnHook(store_path=Path(folder) / "state.sqlite3", mode=mode)
        hook.before_turn("warm-up", "hello")
        timings: list[float] = []
        for number, transcript in enumerate(items):
            cid = f"bench-{number}"
            for turn in transcript.turns:
                if turn.role == "assistant":
                    hook.after_turn(cid, turn)
                elif turn.role == "user":
                    started = time.perf_counter()
                    hook.before_turn(cid, turn)
                    timings.append((time.perf_counter() - started) * 1e3)
            if len(timings) >= limit:
                break
    return {"p50_ms": percentile(timings, 50), "p99_ms": percentile(timings, 99), "n": len(timings)}


def long_conversation(mode: str, items: Sequence[Transcript], user_turns: int) -> dict[str, float]:
    """The hook on one long conversation (the data's conversations one after another under one
    id, as in a day-long agent session): `before_turn` and `after_turn` latency (p50 and p99)
    over its last 100 user turns, in milliseconds, and what the state holds by then. The relapse check of an
    assistant turn reads the reply against every rejection so far, so it grows with them."""
    from detector.hook import PreTurnHook

    before: list[float] = []
    after: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        hook = PreTurnHook(store_path=Path(folder) / "state.sqlite3", mode=mode)
        turns = (turn for transcript in items for turn in transcript.turns if turn.role in ("user", "assistant"))
        for turn in turns:
            if len(before) == user_turns:
                break
            started = time.perf_counter()
            if turn.role == "user":
                hook.before_turn("long", turn)
                before.append((time.perf_counter() - started) * 1e3)
            elif before:
                hook.after_turn("long", turn)
                after.append((time.perf_counter() - started) * 1e3)
        state = hook.tracker.state("long")
    return {
        "user_turns": len(before),
        "before_p50_ms": percentile(before[-100:], 50),
        "before_p99_ms": percentile(before[-100:], 99),
        "after_p50_ms": percentile(after[-100:], 50),
        "after_p99_ms": percentile(after[-100:], 99),
        "rejected": len(state.rejected),
        "alternatives": len(state.alternatives),
        "state_kb": len(state.model_dump_json()) / 1024,
    }


def write_log(items: Sequence[Transcript], user_turns: int, path: Path) -> int:
    """Repeat the conversations under new ids until `user_turns` user turns; return the count."""
    written = 0
    with path.open("w", encoding="utf-8") as handle:
        copy = 0
        while written < user_turns:
            for transcript in items:
                record = transcript.model_dump(mode="json", exclude_none=True)
                record["id"] = f"{transcript.id}-{copy}"
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
                written += sum(1 for t in transcript.turns if t.role == "user")
                if written >= user_turns:
                    break
            copy += 1
    return written


def _tree_memory(process: Any) -> tuple[int, int]:
    """(PSS, RSS) summed over a process and its descendants, in bytes."""
    import psutil

    pss = rss = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            info = member.memory_full_info()
        except psutil.Error:
            continue
        pss += getattr(info, "pss", info.rss)
        rss += info.rss
    return pss, rss


def scan_run(mode: str, workers: int, log: Path) -> dict[str, float]:
    """Run `pivot scan` in a child process: throughput from its summary, peak RSS of its tree."""
    import psutil

    with tempfile.TemporaryDirectory() as folder:
        summary_path = Path(folder) / "summary.json"
        command = [*pivot_command(), "scan", str(log), "--mode", mode, "--workers", str(workers), "--quiet",
                   "--out", os.devnull, "--summary", str(summary_path)]
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        process, peak_pss, peak_rss = psutil.Process(child.pid), 0, 0
        while child.poll() is None:
            try:
                pss, rss = _tree_memory(process)
            except psutil.Error:
                pss = rss = 0
            peak_pss, peak_rss = max(peak_pss, pss), max(peak_rss, rss)
            time.sleep(0.05)
        if child.returncode != 0:
            raise RuntimeError(f"pivot scan failed ({child.returncode}): {child.stderr.read() if child.stderr else ''}")
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
    return {
        "user_turns": summary["user_turns"],
        "seconds": summary["seconds"],
        "user_turns_per_s": summary["user_turns"] / summary["seconds"],
        "peak_pss_mb": peak_pss / 2**20,
        "peak_rss_mb": peak_rss / 2**20,
    }


COLD_REQUEST = {"conversation_id": "cold", "turn": {"role": "user", "text": "这个方向不对，换成方案B吧"}}


def _median_run_seconds(commands: Sequence[list[str]]) -> float:
    timings = []
    for command in commands:
        started = time.perf_counter()
        subprocess.run(command, input=json.dumps(COLD_REQUEST), capture_output=True, text=True, check=True)
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def hook_cold_start(mode: str, runs: int) -> dict[str, float]:
    """Median wall time of `pivot hook` from process start to its answer, in seconds: loading
    the model itself, and forwarding to a warm `pivot serve` (`--server`)."""
    sys.path.insert(0, str(ROOT))
    from tests.serving import running_server  # the same server start the tests use

    with tempfile.TemporaryDirectory() as folder:
        local = [
            [*pivot_command(), "hook", "--store", str(Path(folder) / f"s{run}.sqlite3"), "--mode", mode]
            for run in range(runs)
        ]
        with running_server(Path(folder) / "served.sqlite3", mode) as (url, _):
            forwarded = [[*pivot_command(), "hook", "--server", url]] * runs
            return {"median_s": _median_run_seconds(local), "forwarded_median_s": _median_run_seconds(forwarded), "runs": runs}


def model_load(mode: str, runs: int) -> dict[str, float]:
    """Seconds to build the detector in a fresh process (imports included), median of runs."""
    code = (
        "import time; t = time.perf_counter(); from detector.loading import build_detector; "
        f"build_detector(mode={mode!r}); print(time.perf_counter() - t)"
    )
    timings = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout)
        for _ in range(runs)
    ]
    return {"median_s": statistics.median(timings), "runs": runs}


# ------------------------------------------------------------------------------------------
# Running and reporting


def run(quick: bool) -> dict[str, Any]:
    """Every figure for both modes; `quick` shrinks the samples, not the kinds of figure."""
    from detector.loading import default_model_path

    if not default_model_path().exists():
        raise SystemExit(f"no shipped model at {default_model_path()}: hybrid cannot be measured; train it first")
    items = transcripts()
    detect_n, hook_n, scan_turns, cold_runs, long_n = (200, 200, 1_000, 3, 150) if quick else (2_000, 1_000, 10_000, 5, 300)
    samples = user_turns_in_context(items, detect_n)
    results: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "memory_gib": round(_memory_bytes() / 2**30, 1),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "quick": quick,
    }
    compile_package()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "log.jsonl"
        results["scan_input_user_turns"] = write_log(items, scan_turns, log)
        for mode in MODES:
            results[mode] = {
                "detect": detect_latency(mode, samples),
                "hook": hook_latency(mode, items, hook_n),
                "long_conversation": long_conversation(mode, items, long_n),
                "scan_1_worker": scan_run(mode, 1, log),
                "scan_2_workers": scan_run(mode, 2, log),
                "hook_cold_start": hook_cold_start(mode, cold_runs),
                "model_load": model_load(mode, cold_runs),
            }
    return results


def compile_package() -> None:
    """Byte-compile the detector package that `pivot` imports, as installing it would."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("detector")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        compileall.compile_dir(folder, quiet=1)


def _memory_bytes() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def rows(results: dict[str, Any]) -> Iterator[tuple[str, float, float, str]]:
    """(figure, rules, hybrid, unit) in table order."""
    r, h = results["rules"], results["hybrid"]
    yield "detect p50", r["detect"]["p50_ms"], h["detect"]["p50_ms"], "ms"
    yield "detect p99", r["detect"]["p99_ms"], h["detect"]["p99_ms"], "ms"
    yield "hook p50", r["hook"]["p50_ms"], h["hook"]["p50_ms"], "ms"
    yield "hook p99", r["hook"]["p99_ms"], h["hook"]["p99_ms"], "ms"
    turns = h["long_conversation"]["user_turns"]
    for call in ("before", "after"):
        for q in ("p50", "p99"):
            key = f"{call}_{q}_ms"
            yield f"hook at {turns} turns, {call}_turn {q}", r["long_conversation"][key], h["long_conversation"][key], "ms"
    for key, name in (("scan_1_worker", "1 worker"), ("scan_2_workers", "2 workers")):
        yield f"scan {name}", r[key]["user_turns_per_s"], h[key]["user_turns_per_s"], "user turns/s"
    for key, name in (("scan_1_worker", "1 worker"), ("scan_2_workers", "2 workers")):
        yield f"scan peak PSS ({name})", r[key]["peak_pss_mb"], h[key]["peak_pss_mb"], "MB"
    yield "scan peak RSS (2 workers)", r["scan_2_workers"]["peak_rss_mb"], h["scan_2_workers"]["peak_rss_mb"], "MB"
    yield "hook cold start (median)", r["hook_cold_start"]["median_s"], h["hook_cold_start"]["median_s"], "s"
    yield (
        "hook cold start, --server (median)",
        r["hook_cold_start"]["forwarded_median_s"],
        h["hook_cold_start"]["forwarded_median_s"],
        "s",
    )
    yield "model load (median)", r["model_load"]["median_s"], h["model_load"]["median_s"], "s"


def table(results: dict[str, Any]) -> str:
    machine = results["machine"]
    lines = [
        f"{machine['cpus']} cores, {machine['memory_gib']} GiB, Python {machine['python']}, {machine['platform']}"
        + (" (--quick)" if results["quick"] else ""),
        f"scan input: {results['scan_input_user_turns']} user turns",
        "",
        f"{'figure':<36} {'rules':>10} {'hybrid':>10} {'hybrid/rules':>13}  unit",
    ]
    for name, rules, hybrid, unit in rows(results):
        ratio = hybrid / rules if rules else float("nan")
        lines.append(f"{name:<36} {rules:>10.3g} {hybrid:>10.3g} {ratio:>13.2f}  {unit}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples and fewer runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    results = run(args.quick)
    print(json.dumps(results, indent=2) if args.json else table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
