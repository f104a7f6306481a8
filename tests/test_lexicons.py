"""The shipped cue lexicons are well formed, and broken lexicons are refused with a clear error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from detector.cues.engine import default_engine
from detector.cues.lexicon import Lexicon, default_lexicon, load_lexicon
from detector.errors import LexiconError
from detector.schema import CueHit, Label
from detector.text import normalize

LANGS = ("zh", "en")


def _flags(lang: str) -> int:
    # The engine matches en case-insensitively and zh as written; examples are checked the same way.
    return re.IGNORECASE if lang == "en" else 0


def _cue_params() -> list:
    params = []
    for lang in LANGS:
        for cue in default_lexicon(lang).cue:
            params.append(pytest.param(lang, cue.id, cue.pattern, cue.examples, id=cue.id))
    return params


def _span_params() -> list:
    params = []
    for lang in LANGS:
        for index, span in enumerate(default_lexicon(lang).span):
            params.append(
                pytest.param(
                    lang, span.kind, span.pattern, span.examples, id=f"{lang}.span{index}.{span.kind}"
                )
            )
    return params


def _span_miss_params() -> list:
    return [
        pytest.param(lang, span.kind, span.pattern, turn, id=f"{lang}.span{index}.miss{number}")
        for lang in LANGS
        for index, span in enumerate(default_lexicon(lang).span)
        for number, turn in enumerate(span.misses)
    ]


@pytest.mark.parametrize(("lang", "cue_id", "pattern", "examples"), _cue_params())
def test_every_cue_example_matches(lang: str, cue_id: str, pattern: str, examples: list[str]) -> None:
    compiled = re.compile(pattern, _flags(lang))
    for example in examples:
        assert compiled.search(example), f"{cue_id}: example {example!r} does not match"


def _capture_params() -> list:
    return [
        pytest.param(cue.id, capture.text, capture.expected_groups(), id=f"{cue.id}:{index}")
        for lang in LANGS
        for cue in default_lexicon(lang).cue
        for index, capture in enumerate(cue.captures)
    ]


def _miss_params() -> list:
    return [
        pytest.param(cue.id, miss, id=f"{cue.id}:miss{index}")
        for lang in LANGS
        for cue in default_lexicon(lang).cue
        for index, miss in enumerate(cue.misses)
    ]


def _fired(turn: str, cue_id: str) -> list[CueHit]:
    """The cue's hits on the turn as the detector reads it (normalised, guards applied)."""
    return [hit for hit in default_engine().match(normalize(turn)).fired if hit.cue_id == cue_id]


@pytest.mark.parametrize(("cue_id", "turn", "expected"), _capture_params())
def test_every_cue_capture_fires_and_captures_its_spans(cue_id: str, turn: str, expected: dict[str, str]) -> None:
    hits = _fired(turn, cue_id)
    assert hits, f"{cue_id} does not fire on {turn!r}"
    assert {group: hits[0].groups.get(group) for group in expected} == expected


@pytest.mark.parametrize(("cue_id", "turn"), _miss_params())
def test_no_cue_fires_on_its_misses(cue_id: str, turn: str) -> None:
    assert not _fired(turn, cue_id), f"{cue_id} fires on {turn!r}, one of its misses"


@pytest.mark.parametrize(("lang", "kind", "pattern", "examples"), _span_params())
def test_every_span_example_matches_and_captures(
    lang: str, kind: str, pattern: str, examples: list[str]
) -> None:
    compiled = re.compile(pattern, _flags(lang))
    for example in examples:
        match = compiled.search(example)
        assert match, f"span {kind}: example {example!r} does not match"
        assert match.group(kind), f"span {kind}: example {example!r} captures nothing"


@pytest.mark.parametrize(("lang", "kind", "pattern", "turn"), _span_miss_params())
def test_no_span_pattern_matches_its_misses(lang: str, kind: str, pattern: str, turn: str) -> None:
    match = re.compile(pattern, _flags(lang)).search(turn)
    assert match is None, f"span {kind} matches {turn!r}, one of its misses: {match.group()!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_lexicon_size_and_label_coverage(lang: str) -> None:
    lexicon = default_lexicon(lang)
    assert lexicon.lang == lang
    assert len(lexicon.cue) >= 60
    labels = {cue.label for cue in lexicon.cue}
    assert labels == {Label.REJECT, Label.PIVOT, Label.REOPEN}
    for label in labels:
        assert sum(1 for cue in lexicon.cue if cue.label is label) >= 10, label
    kinds = {guard.kind for guard in lexicon.guard}
    assert {"negation", "question", "hypothetical", "reported", "adoption"} <= kinds


@pytest.mark.parametrize("lang", LANGS)
def test_cue_ids_unique_and_prefixed(lang: str) -> None:
    ids = [cue.id for cue in default_lexicon(lang).cue]
    assert len(ids) == len(set(ids))
    for cue_id, cue in zip(ids, default_lexicon(lang).cue):
        assert cue_id.startswith(f"{lang}.{cue.label.value.lower()}."), cue_id


def test_zh_patterns_never_use_word_boundary() -> None:
    for cue in default_lexicon("zh").cue:
        assert r"\b" not in cue.pattern, cue.id


@pytest.mark.parametrize("lang", LANGS)
def test_named_groups_are_span_names(lang: str) -> None:
    allowed = {"target", "replacement", "reason", "revisit_if"}
    for cue in default_lexicon(lang).cue:
        assert set(re.compile(cue.pattern).groupindex) <= allowed, cue.id


@pytest.mark.parametrize("lang", LANGS)
def test_weights_are_in_range(lang: str) -> None:
    for cue in default_lexicon(lang).cue:
        assert 0.0 < cue.weight <= 0.9, cue.id


# ---------------------------------------------------------------------------------------------
# Broken lexicons: each fixture differs from a valid one in exactly one entry.

VALID_CUE = """
[[cue]]
id = "{lang}.reject.fine"
label = "REJECT"
weight = 0.8
pattern = '{fine}'
examples = ["{fine_example}"]
"""

FINE = {"zh": ("方案(?:A|B)不行", "方案A不行"), "en": (r"\bdrop (?:it|that)\b", "drop it")}


def _lexicon_text(lang: str, broken_cue: str, fragments: str = "") -> str:
    fine, fine_example = FINE[lang]
    valid = VALID_CUE.format(lang=lang, fine=fine, fine_example=fine_example)
    head = f'lang = "{lang}"\n'
    if fragments:
        head += f"\n[fragments]\n{fragments}\n"
    return head + valid + broken_cue


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_fixture_loads(tmp_path: Path) -> None:
    for lang in LANGS:
        lexicon = load_lexicon(_write(tmp_path, f"{lang}.toml", _lexicon_text(lang, "")))
        assert isinstance(lexicon, Lexicon)
        assert [cue.id for cue in lexicon.cue] == [f"{lang}.reject.fine"]


def _bad_cue(cue_id: str, pattern: str, label: str = "REJECT") -> str:
    return f"""
[[cue]]
id = "{cue_id}"
label = "{label}"
weight = 0.7
pattern = '{pattern}'
examples = ["x"]
"""


# fmt: off
BROKEN = [
    # (name, lang, broken entry, fragments, words the error must name)
    ("unbounded_star", "en", _bad_cue("en.reject.greedy", "drop .*"), "", ["cue.1", "unbounded"]),
    ("unbounded_plus", "zh", _bad_cue("zh.reject.greedy", "放弃.+"), "", ["cue.1", "unbounded"]),
    ("unbounded_open_range", "en", _bad_cue("en.reject.open", "drop a{2,}"), "", ["cue.1", "unbounded"]),
    ("nested_quantifier", "en", _bad_cue("en.reject.nested", "(?:a{1,3}){1,5}"), "", ["cue.1", "nested"]),
    ("nested_quantifier_zh", "zh", _bad_cue("zh.reject.nested", "(?:不行{1,3}){1,5}"), "", ["cue.1", "nested"]),
    ("word_boundary_in_zh", "zh", _bad_cue("zh.reject.boundary", r"\b方案A不行"), "", ["zh.reject.boundary", "\\b"]),
    ("unknown_named_group", "en", _bad_cue("en.reject.group", "drop (?P<thing>[a-z]{1,9})"), "", ["cue.1", "thing"]),
    ("duplicate_id", "en", _bad_cue("en.reject.fine", "scrap it"), "", ["en.reject.fine", "duplicate"]),
    ("unknown_fragment", "en", _bad_cue("en.reject.frag", "drop <<NOPE>>"), 'NP = "[a-z]{1,9}"', ["NOPE", "drop <<NOPE>>"]),
    ("wrong_language_prefix", "zh", _bad_cue("en.reject.stray", "放弃A"), "", ["en.reject.stray"]),
    ("bad_label", "en", _bad_cue("en.reject.label", "drop it", label="MAYBE"), "", ["cue.1"]),
    ("too_many_variable_repeats", "en",
     _bad_cue("en.reject.many", "a{1,5}b{1,5}c{1,5}d{1,5}"), "", ["cue.1", "variable-width"]),
]
# fmt: on


@pytest.mark.parametrize(
    ("name", "lang", "broken", "fragments", "must_name"), BROKEN, ids=[b[0] for b in BROKEN]
)
def test_broken_lexicon_is_refused(
    tmp_path: Path, name: str, lang: str, broken: str, fragments: str, must_name: list[str]
) -> None:
    path = _write(tmp_path, f"{name}.toml", _lexicon_text(lang, broken, fragments))
    with pytest.raises(LexiconError) as caught:
        load_lexicon(path)
    message = str(caught.value)
    assert str(path) in message, message
    for word in must_name:
        assert word in message, f"{word!r} not in {message!r}"


def test_invalid_toml_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.toml", 'lang = "en"\n[[cue]]\nid = "en.reject.x\nlabel = REJECT\n')
    with pytest.raises(LexiconError) as caught:
        load_lexicon(path)
    message = str(caught.value)
    assert str(path) in message
    assert "line" in message  # the TOML parser says where


def test_missing_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(LexiconError) as caught:
        load_lexicon(path)
    assert str(path) in str(caught.value)


def test_span_without_its_group_is_refused(tmp_path: Path) -> None:
    text = (
        _lexicon_text("en", "")
        + """
[[span]]
kind = "reason"
pattern = "because (?P<revisit_if>[a-z]{1,20})"
examples = ["because slow"]
"""
    )
    path = _write(tmp_path, "span.toml", text)
    with pytest.raises(LexiconError) as caught:
        load_lexicon(path)
    assert str(path) in str(caught.value)
    assert "span.0" in str(caught.value)


@pytest.mark.parametrize(
    ("turn", "choice"),
    [
        ("trastevere is way too loud at night for a 3 year old. monti", "monti"),
        ("stuffed peppers take an hour in the oven. nah. fried rice", "fried rice"),
        ("yeah two systems is dumb. sops for everything, one system", "sops for everything"),
        # Not a choice: a filler, a verdict, a complaint with a verb, a request for more, a number.
        ("5am pickup on vacation?? hard pass.", None),
        ("that's two trains and a ferry. too slow.", None),
        ("brass, not black. black shows every fingerprint", None),
        ("so lisbon's out. what else is there", None),
        ("none of these feel right tbh. show me something different", None),
        ("we got 0.81 AUC with LightGBM. the manager still says no trees", None),
        ("Thanks for the help.\nRenee", None),
    ],
)
def test_a_bare_choice_after_a_complaint_is_the_replacement(turn: str, choice: str | None) -> None:
    """A PIVOT's new choice said as a short sentence of its own (the last English span pattern),
    read by `choice_in` as by the detector; fillers, verdicts and predicates are not choices."""
    assert default_engine().choice_in(turn) == choice


@pytest.mark.parametrize(
    ("turn", "choice"),
    [
        ("一个人维护七八个微服务我怕不是疯了。单体Boot走起", "单体Boot"),
        ("ROUGE 就算了,我们摘要是 abstractive 的。用 LLM-as-judge", "LLM-as-judge"),
        ("店员说X-S20缺货等一个月,R50有现货,先拿R50", "R50"),
        # A space typed between Chinese words ends the choice, as a comma would.
        ("免费的我看了几个 都太水了 讲半天装环境 不如花点钱报个系统班 有人答疑那种", "花点钱报个系统班"),
        # "上次" is "last time", not 上 (deploy) + a thing.
        ("医院先不去了 她一进医院就应激 上次还把医生抓了 等下周看看再说吧", None),
        # Not a choice: a word that only starts with 用, a question, a clause opened by a space.
        ("这个方案用户会不会觉得麻烦,用户调研做了吗", None),
        ("那先这样,用什么数据库比较好?", None),
        ("转机太累了,石垣岛不考虑了,长滩岛呢", None),
    ],
)
def test_a_chinese_choice_taken_up_by_its_verb_is_the_replacement(turn: str, choice: str | None) -> None:
    assert default_engine().choice_in(turn) == choice


@pytest.mark.parametrize(
    "pointer", ["a different way", "another direction entirely", "另一个思路", "换个方式"]
)
def test_a_pointer_to_something_else_is_no_replacement(pointer: str) -> None:
    from detector.cues.spans import clean_span

    assert clean_span(pointer, "replacement") == ""


def test_a_switch_its_own_clause_complains_of_is_no_replacement() -> None:
    """"换 Lettuce 改动太大了" turns Lettuce down."""
    engine = default_engine()
    assert engine.choice_in(normalize("emm 先别动依赖，换 Lettuce 改动太大了，这周五要发版，回归测不过来。先按 1 调连接池")) is None
    assert engine.choice_in(normalize("14B 不太行。换 72B,借隔壁组的机器")) == "72B"


def test_a_switch_said_to_fail_is_no_replacement() -> None:
    """"算了，…，用老版本安全扫描也过不了" says the old version fails too: the replacement is the
    option the turn goes on to take, not the clause that says so (it had become the decision)."""
    engine = default_engine()
    turn = normalize("那算了，银行那边走采购流程能走半年，用老版本安全扫描也过不了。emqx 不考虑了，就方案二吧，自建")
    match = engine.match(turn)
    assert {hit.groups.get("replacement") for hit in match.fired} - {None} == {"方案二"}
    assert engine.with_spans(turn, match).spans["replacement"] == "方案二"
    assert engine.with_spans("A 不行,运维扛不住,换 B", engine.match("A 不行,运维扛不住,换 B")).spans["replacement"] == "B"


@pytest.mark.parametrize(("turn", "choice"), [
    ("too many moving parts. just memoize in-process", "memoize in-process"),
    # "just" before a preposition limits what was said; it names no choice.
    ("what about the driver idea but only saturdays, just for cake deliveries?", None),
])
def test_just_names_a_choice_only_before_a_verb_or_a_name(turn: str, choice: str | None) -> None:
    assert default_engine().choice_in(turn) == choice


@pytest.mark.parametrize(("turn", "choice"), [
    ("telluride prices are nuts. pilot then", "pilot"),
    ("parquet it is", "parquet"),
    # A verdict said before "then" drops what it names: it is no choice of it.
    ("ok. GEE is out then, the MCAR assumption doesn't fit.", None),
    ("honestly kafka's dead then", None),
    # A decimal point ends no sentence: "0.76 instead" chooses no "76".
    ("so the pseudo-labeling is off. we'll ship plain lightgbm at 0.76 instead", None),
])
def test_x_then_chooses_x_unless_x_is_a_verdict(turn: str, choice: str | None) -> None:
    assert default_engine().choice_in(turn) == choice


def test_a_pronoun_typed_without_its_apostrophe_names_no_replacement() -> None:
    """"stripe next. its the gnarly one" had made "its the gnarly one" where the turn goes."""
    engine = default_engine()
    for turn in ("stripe next. its the gnarly one, the retry logic in there is scary", "ok. thats the one that scares me"):
        assert "replacement" not in engine.with_spans(turn, engine.match(turn)).spans


@pytest.mark.parametrize(
    ("turn", "choice"),
    [
        # A deferral closed by 吧 chooses nothing: "等 Q4 回款了再说吧" puts the option off.
        ("海外仓要压货，cash flow 直接爆掉。这个 for now 做不了，等 Q4 回款了再说吧", None),
        # 直接 before a verb that is no switch says how, not where to: "直接跑的", "直接爆掉".
        ("RLS 还是算了，我们有一堆 query 是用 superuser 直接跑的，加了 RLS 那边要全改", None),
        ("SSE 略过，直接自建 WebSocket 网关。", "自建 WebSocket 网关"),
        ("那就 Postgres 吧", "Postgres"),
    ],
)
def test_how_a_thing_is_done_and_a_deferral_name_no_choice(turn: str, choice: str | None) -> None:
    assert default_engine().choice_in(normalize(turn)) == choice


@pytest.mark.parametrize(
    "turn",
    ["附近商场晚上停车费另算，一个月比油车还贵，那我还买电车干嘛对吧", "那就还是用 Redis 对吧"],
)
def test_a_rhetorical_question_or_a_tag_question_chooses_nothing(turn: str) -> None:
    assert default_engine().choice_in(normalize(turn)) is None


@pytest.mark.parametrize(
    ("turn", "stands"),
    [
        # "pass", "kill" and "drop" in another sense: a check that passed, a ticket, a process, a
        # figure that fell. No verdict, whatever cue reads the word as one.
        ("CI pass 了 可以合了", False),
        ("单测全 pass 了", False),
        ("面试 pass 了 下周二终面", False),
        ("JR pass 现在还划算吗 好像听说涨价了", False),
        ("ski pass 买几天的划算", False),
        ("我再做一个 cleanup pass", False),
        ("把 8080 端口那个进程 kill 掉", False),
        ("转化率 drop 得很厉害", False),
        ("we'll pass it through the constructor", False),
        ("skip to the pricing section", False),
        ("forget to save and you lose everything", False),
        ("drop the kids at school then go", False),
        ("drop it off at the depot on monday", False),
        ("显著性检验也 pass 了", False),
        ("发票作废重开一张就行", False),
        ("no way, that's amazing!", False),
        ("no way!! it actually works", False),
        ("scrap that last message, I pasted the wrong log", False),
        ("scratch that last msg, wrong file", False),
        # The same words as verdicts on an option, and a ticket that is itself the target.
        ("gRPC pass，前端同学不熟", True),
        ("bazel pass 组里没人会 学习成本谁扛", True),
        ("JR Pass 不要了，单买", True),
        ("I'll pass on the redis idea", True),
        ("Kafka 那套 drop 掉", True),
        ("方案B作废，还是用A", True),
        ("skip ahead to plan C, A and B are too slow", True),
        ("kill the worker idea, cron is enough", True),
        ("no way, $400 a month is too much for us", True),
    ],
)
def test_a_verdict_word_in_another_sense_fires_no_cue(turn: str, stands: bool) -> None:
    match = default_engine().match(turn)
    assert bool(match.fired) is stands
    if not stands:
        assert any(suppressed.reason == "other_sense" for suppressed in match.suppressed)