"""Batch scanning of conversation logs: where users rejected, pivoted or reopened, and relapses.

One function, `scan_conversation`, runs the tracker over one conversation and returns its output
records; the engines only decide where it runs. `local` uses a process pool (one detector per
worker, built once), `dask` a Dask distributed cluster. Both stream: files are read one record at
a time, at most a bounded number of conversations is in flight, and results come back in input
order, so the output of a scan does not depend on the engine or the number of workers.

Output is JSONL, one object per detection or relapse, written a whole conversation at a time and
flushed, so an interrupted scan (Ctrl-C, SIGTERM) leaves a valid prefix.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Any, Literal, Self

from detector.errors import InputError
from detector.formats import BadRecord, FormatName, Record, iter_file, iter_paths
from detector.schema import Detection, Label, Turn
from detector.store import MemoryStore
from detector.tracker import ConvergenceTracker

if TYPE_CHECKING:
    from detector.detect import Detector

Engine = Literal["local", "dask"]
# Conversations handed to a worker at once: big enough to amortise pickling, small enough that
# results stream out steadily and an interrupt loses little work.
CHUNK_SIZE = 16
# Conversations per Dask task, and how many tasks per worker may be in flight (bounds memory).
DASK_BATCH = 256
DASK_TASKS_PER_WORKER = 2
# Bad records kept by name in the summary; the count is always exact.
MAX_LISTED_BAD = 1000


# ------------------------------------------------------------------------------------------
# Reading


def iter_records(
    paths: Sequence[str | Path], fmt: FormatName = "auto", on_bad: Callable[[BadRecord], None] = lambda bad: None
) -> Iterator[Record]:
    """Readable conversations of every file under `paths`, in order; the rest go to `on_bad`.

    Besides what `formats.iter_file` refuses, a conversation with no turns, or with a user or
    assistant turn that has no text (and, for the assistant, no tool call), is a bad record: it
    would otherwise shift turn numbers silently or be scanned as if the user said nothing.
    """
    for path in iter_paths(paths):
        for item in iter_file(path, fmt):
            problem = item if isinstance(item, BadRecord) else _missing_text(item)
            if problem is None:
                yield item  # type: ignore[misc]
            else:
                on_bad(problem)


def _missing_text(record: Record) -> BadRecord | None:
    turns = record.transcript.turns
    if not turns:
        return BadRecord(record.path, record.line, "no turns")
    for index, turn in enumerate(turns):
        if turn.role == "user" and not turn.text.strip():
            return BadRecord(record.path, record.line, f"turn {index} (user) has no text")
        if turn.role == "assistant" and not turn.text.strip() and not turn.tool_calls:
            return BadRecord(record.path, record.line, f"turn {index} (assistant) has no text and no tool call")
    return None


# ------------------------------------------------------------------------------------------
# One conversation


@dataclass(slots=True)
class ConversationResult:
    """What one conversation contributes: its output records and the counts the summary needs."""

    path: str
    line: int
    conversation_id: str
    turns: int
    user_turns: int
    records: list[dict[str, Any]]
    had_rejection: bool
    relapsed: bool
    # Set when scanning this conversation failed inside the detector: the scan reports it as a
    # bad record and goes on, instead of losing every conversation after it.
    failure: str | None = None


class _RecordingDetector:
    """Passes `detect` through and keeps the turn's Detection: the first call since `turn`
    was reset.

    The tracker returns a Suggestion, and none at all during its cooldown or for a low-confidence
    label, while a scan reports every detection; recording the call the tracker makes anyway
    avoids detecting each turn twice. The tracker reads the whole turn first, then may read some
    of its sentences alone (the options each one drops); those later calls are not the turn's
    label, and until session 64 the scan reported the last of them ("HDB whole unit 可以，condo 也看看"
    for a turn that opens "co-living 免谈").
    """

    def __init__(self, inner: Detector) -> None:
        self.inner = inner
        self.engine = inner.engine  # the tracker reads choices in NONE turns with the same cues
        self.turn: Detection | None = None

    def detect(
        self, text: str, context: Sequence[Turn] = (), lang: str | None = None, opens_conversation: bool = False
    ) -> Detection:
        detection = self.inner.detect(text, context, lang, opens_conversation)
        if self.turn is None:
            self.turn = detection
        return detection


def conversation_id(record: Record) -> str:
    """The transcript's own id, else where it was read from (unique within a scan)."""
    return record.transcript.id or f"{record.path}:{record.line}"


def scan_conversation(detector: Detector, record: Record) -> ConversationResult:
    """Run a fresh tracker over every turn of one conversation; detections and relapses as records.

    Turn indices are positions in the transcript's `turns` (0-based, all roles), so a reader can
    find the turn in the file; a relapse's `rejected_at_turn` is mapped from the tracker's user
    turn count to the same numbering.
    """
    cid = conversation_id(record)
    recorder = _RecordingDetector(detector)
    tracker = ConvergenceTracker(recorder, MemoryStore(isolate=False))  # type: ignore[arg-type]
    base = {"conversation_id": cid, "file": record.path, "line": record.line}
    records: list[dict[str, Any]] = []
    user_turn_index: list[int] = []  # tracker user turn n (from 1) -> transcript index
    relapsed = False
    for index, turn in enumerate(record.transcript.turns):
        if turn.role == "user":
            recorder.turn = None
            tracker.observe_user(cid, turn.text)
            user_turn_index.append(index)
            found = recorder.turn
            if found is not None and found.label.is_positive:
                records.append({"type": "detection", **base, "turn": index, **_detection_fields(found)})
        elif turn.role == "assistant":
            verdict = tracker.observe_assistant(cid, turn)
            if verdict.verdict == "RELAPSE":
                relapsed = True
                rejected_at = verdict.rejected_at
                records.append(
                    {
                        "type": "relapse",
                        **base,
                        "turn": index,
                        "alternative": verdict.alternative,
                        "rejected_at_turn": user_turn_index[rejected_at - 1] if rejected_at else None,
                        "evidence": verdict.evidence,
                        "reason": verdict.reason,
                    }
                )
    had_rejection = any(event.kind == "rejected" for event in tracker.state(cid).history)
    return ConversationResult(
        record.path, record.line, cid, len(record.transcript.turns), len(user_turn_index), records, had_rejection, relapsed
    )


def _detection_fields(detection: Detection) -> dict[str, Any]:
    return {
        "label": detection.label.value,
        "confidence": detection.confidence,
        "target": detection.target,
        "replacement": detection.replacement,
        "reason": detection.reason,
        "revisit_if": detection.revisit_if,
        "lang": detection.lang,
        "decided_by": detection.explanation.decided_by,
    }


# ------------------------------------------------------------------------------------------
# Engines


@dataclass(frozen=True, slots=True)
class DetectorSpec:
    """How to build the detector: small and picklable, so each worker builds its own once."""

    mode: str | None = None
    model_path: Path | None = None
    allow_untrusted: bool = False

    def build(self) -> Detector:
        from detector.loading import build_detector

        return build_detector(mode=self.mode, model_path=self.model_path, allow_untrusted=self.allow_untrusted)


_worker_detector: Detector | None = None


def _init_worker(spec: DetectorSpec, inherited: bool) -> None:
    """Pool initializer: build the detector (unless forked with it); signals belong to the parent.

    Ctrl-C reaches the whole process group, but only the parent decides when to stop; SIGTERM
    gets its default back, because a forked worker inherits the parent's flag-setting handler
    and `Pool.terminate` would then wait forever for it.
    """
    global _worker_detector
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not inherited or _worker_detector is None:
        _worker_detector = spec.build()


def _scan_chunk_in_worker(chunk: list[Record]) -> list[ConversationResult]:
    assert _worker_detector is not None, "worker not initialised"
    return scan_batch(_worker_detector, chunk)


def scan_batch(detector: Detector, batch: list[Record]) -> list[ConversationResult]:
    """One unit of work for an engine: a chunk (or partition) of conversations, scanned in order."""
    return [_scan_or_report(detector, record) for record in batch]


def _scan_or_report(detector: Detector, record: Record) -> ConversationResult:
    """`scan_conversation`, or a failed result naming the error: a conversation that trips a bug
    in the detector is one bad record of a scan of thousands, not the end of it (in a worker, the
    exception would otherwise end the whole pool)."""
    try:
        return scan_conversation(detector, record)
    except Exception as error:  # noqa: BLE001 - any bug in one conversation, reported with where it is
        failure = f"scanning this conversation failed ({type(error).__name__}: {error}); please report it with the record"
        cid = conversation_id(record)
        return ConversationResult(record.path, record.line, cid, 0, 0, [], False, False, failure=failure)


def _chunks(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    iterator = iter(records)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _in_order(
    chunks: Iterator[list[Record]], submit: Callable[[list[Record]], Callable[[], list[ConversationResult]]], limit: int
) -> Iterator[ConversationResult]:
    """Submit chunks while at most `limit` are in flight; yield their results oldest first.

    This window is what keeps memory flat: `Pool.imap` would read the whole input ahead of the
    workers, and an unbounded Dask submit loop would hold every partition in the scheduler.
    """
    pending: deque[Callable[[], list[ConversationResult]]] = deque()
    for chunk in chunks:
        pending.append(submit(chunk))
        while len(pending) >= limit:
            yield from pending.popleft()()
    while pending:
        yield from pending.popleft()()


def scan_local(records: Iterable[Record], detector: Detector, spec: DetectorSpec, workers: int) -> Iterator[ConversationResult]:
    """Results in input order; with more than one worker, from a process pool fed chunk by chunk."""
    if workers <= 1:
        for record in records:
            yield _scan_or_report(detector, record)
        return
    import multiprocessing

    global _worker_detector
    context = multiprocessing.get_context()
    # A forked worker inherits the detector already built (and checked) here: no second model load.
    inherited = context.get_start_method() == "fork"
    _worker_detector = detector
    if inherited:
        import gc

        detector.warm_up()
        gc.freeze()  # the collector would otherwise touch, and so copy, every shared object
    with context.Pool(workers, initializer=_init_worker, initargs=(spec, inherited)) as pool:

        def submit(chunk: list[Record]) -> Callable[[], list[ConversationResult]]:
            return pool.apply_async(_scan_chunk_in_worker, (chunk,)).get

        yield from _in_order(_chunks(records, CHUNK_SIZE), submit, limit=workers * 4)


def scan_dask(
    records: Iterable[Record], detector: Detector, scheduler: str | None, workers: int, batch_size: int = DASK_BATCH
) -> Iterator[ConversationResult]:
    """Results in input order from a Dask cluster (a LocalCluster when no scheduler address).

    The client reads the files and ships partitions of `batch_size` conversations, so workers
    need the package but not the files; the detector (with its model, already checked against
    the trusted hashes here) is scattered to every worker once. At most a few partitions per
    worker are in flight, so memory stays bounded on both sides.
    """
    from dask.distributed import Client, LocalCluster

    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        shared = client.scatter(detector, broadcast=True)
        limit = max(1, len(client.scheduler_info()["workers"])) * DASK_TASKS_PER_WORKER

        def submit(batch: list[Record]) -> Callable[[], list[ConversationResult]]:
            return client.submit(scan_batch, shared, batch, pure=False).result

        yield from _in_order(_chunks(records, batch_size), submit, limit)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# ------------------------------------------------------------------------------------------
# Summary


@dataclass
class ScanSummary:
    """Counts over a scan; `as_dict` is the --summary JSON, `format` the text on stderr."""

    conversations: int = 0
    turns: int = 0
    user_turns: int = 0
    detections: Counter[str] = field(default_factory=Counter)
    detections_by_lang: dict[str, Counter[str]] = field(default_factory=dict)
    relapses: int = 0
    conversations_with_rejection: int = 0
    conversations_with_relapse: int = 0
    rejected_targets: Counter[str] = field(default_factory=Counter)
    bad_records: int = 0
    bad_listed: list[str] = field(default_factory=list)
    interrupted: str | None = None
    seconds: float = 0.0

    def add(self, result: ConversationResult) -> None:
        self.conversations += 1
        self.turns += result.turns
        self.user_turns += result.user_turns
        self.conversations_with_rejection += result.had_rejection
        self.conversations_with_relapse += result.relapsed
        for record in result.records:
            if record["type"] == "relapse":
                self.relapses += 1
                continue
            self.detections[record["label"]] += 1
            self.detections_by_lang.setdefault(record["lang"], Counter())[record["label"]] += 1
            if record["label"] in (Label.REJECT.value, Label.PIVOT.value) and record["target"]:
                self.rejected_targets[record["target"]] += 1

    def add_bad(self, bad: BadRecord) -> None:
        self.bad_records += 1
        if len(self.bad_listed) < MAX_LISTED_BAD:
            self.bad_listed.append(str(bad))

    @property
    def relapse_rate(self) -> float | None:
        """Conversations with a relapse ÷ conversations with a rejection (None when no rejection)."""
        if not self.conversations_with_rejection:
            return None
        return round(self.conversations_with_relapse / self.conversations_with_rejection, 4)

    def as_dict(self, top: int = 10) -> dict[str, Any]:
        labels = [label.value for label in (Label.REJECT, Label.PIVOT, Label.REOPEN)]
        return {
            "conversations": self.conversations,
            "turns": self.turns,
            "user_turns": self.user_turns,
            "detections": {label: self.detections[label] for label in labels},
            "detections_by_lang": {
                lang: {label: counts[label] for label in labels} for lang, counts in sorted(self.detections_by_lang.items())
            },
            "relapses": self.relapses,
            "conversations_with_rejection": self.conversations_with_rejection,
            "conversations_with_relapse": self.conversations_with_relapse,
            "relapse_rate": self.relapse_rate,
            "top_rejected_targets": [[target, n] for target, n in self.rejected_targets.most_common(top)],
            "bad_records": {"count": self.bad_records, "records": self.bad_listed},
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
            "user_turns_per_second": round(self.user_turns / self.seconds, 1) if self.seconds > 0 else None,
        }

    def format(self) -> str:
        data = self.as_dict()
        rate = "n/a (no rejection)" if data["relapse_rate"] is None else f"{data['relapse_rate']:.1%}"
        lines = [
            f"scanned {data['conversations']} conversations, {data['turns']} turns ({data['user_turns']} user) "
            f"in {data['seconds']:.1f} s" + (f" — interrupted by {self.interrupted}" if self.interrupted else ""),
            "detections: " + ", ".join(f"{k} {v}" for k, v in data["detections"].items()),
        ]
        for lang, counts in data["detections_by_lang"].items():
            lines.append(f"  {lang}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        lines.append(
            f"relapse rate: {rate} ({data['conversations_with_relapse']} of {data['conversations_with_rejection']} "
            f"conversations with a rejection; {data['relapses']} relapsing replies)"
        )
        if data["top_rejected_targets"]:
            lines.append("most rejected: " + "; ".join(f"{t} ({n})" for t, n in data["top_rejected_targets"]))
        lines.append(f"bad records: {self.bad_records}")
        lines.extend(f"  {item}" for item in self.bad_listed[:20])
        if self.bad_records > 20:
            lines.append(f"  … {self.bad_records - 20} more (all listed in --summary, up to {MAX_LISTED_BAD})")
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------
# A whole scan


@dataclass(slots=True)
class ScanConfig:
    """Everything `pivot scan` was asked to do."""

    paths: Sequence[str | Path]
    fmt: FormatName = "auto"
    spec: DetectorSpec = field(default_factory=DetectorSpec)
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    engine: Engine = "local"
    scheduler: str | None = None
    progress: bool = False


class _StopRequest:
    """SIGINT/SIGTERM set a flag that the writer checks between conversations.

    Raising from the handler could cut a write in half; checking between whole lines keeps the
    output a valid JSONL prefix. A second Ctrl-C stops at once.
    """

    def __init__(self) -> None:
        self.reason: str | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> Self:
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                self._previous[signum] = signal.signal(signum, self._handle)
            except ValueError:  # not the main thread: leave signals to the caller
                pass
        return self

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.reason is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.reason = signal.Signals(signum).name

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)


def run_scan(config: ScanConfig, out: IO[str], on_bad: Callable[[BadRecord], None] | None = None) -> ScanSummary:
    """Scan every conversation under `config.paths`, writing JSONL records to `out`, in input order.

    Paths are checked and the detector is built here first, so a typo or a bad model option
    fails before any output is written or any worker starts.
    """
    for path in config.paths:  # a typo in the last path should not cost a whole scan first
        if not Path(path).exists():
            raise InputError(f"{path}: no such file or folder")
    summary = ScanSummary()
    started = time.perf_counter()
    detector = config.spec.build()

    def bad(record: BadRecord) -> None:
        summary.add_bad(record)
        if on_bad is not None:
            on_bad(record)

    records = iter_records(config.paths, config.fmt, bad)
    if config.engine == "dask":
        results = scan_dask(records, detector, config.scheduler, config.workers)
    else:
        results = scan_local(records, detector, config.spec, config.workers)
    bar = _progress_bar() if config.progress else None
    with _StopRequest() as stop:
        try:
            for result in results:
                if result.failure is not None:
                    bad(BadRecord(result.path, result.line, result.failure))
                    continue
                if result.records:
                    out.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in result.records))
                    out.flush()
                summary.add(result)
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix_str(f"{summary.user_turns} user turns", refresh=False)
                if stop.reason is not None:
                    summary.interrupted = stop.reason
                    break
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()  # terminates the pool or the cluster of an unfinished scan
            if bar is not None:
                bar.close()
    summary.seconds = time.perf_counter() - started
    return summary


def _progress_bar() -> Any:
    from tqdm import tqdm

    return tqdm(unit="conv", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)
