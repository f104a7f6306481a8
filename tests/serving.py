"""A real `pivot serve` on a free loopback port, for the server tests and the server benchmark."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_server(
    store: Path, mode: str = "rules", extra_args: Sequence[str] = (), timeout_seconds: float = 60.0
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Start `pivot serve`, wait for /healthz, yield (base URL, process), stop it afterwards."""
    port = free_port()
    command = [sys.executable, "-m", "detector.cli", "serve", "--port", str(port), "--store", str(store), "--mode", mode]
    process = subprocess.Popen(
        [*command, *extra_args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_seconds
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"pivot serve exited with {process.returncode}: {process.stderr.read()}")  # type: ignore[union-attr]
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"pivot serve did not answer /healthz within {timeout_seconds:.0f} s")
            time.sleep(0.1)
        yield url, process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)
