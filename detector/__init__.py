"""pivot-detector: rejections, pivots and reopenings in agent conversations, without an LLM.

The public names load on first use (PEP 562), so `import detector.cli` costs no more than the
command needs: `pivot hook --server` forwards to a warm service without loading the detector.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["Detection", "Detector", "Label", "Mode", "Transcript", "Turn"]
__version__ = "0.1.0"

_HOME = {"Detector": "detector.detect", "Mode": "detector.detect"} | dict.fromkeys(
    ("Detection", "Label", "Transcript", "Turn"), "detector.schema"
)


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(import_module(_HOME[name]), name)
    raise AttributeError(f"module 'detector' has no attribute {name!r}")
