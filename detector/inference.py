"""The runtime model: the fitted pipeline compiled to arrays and plain Python.

Detection runs the model once per user turn, in hooks that start a fresh process per turn.
Loading a scikit-learn pipeline means importing scikit-learn and SciPy (about a second) and
unpickling estimator objects; running it one row at a time is mostly input validation. So
training compiles the pipeline (`CompiledModel.from_pipeline`) into what prediction needs: the
vocabularies and idf weights of the two tf-idf vectorizers, the cue column map, the linear
model's coefficients and the sigmoid calibrators. Prediction computes the same numbers:
n-grams as scikit-learn's analyzers make them, sublinear tf × idf with l2 norm, the cue and
context columns through the same functions training used (features.py), the decision function
on the non-zero columns only, then CalibratedClassifierCV's per-class sigmoid and normalisation.
`tests/test_inference.py` checks the result against `Pipeline.predict_proba` on real turns.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from detector.features import (
    CONTEXT_FEATURES,
    TurnExample,
    context_row,
    cue_feature_names,
    cue_row,
    turn_text,
    word_tokens,
)

_WHITE_SPACES = re.compile(r"\s\s+")  # what scikit-learn's char analyzer collapses first


def char_ngrams(text: str, low: int, high: int) -> list[str]:
    """Character n-grams in scikit-learn's order (`TfidfVectorizer(analyzer="char")`)."""
    text = _WHITE_SPACES.sub(" ", text)
    grams = list(text) if low == 1 else []
    for n in range(max(low, 2), min(high, len(text)) + 1):
        grams += [text[i : i + n] for i in range(len(text) - n + 1)]
    return grams


def word_ngrams(tokens: list[str], low: int, high: int) -> list[str]:
    """Word n-grams joined by spaces, in scikit-learn's order."""
    grams = list(tokens) if low == 1 else []
    for n in range(max(low, 2), min(high, len(tokens)) + 1):
        grams += [" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
    return grams


@dataclass(slots=True)
class _Tfidf:
    """One fitted tf-idf vectorizer: l2-normalised (sublinear) tf × idf over a fixed vocabulary."""

    analyzer: str  # "char" or "word"
    ngram_range: tuple[int, int]
    vocabulary: dict[str, int]
    idf: np.ndarray
    sublinear: bool
    offset: int

    @classmethod
    def from_vectorizer(cls, vectorizer: Any, offset: int) -> _Tfidf:
        """Read a fitted TfidfVectorizer; refuse settings the analyzers here do not reproduce."""
        char = vectorizer.analyzer == "char" and vectorizer.lowercase
        word = vectorizer.analyzer == "word" and vectorizer.tokenizer is word_tokens and not vectorizer.lowercase
        if not (char or word) or vectorizer.preprocessor is not None or vectorizer.strip_accents is not None:
            raise ValueError("the runtime model covers the char and word_tokens vectorizers of pipeline.py only")
        if vectorizer.norm != "l2" or not vectorizer.use_idf or vectorizer.binary or vectorizer.stop_words is not None:
            raise ValueError("the runtime model covers l2-normalised tf-idf without stop words only")
        return cls(
            vectorizer.analyzer,
            tuple(vectorizer.ngram_range),
            # Plain ints: numpy scalars as dict values would cost a conversion on every lookup.
            {gram: int(column) for gram, column in vectorizer.vocabulary_.items()},
            np.asarray(vectorizer.idf_, dtype=np.float64),
            bool(vectorizer.sublinear_tf),
            offset,
        )

    def grams(self, text: str) -> list[str]:
        low, high = self.ngram_range
        if self.analyzer == "char":
            return char_ngrams(text.lower(), low, high)
        return word_ngrams(word_tokens(text), low, high)

    def columns(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Column indices and l2-normalised tf-idf values of the text's in-vocabulary n-grams.

        Counting runs in C (`Counter` over `map`) and the arithmetic in numpy: a turn has a few
        hundred n-grams, and a Python loop over them was most of a detection's time.
        """
        counts = Counter(map(self.vocabulary.get, self.grams(text)))
        counts.pop(None, None)
        if not counts:
            return _NO_COLUMNS
        columns = np.fromiter(counts.keys(), dtype=np.intp, count=len(counts))
        values = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
        if self.sublinear:
            values = 1.0 + np.log(values)
        values *= self.idf[columns]
        values /= math.sqrt(values @ values)
        return columns + self.offset, values


_NO_COLUMNS: tuple[np.ndarray, np.ndarray] = (np.zeros(0, dtype=np.intp), np.zeros(0))


class CompiledModel:
    """The fitted pipeline of `pipeline.build_pipeline`, as arrays and plain Python."""

    def __init__(
        self,
        tfidf: list[_Tfidf],
        cue_columns: dict[str, int],
        coef_by_feature: np.ndarray,
        intercept: np.ndarray,
        calibration: tuple[np.ndarray, np.ndarray],
        classes: list[str],
    ) -> None:
        self._tfidf = tfidf
        self._cue_columns = cue_columns
        self._cue_offset = sum(len(t.vocabulary) for t in tfidf)
        self._context_offset = self._cue_offset + len(cue_feature_names(list(cue_columns)))
        expected = self._context_offset + len(CONTEXT_FEATURES)
        if coef_by_feature.shape[0] != expected:
            raise ValueError(f"model expects {coef_by_feature.shape[0]} features, the featurizers give {expected}")
        # One row per feature, so a turn's few hundred non-zero columns are one contiguous gather.
        self._coef_by_feature = np.ascontiguousarray(coef_by_feature, dtype=np.float64)
        self._intercept = np.asarray(intercept, dtype=np.float64)
        self._a, self._b = (np.asarray(x, dtype=np.float64) for x in calibration)
        self.classes = classes

    @classmethod
    def from_pipeline(cls, pipeline: Any) -> CompiledModel:
        """Compile a fitted pipeline (training time: the caller has scikit-learn loaded)."""
        parts = dict(pipeline.named_steps["features"].transformer_list)
        ngrams = dict(parts["text"].named_steps["ngrams"].transformer_list)
        tfidf: list[_Tfidf] = []
        offset = 0
        for name in ("chars", "words"):
            tfidf.append(_Tfidf.from_vectorizer(ngrams[name], offset))
            offset += len(tfidf[-1].vocabulary)
        calibrated = pipeline.named_steps["model"]
        if len(calibrated.calibrated_classifiers_) != 1:
            raise ValueError("the runtime model expects CalibratedClassifierCV(ensemble=False)")
        inner = calibrated.calibrated_classifiers_[0]
        coef = inner.estimator.coef_
        coef = np.asarray(coef.toarray() if hasattr(coef, "toarray") else coef, dtype=np.float64)
        # The calibrators come in the estimator's class order; report probabilities in the
        # calibrated classifier's order, as predict_proba does.
        estimator_classes = [str(c) for c in inner.estimator.classes_]
        classes = [str(c) for c in calibrated.classes_]
        order = [estimator_classes.index(c) for c in classes]
        a = np.array([inner.calibrators[i].a_ for i in order])
        b = np.array([inner.calibrators[i].b_ for i in order])
        return cls(
            tfidf, dict(parts["cues"].column_of_), coef[order].T, inner.estimator.intercept_[order], (a, b), classes
        )

    def predict_proba(self, example: TurnExample) -> np.ndarray:
        """Class probabilities in `self.classes` order, as `Pipeline.predict_proba` gives them."""
        text = turn_text(example)
        coef = self._coef_by_feature
        decision = self._intercept.copy()
        for tfidf in self._tfidf:
            columns, values = tfidf.columns(text)
            if len(columns):
                decision += values @ coef[columns]
        cue_pairs = cue_row(example, self._cue_columns)
        indices = [self._cue_offset + col for col, _ in cue_pairs]
        weights = [value for _, value in cue_pairs]
        for col, value in enumerate(context_row(example)):
            if value:
                indices.append(self._context_offset + col)
                weights.append(value)
        if indices:
            decision += np.asarray(weights) @ coef[indices]
        proba = np.exp(-np.logaddexp(0.0, self._a * decision + self._b))  # sigmoid(-(a·d + b)), no overflow
        total = proba.sum()
        proba = proba / total if total else np.full(len(self.classes), 1.0 / len(self.classes))
        proba[(proba > 1.0) & (proba <= 1.0 + 1e-5)] = 1.0
        return proba

    def predict_proba_many(self, examples: Sequence[TurnExample]) -> np.ndarray:
        """One row per example; the same numbers as calling `predict_proba` on each."""
        if not examples:
            return np.zeros((0, len(self.classes)))
        return np.vstack([self.predict_proba(example) for example in examples])

