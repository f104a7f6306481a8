"""Which model files may be loaded: hashes of the shipped model and of models this user made.

Kept apart from classifier.py so the rule "a pickle is only opened when its hash is trusted" is
written once and can be read at a glance.
"""

from __future__ import annotations

import json
from pathlib import Path

from detector.paths import package_file, state_dir, write_atomically


def _user_store() -> Path:
    return state_dir() / "trusted_models.json"


def shipped_hashes() -> set[str]:
    """The sha256 recorded in the manifest of the model installed with the package."""
    manifest = package_file("models", "default.json")
    try:
        return {json.loads(manifest.read_text(encoding="utf-8"))["sha256"]}
    except (OSError, ValueError, KeyError):
        return set()


def user_hashes() -> dict[str, str]:
    """Hashes this user trusted (by training or explicitly), mapped to where they came from."""
    try:
        data = json.loads(_user_store().read_text(encoding="utf-8"))
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def is_trusted(digest: str) -> bool:
    """True for the shipped model and for models this user trained or trusted."""
    return digest in shipped_hashes() or digest in user_hashes()


def trust_hash(digest: str, origin: str) -> None:
    """Add a hash to the user's trusted set (atomically: write a temp file, then rename)."""
    hashes = user_hashes()
    hashes[digest] = origin
    write_atomically(_user_store(), json.dumps(hashes, indent=2))
