"""Single-turn inference without scikit-learn's per-call overhead, equal to the fitted pipeline.

The hook runs the model once per user turn. Through `Pipeline.predict_proba` one turn costs
milliseconds, almost all of it input validation and dispatch for batches we do not have. This
module reads the fitted pieces (vocabularies, idf weights, the linear model's coefficients, the
sigmoid calibrators) once, and computes the same numbers directly: tf-idf as TfidfVectorizer
does (sublinear tf, idf, l2 norm), the cue and context columns through the featurizers' own
`row` methods, the linear decision function on the non-zero columns only, then the per-class
sigmoid and normalisation of CalibratedClassifierCV. `tests/test_inference.py` checks the
result against `Pipeline.predict_proba` on real data.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.special import expit
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.pipeline import Pipeline

from detector.features import ContextFeaturizer, CueFeaturizer, TurnExample, turn_text


@dataclass(frozen=True, slots=True)
class _CompiledTfidf:
    analyze: Callable[[str], list[str]]
    vocabulary: dict[str, int]
    idf: list[float]
    sublinear: bool
    offset: int

    @classmethod
    def of(cls, vectorizer: TfidfVectorizer, offset: int) -> _CompiledTfidf:
        if vectorizer.norm != "l2" or not vectorizer.use_idf or vectorizer.binary:
            raise ValueError("the fast path covers l2-normalised tf-idf only")
        return cls(
            vectorizer.build_analyzer(),
            # Plain ints and floats: numpy scalars cost a conversion on every lookup.
            {gram: int(column) for gram, column in vectorizer.vocabulary_.items()},
            vectorizer.idf_.tolist(),
            vectorizer.sublinear_tf,
            offset,
        )

    def columns(self, text: str) -> tuple[list[int], list[float]]:
        """Column indices and l2-normalised tf-idf values of the text's in-vocabulary n-grams."""
        counts = Counter([column for column in map(self.vocabulary.get, self.analyze(text)) if column is not None])
        if not counts:
            return [], []
        idf, log = self.idf, math.log
        values = [((1.0 + log(n)) if self.sublinear else n) * idf[column] for column, n in counts.items()]
        norm = math.sqrt(sum(v * v for v in values))
        offset = self.offset
        return [offset + column for column in counts], [v / norm for v in values]


class CompiledModel:
    """The fitted pipeline of `classifier.build_pipeline`, as arrays and plain Python."""

    def __init__(self, pipeline: Pipeline) -> None:
        union = pipeline.named_steps["features"]
        parts = dict(union.transformer_list)
        ngrams = dict(parts["text"].named_steps["ngrams"].transformer_list)
        offset = 0
        self._tfidf = []
        for name in ("chars", "words"):
            compiled = _CompiledTfidf.of(ngrams[name], offset)
            self._tfidf.append(compiled)
            offset += len(compiled.vocabulary)
        self._cues: CueFeaturizer = parts["cues"]
        self._cue_offset = offset
        offset += len(self._cues.feature_names_)
        self._context_offset = offset
        offset += ContextFeaturizer().fit([]).n_features_out_

        calibrated = pipeline.named_steps["model"]
        if len(calibrated.calibrated_classifiers_) != 1:
            raise ValueError("the fast path expects CalibratedClassifierCV(ensemble=False)")
        inner = calibrated.calibrated_classifiers_[0]
        coef = inner.estimator.coef_
        # One row per feature, so a turn's few hundred non-zero columns are one contiguous gather.
        self._coef_by_feature = np.ascontiguousarray(
            np.asarray(coef.toarray() if hasattr(coef, "toarray") else coef, dtype=np.float64).T
        )
        if self._coef_by_feature.shape[0] != offset:
            raise ValueError(f"model expects {self._coef_by_feature.shape[0]} features, the featurizers give {offset}")
        self._intercept = np.asarray(inner.estimator.intercept_, dtype=np.float64)
        self._a = np.array([c.a_ for c in inner.calibrators], dtype=np.float64)
        self._b = np.array([c.b_ for c in inner.calibrators], dtype=np.float64)
        classes = list(calibrated.classes_)
        self._order = np.array([classes.index(c) for c in inner.estimator.classes_])
        self.classes = classes

    def predict_proba(self, example: TurnExample) -> np.ndarray:
        """Class probabilities in `self.classes` order, as `Pipeline.predict_proba` gives them."""
        text = turn_text(example)
        coef = self._coef_by_feature
        decision = self._intercept.copy()
        for tfidf in self._tfidf:
            columns, values = tfidf.columns(text)
            if columns:
                decision += np.asarray(values) @ coef[columns]
        cue_pairs = self._cues.row(example)
        indices = [self._cue_offset + col for col, _ in cue_pairs]
        weights = [value for _, value in cue_pairs]
        for col, value in enumerate(ContextFeaturizer.row(example)):
            if value:
                indices.append(self._context_offset + col)
                weights.append(value)
        if indices:
            decision += np.asarray(weights) @ coef[indices]
        calibrated = expit(-(self._a * decision + self._b))
        proba = np.zeros(len(self.classes))
        proba[self._order] = calibrated
        total = proba.sum()
        proba = proba / total if total else np.full(len(self.classes), 1.0 / len(self.classes))
        proba[(proba > 1.0) & (proba <= 1.0 + 1e-5)] = 1.0
        return proba
