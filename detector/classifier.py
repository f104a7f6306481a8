"""The trained layer at run time: the compiled model, the fusion rule, and the model's files.

A model is two files: `NAME.joblib` (the compiled model of inference.py and the fusion
thresholds, as a gzip-compressed pickle, which `joblib.load` also reads) and `NAME.json` (the
manifest: sha256 of the model file, library versions, label set, thresholds, training data
hash, held-out figures). Pickles can run code when loaded, so `load_model` only opens a file
whose sha256 is trusted: the shipped model's, one this user trained, or one passed with
`allow_untrusted=True` (`--trust-model` on the command line). Nothing here imports
scikit-learn: it is needed to train (pipeline.py, learn.py), not to detect.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import pickle
import platform
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from detector.cues.engine import CueMatch
from detector.detect import STRONG_CUE, Mode, rules_label
from detector.errors import ModelError
from detector.features import TurnExample, make_example
from detector.inference import CompiledModel
from detector.schema import Explanation, Label, Turn

LABELS: tuple[Label, ...] = (Label.NONE, Label.REJECT, Label.PIVOT, Label.REOPEN)
# 2: the compiled model (1 held the scikit-learn pipeline itself).
FORMAT_VERSION = 3


@dataclass(slots=True)
class FusionThresholds:
    """The numbers of the decision rules (see `hybrid_label`), tuned on dev data.

    `positive`: in classifier mode, the model calls a turn positive when REJECT+PIVOT+REOPEN
    together reach it (the classes are imbalanced, so argmax alone under-calls positives).
    `confident`, `strong_cue_backed`, `cue_backed` and `uncued` belong to the hybrid rule.
    """

    positive: float = 0.5
    confident: float = 0.8
    cue_backed: float = 0.3
    uncued: float = 0.6
    strong_cue_backed: float = 0.3

    def as_dict(self) -> dict[str, float]:
        return {
            "positive": self.positive,
            "confident": self.confident,
            "strong_cue_backed": self.strong_cue_backed,
            "cue_backed": self.cue_backed,
            "uncued": self.uncued,
        }


def _best_positive(probabilities: Sequence[float]) -> Label:
    return LABELS[max(range(1, len(LABELS)), key=lambda i: probabilities[i])]


def model_label(probabilities: Sequence[float], positive_threshold: float) -> Label:
    """The model's own label: the likeliest positive label when positives together reach the
    threshold, else NONE. `probabilities` are in LABELS order (NONE first)."""
    return _best_positive(probabilities) if 1.0 - probabilities[0] >= positive_threshold else Label.NONE


def hybrid_bar(rules_choice: Label, rules_strength: float, thresholds: FusionThresholds) -> float:
    """How much probability the positive labels together need when the model is unsure.

    A strong cue (score ≥ STRONG_CUE: "上个方案作废", "drop the X idea") asks least, any other
    cue that names a positive label asks `cue_backed`, and silence asks `uncued`: the model's
    doubt weighs less where a reliable cue agrees with the rejection.
    """
    if not rules_choice.is_positive:
        return thresholds.uncued
    return thresholds.strong_cue_backed if rules_strength >= STRONG_CUE else thresholds.cue_backed


def hybrid_label(
    probabilities: Sequence[float], rules_choice: Label, thresholds: FusionThresholds, rules_strength: float = 0.0
) -> tuple[Label, str]:
    """The hybrid rule, shared by detection and threshold tuning so both use the same logic.

    (1) A confident model (top probability ≥ `confident`) decides alone. (2) Otherwise the cues
    set the bar (`hybrid_bar`) that the positive labels' probabilities together must reach.
    (3) Which positive label is the model's call: it has seen the cues as features and the
    context too. So cues never decide against a confident model; they lower the bar where
    they agree and raise it where they are silent.
    """
    top = max(range(len(LABELS)), key=lambda i: probabilities[i])
    if probabilities[top] >= thresholds.confident:
        return LABELS[top], "classifier"
    positive_mass = 1.0 - probabilities[0]
    bar = hybrid_bar(rules_choice, rules_strength, thresholds)
    return (_best_positive(probabilities) if positive_mass >= bar else Label.NONE), "hybrid"


@dataclass
class PivotClassifier:
    """The compiled model plus the fusion thresholds and the manifest it was saved with."""

    model: CompiledModel
    thresholds: FusionThresholds = field(default_factory=FusionThresholds)
    manifest: dict[str, Any] = field(default_factory=dict)

    def probabilities(self, examples: Sequence[TurnExample]) -> np.ndarray:
        """Class probabilities in LABELS order, one row per example."""
        raw = self.model.predict_proba_many(examples)
        return raw[:, [self.model.classes.index(label.value) for label in LABELS]]

    def decide(
        self,
        text: str,
        context: Sequence[Turn],
        match: CueMatch,
        rules: dict[Label, float],
        mode: Any,
        explanation: Explanation,
    ) -> tuple[Label, float, dict[Label, float]]:
        """The label in classifier or hybrid mode, with the reason recorded in the explanation."""
        probs = self.probabilities([make_example(text, context, match)])[0]
        scores = {label: round(float(p), 4) for label, p in zip(LABELS, probs)}
        explanation.classifier_probability = scores
        positive_mass = 1.0 - scores[Label.NONE]
        if Mode(mode) is Mode.CLASSIFIER:
            label = model_label(probs, self.thresholds.positive)
            explanation.decided_by = "classifier"
            explanation.threshold = self.thresholds.positive
            explanation.rule = (
                f"classifier: positives {positive_mass:.2f} {'>=' if label.is_positive else '<'} "
                f"{self.thresholds.positive}; label {label.value}"
            )
            return label, scores[label] if label.is_positive else scores[Label.NONE], scores
        rules_choice, _ = rules_label(rules)
        strength = rules.get(rules_choice, 0.0)
        label, layer = hybrid_label(probs, rules_choice, self.thresholds, strength)
        explanation.decided_by = layer  # type: ignore[assignment]
        if layer == "classifier":
            explanation.threshold = self.thresholds.confident
            explanation.rule = f"hybrid: model confident, {label.value} {scores[label]:.2f} >= {self.thresholds.confident}"
        else:
            bar = hybrid_bar(rules_choice, strength, self.thresholds)
            explanation.threshold = bar
            backing = (
                f"{'strong ' if strength >= STRONG_CUE else ''}cues say {rules_choice.value} ({strength:.2f})"
                if rules_choice.is_positive
                else "no cue fired"
            )
            explanation.rule = (
                f"hybrid: model unsure; {backing}, so positives need {bar}; the model gives {positive_mass:.2f} "
                f"-> {label.value}"
            )
        confidence = scores[label]
        return label, confidence, scores


# ------------------------------------------------------------------------------------------
# Files, hashes and trust


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def library_versions() -> dict[str, str]:
    """The versions a model was trained with: the tokenizers decide its word features."""
    import jieba
    import sklearn
    import spacy

    return {
        "python": platform.python_version(),
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "spacy": spacy.__version__,
        "jieba": getattr(jieba, "__version__", "unknown"),
    }


# A model here is a few MB; a damaged compressed pickle can ask for tens of GB. While loading,
# the process may grow by at most this much, so such a file fails with MemoryError instead of
# waking the kernel's OOM killer.
MODEL_LOAD_MEMORY_BYTES = 4 << 30


@contextmanager
def _memory_cap(extra_bytes: int) -> Iterator[None]:
    """Temporarily limit the address space to its current size plus `extra_bytes` (Linux)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm", encoding="ascii") as statm:
            current = int(statm.read().split()[0]) * resource.getpagesize()
        cap = current + extra_bytes
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, OSError, ValueError):
        yield  # no rlimits here (not Linux): load without the cap
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def manifest_path(model_path: Path) -> Path:
    """The manifest lives beside the model: NAME.joblib → NAME.json."""
    return model_path.with_suffix(".json")


def save_model(
    classifier: PivotClassifier, path: Path, manifest: dict[str, Any], trust: bool = True
) -> dict[str, Any]:
    """Write the model and its manifest; record the new hash as trusted by this user.

    `trust=False` is for throwaway models (a writer hold-out's), which would otherwise pile up
    in the user's trust store.
    """
    from detector.trust import trust_hash

    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"format": FORMAT_VERSION, "model": classifier.model, "thresholds": classifier.thresholds.as_dict()}
    # mtime=0: the same model gives the same bytes, so retraining reproduces the sha256.
    path.write_bytes(gzip.compress(pickle.dumps(payload, protocol=5), compresslevel=6, mtime=0))
    full = {
        "format": FORMAT_VERSION,
        "file": path.name,
        "sha256": sha256_file(path),
        "size_bytes": path.stat().st_size,
        "labels": [label.value for label in LABELS],
        "thresholds": classifier.thresholds.as_dict(),
        "library_versions": library_versions(),
        **manifest,
    }
    manifest_path(path).write_text(json.dumps(full, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if trust:
        trust_hash(full["sha256"], str(path))
    classifier.manifest = full
    return full


def load_model(path: Path, allow_untrusted: bool = False) -> PivotClassifier:
    """Load a model after checking its hash, its manifest and the library versions."""
    from detector.trust import is_trusted

    if not path.exists():
        raise ModelError(f"{path}: no such model file; train one with `pivot train` or omit --model")
    digest = sha256_file(path)
    manifest_file = manifest_path(path)
    if not manifest_file.exists():
        raise ModelError(
            f"{path}: no manifest ({manifest_file.name}) beside the model; every model `pivot train` writes has one. "
            "Retrain with `pivot train`"
        )
    try:
        manifest: dict[str, Any] = json.loads(manifest_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"{manifest_file}: unreadable manifest ({exc}); retrain with `pivot train`") from exc
    if not isinstance(manifest, dict) or manifest.get("sha256") != digest:
        # Checked before unpickling: a damaged file never reaches the unpickler.
        recorded = str(manifest.get("sha256") if isinstance(manifest, dict) else None)[:12]
        raise ModelError(
            f"{path}: sha256 {digest[:12]}… does not match its manifest ({recorded}…): the file is corrupt or "
            "was replaced; retrain with `pivot train` or restore it"
        )
    if not allow_untrusted and not is_trusted(digest):
        raise ModelError(
            f"{path}: untrusted model (sha256 {digest[:12]}…); model files can run code when loaded. "
            "Pass --trust-model if you know where it came from, or retrain it with `pivot train`"
        )
    try:
        with _memory_cap(MODEL_LOAD_MEMORY_BYTES):
            # pickle's C unpickler: joblib.load reads the same file, five times slower.
            payload = pickle.loads(gzip.decompress(path.read_bytes()))
    except Exception as exc:  # a damaged pickle can raise almost anything, MemoryError included
        raise ModelError(f"{path}: cannot load model ({type(exc).__name__}: {exc}); retrain with `pivot train`") from exc
    if not isinstance(payload, dict) or payload.get("format") != FORMAT_VERSION:
        raise ModelError(f"{path}: not a pivot-detector model of format {FORMAT_VERSION}; retrain with `pivot train`")
    try:
        thresholds = FusionThresholds(**payload["thresholds"])
    except (TypeError, KeyError) as exc:
        raise ModelError(f"{path}: made by an older pivot-detector ({exc}); retrain with `pivot train`") from exc
    if not isinstance(payload.get("model"), CompiledModel):
        raise ModelError(f"{path}: the file holds no compiled model; retrain with `pivot train`")
    return PivotClassifier(payload["model"], thresholds, manifest)
