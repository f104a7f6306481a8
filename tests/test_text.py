"""Normalisation, scripts, language tags, protected regions and tokenisers (text.py)."""

from __future__ import annotations

import re

import pytest

from detector.text import detect_language, normalize, protected_regions, script_runs, tokenize

# fmt: off
NORMALIZE = [
    ("ＡＢＣ１２３，？！", "ABC123,?!"),
    ("a\u200bb\ufeffc", "abc"),
    ("  too   many\t spaces  ", "too many spaces"),
    ("全角　空格", "全角 空格"),
    ("这个方向不对。", "这个方向不对。"),
]
LANGS = [
    ("这个方向不对", "zh"),
    ("Redis 缓存太贵了", "zh"),
    ("scrap the Redis idea", "en"),
    ("这个 microservices 的方案 pass 吧，还是 monolith 更 practical", "mixed"),
    ("let's 回到之前那个 Kafka 的 idea", "mixed"),
    ("", "en"),
]
# fmt: on


@pytest.mark.parametrize("raw, expected", NORMALIZE)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


@pytest.mark.parametrize("text, lang", LANGS)
def test_detect_language(text: str, lang: str) -> None:
    assert detect_language(text) == lang


def test_script_runs_split_cjk_and_latin() -> None:
    runs = script_runs("用 Redis 缓存")
    assert [(r.script, r.text) for r in runs] == [("cjk", "用"), ("latin", "Redis"), ("cjk", "缓存")]


def test_tokenize_uses_jieba_for_cjk_and_spacy_for_latin() -> None:
    tokens = tokenize("我们换成PostgreSQL吧, don't use Redis")
    assert "换成" in tokens and "postgresql" in tokens and "do" in tokens and "n't" in tokens


def test_chunk_memo_gives_spacys_own_tokens_on_the_corpus() -> None:
    """tokenize_en remembers tokens per whitespace chunk; that must equal spaCy on whole runs."""
    from pathlib import Path

    from detector.formats import read_transcripts
    from detector.text import _CJK_SPLIT_RE, _english_tokenizer, tokenize_en

    data = Path(__file__).resolve().parent.parent / "data"
    runs = [
        piece
        for name in ("train", "dev", "test")
        for transcript in read_transcripts(data / f"{name}.jsonl")
        for turn in transcript.turns
        for index, piece in enumerate(_CJK_SPLIT_RE.split(normalize(turn.text).lower()))
        if index % 2 == 0 and piece.strip()
    ]
    runs += ["don't  stop\tthe\nU.S. plan, e.g. 10km (or 5%)...", "it's   — cannot gonna", "Cannot, dont? ok! yes; no:"]
    words = sorted({word for run in runs for word in re.findall(r"[A-Za-z]+", run)})
    runs += [f"{word}{mark}" for word in words for mark in ",;:!?"] + list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    whole = _english_tokenizer()
    differing = [run[:60] for run in runs if tokenize_en(run) != [t.lower_ for t in whole(run) if not t.is_space]]
    assert len(runs) > 10_000 and differing == []


def test_protected_regions_cover_quotes_code_and_logs() -> None:
    text = '他说“方案作废”\n```\nrollback aborted\n```\nERROR: request rejected\n`drop table`'
    kinds = {region.kind for region in protected_regions(text)}
    assert kinds == {"quote", "code", "log"}


def test_jieba_cache_is_not_written_to_the_working_directory(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    tokenize("换个思路")
    assert list(tmp_path.iterdir()) == []
