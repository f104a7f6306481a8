"""`pivot scan`: real files (JSONL, JSON lists, gzip) in nested folders, real process pools,
a real Dask LocalCluster, bad records, interruption, and the summary."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from detector.cli import main
from detector.detect import Detector
from detector.loading import default_model_path
from detector.scan import DetectorSpec, ScanConfig, _in_order, iter_records, run_scan, scan_dask, scan_local

ROOT = Path(__file__).resolve().parent.parent

# fmt: off
ZH_RELAPSE = {"id": "zh-relapse", "lang": "zh", "turns": [
    {"role": "user", "text": "我们的接口响应太慢了，想加一层缓存，有什么方案？"},
    {"role": "assistant", "text": "方案A：Redis 集中式缓存，多实例共享，命中率高。\n方案B：进程内本地 LRU 缓存，零运维，但各实例各存一份。"},
    {"role": "user", "text": "A 不行，我们运维就两个人，再加一套 Redis 扛不住，换 B 吧"},
    {"role": "assistant", "text": "好的，用本地 LRU。另外也可以考虑 Redis 集中式缓存，命中率会更好。"},
    {"role": "user", "text": "好，继续"},
]}
EN_PIVOT = {"id": "en-pivot", "lang": "en", "turns": [
    {"role": "user", "text": "We need background jobs for sending emails. Options?"},
    {"role": "assistant", "text": "Option 1: Celery with RabbitMQ. Option 2: a Postgres-backed queue. Option 3: SQS."},
    {"role": "user", "text": "scrap the Celery idea, go with the Postgres queue instead"},
    {"role": "assistant", "text": "OK, the Postgres queue it is."},
]}
OPENAI = {"id": "openai-1", "messages": [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": [{"type": "text", "text": "Which database should we use?"}]},
    {"role": "assistant", "content": "Option 1: MongoDB. Option 2: Postgres."},
    {"role": "user", "content": "drop the MongoDB idea"},
]}
SHAREGPT = {"id": "sharegpt-1", "conversations": [
    {"from": "human", "value": "帮我想想周末去哪玩"},
    {"from": "gpt", "value": "方案A：去爬山。方案B：去博物馆。"},
    {"from": "human", "value": "这些都不想去，换个别的"},
]}
# fmt: on


def write_jsonl(path: Path, records: list[Any], opener: Any = open) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with opener(path, "wt", encoding="utf-8") as handle:
        for record in records:
            handle.write((record if isinstance(record, str) else json.dumps(record, ensure_ascii=False)) + "\n")
    return path


@pytest.fixture()
def logs(tmp_path: Path) -> Path:
    """A folder tree with every supported container and format, and four kinds of bad record."""
    root = tmp_path / "logs"
    write_jsonl(root / "a.jsonl", [ZH_RELAPSE, "{not json", EN_PIVOT])
    (root / "nested" / "deeper").mkdir(parents=True)
    (root / "nested" / "list.json").write_text(json.dumps([OPENAI, {"foo": 1}], ensure_ascii=False), encoding="utf-8")
    write_jsonl(root / "nested" / "deeper" / "b.jsonl.gz", [SHAREGPT, {"id": "no-text", "turns": [{"role": "user"}]}], gzip.open)
    (root / "nested" / "bad-utf8.jsonl").write_bytes(b'{"turns": [{"role": "user", "text": "\xff\xfe"}]}\n')
    (root / "ignored.txt").write_text("not a log", encoding="utf-8")
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_scan_reports_detections_relapses_bad_records_and_summary(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary_file = tmp_path / "summary.json"
    code, out, err = run(capsys, "scan", str(logs), "--mode", "rules", "--workers", "1", "--summary", str(summary_file))
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    by_id = {(r["conversation_id"], r["type"], r["turn"]): r for r in records}

    pivot = by_id[("zh-relapse", "detection", 2)]
    assert pivot["label"] == "PIVOT" and pivot["lang"] == "zh" and "Redis" in pivot["target"]
    assert pivot["file"].endswith("a.jsonl") and pivot["line"] == 1
    relapse = by_id[("zh-relapse", "relapse", 3)]
    assert relapse["rejected_at_turn"] == 2 and "Redis" in relapse["alternative"] and relapse["evidence"]
    # `rejected_at_turn` counts every turn of the file; the verdict's words count user turns, and say so.
    assert relapse["reason"].endswith("rejected at user turn 2")
    assert by_id[("en-pivot", "detection", 2)]["label"] == "PIVOT"
    assert by_id[("openai-1", "detection", 3)]["label"] == "REJECT"  # system turn counted in the index
    assert by_id[("sharegpt-1", "detection", 2)]["label"] == "PIVOT"

    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    assert summary["conversations"] == 4
    assert summary["user_turns"] == 3 + 2 + 2 + 2
    assert summary["detections"]["PIVOT"] == 3 and summary["detections"]["REJECT"] == 1
    assert summary["detections_by_lang"]["zh"]["PIVOT"] == 2
    assert summary["conversations_with_relapse"] == 1
    assert summary["relapse_rate"] == round(1 / summary["conversations_with_rejection"], 4)
    assert any("Redis" in target for target, _ in summary["top_rejected_targets"])
    bad = summary["bad_records"]
    assert bad["count"] == 4
    listed = "\n".join(bad["records"])
    for where in ("a.jsonl:2: malformed JSON", "list.json:1: item 2: unknown format", "b.jsonl.gz:2: turn 0 (user) has no text",
                  "bad-utf8.jsonl:1: invalid UTF-8"):
        assert where in listed
        assert where in err  # also reported on stderr as it happens
    assert "relapse rate: " in err and "scanned 4 conversations" in err


def test_strict_fails_on_bad_records_and_quiet_silences_the_summary(
    logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "scan", str(logs), "--mode", "rules", "--workers", "1", "--strict", "--quiet")
    assert code == 1
    assert "bad record" in err and "scanned" not in err


def test_forced_format_turns_other_shapes_into_bad_records(logs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "scan", str(logs / "nested"), "--format", "sharegpt", "--mode", "rules", "--workers", "1")
    assert code == 0
    assert {json.loads(line)["conversation_id"] for line in out.splitlines()} == {"sharegpt-1"}
    assert "list.json:1: item 1: not sharegpt format" in err


def test_out_file_and_missing_path_error(logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "found.jsonl"
    code, out, _ = run(capsys, "scan", str(logs / "a.jsonl"), "--mode", "rules", "--workers", "1", "--out", str(out_file))
    assert code == 0 and out == ""
    assert len(out_file.read_text(encoding="utf-8").splitlines()) == 3
    code, _, err = run(capsys, "scan", str(tmp_path / "nope"), "--mode", "rules")
    assert code == 2 and "nope: no such file or folder" in err


def many_conversations(tmp_path: Path, copies: int) -> Path:
    """`copies` × 4 conversations with distinct ids, spread over a gzip and a plain file."""
    items = []
    for n in range(copies):
        for base in (ZH_RELAPSE, EN_PIVOT, OPENAI, SHAREGPT):
            items.append({**base, "id": f"{base['id']}-{n}"})
    half = len(items) // 2
    write_jsonl(tmp_path / "many" / "part1.jsonl.gz", items[:half], gzip.open)
    write_jsonl(tmp_path / "many" / "part2.jsonl", items[half:])
    return tmp_path / "many"


def scan_records(config: ScanConfig) -> list[dict[str, Any]]:
    import io

    buffer = io.StringIO()
    run_scan(config, buffer)
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def test_process_pool_gives_the_same_records_in_input_order(tmp_path: Path) -> None:
    folder = many_conversations(tmp_path, 40)
    spec = DetectorSpec(mode="rules")
    serial = scan_records(ScanConfig([folder], spec=spec, workers=1))
    parallel = scan_records(ScanConfig([folder], spec=spec, workers=2))
    assert len(serial) > 160
    assert parallel == serial
    ids = [r["conversation_id"] for r in serial]
    assert ids.index("zh-relapse-0") < ids.index("en-pivot-0") < ids.index("zh-relapse-1")


def test_dask_cluster_gives_the_same_records_as_the_local_engine(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster

    folder = many_conversations(tmp_path, 10)
    detector = Detector("rules")
    records = list(iter_records([folder]))
    local = [r.records for r in scan_local(records, detector, DetectorSpec(mode="rules"), workers=1)]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        remote = [r.records for r in scan_dask(records, detector, cluster.scheduler_address, workers=2, batch_size=7)]
    assert remote == local
    assert sum(len(r) for r in local) > 40


def test_cli_dask_engine_starts_a_local_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("dask.distributed")
    folder = many_conversations(tmp_path, 3)
    code, dask_out, err = run(capsys, "scan", str(folder), "--mode", "rules", "--engine", "dask", "--workers", "2", "--quiet")
    assert code == 0, err
    code, local_out, _ = run(capsys, "scan", str(folder), "--mode", "rules", "--workers", "1", "--quiet")
    assert dask_out == local_out and dask_out.count("\n") > 10


def test_scan_engines_read_ahead_only_a_bounded_window() -> None:
    """Streaming: with a window of 3 chunks, the input is not read ahead of the results."""
    consumed = itertools.count()

    def chunks() -> Any:
        for n in range(1000):
            next(consumed)
            yield [n]

    results = _in_order(chunks(), lambda chunk: (lambda: chunk), limit=3)  # type: ignore[arg-type,return-value]
    assert next(results) == 0
    assert next(consumed) <= 4


def test_sigterm_leaves_a_valid_jsonl_prefix(tmp_path: Path) -> None:
    folder = many_conversations(tmp_path, 400)
    out_file = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "detector.cli", "scan", str(folder), "--mode", "rules", "--workers", "2", "--out", str(out_file)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (not out_file.exists() or out_file.stat().st_size < 2000):
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 143, err
    assert "interrupted by SIGTERM" in err
    text = out_file.read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = text.splitlines()
    assert 0 < len(lines) < 400 * 5
    for line in lines:
        json.loads(line)


def shipped_model_or_skip() -> None:
    """Skip, saying why, while the shipped model is missing or out of step with the code (retraining)."""
    from detector.classifier import load_model

    if not default_model_path().exists():
        pytest.skip(f"the shipped model is being retrained: no {default_model_path()}")
    try:
        load_model(default_model_path())
    except Exception as exc:  # noqa: BLE001 - any failure here means "retrain", reported in the reason
        pytest.skip(f"the shipped model does not load with this code ({type(exc).__name__}: {exc}); retrain it")


def test_hybrid_scan_with_the_shipped_model(logs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped_model_or_skip()
    code, out, _ = run(capsys, "scan", str(logs), "--mode", "hybrid", "--workers", "2", "--quiet")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert {r["decided_by"] for r in records if r["type"] == "detection"} <= {"rules", "classifier", "hybrid"}
    assert any(r["conversation_id"] == "zh-relapse" and r["type"] == "detection" for r in records)


def test_default_workers_is_the_core_count(capsys: pytest.CaptureFixture[str]) -> None:
    from detector.cli import _build_parser

    args = _build_parser().parse_args(["scan", "x"])
    assert args.workers == (os.cpu_count() or 1) and args.engine == "local"


def test_a_record_nested_past_the_recursion_limit_is_a_bad_record(tmp_path: Path) -> None:
    """json.loads raises RecursionError, not a decode error, on "[[[[…": a log line like that is
    reported with its line number and the scan goes on; a JSON list that deep cannot be resumed."""
    from detector.formats import BadRecord, Record, iter_file

    good = json.dumps({"id": "ok", "turns": [{"role": "user", "text": "hi"}]})
    lines = tmp_path / "deep.jsonl"
    lines.write_text(good + "\n" + "{\"a\": " + "[" * 100_000 + "\n" + good + "\n", encoding="utf-8")
    items = list(iter_file(lines))
    assert [type(item) for item in items] == [Record, BadRecord, Record]
    assert items[1].line == 2 and "nested too deep" in items[1].error  # type: ignore[union-attr]
    listed = tmp_path / "deep.json"
    listed.write_text("[" * 100_000, encoding="utf-8")
    (only,) = iter_file(listed)
    assert isinstance(only, BadRecord) and "nested too deep" in only.error


def test_a_conversation_that_trips_a_bug_is_a_bad_record_and_the_scan_goes_on(
    logs: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An exception inside the detector on one conversation (session 47 found one: a reply
    recommending an option twice) once ended the whole scan; it is one bad record, with where."""
    from detector import scan

    real = scan.scan_conversation

    def failing_on_the_pivot(detector: Detector, record: Any) -> Any:
        if record.transcript.id == "en-pivot":
            raise ValueError("a bug")
        return real(detector, record)

    monkeypatch.setattr(scan, "scan_conversation", failing_on_the_pivot)
    code, out, err = run(capsys, "scan", str(logs / "a.jsonl"), "--mode", "rules", "--workers", "1")
    assert code == 0
    assert {json.loads(line)["conversation_id"] for line in out.splitlines()} == {"zh-relapse"}
    assert "a.jsonl:3: scanning this conversation failed (ValueError: a bug)" in err
    assert "bad records: 2" in err  # the malformed line 2 and the failed line 3
    code, _, _ = run(capsys, "scan", str(logs / "a.jsonl"), "--mode", "rules", "--workers", "1", "--strict")
    assert code == 1


def test_the_scan_reports_the_whole_turns_detection_not_a_sentence_read_after_it() -> None:
    """The tracker reads a turn whole, then may read its sentences alone to find which option each
    drops; the scan reports the whole turn's label, target and reason, as the hook would (until
    session 64 it reported the last sentence read: here "HDB whole unit 可以", the option taken)."""
    from detector.formats import Record
    from detector.loading import build_detector
    from detector.scan import scan_conversation
    from detector.schema import Transcript

    transcript = Transcript.model_validate({"id": "sg-flat", "turns": [
        {"role": "user", "text": "我跟 partner 下个月从上海搬来 SG，两个人，budget 每月 SGD 4.5k"},
        {"role": "assistant", "text": (
            "1. Buona Vista / Holland 的 condo 2BR，离 one-north 近；2. Tanjong Pagar 的 condo，离 Raffles 近；"
            "3. 折中选 Queenstown / Redhill 的 HDB whole unit，比较便宜；4. co-living，比如 Lyf、Hmlet。推荐 3。")},
        {"role": "user", "text": "co-living 免谈，两个人想要有自己的空间。HDB whole unit 可以，condo 也看看"},
    ]})
    detector = build_detector()
    [found] = [r for r in scan_conversation(detector, Record("a.jsonl", 1, transcript)).records if r["type"] == "detection"]
    whole = detector.detect_in(transcript.turns, 2)
    assert (found["label"], found["target"]) == (whole.label.value, whole.target)
    assert found["label"] == "REJECT" and "co-living" in found["target"]
