"""The single-turn fast path gives the fitted pipeline's own probabilities (inference.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from detector.classifier import load_model
from detector.cues.engine import default_engine
from detector.features import make_example
from detector.formats import read_transcripts
from detector.inference import CompiledModel
from detector.loading import default_model_path

ROOT = Path(__file__).resolve().parent.parent


def test_compiled_model_equals_the_pipeline_on_real_turns_in_context() -> None:
    model = load_model(default_model_path())
    examples = []
    for transcript in read_transcripts(ROOT / "data" / "dev.jsonl"):
        for index, turn in enumerate(transcript.turns):
            if turn.role == "user":
                context = transcript.turns[:index]
                example = make_example(turn.text, context)
                example.cue_match = default_engine().match(example.text)
                examples.append(example)
    examples = examples[:400] + [make_example("", []), make_example("scrap the Redis idea", [])]
    compiled = CompiledModel(model.pipeline)
    fast = np.array([compiled.predict_proba(example) for example in examples])
    reference = model.pipeline.predict_proba(examples)
    order = [list(model.pipeline.classes_).index(label) for label in compiled.classes]
    assert np.allclose(fast, reference[:, order], rtol=0, atol=1e-12)
