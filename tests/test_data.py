"""The labeled data in data/ passes its checks: schema, split hygiene, counts, phrase diversity."""

from __future__ import annotations

from training.datasets import check


def test_data_card_minimums_and_split_hygiene() -> None:
    report = check()
    assert report.problems == [], "\n".join(report.problems)
    assert report.counts["per_split"]["test"] > 50
