"""`pivot serve` end to end: a real server on a loopback port, spoken to over HTTP.

One server (rules mode, a tmp SQLite store, a token, a small body limit) serves the whole module;
each test uses its own conversation ids, so tests do not depend on each other's order.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.serving import running_server

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token-42"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
MAX_BODY = 8192


@dataclass(frozen=True)
class Server:
    url: str
    store: Path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    store = tmp_path_factory.mktemp("serve") / "state.sqlite3"
    extra = ["--token", TOKEN, "--max-body-bytes", str(MAX_BODY)]
    with running_server(store, "rules", extra, timeout_seconds=30) as (url, _):
        yield Server(url, store)


@pytest.fixture()
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, headers=AUTH, timeout=30) as http:
        yield http


def _turn(http: httpx.Client, conversation_id: str, role: str, text: str, **extra: object) -> httpx.Response:
    response = http.post(
        "/v1/turns", json={"conversation_id": conversation_id, "turn": {"role": role, "text": text, **extra}}
    )
    assert response.status_code == 200, response.text
    return response


# -- endpoints --------------------------------------------------------------------------------


def test_healthz_is_open_without_token(server: Server) -> None:
    response = httpx.get(f"{server.url}/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok", "mode": "rules"}


def test_detect_returns_a_detection_with_its_explanation(client: httpx.Client) -> None:
    detection = client.post("/v1/detect", json={"text": "scrap plan A, go with B"}).json()
    assert detection["label"] == "PIVOT" and detection["replacement"] == "B" and detection["lang"] == "en"
    assert detection["explanation"]["fired"]

    context = [{"role": "assistant", "text": "方案A：Redis 缓存。\n方案B：本地 LRU 缓存。"}]
    detection = client.post(
        "/v1/detect", json={"text": "这个方向不对", "context": context, "lang": "zh"}
    ).json()
    assert detection["label"] == "REJECT" and detection["lang"] == "zh"


def test_detect_reads_a_first_turn_only_when_told_it_opens_the_conversation(client: httpx.Client) -> None:
    """A weak cue and no word of earlier talk: a verdict on something discussed, unless nothing was."""
    text = "法务那边肯定过不了"
    assert client.post("/v1/detect", json={"text": text}).json()["label"] == "REJECT"
    opening = client.post("/v1/detect", json={"text": text, "opens_conversation": True}).json()
    assert opening["label"] == "NONE" and "first turn" in opening["explanation"]["rule"]


def test_turns_track_a_conversation_and_catch_a_relapse(client: httpx.Client) -> None:
    cid = "flow-en"
    verdict = _turn(client, cid, "assistant", "Option A: a Redis cache.\nOption B: a local LRU cache.").json()
    assert verdict["verdict"] == "OK"
    assert _turn(client, cid, "user", "thanks, tell me more").json() is None

    suggestion = _turn(client, cid, "user", "drop the Redis idea, the ops cost is too high").json()
    assert suggestion["trigger"] == "rejection" and suggestion["turn"] == 2
    assert "[SEMANTIC CONVERGENCE]" in suggestion["block"] and suggestion["instruction"]
    assert suggestion["detections"][0]["label"] == "REJECT"

    relapse = _turn(client, cid, "assistant", "You could also add a Redis cache to fix the latency.").json()
    assert relapse["verdict"] == "RELAPSE" and relapse["rejected_at"] == 2

    state = client.get(f"/v1/conversations/{cid}/state").json()
    assert state["turn"] == 2 and [r["rejected_at"] for r in state["rejected"]] == [2]
    assert [t["role"] for t in state["recent_turns"]] == ["assistant", "user", "user", "assistant"]


def test_assistant_checkpoint_tool_call_and_solidify_command(client: httpx.Client) -> None:
    cid = "flow-tools"
    _turn(client, cid, "user", "it must run on Python 3.11")
    _turn(
        client, cid, "assistant", "Updated.", tool_calls=[{"function": {"name": "update_working_checkpoint"}}]
    )
    assert client.get(f"/v1/conversations/{cid}/state").json()["last_checkpoint_turn"] == 1
    solidified = _turn(client, cid, "user", "/converge").json()
    assert solidified["trigger"] == "solidify_command" and solidified["block"].startswith("### [SOLIDIFIED]")


def test_checkpoint_with_and_without_a_turn(client: httpx.Client) -> None:
    cid = "flow-checkpoint"
    for text in ("hello", "go on", "and then?"):
        _turn(client, cid, "user", text)
    state = client.post(f"/v1/conversations/{cid}/checkpoint").json()
    assert state["last_checkpoint_turn"] == 3 and state["history"][-1]["kind"] == "checkpoint"
    state = client.post(f"/v1/conversations/{cid}/checkpoint", json={"turn": 2}).json()
    assert state["last_checkpoint_turn"] == 2
    assert client.get(f"/v1/conversations/{cid}/state").json()["last_checkpoint_turn"] == 2


def test_block_forms_and_language_override(client: httpx.Client) -> None:
    cid = "flow-zh"
    _turn(client, cid, "assistant", "方案A：用 Redis 缓存。\n方案B：本地 LRU 缓存。")
    _turn(client, cid, "user", "A 不行，运维扛不住")
    full = client.get(f"/v1/conversations/{cid}/block").json()["block"]
    assert full.startswith("### [SEMANTIC CONVERGENCE]") and "已否决" in full
    assert (
        client.get(f"/v1/conversations/{cid}/block", params={"form": "solidified"})
        .json()["block"]
        .startswith("### [SOLIDIFIED]")
    )
    short = client.get(f"/v1/conversations/{cid}/block", params={"form": "short"}).json()["block"]
    assert "第1轮用户否决" in short and "\n" not in short
    english = client.get(f"/v1/conversations/{cid}/block", params={"lang": "en"}).json()["block"]
    assert "Rejected alternatives:" in english and "Rejected at: turn 1" in english
    # The override renders; it does not change what is stored.
    assert client.get(f"/v1/conversations/{cid}/state").json()["lang"] == "zh"


def test_history_folds_older_turns_and_drops_tool_turns(client: httpx.Client) -> None:
    turns = [
        {"role": "user", "text": "first request"},
        {"role": "tool", "text": '{"rows": 3}'},
        {"role": "assistant", "text": "an answer"},
        {"role": "user", "text": "latest   request"},
    ]
    text = client.post("/v1/history", json={"turns": turns, "limit": 2}).json()["text"]
    assert text.splitlines() == [
        "[archive: 1 earlier turns folded]",
        "assistant: an answer",
        "user: latest request",
    ]
    assert client.post("/v1/history", json={"turns": turns}).json()["text"].count("\n") == 2


def test_openapi_schemas_are_the_pydantic_models(server: Server) -> None:
    spec = httpx.get(f"{server.url}/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for name in (
        "Detection",
        "Suggestion",
        "RelapseVerdict",
        "ConvergenceState",
        "TurnRequest",
        "BlockResponse",
    ):
        assert name in schemas
    assert set(schemas["Suggestion"]["properties"]) >= {
        "trigger",
        "priority",
        "turn",
        "block",
        "patch",
        "instruction",
    }
    turns = json.dumps(spec["paths"]["/v1/turns"]["post"]["responses"]["200"])
    assert "#/components/schemas/Suggestion" in turns and "#/components/schemas/RelapseVerdict" in turns
    assert spec["paths"]["/v1/conversations/{conversation_id}/block"]["get"]["parameters"]


# -- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, path, headers",
    [
        ("POST", "/v1/detect", {}),
        ("POST", "/v1/turns", {}),
        ("GET", "/v1/conversations/flow-en/state", {}),
        ("GET", "/v1/conversations/flow-en/block", {"Authorization": "Bearer wrong"}),
        ("POST", "/v1/conversations/flow-en/checkpoint", {"Authorization": TOKEN}),
        ("POST", "/v1/history", {"Authorization": "Basic dGVzdDp0ZXN0"}),
    ],
)
def test_missing_or_wrong_token_gets_401(
    server: Server, method: str, path: str, headers: dict[str, str]
) -> None:
    response = httpx.request(method, f"{server.url}{path}", headers=headers, json={})
    assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"


def test_unknown_conversation_gets_404(client: httpx.Client) -> None:
    for path in ("/v1/conversations/never-seen/state", "/v1/conversations/never-seen/block"):
        response = client.get(path)
        assert response.status_code == 404 and "never-seen" in response.json()["detail"]


@pytest.mark.parametrize(
    "method, path, body, field",
    [
        ("POST", "/v1/turns", {"turn": {"role": "user", "text": "x"}}, ["body", "conversation_id"]),
        (
            "POST",
            "/v1/turns",
            {"conversation_id": "c", "turn": {"role": "system", "text": "x"}},
            ["body", "turn", "role"],
        ),
        ("POST", "/v1/turns", {"conversation_id": "", "turn": {"role": "user"}}, ["body", "conversation_id"]),
        ("POST", "/v1/detect", {"context": []}, ["body", "text"]),
        ("POST", "/v1/detect", {"text": "x", "lang": "fr"}, ["body", "lang"]),
        ("POST", "/v1/history", {"turns": [], "limit": -1}, ["body", "limit"]),
        ("POST", "/v1/conversations/flow-en/checkpoint", {"turn": "soon"}, ["body", "turn"]),
        ("GET", "/v1/conversations/flow-en/block?form=long", None, ["query", "form"]),
    ],
)
def test_invalid_body_gets_422_naming_the_field(
    client: httpx.Client, method: str, path: str, body: object, field: list[str]
) -> None:
    response = client.request(method, path, json=body)
    assert response.status_code == 422
    assert field in [error["loc"] for error in response.json()["detail"]]


def test_malformed_json_gets_422(client: httpx.Client) -> None:
    response = client.post("/v1/detect", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 422


def test_oversized_body_gets_413_by_declared_length_and_by_streamed_size(client: httpx.Client) -> None:
    body = json.dumps({"text": "x" * MAX_BODY}).encode()
    response = client.post("/v1/detect", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and "bytes" in response.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: chunked transfer encoding
        for start in range(0, len(body), 1000):
            yield body[start : start + 1000]

    response = client.post("/v1/detect", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413

    # Just under the limit is fine.
    fits = json.dumps({"text": "x" * (MAX_BODY - 20)}).encode()
    assert len(fits) <= MAX_BODY
    assert (
        client.post("/v1/detect", content=fits, headers={"Content-Type": "application/json"}).status_code
        == 200
    )


# -- one store for the hook and the server ----------------------------------------------------


def test_pivot_hook_and_server_share_the_store(server: Server, client: httpx.Client) -> None:
    cid = "shared-with-hook"
    _turn(client, cid, "user", "hello there")
    request = json.dumps({"conversation_id": cid, "turn": {"role": "user", "text": "it must stay on-prem"}})
    hook = subprocess.run(
        [sys.executable, "-m", "detector.cli", "hook", "--store", str(server.store), "--mode", "rules"],
        input=request,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert hook.returncode == 0, hook.stderr
    _turn(client, cid, "user", "ok, continue")
    state = client.get(f"/v1/conversations/{cid}/state").json()
    assert state["turn"] == 3 and state["constraints"] == ["it must stay on-prem"]
    assert [t["text"] for t in state["recent_turns"]] == [
        "hello there",
        "it must stay on-prem",
        "ok, continue",
    ]


# -- concurrency ------------------------------------------------------------------------------

CLIENTS = 50
TURNS = 20


def _in_parallel(server: Server, work: object) -> list[object]:
    """Run `work(client_index, http)` for every client at once, each client on its own connection."""

    def one(index: int) -> object:
        with httpx.Client(base_url=server.url, headers=AUTH, timeout=60) as http:
            return work(index, http)  # type: ignore[operator]

    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(one, range(CLIENTS)))


def test_parallel_clients_on_one_conversation_lose_nothing(server: Server, client: httpx.Client) -> None:
    """50 clients × 20 user turns on one conversation: every turn is counted exactly once, in order.

    Every update reads the state and writes it back with the turn counter one higher, so a final
    count of 1,000 means no update read a stale state. Each turn states a distinct constraint,
    recorded with its turn number in the history (bounded to its most recent events): those turn
    numbers must be consecutive, each client's steps must come in the order it sent them, and the
    kept constraints (bounded too) and recent turns must be the tail of that same order.
    """
    cid = "parallel-one"

    def work(index: int, http: httpx.Client) -> None:
        for step in range(TURNS):
            assert _turn(http, cid, "user", f"it must support client {index} step {step}").json() is None

    _in_parallel(server, work)
    state = client.get(f"/v1/conversations/{cid}/state").json()
    assert state["turn"] == CLIENTS * TURNS
    events = [e for e in state["history"] if e["kind"] == "constraint"]
    assert len(events) >= 100
    assert [e["turn"] for e in events] == list(range(CLIENTS * TURNS - len(events) + 1, CLIENTS * TURNS + 1))
    for index in range(CLIENTS):
        steps = [int(e["text"].rsplit(" ", 1)[1]) for e in events if f"client {index} step" in e["text"]]
        assert steps == sorted(steps)
    order = [e["text"] for e in events]
    constraints = state["constraints"]
    assert constraints and constraints == order[-len(constraints) :]
    recent = [t["text"] for t in state["recent_turns"]]
    assert recent == order[-len(recent) :]


def test_parallel_clients_on_their_own_conversations(server: Server, client: httpx.Client) -> None:
    """50 clients, one conversation each, 20 turns alternating user and assistant; each state exact."""

    def work(index: int, http: httpx.Client) -> list[object]:
        cid = f"parallel-many-{index}"
        answers = []
        for step in range(TURNS):
            role = "user" if step % 2 == 0 else "assistant"
            answers.append(_turn(http, cid, role, f"{role} {index} says {step}").json())
        return answers

    results = _in_parallel(server, work)
    for index, answers in enumerate(results):
        assert [a is None for a in answers[0::2]] == [True] * (TURNS // 2)  # type: ignore[index]
        assert all(a["verdict"] == "OK" for a in answers[1::2])  # type: ignore[index]
        state = client.get(f"/v1/conversations/parallel-many-{index}/state").json()
        assert state["turn"] == TURNS // 2
        sent = [f"{'user' if s % 2 == 0 else 'assistant'} {index} says {s}" for s in range(TURNS)]
        kept = state["recent_turns"]
        assert [t["text"] for t in kept] == sent[-len(kept) :] and len(kept) == 12
        assert [t["role"] for t in kept] == ["user", "assistant"] * 6


# -- pivot hook --server ----------------------------------------------------------------------

HOOK_SCRIPT = [
    {"conversation_id": "fwd", "turn": {"role": "user", "text": "we need a cache layer for the catalog"}},
    {"conversation_id": "fwd", "turn": {"role": "assistant", "text": "Option 1: a Redis cluster. Option 2: a local LRU cache."}},
    {"conversation_id": "fwd", "turn": {"role": "user", "text": "scrap option 1, go with the local LRU"}},
    {"conversation_id": "fwd", "turn": {"role": "assistant", "text": "A Redis cluster would also help later."}},
    {"session_id": "fwd-claude", "prompt": "drop the Redis idea, too much ops", "hook_event_name": "UserPromptSubmit"},
    {"session_id": "fwd-claude", "prompt": "ok", "hook_event_name": "UserPromptSubmit"},
]


def _hook(stdin: dict[str, object], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "detector.cli", "hook", *args],
        input=json.dumps(stdin),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_hook_forwarded_to_the_server_prints_what_the_local_hook_prints(server: Server, tmp_path: Path) -> None:
    local_store = tmp_path / "local.sqlite3"
    outputs = []
    for step in HOOK_SCRIPT:
        local = _hook(step, "--store", str(local_store), "--mode", "rules")
        forwarded = _hook(step, "--server", server.url, "--token", TOKEN)
        assert local.returncode == forwarded.returncode == 0, (local.stderr, forwarded.stderr)
        assert forwarded.stdout == local.stdout
        outputs.append(forwarded.stdout)
    assert json.loads(outputs[2])["trigger"] == "pivot"  # the script does exercise a suggestion
    assert json.loads(outputs[3])["verdict"] == "RELAPSE"
    assert "additionalContext" in outputs[4] and outputs[5] == ""


def test_hook_forwarding_errors_are_one_line(server: Server) -> None:
    wrong_token = _hook(HOOK_SCRIPT[0], "--server", server.url, "--token", "nope")
    assert wrong_token.returncode == 2 and "HTTP 401" in wrong_token.stderr and "Traceback" not in wrong_token.stderr
    bad_turn = _hook({"conversation_id": "x", "turn": {"role": "robot", "text": "hi"}}, "--server", server.url, "--token", TOKEN)
    assert bad_turn.returncode == 2 and "turn.role" in bad_turn.stderr
    from tests.serving import free_port

    nobody = _hook(HOOK_SCRIPT[0], "--server", f"http://127.0.0.1:{free_port()}")
    assert nobody.returncode == 2 and "cannot reach" in nobody.stderr and "pivot serve" in nobody.stderr


def test_a_claude_prompt_is_never_blocked_by_our_own_failure() -> None:
    """Exit 2 from a UserPromptSubmit hook blocks the user's prompt: a service down must exit 1."""
    from tests.serving import free_port

    claude = {"session_id": "s", "prompt": "drop the Redis idea", "hook_event_name": "UserPromptSubmit"}
    down = _hook(claude, "--server", f"http://127.0.0.1:{free_port()}")
    assert down.returncode == 1 and down.stdout == "" and "cannot reach" in down.stderr
