"""Reading conversations from disk: JSONL, JSON lists, gzip of either; one record at a time.

A JSONL file holds one conversation per line (ours, OpenAI-style `messages`, ShareGPT-style
`conversations`), or is one Claude Code session, one event per line (`claude`: its first line
says so, or `--format claude`).

Readers never load a whole file: a 1 GB log streams line by line. A record that cannot be read
(bad JSON, invalid UTF-8, an unknown shape) becomes a `BadRecord` naming its file and line, so a
caller can report it and go on.
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, cast

from pydantic import ValidationError

from detector.claude_transcript import SessionTurns, looks_like_session
from detector.errors import InputError
from detector.schema import Transcript

FormatName = Literal["auto", "ours", "openai", "sharegpt", "claude"]
_FORMAT_KEYS = {"ours": "turns", "openai": "messages", "sharegpt": "conversations"}
SUFFIXES = (".jsonl", ".json", ".jsonl.gz", ".json.gz")


@dataclass(frozen=True, slots=True)
class Record:
    """One conversation read from a file, with where it came from."""

    path: str
    line: int
    transcript: Transcript


@dataclass(frozen=True, slots=True)
class BadRecord:
    """A line or item that could not be read, and why, in one sentence."""

    path: str
    line: int
    error: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.error}"


def validation_message(exc: ValidationError) -> str:
    """The first validation error as `field.path: message`, one line."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "record"
    return f"{where}: {first['msg']}"


def parse_record(raw: object, fmt: FormatName = "auto") -> Transcript:
    """Validate one decoded JSON value as a transcript of the given (or detected) format."""
    if not isinstance(raw, dict):
        # ValueError, not TypeError: callers report every malformed record the same way.
        raise ValueError(f"expected a JSON object, got {type(raw).__name__}")  # noqa: TRY004
    if fmt == "claude":
        raise ValueError("a Claude Code session is a whole file of events, not one record")
    if fmt == "auto":
        if not any(key in raw for key in _FORMAT_KEYS.values()):
            raise ValueError("unknown format: no 'turns', 'messages' or 'conversations' field")
    elif _FORMAT_KEYS[fmt] not in raw:
        raise ValueError(f"not {fmt} format: no '{_FORMAT_KEYS[fmt]}' field")
    try:
        return Transcript.model_validate(raw)
    except ValidationError as exc:
        raise ValueError(validation_message(exc)) from None


def _open_binary(path: Path) -> IO[bytes]:
    if path.name.endswith(".gz"):
        return cast("IO[bytes]", gzip.open(path, "rb"))  # a GzipFile, typed as its own class
    return path.open("rb")


def iter_file(path: Path, fmt: FormatName = "auto") -> Iterator[Record | BadRecord]:
    """Records of one file, in order; unreadable records come out as BadRecord."""
    name = str(path)
    try:
        handle = _open_binary(path)
    except OSError as exc:
        yield BadRecord(name, 0, f"cannot open: {exc.strerror or exc}")
        return
    with handle:
        try:
            head = _peek(handle)
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            yield BadRecord(name, 0, f"cannot read: {exc}")
            return
        if head.lstrip()[:1] == b"[":
            yield from _iter_json_array(name, handle, fmt)
        elif fmt == "claude" or (fmt == "auto" and looks_like_session(head)):
            yield from _iter_claude_session(name, handle)
        else:
            yield from _iter_jsonl(name, handle, fmt)


def _peek(handle: IO[bytes]) -> bytes:
    """The file's first bytes, without consuming them (files and gzip streams both peek)."""
    head: bytes = handle.peek(4096)  # type: ignore[attr-defined]
    return head


def json_lines(name: str, handle: IO[bytes]) -> Iterator[tuple[int, object] | BadRecord]:
    """Each non-blank line decoded, with its number; a line that cannot be (invalid UTF-8, malformed
    JSON, JSON nested past the recursion limit) is a BadRecord. Every JSONL reader reads through it."""
    for line_number, raw_line in enumerate(handle, 1):
        if not raw_line.strip():
            continue
        try:
            line = raw_line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield BadRecord(name, line_number, f"invalid UTF-8 at byte {exc.start}")
            continue
        try:
            yield line_number, json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            message = f"{exc.msg} (column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else "nested too deep"
            yield BadRecord(name, line_number, f"malformed JSON: {message}")


def _iter_jsonl(name: str, handle: IO[bytes], fmt: FormatName) -> Iterator[Record | BadRecord]:
    for item in json_lines(name, handle):
        if isinstance(item, BadRecord):
            yield item
            continue
        line_number, value = item
        try:
            yield Record(name, line_number, parse_record(value, fmt))
        except ValueError as exc:
            yield BadRecord(name, line_number, str(exc))


def _iter_claude_session(name: str, handle: IO[bytes]) -> Iterator[Record | BadRecord]:
    """A Claude Code session file as one conversation (its id: the session's), reported at line
    1; a line that cannot be read is reported on its own and the session goes on without it."""
    session = SessionTurns()
    for item in json_lines(name, handle):
        if isinstance(item, BadRecord):
            yield item
        elif isinstance(item[1], dict):
            session.add(item[1])
    turns = session.finish()
    if not any(turn.role == "user" for turn in turns):
        yield BadRecord(name, 1, "a Claude Code session with no prompt typed by the user")
        return
    yield Record(name, 1, Transcript(id=session.session_id or Path(name).name.split(".")[0], turns=turns))


def _iter_json_array(name: str, handle: IO[bytes], fmt: FormatName) -> Iterator[Record | BadRecord]:
    """A .json file holding a list of conversations, decoded one item at a time."""
    decoder = json.JSONDecoder()
    text = io.TextIOWrapper(handle, encoding="utf-8", errors="strict")
    buffer, position, line, index = "", 0, 1, 0
    try:
        buffer = text.read(1 << 16)
        position = buffer.index("[") + 1
        while True:
            while True:
                stripped = len(buffer) - len(buffer[position:].lstrip(" \t\r\n,"))
                line += buffer.count("\n", position, stripped)
                position = stripped
                if position < len(buffer):
                    break
                more = text.read(1 << 16)
                if not more:
                    yield BadRecord(name, line, "malformed JSON: the list is not closed with ]")
                    return
                buffer, position = buffer[position:] + more, 0
            if buffer[position] == "]":
                return
            try:
                value, end = decoder.raw_decode(buffer, position)
            except RecursionError:
                # "[[[[…" nested past Python's recursion limit: no way to find where the item ends.
                yield BadRecord(name, line, f"item {index + 1}: malformed JSON: nested too deep; the rest of the list is not read")
                return
            except json.JSONDecodeError as exc:
                more = text.read(1 << 16)
                if more:
                    buffer, position = buffer[position:] + more, 0
                    continue
                yield BadRecord(name, line, f"malformed JSON: {exc.msg}")
                return
            index += 1
            try:
                yield Record(name, line, parse_record(value, fmt))
            except ValueError as exc:
                yield BadRecord(name, line, f"item {index}: {exc}")
            line += buffer.count("\n", position, end)
            position = end
            if position > 1 << 20:
                buffer, position = buffer[position:], 0
    except UnicodeDecodeError as exc:
        yield BadRecord(name, line, f"invalid UTF-8 at byte {exc.start}")


def iter_paths(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files named, and files under folders named (recursively, sorted), with a known suffix."""
    for item in paths:
        path = Path(item)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.name.endswith(SUFFIXES))
        elif path.exists():
            yield path
        else:
            raise InputError(f"{path}: no such file or folder")


def read_transcripts(path: str | Path) -> list[Transcript]:
    """All transcripts of one small file (training data, a conversation to label).

    Unlike a scan, a bad record here is an error: training on a silently shortened file would
    give a model nobody asked for.
    """
    transcripts = []
    for item in iter_file(Path(path)):
        if isinstance(item, BadRecord):
            raise InputError(str(item))
        transcripts.append(item.transcript)
    return transcripts
