"""Crash safety: kill -9 real `pivot hook` processes and a real `pivot serve` mid-write, many times.

Writers send numbered user turns ("marker W-K") to one SQLite store; a write is *acknowledged*
when the hook printed its answer and exited 0 (or the server answered 200). Afterwards the file
must open, pass `PRAGMA integrity_check`, every stored state must validate, and every
acknowledged turn must be there:
- `state.turn` (user turns stored) is at least the number of acknowledged turns and at most the
  number attempted (a killed write may or may not have committed, nothing else may appear);
- the user turns in `recent_turns` (the last 12 stored) appear in the order they were sent, and
  every acknowledged turn sent after the oldest of them is among them (nothing acknowledged was
  lost between two stored ones).
"""

from __future__ import annotations

import json
import random
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from detector.store import SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
PIVOT = [sys.executable, "-m", "detector.cli"]
MARKER = re.compile(r"marker (\d+)-(\d+)")
TEXTS = [
    "这个方向不对，换成方案B",
    "drop the Redis idea, ops cost is too high",
    "ok, continue",
    "回头再看看方案A",
    "scrap plan A, go with B",
    "继续",
]


@dataclass
class Ledger:
    """What each writer attempted and which attempts were acknowledged, per conversation."""

    attempted: dict[str, list[int]] = field(default_factory=dict)
    acknowledged: dict[str, set[int]] = field(default_factory=dict)
    interleaved: set[str] = field(default_factory=set)
    kills: int = 0
    kills_mid_transaction: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def attempt(self, conversation_id: str, k: int) -> None:
        with self.lock:
            self.attempted.setdefault(conversation_id, []).append(k)
            self.acknowledged.setdefault(conversation_id, set())

    def ack(self, conversation_id: str, k: int) -> None:
        with self.lock:
            self.acknowledged[conversation_id].add(k)

    def killed(self, mid_transaction: bool = False) -> None:
        with self.lock:
            self.kills += 1
            self.kills_mid_transaction += mid_transaction


def holds_write_lock(pid: int, store: Path) -> bool:
    """Is this process inside a write transaction? In WAL mode the writer holds a POSIX lock on
    byte 120 of the -shm file (SQLite's WAL_WRITE_LOCK); Linux lists such locks in /proc/locks."""
    try:
        inode = (store.parent / (store.name + "-shm")).stat().st_ino
        with open("/proc/locks", encoding="ascii") as locks:
            for line in locks:
                parts = line.split()
                if (
                    len(parts) >= 8
                    and parts[2:5] == ["ADVISORY", "WRITE", str(pid)]
                    and parts[5].endswith(f":{inode}")
                    and parts[6] == "120"
                ):
                    return True
    except OSError:
        pass
    return False


def _turn_text(writer: int, k: int, padding: str = "") -> str:
    return f"{TEXTS[k % len(TEXTS)]} (marker {writer}-{k}) {padding}"


def cue_dense_padding() -> str:
    """~3.7 KB of cue examples: detecting it takes a good part of a second, and the hook does it
    inside its write transaction (BEGIN IMMEDIATE … COMMIT), so random kills land mid-write."""
    from detector.cues.engine import default_engine

    cues = default_engine()._cues
    unit = " ".join(c.spec.examples[0] for lang in ("zh", "en") for c in cues[lang][:30])
    return unit * 4


def check_store(path: Path, ledger: Ledger) -> dict[str, int]:
    """The invariants above; returns stored user turns per conversation."""
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store = SQLiteStore(path)
    stored: dict[str, int] = {}
    for conversation_id in store.ids():
        state = store.get(conversation_id)  # validates: raises StateError if it does not
        assert state is not None
        stored[conversation_id] = state.turn
    for conversation_id, attempted in ledger.attempted.items():
        acknowledged = ledger.acknowledged[conversation_id]
        state = store.get(conversation_id)
        turns = state.turn if state is not None else 0
        assert len(acknowledged) <= turns <= len(attempted), (
            conversation_id,
            len(acknowledged),
            turns,
            len(attempted),
        )
        if state is None or conversation_id in ledger.interleaved:
            continue  # several writers interleave here: only the count is checked
        seen = [
            int(m.group(2))
            for t in state.recent_turns
            if t.role == "user"
            for m in [MARKER.search(t.text)]
            if m
        ]
        assert seen == sorted(seen), (conversation_id, seen)
        if seen:
            missing = {k for k in acknowledged if k >= seen[0]} - set(seen)
            assert not missing, f"{conversation_id}: acknowledged turns {sorted(missing)} lost"
        if turns <= len(state.recent_turns):
            assert acknowledged <= set(seen)
    return stored


# -- pivot hook --------------------------------------------------------------------------------


def _run_hook(
    store: Path,
    conversation_id: str,
    text: str,
    kill_after: float | None,
    ledger: Ledger,
    in_transaction: bool = False,
) -> bool:
    """One `pivot hook` call; True when acknowledged (printed its answer, exit 0).

    With `kill_after`, SIGKILL it that many seconds after its input is sent; with `in_transaction`
    too, wait first until it holds SQLite's write lock, then kill it `kill_after` seconds later.
    """
    request = json.dumps(
        {"conversation_id": conversation_id, "turn": {"role": "user", "text": text}}, ensure_ascii=False
    )
    process = subprocess.Popen(
        [*PIVOT, "hook", "--store", str(store), "--mode", "rules"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if kill_after is None:
        out, err = process.communicate(request.encode("utf-8"), timeout=60)
    else:
        assert process.stdin is not None
        process.stdin.write(request.encode("utf-8"))
        process.stdin.close()
        process.stdin = None  # so communicate() below only reads
        while in_transaction and process.poll() is None and not holds_write_lock(process.pid, store):
            time.sleep(0.002)
        time.sleep(kill_after)
        if process.poll() is None:
            mid_transaction = holds_write_lock(process.pid, store)
            process.kill()  # SIGKILL: no cleanup, no atexit, no rollback by Python
            ledger.killed(mid_transaction)
        out, err = process.communicate(timeout=60)
    if process.returncode == 0:
        answer = out.decode("utf-8").strip()
        assert answer, "exit 0 without an answer"
        json.loads(answer)
        return True
    assert process.returncode < 0 or not err.strip() or b"Traceback" not in err, err.decode()
    return False


def test_kill_9_hook_processes_mid_write_loses_no_acknowledged_update(tmp_path: Path) -> None:
    store = tmp_path / "state.sqlite3"
    ledger = Ledger(interleaved={"shared"})
    padding = cue_dense_padding()
    # Calibrate: how long one hook takes here, so kills land near the state write at its end.
    durations = []
    for k in range(3):
        ledger.attempt("calibrate", k)
        started = time.monotonic()
        assert _run_hook(store, "calibrate", _turn_text(99, k, padding), None, ledger)
        ledger.ack("calibrate", k)
        durations.append(time.monotonic() - started)
    typical = statistics.median(durations)
    writers, target_kills, deadline = 4, 40, time.monotonic() + 32

    def writer(w: int) -> None:
        rng = random.Random(w)
        k = 0
        while time.monotonic() < deadline and ledger.kills < target_kills:
            # Every fourth call goes to one conversation all writers share (counted, not ordered).
            conversation_id, key = ("shared", w * 100_000 + k) if k % 4 == 3 else (f"writer-{w}", k)
            ledger.attempt(conversation_id, key)
            # One call in five runs to the end; the others are killed, at a random moment (mostly
            # while starting up) or inside their write transaction.
            plan = rng.choices(["finish", "random", "in-transaction"], weights=[3, 3, 5])[0]
            kill_after = {
                "finish": None,
                "random": typical * rng.uniform(0.3, 1.5),
                "in-transaction": rng.uniform(0, 0.3),
            }[plan]
            text = _turn_text(w, k, padding)
            if _run_hook(
                store, conversation_id, text, kill_after, ledger, in_transaction=plan == "in-transaction"
            ):
                ledger.ack(conversation_id, key)
            k += 1

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = check_store(store, ledger)
    acknowledged = sum(len(v) for v in ledger.acknowledged.values())
    attempted = sum(len(v) for v in ledger.attempted.values())
    committed_unacknowledged = sum(stored.values()) - acknowledged
    print(
        f"hook: {attempted} calls, {ledger.kills} kill -9 ({ledger.kills_mid_transaction} inside a write "
        f"transaction), {acknowledged} acknowledged, "
        f"{committed_unacknowledged} committed but killed before answering, stored {stored}"
    )
    assert ledger.kills >= 20, f"only {ledger.kills} kills landed while a hook was running"
    if Path("/proc/locks").exists():
        assert ledger.kills_mid_transaction >= 10, "too few kills landed inside a write transaction"
    assert acknowledged >= 8


# -- pivot serve -------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_server(store: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [*PIVOT, "serve", "--port", str(port), "--store", str(store), "--mode", "rules"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"pivot serve exited with {process.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    process.kill()
    pytest.fail("pivot serve did not answer /healthz within 30 s")


def test_kill_9_server_during_parallel_writes_loses_no_acknowledged_update(tmp_path: Path) -> None:
    store = tmp_path / "state.sqlite3"
    port = _free_port()
    url = f"http://127.0.0.1:{port}/v1/turns"
    ledger = Ledger()
    clients, server_kills = 8, 4
    stop = threading.Event()
    padding = cue_dense_padding()[:300]  # ~15 ms of detection inside each write transaction

    def client(w: int) -> None:
        k = 0
        with httpx.Client(timeout=10) as http:
            while not stop.is_set():
                conversation_id = f"client-{w}"
                ledger.attempt(conversation_id, k)
                body = {
                    "conversation_id": conversation_id,
                    "turn": {"role": "user", "text": _turn_text(w, k, padding)},
                }
                try:
                    if http.post(url, json=body).status_code == 200:
                        ledger.ack(conversation_id, k)
                except httpx.TransportError:
                    time.sleep(0.05)  # the server is down: this turn is not acknowledged
                k += 1

    server = _start_server(store, port)
    threads = [threading.Thread(target=client, args=(w,)) for w in range(clients)]
    for thread in threads:
        thread.start()
    rng = random.Random(7)
    try:
        for _ in range(server_kills):
            time.sleep(rng.uniform(0.5, 1.5))
            deadline = time.monotonic() + 1  # prefer to kill it inside a write transaction
            while not holds_write_lock(server.pid, store) and time.monotonic() < deadline:
                time.sleep(0.001)
            mid_transaction = holds_write_lock(server.pid, store)
            server.kill()
            server.wait()
            ledger.killed(mid_transaction)
            server = _start_server(store, port)
        time.sleep(0.5)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        server.kill()
        server.wait()
    stored = check_store(store, ledger)
    acknowledged = sum(len(v) for v in ledger.acknowledged.values())
    attempted = sum(len(v) for v in ledger.attempted.values())
    print(
        f"serve: {attempted} requests, {ledger.kills} kill -9 ({ledger.kills_mid_transaction} inside a write "
        f"transaction), {acknowledged} acknowledged, stored {stored}"
    )
    assert ledger.kills == server_kills
    assert acknowledged >= 50
