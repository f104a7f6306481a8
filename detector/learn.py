"""Training, evaluation and comparison of models: what `pivot train` and `pivot eval` call.

Training fits the text/cue/context features once, tries a few regularisation strengths, tunes
the two fusion thresholds on the dev set, and never looks at test data: held-out figures are
computed afterwards, on request, and only recorded.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedGroupKFold
from sklearn.pipeline import Pipeline

from detector.classifier import (
    LABELS,
    FusionThresholds,
    PivotClassifier,
    hybrid_label,
    model_label,
    save_model,
)
from detector.detect import Detector, Mode
from detector.errors import InputError
from detector.features import TurnExample, cue_match_of, make_example
from detector.formats import read_transcripts
from detector.inference import CompiledModel
from detector.label_guide import guide_cases
from detector.pipeline import SEED, build_pipeline
from detector.schema import POSITIVE_LABELS, ConvergenceState, Detection, Label, Transcript, Turn
from detector.state_figures import same_thing, state_figures
from detector.text import detect_language, normalize

# The linear SVM's C, chosen by writers held out from training (`python -m training.writer_holdout`,
# session 10): whole writers' batches left out of train and scored, hybrid macro F1 averaged over
# three such folds (session 5's, 7's and 8's batches): C=1.0 0.640, 0.5 0.647, 0.25 0.657, 0.1 0.650; dev
# 0.754, 0.762, 0.771, 0.765. Stronger regularisation carries to new writers, down to the point
# where the n-gram weights shrink until the dense columns (cue scores, context) decide alone: at
# C=0.1 a short standalone "上个方案作废" lost to the NONE intercept (a label-guide miss). The loop
# below still selects among several values when the grid has them.
C_GRID = (0.25,)
CALIBRATION_FOLDS = 3
# Finer where the false-alarm limit binds: between 0.85 and 0.9 dev's false alarms went from
# 2.8% to 2.5% and macro F1 from 0.718 to 0.707, so a 0.05 step threw away the recall of the
# bar just inside the limit (dev 0.710 → 0.717 with the steps between).
POSITIVE_GRID = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.825, 0.85, 0.875, 0.9, 0.925, 0.95, 0.97)
CONFIDENT_GRID = (0.6, 0.7, 0.8, 0.9, 1.01)
STRONG_GRID = (0.1, 0.15) + POSITIVE_GRID
# A false alarm tells the agent to rewrite its checkpoint for nothing; the tuner keeps them rare.
# The promise is 3% on data the tuner never saw; tuning to exactly 3% on dev would break it on
# about every other held-out set, so dev gets half a point of headroom.
MAX_NONE_FALSE_POSITIVE_RATE = 0.025
PROMISED_NONE_FALSE_POSITIVE_RATE = 0.03
# How much dev macro F1 the label guide's examples may cost in threshold selection.
GUIDE_TOLERANCE = 0.005
# Probabilities (one row per example, in LABELS order), the examples, their gold labels.
Scored = tuple[np.ndarray, Sequence[TurnExample], Sequence[Label]]


@dataclass(slots=True)
class LabeledTurn:
    """A gold-labelled user turn with the conversation up to it."""

    transcript: Transcript
    index: int

    @property
    def turn(self) -> Turn:
        return self.transcript.turns[self.index]

    @property
    def label(self) -> Label:
        """The gold label: `labeled_turns` keeps only turns that carry one."""
        label = self.turn.label
        if label is None:
            raise ValueError(f"turn {self.index} of {self.conversation} has no label")
        return label

    @property
    def conversation(self) -> str:
        """The conversation's id; one without an id is a group of its own all the same."""
        return self.transcript.id or f"#{id(self.transcript)}"

    @property
    def lang(self) -> str:
        return self.transcript.lang or detect_language(self.turn.text)


def labeled_turns(transcripts: Iterable[Transcript]) -> list[LabeledTurn]:
    """Every user turn that carries a gold label, in file order."""
    return [LabeledTurn(t, i) for t in transcripts for i in t.labeled_user_turns]


def load_labeled(paths: Sequence[Path]) -> list[LabeledTurn]:
    """Labeled turns of several files; a file with no labels at all is an error that says so."""
    turns: list[LabeledTurn] = []
    for path in paths:
        found = labeled_turns(read_transcripts(path))
        if not found:
            raise InputError(f"{path}: no user turn has a 'label'; evaluation and training need labeled transcripts")
        turns.extend(found)
    return turns


def data_hash(paths: Sequence[Path]) -> str:
    """sha256 over the training files' bytes, in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


# ------------------------------------------------------------------------------------------
# Training


def train(
    train_paths: Sequence[Path],
    dev_path: Path,
    out: Path,
    test_path: Path | None = None,
    log: Any = print,
    trust: bool = True,
) -> dict[str, Any]:
    """Fit, select, tune on dev, save with a manifest; return the manifest.

    `trust` records the model's hash as trusted by this user (see `save_model`).
    """
    started = time.perf_counter()
    train_turns = load_labeled(train_paths)
    dev_turns = load_labeled([dev_path])
    log(f"train: {len(train_turns)} labeled turns from {len(train_paths)} file(s); dev: {len(dev_turns)}")

    detector = Detector(Mode.RULES)
    # Context dropout: every turn is also learned without its context. Otherwise "no previous
    # turn" is learned as "NONE" (conversations open with a request), and a turn checked on its
    # own, or after the agent trimmed its history, would lose its label.
    with_context = [_example(detector, t) for t in train_turns]
    train_x = with_context + [_without_context(example) for example in with_context]
    dev_x = [_example(detector, t) for t in dev_turns]
    train_y = [t.label.value for t in train_turns] * 2
    calibration_folds = _folds_by_conversation(train_y, [t.conversation for t in train_turns] * 2)
    dev_gold = [t.label for t in dev_turns]

    template = build_pipeline(n_jobs=-1)
    features = clone(template.named_steps["features"])
    train_matrix = features.fit_transform(train_x)
    dev_matrix = features.transform(dev_x)
    # Regularisation is chosen on dev turns with their context and without it: a turn checked
    # on its own, or after an agent trimmed its history, must keep its label too.
    dev_alone = [_without_context(example) for example in dev_x]
    dev_alone_matrix = features.transform(dev_alone)

    best: tuple[float, float, Any] | None = None
    for c in C_GRID:
        model = clone(template.named_steps["model"]).set_params(estimator__C=c, cv=calibration_folds)
        model.fit(train_matrix, train_y)
        in_context, alone = (
            max(
                label_metrics(dev_gold, [model_label(row, t) for row in _in_label_order(model, matrix)])["macro_f1"]
                for t in POSITIVE_GRID
            )
            for matrix in (dev_matrix, dev_alone_matrix)
        )
        score = (in_context + alone) / 2
        log(f"  C={c:g}: dev macro_f1 {in_context:.3f} in context, {alone:.3f} alone (classifier alone)")
        if best is None or score > best[0]:
            best = (score, c, model)
    assert best is not None
    _, best_c, best_model = best
    pipeline = Pipeline([("features", features), ("model", best_model)])
    classifier = PivotClassifier(CompiledModel.from_pipeline(pipeline))

    # Tuned on dev turns with their context and alone, like the regularisation above, from the
    # probabilities of the matrices already built (the runtime model gives the same numbers).
    dev_probabilities = np.vstack([_in_label_order(best_model, dev_matrix), _in_label_order(best_model, dev_alone_matrix)])
    cases = guide_cases()
    guide_x = [make_example(text, context, detector.engine.match(normalize(text))) for text, context, _ in cases]
    guide: Scored = (_in_label_order(best_model, features.transform(guide_x)), guide_x, [label for *_, label in cases])
    thresholds = tune_thresholds(dev_probabilities, dev_x + dev_alone, dev_gold * 2, guide=guide)
    classifier.thresholds = thresholds
    guide_misses = _miss_counter(guide)(thresholds)
    log(f"  thresholds: {thresholds.as_dict()}; label-guide examples missed: {guide_misses} of {len(guide_x)}")
    dev_figures = evaluate(Detector(Mode.HYBRID, classifier=classifier), dev_turns, with_state=False)

    manifest: dict[str, Any] = {
        "created_by": "pivot train",
        "training_files": [str(p) for p in train_paths],
        "dev_file": str(dev_path),
        "training_data_sha256": data_hash(list(train_paths)),
        "training_turns": len(train_turns),
        "context_dropout": "each training turn is used twice: with its context and without",
        "training_label_counts": dict(Counter(train_y)),
        "hyperparameters": {
            "model": "LinearSVC",
            "C": best_c,
            "calibration": f"sigmoid, {CALIBRATION_FOLDS} folds grouped by conversation",
            "seed": SEED,
        },
        "dev_figures": {"hybrid": _headline(dev_figures)},
        "label_guide_examples_missed": guide_misses,
        "training_seconds": round(time.perf_counter() - started, 1),
    }
    if test_path is not None:
        test_turns = load_labeled([test_path])
        manifest["test_file"] = str(test_path)
        manifest["test_figures"] = {
            mode.value: evaluate(
                Detector(mode, classifier=None if mode is Mode.RULES else classifier), test_turns
            )
            for mode in (Mode.RULES, Mode.CLASSIFIER, Mode.HYBRID)
        }
    saved = save_model(classifier, out, manifest, trust=trust)
    log(f"wrote {out} ({saved['size_bytes'] / 1e6:.1f} MB) and {out.with_suffix('.json')} in {manifest['training_seconds']} s")
    return saved


def _folds_by_conversation(labels: Sequence[str], conversations: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The calibration folds, whole conversations each.

    Every turn is in the training rows twice (with its context and alone), and a conversation's
    turns share its words. Folds cut at random put one copy of a turn in the fold the model
    learns from and the other in the fold its probabilities are calibrated on: the model then
    looks right on what it has seen, and the sigmoid learns to trust it far too much (it said
    NONE at 1.00 for "let's drop redis", overruling the cue that fired).
    """
    folds = StratifiedGroupKFold(n_splits=CALIBRATION_FOLDS, shuffle=True, random_state=SEED)
    return list(folds.split(np.zeros(len(labels)), labels, groups=conversations))


def _example(detector: Detector, turn: LabeledTurn) -> TurnExample:
    text = turn.turn.text
    return make_example(text, turn.transcript.turns[: turn.index], detector.engine.match(normalize(text)))


def _without_context(example: TurnExample) -> TurnExample:
    """The same turn as if nothing came before it (its cue match does not depend on context)."""
    return TurnExample(text=example.text, cue_match=example.cue_match)


def tune_thresholds(
    probabilities: np.ndarray,
    examples: Sequence[TurnExample],
    gold: Sequence[Label],
    guide: Scored | None = None,
) -> FusionThresholds:
    """The thresholds that maximise dev macro F1 within MAX_NONE_FALSE_POSITIVE_RATE false
    alarms on NONE turns; `probabilities` has one row per example, in LABELS order.

    `guide` (the label guide's examples, label_guide.py, scored the same way) is the
    specification: among the settings within GUIDE_TOLERANCE of the best dev macro F1, the one
    that gives the most examples their label wins. Dev alone once let a retrain raise the
    strong-cue bar until "上个方案作废" after a proposal fell to NONE, for a dev gain of a turn or
    two; demanding every example at any price cost 0.016 dev macro F1 instead.

    The classifier-only rule is a point of the hybrid grid (confident 1.01, cue_backed and
    uncued equal to positive), so on dev the hybrid rule is never worse than the model alone.
    """
    dev_predict = _hybrid_predictor(probabilities, examples)
    guide_misses = _miss_counter(guide) if guide is not None else lambda thresholds: 0

    def scored(thresholds: FusionThresholds) -> tuple[dict[str, Any], int, FusionThresholds]:
        return label_metrics(gold, dev_predict(thresholds)), guide_misses(thresholds), thresholds

    positive = max(POSITIVE_GRID, key=lambda t: _limit_key(label_metrics(gold, [model_label(row, t) for row in probabilities])))
    # The rule's meaning is kept by construction: a cue lowers the bar, silence raises it
    # (strong_cue_backed <= cue_backed <= positive <= uncued); otherwise the grid can fit dev
    # noise with a rule that distrusts its own cues.
    chosen = _pick(
        setting
        for confident in CONFIDENT_GRID
        for cue_backed in (t for t in POSITIVE_GRID if t <= positive)
        for setting in _smoothed(
            [
                scored(FusionThresholds(positive, confident, cue_backed, uncued, strong_cue_backed=cue_backed))
                for uncued in (t for t in POSITIVE_GRID + (1.01,) if t >= positive)
            ]
        )
    )
    # Then the strong-cue bar, the others fixed: the full product grid costs 17 times as much.
    # Ties go to the lower bar: where dev cannot tell, the cues' own record (94% right) decides.
    return _pick(
        scored(FusionThresholds(chosen.positive, chosen.confident, chosen.cue_backed, chosen.uncued, strong))
        for strong in sorted({t for t in STRONG_GRID if t < chosen.cue_backed} | {chosen.strong_cue_backed}, reverse=True)
    )


# How many settings on each side of a setting along the uncued bar its score is averaged with.
SMOOTHING_NEIGHBOURS = 2


def _smoothed(
    settings: list[tuple[dict[str, Any], int, FusionThresholds]],
) -> list[tuple[dict[str, Any], int, FusionThresholds]]:
    """The same settings, each scored by the mean macro F1 of itself and its neighbours on the bar
    for turns no cue backs (the settings come in the order of that bar), SMOOTHING_NEIGHBOURS on
    each side.

    That bar decides the few turns where the model alone is unsure, so dev macro F1 along it is a
    ragged line of near-ties: in session 40, uncued 0.8, 0.85, 0.9 and 0.95 were within 0.002 of
    each other and not in order (0.768, 0.766, 0.767, 0.768), and a retrain after three new cues
    moved the pick from 0.8 to 0.95, lowering long_dev 0.819 -> 0.808. Read as a neighbourhood,
    the line's level decides, not its last wiggle. One neighbour a side was not enough: in session
    41 a retrain after two new cues moved it from 0.8 to 0.925 (long_dev 0.819 -> 0.801); two a
    side pick 0.825 there (long_dev 0.811) and keep session 40's model at 0.8. False alarms are
    still each setting's own."""
    f1 = [metrics["macro_f1"] for metrics, _, _ in settings]
    smoothed = []
    for index, (metrics, misses, thresholds) in enumerate(settings):
        window = f1[max(0, index - SMOOTHING_NEIGHBOURS) : index + SMOOTHING_NEIGHBOURS + 1]
        smoothed.append(({**metrics, "macro_f1": sum(window) / len(window)}, misses, thresholds))
    return smoothed


def _limit_key(metrics: dict[str, Any]) -> tuple[float, float]:
    """Macro F1 among settings within the false-alarm limit, which all rank above those outside
    it (ranked by fewest false alarms)."""
    false_alarms = metrics["none_false_positive_rate"]
    if false_alarms > MAX_NONE_FALSE_POSITIVE_RATE:
        return -1.0 - false_alarms, metrics["macro_f1"]
    return metrics["macro_f1"], -false_alarms


def _pick(settings: Iterable[tuple[dict[str, Any], int, FusionThresholds]]) -> FusionThresholds:
    """The best setting by `_limit_key`, or, among those within GUIDE_TOLERANCE of it, the one with
    the fewest label-guide misses; the last of equals wins (callers list preferred ones last).

    The examples are the specification and the headroom below the promised false-alarm rate is a
    margin, so a setting that labels more examples right may spend the headroom, never the promise,
    when it costs no macro F1 at all: in session 8 "改成另一个思路：用事件溯源" fell to NONE at a
    strong-cue bar of 0.4 (the model gave it 0.38), and 0.35 cost no dev macro F1 but one dev false
    alarm past 2.5% (2.54%). Letting it cost GUIDE_TOLERANCE too moved every threshold (dev 0.756 →
    0.749) for that one example.
    """
    evaluated = [(_limit_key(metrics), metrics, misses, thresholds) for metrics, misses, thresholds in settings]
    best = max(key for key, *_ in evaluated)[0]

    def close(key: tuple[float, float], metrics: dict[str, Any]) -> bool:
        if best < 0:  # no setting is within the limit: the least bad ones, as ranked
            return key[0] >= best - GUIDE_TOLERANCE and key[0] < 0
        if key[0] >= 0:
            return key[0] >= best - GUIDE_TOLERANCE
        return metrics["none_false_positive_rate"] <= PROMISED_NONE_FALSE_POSITIVE_RATE and metrics["macro_f1"] >= best

    candidates = [item for item in evaluated if close(item[0], item[1])]
    return max(reversed(candidates), key=lambda item: (-item[2], item[0][0] >= 0, item[0]))[3]


def _miss_counter(scored: Scored) -> Callable[[FusionThresholds], int]:
    """How many of these scored examples a setting labels wrong."""
    predict = _hybrid_predictor(scored[0], scored[1])
    return lambda thresholds: sum(p is not g for p, g in zip(predict(thresholds), scored[2]))


def _hybrid_predictor(probabilities: np.ndarray, examples: Sequence[TurnExample]):  # type: ignore[no-untyped-def]
    """A function of the thresholds giving the hybrid labels of these scored examples."""
    from detector.detect import rules_label, rules_scores

    rules = [rules_scores(cue_match_of(example)) for example in examples]
    rule_labels = [rules_label(scores)[0] for scores in rules]
    strengths = [scores.get(label, 0.0) for scores, label in zip(rules, rule_labels)]

    def predict(thresholds: FusionThresholds) -> list[Label]:
        return [
            hybrid_label(row, rule, thresholds, strength)[0]
            for row, rule, strength in zip(probabilities, rule_labels, strengths)
        ]

    return predict


def _in_label_order(model: Any, matrix: Any) -> np.ndarray:
    raw = model.predict_proba(matrix)
    return raw[:, [list(model.classes_).index(label.value) for label in LABELS]]


# ------------------------------------------------------------------------------------------
# Evaluation

def label_metrics(gold: Sequence[Label], predicted: Sequence[Label]) -> dict[str, Any]:
    """Per-label P/R/F1, binary F1 (any positive), macro F1 over the three positive labels.

    Counted here rather than with `sklearn.metrics.precision_recall_fscore_support`, by the same
    formulas (F1 = 2·tp / (gold + predicted), 0 where a label is never seen): threshold tuning
    scores about 700 settings, and under a profiler that function's input checks were an eighth
    of training's time. tests/test_model.py holds the two to the same figures."""
    pairs = Counter(zip(gold, predicted))
    per_label = {label.value: _precision_recall_f1(pairs, {label}) for label in LABELS}
    none_total = sum(count for (g, _), count in pairs.items() if g is Label.NONE)
    none_flagged = sum(count for (g, p), count in pairs.items() if g is Label.NONE and p.is_positive)
    return {
        "n": len(gold),
        "binary_f1": _precision_recall_f1(pairs, set(POSITIVE_LABELS))["f1"],
        "macro_f1": round(float(np.mean([per_label[label.value]["f1"] for label in POSITIVE_LABELS])), 4),
        "accuracy": round(sum(count for (g, p), count in pairs.items() if g is p) / max(len(gold), 1), 4),
        "none_false_positive_rate": round(none_flagged / max(none_total, 1), 4),
        "per_label": per_label,
    }


Outcome = TypeVar("Outcome", bound=Hashable)  # a label, or RELAPSE-or-not


def _precision_recall_f1(pairs: Counter[tuple[Outcome, Outcome]], labels: set[Outcome]) -> dict[str, Any]:
    """Precision, recall and F1 of predicting any of `labels`, from (gold, predicted) counts."""
    hits = sum(count for (g, p), count in pairs.items() if g in labels and p in labels)
    support = sum(count for (g, _), count in pairs.items() if g in labels)
    flagged = sum(count for (_, p), count in pairs.items() if p in labels)
    return {
        "precision": round(hits / flagged, 4) if flagged else 0.0,
        "recall": round(hits / support, 4) if support else 0.0,
        "f1": round(2 * hits / (support + flagged), 4) if support + flagged else 0.0,
        "support": support,
    }


def evaluate(detector: Detector, turns: Sequence[LabeledTurn], with_state: bool = True) -> dict[str, Any]:
    """Score every labeled turn with the turns before it as context: the figures of `pivot eval`.

    `with_state=False` leaves out `state`, which replays every conversation through the tracker
    (detecting each turn again), for callers that do not report it."""
    detections: list[Detection] = [
        detector.detect_in(t.transcript.turns, t.index, lang=t.transcript.lang) for t in turns
    ]
    gold = [t.label for t in turns]
    predicted = [d.label for d in detections]
    figures = label_metrics(gold, predicted)
    figures["target_match"] = _span_match(turns, detections, "target")
    figures["reason_match"] = _span_match(turns, detections, "reason")
    per_lang: dict[str, Any] = {}
    for lang in ("zh", "en", "mixed"):
        indices = [i for i, t in enumerate(turns) if t.lang == lang]
        if indices:
            sub = label_metrics([gold[i] for i in indices], [predicted[i] for i in indices])
            per_lang[lang] = {"n": sub["n"], "binary_f1": sub["binary_f1"], "macro_f1": sub["macro_f1"]}
    figures["per_lang"] = per_lang
    figures["confusion"] = {
        g.value: {p.value: sum(1 for a, b in zip(gold, predicted) if a is g and b is p) for p in LABELS} for g in LABELS
    }
    # What the turns leave in the tracked state, which is what the agent pins (state_figures.py).
    if with_state:
        figures["state"] = state_figures(detector, list({id(t.transcript): t.transcript for t in turns}.values()))
    return figures


def _span_match(turns: Sequence[LabeledTurn], detections: Sequence[Detection], span: Literal["target", "reason"]) -> float:
    """The share of gold positives with this span (target, reason) whose detection's span denotes
    the same thing; a turn detected as NONE has none, so it counts as a miss."""
    with_span = [(t, d) for t, d in zip(turns, detections) if t.label.is_positive and getattr(t.turn, span)]
    matched = sum(same_thing(getattr(d, span), getattr(t.turn, span)) for t, d in with_span)
    return round(matched / max(len(with_span), 1), 4)


def _headline(figures: dict[str, Any]) -> dict[str, Any]:
    keys = ("n", "binary_f1", "macro_f1", "accuracy", "none_false_positive_rate", "target_match", "reason_match", "per_lang")
    return {key: figures[key] for key in keys if key in figures}


# ------------------------------------------------------------------------------------------
# Relapse cases


@dataclass(frozen=True)
class RelapseCase:
    """A labeled relapse case, its state built: what the guard is checked on and trained from."""

    id: str
    lang: str
    state: ConvergenceState
    reply: str
    relapse: bool


def relapse_cases(path: Path) -> list[RelapseCase]:
    """The cases of a relapse JSONL file, each with the state its rejected alternatives and current
    decision make. A case with `"user_reopened": true` has its alternatives reopened, not rejected.
    Extra fields are ignored; a malformed line is an InputError naming the file and line."""
    from detector.formats import BadRecord, json_lines
    from detector.render import default_revisit_if
    from detector.schema import CurrentDecision, RejectedAlternative

    cases: list[RelapseCase] = []
    with Path(path).open("rb") as handle:
        lines = list(json_lines(str(path), handle))
    for item in lines:
        if isinstance(item, BadRecord):
            raise InputError(f"{item}; not a relapse case")
        line_number, case = item
        if not isinstance(case, dict):
            raise InputError(f"{path}:{line_number}: not a relapse case (expected a JSON object)")
        try:
            lang = case.get("lang") or detect_language(case["reply"])
            state = ConvergenceState(conversation_id=str(case.get("id", line_number)), lang=lang)
            if case.get("current_decision"):
                state.current_decision = CurrentDecision(text=case["current_decision"], since_turn=1)
            if not case.get("user_reopened"):
                state.rejected = [
                    RejectedAlternative(
                        alternative_id=f"alt-{i}",
                        alternative=rejected["alternative"],
                        rejected_at=1,
                        reason=rejected.get("reason"),
                        revisit_if=default_revisit_if(lang),
                        evidence="",
                    )
                    for i, rejected in enumerate(case["rejected"])
                ]
            identifier, relapse = str(case.get("id", line_number)), case["label"] == "RELAPSE"
            cases.append(RelapseCase(identifier, lang, state, str(case["reply"]), relapse))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}:{line_number}: not a relapse case ({type(exc).__name__}: {exc})") from None
    if not cases:
        raise InputError(f"{path}: no cases")
    return cases


def evaluate_relapse(path: Path) -> dict[str, Any]:
    """Accuracy, precision, recall and F1 (RELAPSE positive) of the relapse guard on labeled cases.

    Each case gives the rejected alternatives and the current decision; the state is built from
    them and the reply is checked. A case with `"user_reopened": true` has its alternatives
    reopened, not rejected. Extra fields are ignored.
    """
    from detector.relapse import check_reply

    rows: list[tuple[str, bool, bool]] = []
    for case in relapse_cases(path):
        predicted = check_reply(case.state, case.reply).verdict == "RELAPSE"
        rows.append((case.lang, case.relapse, predicted))

    def figures(subset: list[tuple[str, bool, bool]]) -> dict[str, Any]:
        gold = [g for _, g, _ in subset]
        predicted = [p for _, _, p in subset]
        relapse = _precision_recall_f1(Counter(zip(gold, predicted)), {True})
        accuracy = sum(g == p for g, p in zip(gold, predicted)) / len(subset)
        return {"n": len(subset), "accuracy": round(accuracy, 4)} | {k: relapse[k] for k in ("precision", "recall", "f1")}

    result = figures(rows)
    result["per_lang"] = {lang: figures([r for r in rows if r[0] == lang]) for lang in sorted({r[0] for r in rows})}
    return result
