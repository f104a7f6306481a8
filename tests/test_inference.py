"""The runtime model gives the fitted pipeline's own probabilities (inference.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from detector.cues.engine import default_engine
from detector.features import TurnExample, make_example
from detector.formats import read_transcripts
from detector.inference import CompiledModel, char_ngrams, word_ngrams
from detector.pipeline import build_pipeline

ROOT = Path(__file__).resolve().parent.parent


def _examples(name: str, limit: int) -> tuple[list[TurnExample], list[str]]:
    examples, labels = [], []
    for transcript in read_transcripts(ROOT / "data" / f"{name}.jsonl"):
        for index, turn in enumerate(transcript.turns):
            if turn.role == "user" and turn.label is not None:
                example = make_example(turn.text, transcript.turns[:index])
                example.cue_match = default_engine().match(example.text)
                examples.append(example)
                labels.append(turn.label.value)
    return examples[:limit], labels[:limit]


def test_compiled_model_equals_the_pipeline_on_real_turns_in_context() -> None:
    train_x, train_y = _examples("train", 1500)
    pipeline = build_pipeline().fit(train_x, train_y)
    examples, _ = _examples("dev", 400)
    examples += [make_example("", []), make_example("scrap the Redis idea", []), make_example("  两个  空格\t\tx ", [])]
    compiled = CompiledModel.from_pipeline(pipeline)
    reference = pipeline.predict_proba(examples)
    order = [list(pipeline.classes_).index(label) for label in compiled.classes]
    assert np.allclose(compiled.predict_proba_many(examples), reference[:, order], rtol=0, atol=1e-12)


def test_ngrams_follow_scikit_learn() -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer

    text = "drop  the\tredis 方案"
    assert char_ngrams(text, 1, 4) == TfidfVectorizer(analyzer="char", ngram_range=(1, 4)).build_analyzer()(text)
    tokens = ["drop", "the", "redis", "方案"]
    analyzer = TfidfVectorizer(tokenizer=str.split, token_pattern=None, lowercase=False, ngram_range=(1, 2)).build_analyzer()
    assert word_ngrams(tokens, 1, 2) == analyzer(" ".join(tokens))
    assert word_ngrams([], 1, 2) == [] and char_ngrams("a", 1, 4) == ["a"]
