"""The shipped model, its manifest, trust checks, evaluation figures and reproducible training."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from detector.classifier import load_model, manifest_path, sha256_file
from detector.detect import Detector, Mode
from detector.errors import ModelError
from detector.label_guide import NEGATIVES, POSITIVES, context_for
from detector.learn import evaluate, label_metrics, load_labeled, train
from detector.loading import default_model_path
from detector.schema import Label, Turn

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_manifest_matches_shipped_model() -> None:
    model = default_model_path()
    manifest = json.loads(manifest_path(model).read_text(encoding="utf-8"))
    assert manifest["sha256"] == sha256_file(model)
    assert manifest["labels"] == ["NONE", "REJECT", "PIVOT", "REOPEN"]
    assert {"rules", "classifier", "hybrid"} <= set(manifest["test_figures"])
    assert model.stat().st_size < 20 * 1024 * 1024


def test_default_detector_is_hybrid_on_the_shipped_model() -> None:
    from detector.loading import build_detector

    detection = build_detector().detect("这个方向不对，我们换成方案B吧")
    assert detection.explanation.classifier_probability is not None
    assert detection.label.value == "PIVOT"


@pytest.mark.parametrize("text, label", POSITIVES)
def test_the_label_guide_positives_get_their_labels_after_a_proposal(shipped_detector, text: str, label: Label) -> None:
    """DESIGN §2's examples (detector/label_guide.py) on the shipped model."""
    assert shipped_detector.detect(text, context_for(text)).label is label


@pytest.mark.parametrize("text", NEGATIVES)
def test_the_label_guide_hard_negatives_stay_none(shipped_detector, text: str) -> None:
    assert shipped_detector.detect(text).label is Label.NONE
    assert shipped_detector.detect(text, context_for(text)).label is Label.NONE


_CI_OPTIONS = "两种做法：\n方案一：用 gRPC 做服务间调用；\n方案二：继续用 REST + OpenAPI 生成客户端。"


@pytest.mark.parametrize("text, label", [
    # A verdict word in another sense, after a reply that lists options (session 36's data).
    ("CI pass 了 可以合了", Label.NONE),
    ("单测全 pass 了 我去写文档", Label.NONE),
    ("把 8080 端口那个进程 kill 掉", Label.NONE),
    ("转化率 drop 得很厉害 先别动方案", Label.NONE),
    # The same word as a verdict on an option the reply listed.
    ("gRPC pass，前端同学不熟", Label.REJECT),
])
def test_a_verdict_word_in_another_sense_is_no_rejection(shipped_detector, text: str, label: Label) -> None:
    context = [Turn(role="user", text="服务间调用怎么做"), Turn(role="assistant", text=_CI_OPTIONS)]
    assert shipped_detector.detect(text, context).label is label


_QUEUE_EN = (
    "Option 1: Postgres with SKIP LOCKED polling, no new infrastructure.\n"
    "Option 2: a Redis stream with consumer groups.\nOption 3: a managed queue such as SQS."
)
_QUEUE_ZH = "方案一：Postgres 的 SKIP LOCKED 轮询，不加新组件。\n方案二：Redis Stream 加消费组。\n方案三：托管队列，比如 SQS。"
_STATUS_EN = (
    "Thanks, this is helpful. Some context before we pick: we run about 40 requests a second at peak, the team is "
    "three backend people, and we already pay for RDS. "
)
_STATUS_ZH = (
    "谢谢，整理得很清楚。先补充一下背景：我们高峰期大概每秒 40 个请求，月底结账那两天会翻三倍；后端就三个人，其中一个下个月休产假；"
    "数据库已经是 RDS 的 Postgres 14，平时 CPU 在 30% 左右。导出任务一单要跑二三十秒，失败了财务那边会直接打电话过来，所以重试和告警比吞吐更重要。"
)


@pytest.mark.parametrize("options, text, label", [
    (_QUEUE_EN, _STATUS_EN + "A few questions:\n1. how does option 2 behave if the Redis node restarts mid-stream?\n"
     "2. what would option 3 cost a month at our volume?\n3. does any of these need a separate worker deployment, or "
     "can it live in the API process?\nI'd like to decide by Friday, so a short comparison table would be great.", Label.NONE),
    (_QUEUE_EN, _STATUS_EN + "A few things:\n1. option 2 is out. we got burned by a Redis failover last year and nobody "
     "here wants to run it again.\n2. what would option 3 cost a month at our volume?\n3. does option 1 need a separate "
     "worker deployment, or can it live in the API process?\nI'd like to decide by Friday.", Label.REJECT),
    (_QUEUE_ZH, _STATUS_ZH + "想问几个问题：\n1. 方案二如果 Redis 节点中途重启，已经被消费但没确认的消息会怎样？\n"
     "2. 方案三按我们的量一个月大概多少钱，跨区流量要不要另算？\n3. 这几个方案需要单独部署 worker 吗，还是可以先放在 API 进程里跑？\n"
     "我周五前要定下来，能不能给我一个简单的对比表，最好把运维成本也列上。", Label.NONE),
    (_QUEUE_ZH, _STATUS_ZH + "几点：\n1. 方案二就算了，去年 Redis 主从切换出过一次大事故，团队没人愿意再维护它。\n"
     "2. 方案三按我们的量一个月大概多少钱，跨区流量要不要另算？\n3. 方案一需要单独部署 worker 吗，还是可以先放在 API 进程里跑？\n"
     "我周五前要定下来，麻烦把剩下两个方案的运维成本也列一下。", Label.REJECT),
])
def test_a_long_message_is_labelled_by_the_point_that_drops_an_option(
    shipped_detector, options: str, text: str, label: Label  # type: ignore[no-untyped-def]
) -> None:
    """Status, numbered questions and a deadline, with or without one point that drops an option.
    The model shipped before session 11's long-message data called three of the four a PIVOT."""
    context = [Turn(role="user", text="we need a job queue for the invoice exports"), Turn(role="assistant", text=options)]
    assert shipped_detector.detect(text, context).label is label


def test_tampered_model_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "model.joblib"
    shutil.copy(default_model_path(), copy)
    shutil.copy(manifest_path(default_model_path()), manifest_path(copy))
    with copy.open("ab") as handle:
        handle.write(b"tampered")
    with pytest.raises(ModelError, match="does not match its manifest"):
        load_model(copy)


def test_model_without_manifest_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "other.joblib"
    shutil.copy(default_model_path(), copy)
    with pytest.raises(ModelError, match="no manifest"):
        load_model(copy, allow_untrusted=True)


def test_damaged_model_with_a_matching_manifest_fails_cleanly(tmp_path: Path) -> None:
    """Even when someone re-hashes a damaged file, loading ends in ModelError, not the OOM killer."""
    copy = tmp_path / "damaged.joblib"
    data = default_model_path().read_bytes()
    copy.write_bytes(data[: len(data) // 2] + bytes(64) + data[len(data) // 2 + 64 :])
    manifest = json.loads(manifest_path(default_model_path()).read_text(encoding="utf-8"))
    manifest["sha256"] = sha256_file(copy)
    manifest_path(copy).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ModelError, match="untrusted model"):
        load_model(copy)
    with pytest.raises(ModelError, match="cannot load model"):
        load_model(copy, allow_untrusted=True)


def test_eval_figures_have_the_documented_keys() -> None:
    figures = evaluate(Detector(Mode.RULES), load_labeled([ROOT / "data" / "dev.jsonl"])[:150])
    assert {"n", "binary_f1", "macro_f1", "accuracy", "none_false_positive_rate", "target_match", "reason_match", "per_label", "per_lang"} <= set(figures)
    assert set(figures["per_label"]) == {"REJECT", "PIVOT", "REOPEN", "NONE"}
    assert set(figures["per_label"]["REJECT"]) == {"precision", "recall", "f1", "support"}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_label_metrics_agree_with_scikit_learn(seed: int) -> None:
    from sklearn.metrics import precision_recall_fscore_support

    labels = list(Label)
    generator = random.Random(seed)
    gold = [generator.choice(labels) for _ in range(300)]
    # Mostly right, as a model is, and REOPEN never predicted (the zero-division case).
    others = [Label.REJECT, Label.PIVOT, Label.NONE]
    predicted = [
        Label.PIVOT if g is Label.REOPEN else g if generator.random() < 0.6 else generator.choice(others) for g in gold
    ]
    ours = label_metrics(gold, predicted)
    names = [label.value for label in labels]
    precision, recall, f1, support = precision_recall_fscore_support(
        [g.value for g in gold], [p.value for p in predicted], labels=names, zero_division=0
    )
    for name, p, r, f, s in zip(names, precision, recall, f1, support):
        assert ours["per_label"][name] == {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4), "support": s}
    *_, binary, _ = precision_recall_fscore_support(
        [g.is_positive for g in gold], [p.is_positive for p in predicted], average="binary", zero_division=0
    )
    assert ours["binary_f1"] == round(binary, 4)
    assert label_metrics(gold, gold)["macro_f1"] == 1.0


def test_training_is_reproducible_and_writes_a_trusted_manifest(tmp_path: Path) -> None:
    lines = (ROOT / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()
    small_train = tmp_path / "train.jsonl"
    small_train.write_text("\n".join(lines[:60]) + "\n", encoding="utf-8")
    dev_lines = (ROOT / "data" / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    small_dev = tmp_path / "dev.jsonl"
    small_dev.write_text("\n".join(dev_lines[:20]) + "\n", encoding="utf-8")
    first = train([small_train], small_dev, tmp_path / "a.joblib", log=lambda _: None)
    second = train([small_train], small_dev, tmp_path / "b.joblib", log=lambda _: None)
    assert first["dev_figures"] == second["dev_figures"]
    assert first["training_data_sha256"] == second["training_data_sha256"]
    assert first["sha256"] == second["sha256"]  # the same bytes, not only the same figures
    model = load_model(tmp_path / "a.joblib")  # trusted: this user trained it
    assert model.manifest["sha256"] == sha256_file(tmp_path / "a.joblib")


def test_eval_without_state_gives_the_same_per_turn_figures() -> None:
    turns = load_labeled([ROOT / "data" / "dev.jsonl"])[:150]
    full = evaluate(Detector(Mode.RULES), turns)
    lean = evaluate(Detector(Mode.RULES), turns, with_state=False)
    assert "state" in full and "state" not in lean
    assert lean == {key: value for key, value in full.items() if key != "state"}


@pytest.mark.parametrize(
    "traditional, simplified",
    [
        ("上個方案作廢，需求我重新捋一遍", "上个方案作废，需求我重新捋一遍"),
        ("這個方向不對，改用本地快取吧", "这个方向不对，改用本地快取吧"),
        ("之前否掉的 Kafka 可以重新考慮", "之前否掉的 Kafka 可以重新考虑"),
    ],
)
def test_a_turn_in_traditional_characters_reads_as_its_simplified_twin(shipped_detector, traditional: str, simplified: str) -> None:  # type: ignore[no-untyped-def]
    """Users in Taiwan and Hong Kong write traditional characters; every cue is written in simplified ones."""
    context = [Turn(role="user", text="消息队列怎么选"), Turn(role="assistant", text="方案A：用 Kafka。方案B：用 Redis Streams。")]
    read, twin = shipped_detector.detect(traditional, context), shipped_detector.detect(simplified, context)
    assert read.label is twin.label and read.label.is_positive
    assert read.target == twin.target
