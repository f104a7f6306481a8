"""The data contracts of pivot-detector (DESIGN §3), as pydantic models and nothing else.

These models are what crosses every boundary: transcripts read from disk, detections printed by
`pivot detect`, suggestions returned by the hook and the HTTP API. Keeping them in one module means
one JSON Schema per concept, generated from the code rather than written twice.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _replace_surrogates(value: str) -> str:
    """JSON may carry lone surrogates ("\\ud800") that no UTF-8 output can hold; they become U+FFFD."""
    return _SURROGATE_RE.sub("\ufffd", value)


# Text that came from outside and will be written out again (state, JSON lines, HTTP).
SafeText = Annotated[str, AfterValidator(_replace_surrogates)]


class Label(str, Enum):
    """The label of one user turn (DESIGN §2)."""

    REJECT = "REJECT"
    PIVOT = "PIVOT"
    REOPEN = "REOPEN"
    NONE = "NONE"

    @property
    def is_positive(self) -> bool:
        """REJECT, PIVOT and REOPEN all change the conversation's state; NONE does not."""
        return self is not Label.NONE


POSITIVE_LABELS: tuple[Label, ...] = (Label.REJECT, Label.PIVOT, Label.REOPEN)
LangTag = Literal["zh", "en", "mixed"]

# Roles other formats use, mapped onto ours. Unknown roles are refused by validation rather than
# guessed, so a scan reports them instead of silently mislabeling a turn.
_ROLE_ALIASES: dict[str, str] = {
    "human": "user",
    "user": "user",
    "gpt": "assistant",
    "chatgpt": "assistant",
    "bing": "assistant",
    "bard": "assistant",
    "model": "assistant",
    "assistant": "assistant",
    "system": "system",
    "developer": "system",
    "tool": "tool",
    "function": "tool",
    "observation": "tool",
}


class ToolCall(BaseModel):
    """A tool the assistant called in a turn; only the name matters to us (checkpoint detection)."""

    model_config = ConfigDict(extra="allow")

    name: str


class Turn(BaseModel):
    """One turn of a conversation; user turns may carry a gold label and gold spans."""

    # Unknown fields (domain, note, hard_negative, ...) are kept and ignored: DESIGN §3.
    model_config = ConfigDict(extra="allow")

    role: Literal["user", "assistant", "system", "tool"]
    text: SafeText = ""
    label: Label | None = None
    target: str | None = None
    replacement: str | None = None
    reason: str | None = None
    revisit_if: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _accept_foreign_turns(cls, data: Any) -> Any:
        """Accept OpenAI messages (`content`, possibly a list of parts) and ShareGPT turns."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "role" not in data and "from" in data:
            data["role"] = data.pop("from")
        if "text" not in data:
            if "content" in data:
                data["text"] = _content_text(data.pop("content"))
            elif "value" in data:
                data["text"] = data.pop("value")
        if data.get("text") is None:
            data["text"] = ""
        role = data.get("role")
        if isinstance(role, str):
            data["role"] = _ROLE_ALIASES.get(role.lower(), role)
        calls = data.get("tool_calls")
        if isinstance(calls, list):
            data["tool_calls"] = [_tool_call_name(call) for call in calls]
        return data


def _content_text(content: Any) -> Any:
    """Join OpenAI-style content parts; non-text parts (images, audio) contribute nothing."""
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    return content


def _tool_call_name(call: Any) -> Any:
    """OpenAI nests the name under `function`; other formats put it at the top."""
    if isinstance(call, dict) and "name" not in call and isinstance(call.get("function"), dict):
        return {**call, "name": call["function"].get("name", "")}
    return call


class Transcript(BaseModel):
    """One conversation: ours, OpenAI-style `messages`, or ShareGPT-style `conversations`."""

    model_config = ConfigDict(extra="allow")

    id: SafeText | None = None
    lang: LangTag | None = None
    turns: list[Turn]

    @model_validator(mode="before")
    @classmethod
    def _accept_foreign_transcripts(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "turns" in data:
            return data
        data = dict(data)
        for key in ("messages", "conversations"):
            if key in data:
                data["turns"] = data.pop(key)
                break
        if data.get("id") is not None and not isinstance(data["id"], str):
            data["id"] = str(data["id"])
        return data

    @property
    def labeled_user_turns(self) -> list[int]:
        """Indices of the user turns that carry a gold label."""
        return [i for i, t in enumerate(self.turns) if t.role == "user" and t.label is not None]


class CueHit(BaseModel):
    """One cue that matched a turn: which pattern, where, and what its groups captured."""

    cue_id: str
    label: Label
    lang: Literal["zh", "en"]
    weight: float = Field(ge=0.0, le=1.0)
    span: str
    start: int = Field(ge=0, description="character offset into the normalised text")
    end: int = Field(ge=0)
    groups: dict[str, str] = Field(default_factory=dict)

    def verdict_parts(self) -> list[tuple[int, int]]:
        """Where the verdict sits: the span minus its captured groups ("不要了" of "JR Pass 不要了").
        Target resolution never takes a target from there, and a word read in another sense
        holds a cue back only there ("JR pass" cancels the verdict "pass", not the target)."""
        parts, cursor = [], self.start
        groups = sorted((index, index + len(value)) for value in self.groups.values() if (index := self.span.find(value)) >= 0)
        for start, end in groups:
            if self.start + start > cursor:
                parts.append((cursor, self.start + start))
            cursor = max(cursor, self.start + end)
        if cursor < self.end:
            parts.append((cursor, self.end))
        return parts


SuppressionReason = Literal["negation", "question", "hypothetical", "reported", "quote", "code", "log", "other_sense"]


class SuppressedCue(BaseModel):
    """A cue that matched but does not count, and the guard that said so."""

    hit: CueHit
    reason: SuppressionReason
    evidence: str = Field(description="the text that triggered the guard")


DecidingLayer = Literal["rules", "classifier", "hybrid"]


class Explanation(BaseModel):
    """Why a detection came out as it did; always filled, so every result can be audited."""

    fired: list[CueHit] = Field(default_factory=list)
    suppressed: list[SuppressedCue] = Field(default_factory=list)
    classifier_probability: dict[Label, float] | None = None
    threshold: float | None = None
    decided_by: DecidingLayer = "rules"
    rule: str = Field("", description="the fusion rule that produced the label, in words")
    normalized_text: str = ""


class Detection(BaseModel):
    """The detector's verdict on one user turn."""

    label: Label
    confidence: float = Field(ge=0.0, le=1.0)
    scores: dict[Label, float]
    target: str | None = None
    replacement: str | None = None
    reason: str | None = None
    revisit_if: str | None = None
    lang: LangTag
    explanation: Explanation


# ---------------------------------------------------------------------------------------------
# Convergence state (DESIGN §3): what the tracker keeps per conversation.

AlternativeStatus = Literal["proposed", "current", "rejected", "reopened"]


class Alternative(BaseModel):
    """A direction that was proposed: by the assistant (方案A：…) or by the user."""

    id: str = Field(description="stable id within the conversation, e.g. alt-3")
    label: str = Field(description="how the conversation names it: 方案A, Option 2, Redis 缓存")
    summary: str
    first_turn: int
    status: AlternativeStatus = "proposed"
    proposed_by: Literal["assistant", "user"] = "assistant"


class RejectedAlternative(BaseModel):
    """An alternative the user ruled out, with when, why and on what condition it may return."""

    alternative_id: str
    alternative: str = Field(description="the alternative's label and summary, as shown in the block")
    rejected_at: int = Field(description="the user turn that rejected it, counted from 1")
    reason: str | None = None
    revisit_if: str
    evidence: str = Field(description="the user's words")


class CurrentDecision(BaseModel):
    """What is decided now."""

    text: str
    since_turn: int
    rationale: str | None = None
    alternative_id: str | None = None


class StateEvent(BaseModel):
    """One change of state, kept in order so a reopened rejection stays visible in the history."""

    turn: int
    kind: Literal["proposed", "rejected", "pivoted", "reopened", "accepted", "constraint", "checkpoint"]
    alternative_id: str | None = None
    text: str = ""


class ConvergenceState(BaseModel):
    """A conversation's current cognitive state: decided, rejected, constrained, open, next."""

    conversation_id: SafeText
    lang: LangTag = "en"
    turn: int = Field(0, description="user turns seen so far; turn numbers below count user turns from 1")
    current_decision: CurrentDecision | None = None
    alternatives: list[Alternative] = Field(default_factory=list)
    rejected: list[RejectedAlternative] = Field(default_factory=list)
    constraints: list[str] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    next_action: str | None = None
    last_checkpoint_turn: int = 0
    history: list[StateEvent] = Field(default_factory=list)
    recent_turns: list[Turn] = Field(default_factory=list, description="the last turns, the detector's context")
    last_suggestion: dict[str, Any] | None = Field(None, description="trigger, key and turn of the last suggestion (cooldown)")


class PatchOperation(BaseModel):
    """One state change, in the spirit of JSON Patch: op, path, value."""

    op: Literal["add", "replace", "remove"]
    path: str
    value: Any = None


Trigger = Literal["rejection", "pivot", "reopen", "turn_reminder", "solidify_command"]


class Suggestion(BaseModel):
    """What the pre-turn hook returns when the agent should update its checkpoint."""

    trigger: Trigger
    priority: Literal["high", "normal", "low"]
    conversation_id: str
    turn: int
    detections: list[Detection] = Field(default_factory=list)
    patch: list[PatchOperation] = Field(default_factory=list)
    block: str
    key_info: str = Field("", description="the short form, one line per rejected alternative")
    instruction: str
    lang: LangTag


class RelapseVerdict(BaseModel):
    """Does an assistant reply re-propose a rejected alternative?"""

    verdict: Literal["RELAPSE", "OK"]
    alternative: str | None = Field(None, description="the rejected alternative the reply brings back")
    rejected_at: int | None = Field(None, description="the user turn that rejected it, counted from 1")
    evidence: str | None = Field(None, description="the sentence of the reply that decided")
    reason: str = Field("", description="why, in words")
