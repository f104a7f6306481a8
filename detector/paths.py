"""Where pivot-detector keeps files outside the source tree: caches, state, packaged resources."""

from __future__ import annotations

import os
import tempfile
from importlib import resources
from pathlib import Path

import platformdirs

from detector.errors import PivotError, StateError

APP_NAME = "pivot-detector"


def cache_dir() -> Path:
    """The user cache folder (jieba's dictionary, spaCy's tokenizer rules, the pattern memo).

    Caches only make start-up fast: when the user's folder cannot be created or written (a
    read-only home in a sandbox or a container), a private folder under the system's temporary
    directory serves instead of failing.
    """
    fallback = Path(tempfile.gettempdir()) / f"{APP_NAME}-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    for path in (Path(platformdirs.user_cache_dir(APP_NAME)), fallback):
        if _usable_folder(path):
            return path
    raise PivotError(f"no writable cache folder ({platformdirs.user_cache_dir(APP_NAME)} or {fallback}): set XDG_CACHE_HOME")


def state_dir() -> Path:
    """The user state folder (default SQLite store, trusted model hashes), created on demand."""
    path = Path(platformdirs.user_state_dir(APP_NAME))
    if not _usable_folder(path):
        raise StateError(f"cannot create or write the state folder {path}: pass --store PATH, or set XDG_STATE_HOME")
    return path


def _usable_folder(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def package_file(*parts: str) -> Path:
    """A file installed with the package (lexicons, the default model), never the source tree.

    """
    return Path(str(resources.files("detector").joinpath(*parts)))


def write_atomically(path: Path, content: str | bytes) -> None:
    """Write a file so that a concurrent reader sees all of it or none: the content goes to a
    temporary file beside it, which then replaces it (a rename, atomic on one file system)."""
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content.encode("utf-8") if isinstance(content, str) else content)
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
