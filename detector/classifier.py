"""The trained layer: a scikit-learn pipeline over text, cue and context features, and its file.

A model is two files: `NAME.joblib` (the pipeline and fusion thresholds) and `NAME.json` (the
manifest: sha256 of the joblib file, library versions, label set, thresholds, training data hash,
held-out figures). joblib files are pickles and can run code when loaded, so `load_model` only
opens a file whose sha256 is trusted: the shipped model's, one this user trained, or one passed
with `allow_untrusted=True` (`--trust-model` on the command line).
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import joblib
import numpy as np
import sklearn
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import FeatureUnion, Pipeline

from detector.cues.engine import CueMatch
from detector.errors import ModelError
from detector.features import ContextFeaturizer, CueFeaturizer, TextSelector, TurnExample, make_example, word_tokens
from detector.schema import Explanation, Label, Turn

LABELS: tuple[Label, ...] = (Label.NONE, Label.REJECT, Label.PIVOT, Label.REOPEN)
FORMAT_VERSION = 1
SEED = 13


@dataclass(slots=True)
class FusionThresholds:
    """The numbers of the decision rules (see `PivotClassifier.decide`), tuned on dev data.

    `positive`: the model calls a turn positive when REJECT+PIVOT+REOPEN together reach it (the
    classes are imbalanced, so argmax alone under-calls positives); `confident` and
    `cue_support` belong to the hybrid rule.
    """

    positive: float = 0.5
    confident: float = 0.8
    cue_support: float = 0.3

    def as_dict(self) -> dict[str, float]:
        return {"positive": self.positive, "confident": self.confident, "cue_support": self.cue_support}


def model_label(probabilities: Sequence[float], positive_threshold: float) -> Label:
    """The model's own label: the likeliest positive label when positives together reach the
    threshold, else NONE. `probabilities` are in LABELS order (NONE first)."""
    if 1.0 - probabilities[0] >= positive_threshold:
        best = max(range(1, len(LABELS)), key=lambda i: probabilities[i])
        return LABELS[best]
    return Label.NONE


def hybrid_label(
    probabilities: Sequence[float], rules_choice: Label, thresholds: FusionThresholds
) -> tuple[Label, str]:
    """The hybrid rule, shared by detection and threshold tuning so both use the same logic.

    (1) A confident model (top probability ≥ `confident`) decides alone. (2) Otherwise, when the
    cues name a positive label and the model gives positives together at least `cue_support`,
    the cues' label stands: the model backs them without being sure which label. (3) Otherwise
    the model's own label. So cues never decide against a confident model, and an unsure model
    does not overrule clear cues it half agrees with.
    """
    top = max(range(len(LABELS)), key=lambda i: probabilities[i])
    positive_mass = 1.0 - probabilities[0]
    if probabilities[top] >= thresholds.confident:
        return LABELS[top], "classifier"
    if rules_choice.is_positive and positive_mass >= thresholds.cue_support:
        return rules_choice, "rules"
    return model_label(probabilities, thresholds.positive), "hybrid"


def build_pipeline(c: float = 4.0) -> Pipeline:
    """Character n-grams + word n-grams + cue columns + context columns → calibrated logistic regression."""
    text_features = Pipeline(
        [
            ("select", TextSelector()),
            (
                "ngrams",
                FeatureUnion(
                    [
                        (
                            "chars",
                            TfidfVectorizer(
                                analyzer="char", ngram_range=(1, 4), min_df=2, max_features=60_000, sublinear_tf=True
                            ),
                        ),
                        (
                            "words",
                            TfidfVectorizer(
                                tokenizer=word_tokens,
                                token_pattern=None,
                                lowercase=False,
                                ngram_range=(1, 2),
                                min_df=2,
                                max_features=40_000,
                                sublinear_tf=True,
                            ),
                        ),
                    ]
                ),
            ),
        ]
    )
    features = FeatureUnion(
        [("text", text_features), ("cues", CueFeaturizer()), ("context", ContextFeaturizer())]
    )
    model = LogisticRegression(C=c, max_iter=3000, class_weight="balanced", random_state=SEED)
    # Sigmoid calibration on internal folds makes `confidence` a probability one can threshold.
    calibrated = CalibratedClassifierCV(model, method="sigmoid", cv=3, ensemble=False)
    return Pipeline([("features", features), ("model", calibrated)])


@dataclass
class PivotClassifier:
    """A fitted pipeline plus the fusion thresholds and the manifest it was saved with."""

    pipeline: Pipeline
    thresholds: FusionThresholds = field(default_factory=FusionThresholds)
    manifest: dict[str, Any] = field(default_factory=dict)

    def probabilities(self, examples: Sequence[TurnExample]) -> np.ndarray:
        """Class probabilities in LABELS order, one row per example."""
        raw = self.pipeline.predict_proba(list(examples))
        order = [list(self.pipeline.classes_).index(label.value) for label in LABELS]
        return raw[:, order]

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
        from detector.detect import Mode, rules_label

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
        label, layer = hybrid_label(probs, rules_choice, self.thresholds)
        explanation.decided_by = layer  # type: ignore[assignment]
        explanation.threshold = self.thresholds.confident
        if layer == "classifier":
            explanation.rule = f"hybrid: model confident, {label.value} {scores[label]:.2f} >= {self.thresholds.confident}"
        elif layer == "rules":
            explanation.rule = (
                f"hybrid: model unsure; cues say {label.value} and the model gives positives "
                f"{positive_mass:.2f} >= {self.thresholds.cue_support}"
            )
        else:
            explanation.rule = (
                f"hybrid: model unsure, cues not backed; model's label {label.value} "
                f"(positives {positive_mass:.2f}, threshold {self.thresholds.positive})"
            )
        confidence = scores[label] if layer != "rules" else max(scores[label], rules[label] * positive_mass)
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
    """The versions a model depends on; a mismatch means the pickle may not load or behave."""
    import jieba
    import scipy
    import spacy

    return {
        "python": platform.python_version(),
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "joblib": joblib.__version__,
        "spacy": spacy.__version__,
        "jieba": getattr(jieba, "__version__", "unknown"),
    }


def manifest_path(model_path: Path) -> Path:
    """The manifest lives beside the model: NAME.joblib → NAME.json."""
    return model_path.with_suffix(".json")


def save_model(classifier: PivotClassifier, path: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """Write the model and its manifest; record the new hash as trusted by this user."""
    from detector.trust import trust_hash

    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"format": FORMAT_VERSION, "pipeline": classifier.pipeline, "thresholds": classifier.thresholds.as_dict()}
    joblib.dump(payload, path, compress=3)
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
    manifest: dict[str, Any] = {}
    if manifest_file.exists():
        try:
            manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ModelError(f"{manifest_file}: unreadable manifest ({exc}); retrain with `pivot train`") from exc
        if manifest.get("sha256") != digest:
            raise ModelError(
                f"{path}: sha256 {digest[:12]}… does not match its manifest ({str(manifest.get('sha256'))[:12]}…): "
                "the file is corrupt or was replaced; retrain with `pivot train` or restore it"
            )
    if not allow_untrusted and not is_trusted(digest):
        raise ModelError(
            f"{path}: untrusted model (sha256 {digest[:12]}…); model files can run code when loaded. "
            "Pass --trust-model if you know where it came from, or retrain it with `pivot train`"
        )
    saved_sklearn = manifest.get("library_versions", {}).get("scikit-learn")
    if saved_sklearn and saved_sklearn != sklearn.__version__:
        raise ModelError(
            f"{path}: built with scikit-learn {saved_sklearn}, this is {sklearn.__version__}; "
            "models do not travel across versions: retrain with `pivot train`"
        )
    try:
        payload = joblib.load(path)
    except Exception as exc:  # a damaged pickle can raise almost anything
        raise ModelError(f"{path}: cannot load model ({type(exc).__name__}: {exc}); retrain with `pivot train`") from exc
    if not isinstance(payload, dict) or payload.get("format") != FORMAT_VERSION:
        raise ModelError(f"{path}: not a pivot-detector model of format {FORMAT_VERSION}; retrain with `pivot train`")
    return PivotClassifier(payload["pipeline"], FusionThresholds(**payload["thresholds"]), manifest)
