"""Building a Detector from command-line style options: a mode and an optional model path."""

from __future__ import annotations

from pathlib import Path

from detector.detect import Detector, Mode
from detector.paths import package_file


def default_model_path() -> Path:
    """The model installed with the package."""
    return package_file("models", "default.joblib")


def build_detector(mode: str | None = None, model_path: Path | str | None = None, allow_untrusted: bool = False) -> Detector:
    """Rules mode needs no model; the other modes load one (the shipped model by default)."""
    chosen = Mode(mode) if mode else None
    path = Path(model_path) if model_path else default_model_path()
    if chosen is Mode.RULES or (chosen is None and model_path is None and not path.exists()):
        return Detector(Mode.RULES)
    from detector.classifier import load_model

    return Detector(chosen or Mode.HYBRID, classifier=load_model(path, allow_untrusted=allow_untrusted))
