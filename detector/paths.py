"""Where pivot-detector keeps files outside the source tree: caches, state, packaged resources."""

from __future__ import annotations

import os
import tempfile
from importlib import resources
from pathlib import Path

import platformdirs

APP_NAME = "pivot-detector"


def cache_dir() -> Path:
    """The user cache folder (jieba's dictionary cache lives here), created on demand."""
    path = Path(platformdirs.user_cache_dir(APP_NAME))
    path.mkdir(parents=True, exist_ok=True)
    return path


def state_dir() -> Path:
    """The user state folder (default SQLite store, trusted model hashes), created on demand."""
    path = Path(platformdirs.user_state_dir(APP_NAME))
    path.mkdir(parents=True, exist_ok=True)
    return path


def package_file(*parts: str) -> Path:
    """A file installed with the package (lexicons, the default model), never the source tree.

    """
    return Path(str(resources.files("detector").joinpath(*parts)))


def write_atomically(path: Path, text: str) -> None:
    """Write a file so that a concurrent reader sees all of it or none: the text goes to a
    temporary file beside it, which then replaces it (a rename, atomic on one file system)."""
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
