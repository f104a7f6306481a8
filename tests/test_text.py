"""Normalisation, scripts, language tags, protected regions and tokenisers (text.py)."""

from __future__ import annotations

import random
import re
from functools import lru_cache

import pytest

from detector.text import clause_spans, detect_language, normalize, protected_regions, script_runs, tokenize

# fmt: off
NORMALIZE = [
    ("ＡＢＣ１２３，？！", "ABC123,?!"),
    ("a\u200bb\ufeffc", "abc"),
    ("  too   many\t spaces  ", "too many spaces"),
    ("全角　空格", "全角 空格"),
    ("这个方向不对。", "这个方向不对。"),
    # The apostrophe of a contraction, curly or left out, is the ASCII one the cues know.
    ("don’t use redis, let’s go with B", "don't use redis, let's go with B"),
    ("dont want redis. lets drop it", "don't want redis. let's drop it"),
    ("Thats overkill, Im not sure it WONT break", "That's overkill, I'm not sure it WON'T break"),
    # Words that look like contractions but are words of their own stay as they are.
    ("it lets you cache; its size is well below the ill-defined id limit", "it lets you cache; its size is well below the ill-defined id limit"),
    ("the ‘quoted’ text and a dont’t typo", "the ‘quoted’ text and a dont't typo"),
    # Nor inside a longer token, or IM (instant messaging).
    ("我们要做一个IM系统, set dont_cache=True in src/im/handler.py", "我们要做一个IM系统, set dont_cache=True in src/im/handler.py"),
    ("we need IM support. dont.", "we need IM support. don't."),
    # Traditional Chinese is read in simplified characters, one for one; simplified text is left
    # alone even where the phrase table would touch it ("打坏"), and no character leaves the BMP ("嗰").
    ("上個方案作廢，這條路別走了", "上个方案作废,这条路别走了"),
    ("把價格錨點打壞了", "把价格锚点打坏了"),
    ("把价格锚点打坏了", "把价格锚点打坏了"),
    # Written Cantonese is read in Mandarin's function words, as many characters for as many; a
    # Mandarin "唔" (hmm) before a space and the 系 of 关系 and 系统 stay.
    ("嗰個 approach 唔得", "那个 approach 不行"),
    ("算數啦 唔好再搞佢哋", "算了啦 不要再搞他们"),
    ("我哋 drop 咗佢, 唔係唔要", "我们 drop 了他, 不是不要"),
    ("唔 这个多余了, 关系系统不变", "唔 这个多余了, 关系系统不变"),
    ("饿了么那边没显著变化 這個", "饿了么那边没显著变化 这个"),
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


def _spacy_tokens(text: str) -> list[str]:
    """spaCy's own tokens, lower-cased, as the reference the rules port must equal."""
    return [t.lower_ for t in _spacy_tokenizer()(text) if not t.is_space]


@lru_cache(maxsize=1)
def _spacy_tokenizer():  # type: ignore[no-untyped-def]
    import spacy

    return spacy.blank("en").tokenizer


def test_tokens_equal_spacys_own_on_the_corpus() -> None:
    """tokenize_en runs spaCy's rules without spaCy and remembers tokens per whitespace chunk;
    that must equal spaCy itself on whole runs."""
    from pathlib import Path

    from detector.formats import read_transcripts
    from detector.text import _CJK_SPLIT_RE, tokenize_en

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
    differing = [run[:60] for run in runs if tokenize_en(run) != _spacy_tokens(run)]
    assert len(runs) > 10_000 and differing == []


def test_tokens_equal_spacys_own_on_random_punctuated_chunks() -> None:
    """Chunks dense in affixes, infixes, special cases and URLs, where the rules interact."""
    from detector.english_tokens import english_rules

    rng = random.Random(7)
    pieces = list("()[]{}\"'.,;:!?-/+*=%$#@&<>~^_|`…—–") + ["n't", "'s", "'ll", "e.g.", "U.S.", ":)", ":-)", "<3", "...", "--",
        "http://", "www.", ".com", "don't", "can't", "10", "3.8", "1,000", "km", "am", "p.m.", "Mr.", "o.O", "x", "Redis", "ok"]
    specials = english_rules().specials
    chunks = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(20_000)] + list(specials)
    differing = [chunk for chunk in chunks if english_rules().tokens(chunk) != [t.orth_ for t in _spacy_tokenizer()(chunk)]]
    assert differing == []


def test_tokens_equal_spacys_own_on_long_chunks_where_the_suffix_is_read_near_the_end() -> None:
    """Chunks longer than SUFFIX_WINDOW, where a suffix is looked for near the end alone, runs of
    full stops longer than the window among them."""
    from detector.english_tokens import SUFFIX_WINDOW, english_rules

    rng = random.Random(11)
    pieces = list("()[]\"'.,;:!?-/") + ["n't", "'s", "...", "km", "10", "3.8", "e.g.", ":)", "Redis", "ok", "." * (SUFFIX_WINDOW + 3)]
    chunks = ["".join(rng.choice(pieces) for _ in range(rng.randint(8, 40))) for _ in range(3_000)]
    assert sum(len(chunk) > SUFFIX_WINDOW for chunk in chunks) > 2_500
    differing = [chunk for chunk in chunks if english_rules().tokens(chunk) != [t.orth_ for t in _spacy_tokenizer()(chunk)]]
    assert differing == []


def test_every_suffix_but_a_run_of_one_character_fits_the_window() -> None:
    """What reading the suffix near the end relies on: each branch of the installed spaCy's suffix
    pattern matches at most SUFFIX_WINDOW characters, or is a run of one character (which goes on
    to the left as far as the run does, so the whole chunk is searched when a run fills the window)."""
    import re._constants as constants
    import re._parser as parser

    from detector.english_tokens import SUFFIX_WINDOW, _english_patterns

    (kind, (_, branches)), = parser.parse(_english_patterns()["suffix"]).data
    assert kind == constants.BRANCH
    for branch in branches:
        if branch.getwidth()[1] < SUFFIX_WINDOW:
            continue
        *run, end = branch.data
        characters = {value if op == constants.LITERAL else value[2][0][1] for op, value in run}
        assert end == (constants.AT, constants.AT_END) and len(characters) == 1, branch.data
        assert all(op == constants.LITERAL or (op == constants.MAX_REPEAT and value[2].data == [(constants.LITERAL, next(iter(characters)))]) for op, value in run)


def test_protected_regions_cover_quotes_code_and_logs() -> None:
    text = '他说“方案作废”\n```\nrollback aborted\n```\nERROR: request rejected\n`drop table`'
    kinds = {region.kind for region in protected_regions(text)}
    assert kinds == {"quote", "code", "log"}


def test_jieba_cache_is_not_written_to_the_working_directory(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    tokenize("换个思路")
    assert list(tmp_path.iterdir()) == []


def test_tokenizing_needs_neither_spacy_nor_pkg_resources_once_the_rules_are_cached(tmp_path) -> None:
    """A hook process tokenises one turn: importing spaCy (about a second) or pkg_resources (via
    jieba) would be most of its start-up. spaCy is imported once, to write its rules to the
    cache; a damaged cache file is rebuilt, not trusted."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, json; from detector.text import tokenize; "
        "tokens = tokenize(\"I don't think 3.8 works, e.g. (Redis)... 不用这个方案了\"); "
        "print(json.dumps([tokens, 'spacy' in sys.modules, 'pkg_resources' in sys.modules]))"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    root = Path(__file__).resolve().parent.parent

    def run() -> list:
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, check=True)
        return json.loads(result.stdout)

    first, second = run(), run()
    assert first[1] is True and second[1:] == [False, False]
    assert first[0] == second[0] == tokenize("I don't think 3.8 works, e.g. (Redis)... 不用这个方案了")
    assert second[0][:4] == ["i", "do", "n't", "think"]
    (rules_file,) = tmp_path.rglob("spacy-*-en-tokenizer.json")
    rules_file.write_text("{not json", encoding="utf-8")
    rebuilt = run()
    assert rebuilt[:2] == [first[0], True] and json.loads(rules_file.read_text(encoding="utf-8"))["format"] == 1


def test_jiebas_prefix_dictionary_is_cached_and_a_damaged_or_stale_cache_is_rebuilt(tmp_path) -> None:
    """The prefix dictionary is read from our cache with `marshal.loads` (jieba's own reader took a
    quarter of a second per hook process); what jieba would build is what the cache holds, and a
    cache that is damaged or older than its dictionary is built again, never trusted."""
    import os

    from detector.text import _import_jieba, _prefix_dictionary

    jieba = _import_jieba()
    dictionary = tmp_path / "words.dict.txt"
    dictionary.write_text("方案 100 n\n方案作废 20 l\nredis 30 eng\n", encoding="utf-8")
    cache = tmp_path / "words.dict.prefix.marshal"

    def segmenter():  # type: ignore[no-untyped-def]
        return jieba.Tokenizer(dictionary=str(dictionary))

    built = segmenter().gen_pfdict(segmenter().get_dict_file())
    assert _prefix_dictionary(segmenter(), dictionary) == built and cache.exists()
    assert _prefix_dictionary(segmenter(), dictionary) == built  # read back from the cache

    cache.write_bytes(b"\x00not marshal")
    assert _prefix_dictionary(segmenter(), dictionary) == built
    assert cache.read_bytes() != b"\x00not marshal"

    dictionary.write_text("方案 100 n\n", encoding="utf-8")
    stamp = cache.stat().st_mtime
    os.utime(dictionary, (stamp + 10, stamp + 10))
    assert _prefix_dictionary(segmenter(), dictionary) == ({"方": 0, "方案": 100}, 100)


@pytest.mark.parametrize("text, choice", [
    ("好，就按第二个来，tracemalloc 先不考虑", "第二个"),
    ("好，就用 Redis 集群吧，本地缓存不考虑了", "Redis 集群"),
    ("retries hide flakiness, so no. let's go with option 2", "option 2"),
    ("上次那个 leetcode 每天三题的计划不搞了", None),  # "上次" is no "上 X"
    ("thinning the oaks is like 2k and the HOA needs approval, takes months", None),
    ("就用 Redis 吗", None),
    # An order to take one of the options, after the verdict on another.
    ("ES is out, we have no one to run it. try the trigram index", "the trigram index"),
    ("cluster is overkill. so go with the queue then", "the queue"),
    ("we tried the index, it did not help", None),
    ("try harder next time please ok", None),
    ("Redux 就算了，学习曲线太陡。先试 C", "C"),
    ("促销数据拿不到，那试一下 TFT 吧", "TFT"),
    ("行，就按你说的：前 4 周每周 200 条", "你说的"),  # a colon ends the clause
    ("老板同意了，先试三个月", None),  # an amount sets a parameter
    # "do" and "use" take an option only after a word of assent: a bare "do X" is any instruction.
    ("ok do pg_repack + autovacuum tuning. write me the runbook", "pg_repack + autovacuum tuning"),
    ("yep use the trigram index", "the trigram index"),  # any word of assent the statements know
    ("the tests are red. do the migration first", None),
])
def test_a_clause_of_a_longer_turn_accepts_only_in_the_plain_forms_of_a_choice(text: str, choice: str | None) -> None:
    from detector.statements import accepted_clause

    assert accepted_clause(text) == choice


@pytest.mark.parametrize("text, clauses", [
    ("鸭子超市卖完了……换个鱼吧，清蒸鲈鱼", ["鸭子超市卖完了", "换个鱼吧", "清蒸鲈鱼"]),
    ("hmm… no, too slow", ["hmm", "no", "too slow"]),
    ("it costs $2,500 at 3.5%. too much", ["it costs $2,500 at 3.5%", "too much"]),
])
def test_clauses_end_at_commas_stops_and_ellipses_but_not_inside_numbers(text: str, clauses: list[str]) -> None:
    assert [text[start:end] for start, end in clause_spans(text)] == clauses


def test_a_northern_we_reads_as_mandarins() -> None:
    """"俺" (I, we) is normalised to "我", as the cues and stands are written: round twenty-one's
    "俺可不这么想"."""
    assert normalize("俺们自己报，俺可不这么想") == "我们自己报,我可不这么想"


def test_cantonese_not_yet_reads_as_mandarins() -> None:
    """"唔使住" is "not yet needed" (住, an aspect particle), as "唔好住" is "not yet": round
    twenty-two's decline of an offer."""
    assert normalize("唔使住，copy 我哋自己寫") == "先不用,copy 我们自己写"
