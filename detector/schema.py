"""The data contracts of pivot-detector (DESIGN §3), as pydantic models and nothing else.

These models are what crosses every boundary: transcripts read from disk, detections printed by
`pivot detect`, suggestions returned by the hook and the HTTP API. Keeping them in one module means
one JSON Schema per concept, generated from the code rather than written twice.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


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
    text: str = ""
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

    id: str | None = None
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


SuppressionReason = Literal["negation", "question", "hypothetical", "reported", "quote", "code", "log"]


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
