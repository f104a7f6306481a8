"""The HTTP API (`pivot serve`): the pre-turn hook for agents written in any language.

The endpoints are thin: each validates its body against a pydantic model, calls the tracker,
detector or renderer that `pivot hook` and `pivot state` use, and returns a pydantic model, so
`/openapi.json` and the files under `schemas/` describe exactly what travels on the wire.

State lives in the same SQLite store as `pivot hook --store`, so a hook process and this server
can serve one conversation at once. Endpoints are plain functions, which FastAPI runs in its
thread pool; SQLiteStore keeps one connection per thread, and its `BEGIN IMMEDIATE` transactions
serialize updates across processes. Inside this process, updates also take one lock (see
`SerializedStore`) so that threads queue in order instead of polling SQLite's busy timeout.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import sys
import threading
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from detector.errors import InputError, PivotError
from detector.hook import PreTurnHook, handle_hook_input
from detector.render import BlockForm, render_block, render_history
from detector.schema import (
    ConvergenceState,
    Detection,
    LangTag,
    RelapseVerdict,
    Suggestion,
    Transcript,
    Turn,
)
from detector.store import Result, SQLiteStore, StateStore, Updater
from detector.tracker import ConvergenceTracker

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
DEFAULT_MAX_BODY_BYTES = 1_048_576
API_VERSION = "1"

# ---------------------------------------------------------------------------------------------
# Request and response bodies of the API (the shared contracts live in detector.schema).


class DetectRequest(BaseModel):
    """A user turn to label, with the turns before it (oldest first) as context."""

    text: str
    context: list[Turn] = Field(default_factory=list)
    lang: LangTag | None = Field(None, description="force the language instead of detecting it")
    opens_conversation: bool = Field(
        False,
        description="the turn is the conversation's first (nothing came before it, not only nothing sent): "
        "an opening that refers to no earlier talk turns nothing down",
    )


class ConversationTurn(Turn):
    """A turn sent to `/v1/turns`: only user and assistant turns move the state."""

    role: Literal["user", "assistant"]


class TurnRequest(BaseModel):
    """One turn of a conversation, as `pivot hook` reads it on stdin."""

    conversation_id: str = Field(min_length=1, max_length=512)
    turn: ConversationTurn


class CheckpointRequest(BaseModel):
    """The agent updated its checkpoint; `turn` defaults to the conversation's current turn."""

    turn: int | None = Field(None, ge=0)


class HistoryRequest(BaseModel):
    """A dialogue to squeeze into a history window."""

    turns: list[Turn]
    limit: int = Field(30, ge=0, description="how many recent spoken turns to keep verbatim")


class BlockResponse(BaseModel):
    """A rendered checkpoint block."""

    block: str


class HookResponse(BaseModel):
    """What `pivot hook` would print: a JSON text, or '' when there is nothing to add."""

    output: str


class HistoryResponse(BaseModel):
    """The rendered history window."""

    text: str


class Health(BaseModel):
    """Liveness, and which layer decides (so a client can tell rules from hybrid)."""

    status: Literal["ok"] = "ok"
    mode: str



# The models whose JSON Schemas are published (`pivot schema`, `schemas/`): the shared contracts
# and the API's own bodies. Nested models (CueHit, Alternative, ...) appear in their `$defs`.
PUBLIC_MODELS: dict[str, type[BaseModel]] = {
    model.__name__: model
    for model in (
        Turn,
        Transcript,
        Detection,
        Suggestion,
        RelapseVerdict,
        ConvergenceState,
        DetectRequest,
        TurnRequest,
        CheckpointRequest,
        HistoryRequest,
        BlockResponse,
        HistoryResponse,
    )
}


def schema_text(name: str) -> str:
    """The JSON Schema of one public model, as committed under `schemas/NAME.json`."""
    if name not in PUBLIC_MODELS:
        raise InputError(f"unknown model {name!r}; choose one of: {', '.join(PUBLIC_MODELS)}")
    return (
        json.dumps(PUBLIC_MODELS[name].model_json_schema(), indent=2, ensure_ascii=False, sort_keys=True)
        + "\n"
    )


# ---------------------------------------------------------------------------------------------
# Safety: request size, bearer token, serialized writes.


class BodyLimitMiddleware:
    """Refuses bodies over `max_bytes` with 413 before any endpoint parses them.

    A declared Content-Length over the limit is refused without reading; otherwise the body is
    read chunk by chunk (a chunked upload declares no length) and refused as soon as the running
    total passes the limit. A body within the limit is replayed to the app.
    """

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        response = JSONResponse(
            {"detail": f"request body larger than {self.max_bytes} bytes (see --max-body-bytes)"},
            status_code=413,
            headers={"Connection": "close"},
        )
        await response(scope, receive, send)


class SerializedStore:
    """A store whose updates, within this process, take turns on one lock.

    The tracker runs detection inside the update's transaction, so updates could not overlap
    anyway: the lock only makes waiting threads queue instead of sleeping in SQLite's busy
    handler. Across processes (a `pivot hook` beside the server) the SQLite transaction still
    does the serializing. Reads take no lock: WAL readers see the last committed state.
    """

    def __init__(self, inner: StateStore) -> None:
        self.inner = inner
        self._lock = threading.Lock()

    def get(self, conversation_id: str) -> ConvergenceState | None:
        return self.inner.get(conversation_id)

    def update(self, conversation_id: str, updater: Updater[Result]) -> Result:
        with self._lock:
            return self.inner.update(conversation_id, updater)

    def delete(self, conversation_id: str) -> bool:
        with self._lock:
            return self.inner.delete(conversation_id)

    def ids(self) -> list[str]:
        return self.inner.ids()


# One scheme for the whole app; declared at module level so FastAPI can resolve the annotation.
_BEARER = HTTPBearer(auto_error=False, description="the token given to `pivot serve --token`")
BearerCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_BEARER)]


def _token_guard(token: str | None) -> Callable[..., None]:
    """A dependency that demands `Authorization: Bearer TOKEN` when a token is configured."""

    def require_token(credentials: BearerCredentials) -> None:
        if token is None:
            return
        # compare_digest: the time taken does not reveal how much of a guess was right.
        if credentials is None or not secrets.compare_digest(
            credentials.credentials.encode(), token.encode()
        ):
            raise HTTPException(401, "missing or wrong bearer token", headers={"WWW-Authenticate": "Bearer"})

    return require_token


# ---------------------------------------------------------------------------------------------
# The app.


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What `pivot serve` configures beyond the tracker."""

    token: str | None = None
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES


def create_app(tracker: ConvergenceTracker, settings: ServerSettings = ServerSettings()) -> FastAPI:
    """The FastAPI app over one tracker (its detector and store); no global state."""
    app = FastAPI(
        title="pivot-detector",
        version=API_VERSION,
        description="Rejection, pivot and reopen detection and per-conversation convergence state.",
    )
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    _add_error_handlers(app)
    app.include_router(_api_routes(tracker, settings.token))

    @app.get("/healthz", response_model=Health, tags=["health"])
    def healthz() -> Health:
        """Liveness; open even with a token, so a supervisor can probe without it."""
        return Health(mode=tracker.detector.mode.value)

    return app


def _api_routes(tracker: ConvergenceTracker, token: str | None) -> APIRouter:
    """The /v1 endpoints, all behind the token guard."""
    router = APIRouter(prefix="/v1", dependencies=[Depends(_token_guard(token))])

    def known_state(conversation_id: str) -> ConvergenceState:
        state = tracker.store.get(conversation_id)
        if state is None:
            raise HTTPException(404, f"no state for conversation {conversation_id!r}")
        return state

    @router.post("/detect", response_model=Detection, tags=["detect"])
    def detect(request: DetectRequest) -> Response:
        """Label one user turn, in context; nothing is stored."""
        return _json(
            tracker.detector.detect(
                request.text, request.context, lang=request.lang, opens_conversation=request.opens_conversation
            )
        )

    @router.post("/turns", response_model=Suggestion | RelapseVerdict | None, tags=["conversations"])
    def observe_turn(request: TurnRequest) -> Response:
        """A user turn: the Suggestion, or null if nothing needs doing; an assistant turn: the verdict."""
        if request.turn.role == "user":
            return _json(tracker.observe_user(request.conversation_id, request.turn.text))
        return _json(tracker.observe_assistant(request.conversation_id, request.turn))

    @router.get(
        "/conversations/{conversation_id}/state", response_model=ConvergenceState, tags=["conversations"]
    )
    def get_state(conversation_id: str) -> Response:
        """The stored state; 404 for a conversation never seen."""
        return _json(known_state(conversation_id))

    @router.post(
        "/conversations/{conversation_id}/checkpoint", response_model=ConvergenceState, tags=["conversations"]
    )
    def checkpoint(conversation_id: str, request: CheckpointRequest | None = None) -> Response:
        """The agent updated its checkpoint: the turn reminder counts from here (as in `pivot hook`)."""
        return _json(tracker.mark_checkpoint(conversation_id, request.turn if request else None))

    @router.get(
        "/conversations/{conversation_id}/block", response_model=BlockResponse, tags=["conversations"]
    )
    def block(conversation_id: str, form: BlockForm = "full", lang: LangTag | None = None) -> BlockResponse:
        """The checkpoint block, in the conversation's language unless `lang` says otherwise."""
        state = known_state(conversation_id)
        if lang is not None:
            state = state.model_copy(update={"lang": lang})
        return BlockResponse(block=render_block(state, form))

    hook = PreTurnHook(tracker=tracker)

    @router.post("/hook", response_model=HookResponse, tags=["conversations"])
    def pre_turn_hook(request: dict[str, Any] = Body(...)) -> HookResponse:
        """Exactly what `pivot hook` prints for this stdin object ('' when it prints nothing).

        `pivot hook --server URL` forwards here, so a hook process per turn costs a request to
        a warm service instead of loading the model each time.
        """
        return HookResponse(output=handle_hook_input(hook, json.dumps(request, ensure_ascii=False)))

    @router.post("/history", response_model=HistoryResponse, tags=["history"])
    def history(request: HistoryRequest) -> HistoryResponse:
        """The dialogue as spoken, older turns folded, for agents that squeeze their history."""
        return HistoryResponse(text=render_history(request.turns, request.limit))

    return router


def _json(result: BaseModel | None) -> Response:
    """The result serialized once, by pydantic.

    Returned as a Response, FastAPI skips re-validating it against `response_model` (which is
    still declared, for the OpenAPI schema): for a Suggestion with its detections that second
    pass cost about as much as the detection itself.
    """
    body = b"null" if result is None else result.model_dump_json().encode()
    return Response(content=body, media_type="application/json")


def _add_error_handlers(app: FastAPI) -> None:
    """Library errors carry user-facing messages: send them as `detail`, never a traceback."""

    async def input_error(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    async def library_error(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=500)

    app.add_exception_handler(InputError, input_error)
    app.add_exception_handler(PivotError, library_error)


# ---------------------------------------------------------------------------------------------
# Building and running.


def build_tracker(
    store_path: Path | None = None,
    mode: str | None = None,
    model_path: Path | None = None,
    trust_model: bool = False,
) -> ConvergenceTracker:
    """The tracker `pivot serve` uses: the detector of `pivot hook`, over the same SQLite store."""
    from detector.loading import build_detector

    detector = build_detector(mode=mode, model_path=model_path, allow_untrusted=trust_model)
    tracker = ConvergenceTracker(detector, SerializedStore(SQLiteStore(store_path)))
    # Before the first request, so its latency is that of every other request.
    detector.warm_up()
    return tracker


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(
    tracker: ConvergenceTracker,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    settings: ServerSettings = ServerSettings(),
) -> None:
    """Run the API with uvicorn until interrupted (one process; SQLite is the shared state)."""
    import uvicorn

    if not _is_loopback(host) and settings.token is None:
        print(
            f"pivot serve: warning: listening on {host} without --token; anyone who can reach it can read states",
            file=sys.stderr,
        )
    store = tracker.store.inner if isinstance(tracker.store, SerializedStore) else tracker.store
    where = getattr(store, "path", "memory")
    print(
        f"pivot serve: http://{host}:{port} (mode {tracker.detector.mode.value}, store {where})",
        file=sys.stderr,
    )
    uvicorn.run(create_app(tracker, settings), host=host, port=port, log_level="warning", access_log=False)
