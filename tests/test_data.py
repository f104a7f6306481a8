"""The labeled data in data/ passes its checks: schema, split hygiene, counts, phrase diversity."""

from __future__ import annotations

import random

import pytest

from training.datasets import HELD_OUT_SETS, check


def test_data_card_minimums_and_split_hygiene() -> None:
    report = check()
    assert report.problems == [], "\n".join(report.problems)
    assert report.counts["per_split"]["test"] > 50


def _transcript(conversation_id: str, text: str):  # type: ignore[no-untyped-def]
    from detector.schema import Transcript

    return Transcript.model_validate(
        {"id": conversation_id, "lang": "en", "turns": [{"role": "user", "text": text, "label": "NONE"}]}
    )


def test_train_only_conversations_and_their_near_duplicates_go_to_train() -> None:
    """Data added after dev and test were fixed must not change them, nor leak into them."""
    from training.datasets import assign_splits

    rng = random.Random(3)
    words = "cache queue index shard lease token batch proxy route fleet audit quota mirror ledger kernel".split()
    others = [_transcript(f"c-{i}", " ".join(rng.choice(words) for _ in range(10))) for i in range(200)]
    plain = assign_splits(others)
    assert set(plain.values()) == {"train", "dev", "test"}
    leaked = next(t for t in others if plain[t.id] == "test")
    added = [
        _transcript("new-1", "a brand new conversation nobody wrote before, about caching"),
        _transcript("new-2", leaked.turns[0].text + "!"),  # a near-duplicate of a test conversation
    ]
    with_added = assign_splits(others + added, train_only=frozenset({"new-1", "new-2"}))
    assert with_added["new-1"] == with_added["new-2"] == with_added[leaked.id] == "train"
    assert {k: v for k, v in with_added.items() if k not in {"new-1", "new-2", leaked.id}} == {
        k: v for k, v in plain.items() if k != leaked.id
    }


def test_a_conversation_without_an_id_cannot_be_split() -> None:
    """The split is decided by the id: without one a conversation has no stable place."""
    from detector.errors import InputError
    from training.datasets import assign_splits

    nameless = _transcript("x", "we need a queue for the exports")
    nameless.id = None
    with pytest.raises(InputError, match="without an id"):
        assign_splits([_transcript("c-1", "what cache should we use"), nameless])


def test_cohen_kappa_on_known_cases() -> None:
    from detector.schema import Label
    from training.agreement import cohen_kappa

    same = [Label.REJECT, Label.NONE, Label.PIVOT, Label.NONE]
    assert cohen_kappa(same, same) == 1.0
    # Observed 0.5; chance 0.5 (each side half REJECT, half NONE): no agreement beyond chance.
    assert cohen_kappa([Label.REJECT, Label.REJECT, Label.NONE, Label.NONE], [Label.REJECT, Label.NONE, Label.REJECT, Label.NONE]) == 0.0


def test_the_blind_second_pass_on_dev_matches_its_turns_and_agrees() -> None:
    """data/agreement/dev_second_pass.jsonl labels dev turns that exist and have labels; the
    agreement it shows is what the README quotes (re-labeling dev would change it)."""
    from pathlib import Path

    from training.agreement import agreement

    data = Path(__file__).resolve().parent.parent / "data"
    figures = agreement(data / "dev.jsonl", data / "agreement" / "dev_second_pass.jsonl")
    assert figures["n"] == 328 and figures["cohen_kappa"] >= 0.9


@pytest.mark.parametrize("held_out", HELD_OUT_SETS)
def test_a_held_out_writers_conversation_that_repeats_a_split_is_reported(tmp_path, held_out) -> None:  # type: ignore[no-untyped-def]
    """The held-out writers' sets measure unseen writers, so a turn that nearly repeats one of
    train, dev or test would make it a copy of what the model saw (or was tuned on)."""
    texts = {
        "train": "we need a cache in front of the product pages, what are the options",
        "dev": "scrap the redis idea, nobody here can run it in production at night",
        "test": "the pdf export takes forty seconds for one invoice, can we speed it up",
    }
    for split, text in texts.items():
        (tmp_path / f"{split}.jsonl").write_text(_transcript(f"{split}-1", text).model_dump_json() + "\n")
    (tmp_path / held_out).mkdir()
    copied = _transcript("nw-1", texts["dev"] + "!")
    fresh = _transcript("nw-2", "the venue has parking now, so that one is back in for the party")
    (tmp_path / held_out / "batch.jsonl").write_text(copied.model_dump_json() + "\n" + fresh.model_dump_json() + "\n")
    crossing = [p for p in check(tmp_path).problems if "crosses splits" in p]
    assert len(crossing) == 1 and f"nw-1 ({held_out})" in crossing[0] and "dev-1 (dev)" in crossing[0]
