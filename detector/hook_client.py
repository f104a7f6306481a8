"""`pivot hook --server URL`: hand the hook's stdin to a warm `pivot serve` and print its answer.

Agents such as Claude Code start the hook command once per user turn. Loading the model and the
tokenizers costs seconds per process; a running `pivot serve` has them loaded. This client uses
only the standard library, so the process costs tens of milliseconds. The service's
`POST /v1/hook` runs the same `handle_hook_input` as the local hook, so the output is the same.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from detector.errors import InputError, PivotError


def read_hook_request(raw: str) -> dict[str, Any]:
    """The one JSON object a hook reads on stdin; the local hook and the forwarder both use it,
    so a malformed object is reported the same way whichever answers."""
    try:
        request = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"stdin: malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise InputError("stdin: malformed JSON: nested too deep") from None
    if not isinstance(request, dict):
        raise InputError("stdin: expected one JSON object")
    return request


def is_claude_prompt_event(raw: str) -> bool:
    """Is this Claude Code's UserPromptSubmit event (whose exit status 2 blocks the prompt)?"""
    try:
        return read_hook_request(raw).get("hook_event_name") == "UserPromptSubmit"
    except InputError:
        return False


def forward_hook_input(raw: str, server: str, token: str | None = None, timeout_seconds: float = 10.0) -> str:
    """What `pivot hook` would print for `raw`, computed by the service at `server`."""
    read_hook_request(raw)  # a malformed object is the caller's error, reported as the local hook does
    request = urllib.request.Request(
        server.rstrip("/") + "/v1/hook",
        data=raw.encode("utf-8"),
        headers={"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {}),
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_seconds) as response:
            return str(json.loads(response.read())["output"])
    except urllib.error.HTTPError as exc:
        detail = _detail(exc.read())
        if exc.code in (400, 422):
            raise InputError(f"{server}: {detail}") from None
        raise PivotError(f"{server}: HTTP {exc.code}: {detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise PivotError(f"{server}: cannot reach the service ({reason}); start it with `pivot serve`") from None
    except (ValueError, KeyError) as exc:
        raise PivotError(f"{server}: not a pivot-detector service (unexpected answer: {exc})") from None


def _detail(body: bytes) -> str:
    try:
        detail = json.loads(body).get("detail")
    except (ValueError, AttributeError):
        return body[:200].decode("utf-8", "replace")
    return detail if isinstance(detail, str) else json.dumps(detail, ensure_ascii=False)[:300]
