"""Linear time: no cue pattern, and no whole turn, costs more than linearly in its length.

A ratio, not an absolute time: each test times the same work on ~10 KB and on ~100 KB of
adversarial text in the same run and asserts the 100 KB run costs less than 40 times the 10 KB
one (linear would be 10, a little more once the text leaves the CPU caches; a pattern that
backtracks quadratically would be ~100). Each size keeps its fastest run: on a shared machine a
run can only be slowed down by others, never sped up, so the minimum is the least noisy figure. Adversarial text
is made of each pattern's own pieces: its example phrases repeated, the same with punctuation and
spaces removed (so sentences never end and lazy groups keep extending), and its literal anchors
(the words every match must contain) repeated back to back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache

import pytest

from detector.cues.engine import WINDOW_CHARS, CueEngine, default_engine
from detector.cues.lexicon import CompiledCue
from detector.detect import Detector
from detector.text import normalize

SMALL, LARGE = 10_000, 100_000
MAX_RATIO = 40.0
PUNCTUATION = str.maketrans("", "", " ,.;:!?，。；：！？、'\"()（）")


def _fill(unit: str, size: int) -> str:
    return (unit * (size // max(len(unit), 1) + 1))[:size]


def _fastest_seconds(work: Callable[[], object], runs: int, batch: int = 1) -> float:
    """The fastest of `runs` timings of one call (each run times `batch` calls, so that runs
    of a fraction of a millisecond are not drowned in timer and scheduler noise)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for _ in range(batch):
            work()
        times.append((time.perf_counter() - started) / batch)
    return min(times)


def growth_ratio(work: Callable[[str], object], unit: str, runs: int = 3) -> tuple[float, float, float]:
    """(ratio, seconds at 10 KB, seconds at 100 KB); re-measured more carefully before giving up."""
    small, large = _fill(unit, SMALL), _fill(unit, LARGE)
    probe = _fastest_seconds(lambda: work(small), 1)
    batch = max(1, min(20, int(0.002 / max(probe, 1e-7))))  # at least ~2 ms per timed run at 10 KB
    ratio = t_small = t_large = 0.0
    for attempt_runs in (runs, runs * 3):
        t_small = max(_fastest_seconds(lambda: work(small), attempt_runs, batch), 1e-7)
        t_large = _fastest_seconds(lambda: work(large), attempt_runs)
        ratio = t_large / t_small
        if ratio < MAX_RATIO:
            break
    return ratio, t_small, t_large


def adversarial_units(cue: CompiledCue) -> dict[str, str]:
    """The pattern's own fragments, in the shapes that stress a backtracking matcher."""
    examples = cue.spec.examples
    units = {
        "examples": " ".join(examples) + " ",
        "examples-unpunctuated": "".join(examples).translate(PUNCTUATION),
    }
    if cue.anchors:
        units["anchors"] = "".join(sorted(cue.anchors))
    return units


@lru_cache(maxsize=1)
def all_cues() -> list[CompiledCue]:
    engine = default_engine()
    return [cue for lang in sorted(engine._cues) for cue in engine._cues[lang]]


def test_every_shipped_cue_is_covered() -> None:
    ids = [cue.spec.id for cue in all_cues()]
    assert len(ids) > 150 and {i[:2] for i in ids} == {"zh", "en"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_cue_pattern_grows_linearly_on_its_own_fragments(lang: str) -> None:
    measured, slow, worst = 0, [], (0.0, "")
    for cue in all_cues():
        if not cue.spec.id.startswith(lang):
            continue
        for kind, unit in adversarial_units(cue).items():
            ratio, t_small, t_large = growth_ratio(
                lambda text, pattern=cue.regex: sum(1 for _ in pattern.finditer(text)), unit
            )
            measured += 1
            worst = max(worst, (ratio, f"{cue.spec.id} on {kind}"))
            if ratio >= MAX_RATIO:
                slow.append(
                    f"{cue.spec.id} on {kind}: {t_small * 1e3:.2f} ms → {t_large * 1e3:.2f} ms (×{ratio:.1f})"
                )
    print(
        f"{lang}: {measured} pattern × input pairs, worst 100 KB / 10 KB ratio ×{worst[0]:.1f} ({worst[1]})"
    )
    assert measured > 100
    assert not slow, "superlinear cue patterns:\n" + "\n".join(slow)


def _lexicon_units() -> dict[str, str]:
    """Cue-dense text: every example of a lexicon, spaced, unpunctuated, and as bare anchors."""
    units: dict[str, str] = {}
    for lang in ("zh", "en"):
        cues = [c for c in all_cues() if c.spec.id.startswith(lang)]
        examples = [e for c in cues for e in c.spec.examples]
        units[f"{lang}-examples"] = " ".join(examples) + " "
        units[f"{lang}-unpunctuated"] = "".join(examples).translate(PUNCTUATION)
        units[f"{lang}-anchors"] = "".join(sorted({a for c in cues for a in (c.anchors or ())}))
    units["mixed-guards"] = (
        "我不是说这个方向不对吧？what if we dropped Redis? my manager wants to scrap it 要不要放弃A "
    )
    units["mixed-quoted"] = '> 这个方向不对 "drop the idea" ```scrap plan A``` 「算了，换B」 '
    return units


@pytest.mark.parametrize("name, unit", sorted(_lexicon_units().items()))
def test_cue_engine_and_detector_grow_linearly_on_cue_dense_text(name: str, unit: str) -> None:
    engine: CueEngine = default_engine()
    detector = Detector("rules")
    unit = normalize(unit)
    for what, work in (("CueEngine.match", engine.match), ("Detector.detect", detector.detect)):
        ratio, t_small, t_large = growth_ratio(work, unit, runs=1)
        figures = f"{what} on {name}: {t_small:.3f} s → {t_large:.3f} s (×{ratio:.1f})"
        print(figures)
        assert ratio < MAX_RATIO, figures


def test_a_long_turn_is_matched_on_head_and_tail_windows_and_says_so() -> None:
    filler = _fill("平平无奇的一段日志输出 plain log output line ", 3 * WINDOW_CHARS)
    text = "这个方向不对。" + filler + "。 scrap plan A, go with B. " + filler + "。 drop the Kafka idea."
    assert len(text) > 2 * WINDOW_CHARS
    detection = Detector("rules").detect(text)
    assert "long turn" in detection.explanation.rule and "head and tail" in detection.explanation.rule
    normalized = normalize(text)
    starts = [hit.start for hit in detection.explanation.fired]
    assert any(start < WINDOW_CHARS for start in starts), "the head window is matched"
    assert any(start >= len(normalized) - WINDOW_CHARS for start in starts), "the tail window is matched"
    assert not any(WINDOW_CHARS <= s < len(normalized) - WINDOW_CHARS for s in starts), (
        "the middle is skipped"
    )
    for hit in detection.explanation.fired:
        assert normalized[hit.start : hit.end] == hit.span


def test_a_short_turn_carries_no_long_turn_note() -> None:
    detection = Detector("rules").detect("这个方向不对，换成方案B")
    assert "long turn" not in detection.explanation.rule


def test_every_span_pattern_grows_linearly_on_its_own_fragments() -> None:
    """The span patterns run on every turn the model calls positive and, for the choice named in
    passing, on NONE turns too: the same growth check as the cues, on their own examples and
    anchors."""
    engine = default_engine()
    measured, slow = 0, []
    for lexicon in engine.lexicons.values():
        for spec, span in zip(lexicon.span, engine._spans[lexicon.lang]):
            units = {
                "examples": " ".join(spec.examples) + " ",
                "examples-unpunctuated": "".join(spec.examples).translate(PUNCTUATION),
            }
            if span.anchors:
                units["anchors"] = "".join(sorted(span.anchors))
            for kind, unit in units.items():
                ratio, _, _ = growth_ratio(lambda text, p=span.regex: sum(1 for _ in p.finditer(text)), unit)
                measured += 1
                if ratio >= MAX_RATIO:
                    slow.append(f"{lexicon.lang} {spec.kind} on {kind}: ×{ratio:.1f}")
    assert measured > 40
    assert not slow, "superlinear span patterns:\n" + "\n".join(slow)


@pytest.mark.parametrize("name, unit", [
    ("zh condition", "等明年运维扩招了"),
    ("en condition", "once we hire another ops person we can revisit "),
    ("en tail", " if traffic triples if traffic "),
    ("constraint", "必须兼容 Python 3.8 we must support "),
    ("acceptance", "好，就按B来 ok go with "),
    ("bare choice", "ok, yes, 好的 嗯 "),
    ("bare choice in a first sentence", "yes, B "),
    ("user suggestion", "what about a x. how about using y instead, 要不直接用 "),
])
def test_the_statement_patterns_grow_linearly(name: str, unit: str) -> None:
    """Acceptances, constraints, next steps and reopenings for later are read from every turn."""
    from detector import statements
    from detector.constraints import standing_constraints

    readers = (
        statements.acceptance_choice,
        statements.bare_choice,
        standing_constraints,
        statements.next_step_in,
        statements.reopening_condition,
        statements.closing_choice,
        statements.user_suggestion,
    )

    def read(text: str) -> object:
        return [reader(text) for reader in readers]

    ratio, small, large = growth_ratio(read, unit)
    assert ratio < MAX_RATIO, f"{name}: {small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", ["Between A and B ", "A or ", "B-B.B'"])
def test_reading_option_letters_grows_linearly(unit: str) -> None:
    """A reply is read for the letters it names when the user answers with one."""
    from detector.alternatives import letters_named

    ratio, small, large = growth_ratio(letters_named, unit)
    assert ratio < MAX_RATIO, f"{unit!r}: {small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", [
    "see B. yes\n", "1. **Redis** — a\n", "方案A：Redis；", "| Option | Cost |\n|---|---|\n| a|b|c|d\n",
    # Inline items with no end: the lazy item text keeps looking for the next mark or a full stop.
    "(1) retry, or (2) mock ", "一是抓快照，二是复现", "(1)retryor(2)mock", "1.5 e.g. 2) a ",
    "；方案A 方案B 上午", "路线一 昆明—大理—",
    # What is done to something, then the verb: the object's lazy run is bounded.
    "我给测试加我给", "我来在网关上加一层我在",
])
def test_reading_proposals_grows_linearly(unit: str) -> None:
    """Assistant turns are read for options whatever their size (each lone letter looks back only
    over the spaces and bullets before it)."""
    from detector.alternatives import extract_proposals

    read = extract_proposals.__wrapped__  # the cache would time a dictionary lookup
    ratio, small, large = growth_ratio(read, unit)
    assert ratio < MAX_RATIO, f"{small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", ["revert that, ", "no undo ", "撤回吧，", "回滚回滚", "if it fails revert it? ", "go back to threads ", "换回换回"])
def test_reading_an_order_to_undo_grows_linearly(unit: str) -> None:
    """Every user turn after a reply that reports a change is read for an order to undo it, or
    to go back to what it replaced; every reply is read for a change from one thing to another."""
    from detector.reverts import _SWAP_RE, returned_to, reverted_change
    from detector.schema import Turn

    context = [Turn(role="assistant", text="I've switched the worker pool from threads to asyncio.")]
    engine = default_engine()
    for read in (reverted_change, returned_to):
        ratio, small, large = growth_ratio(lambda text: read(text, context, engine), unit)  # noqa: B023
        assert ratio < MAX_RATIO, f"{read.__name__}: {small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"
    ratio, small, large = growth_ratio(lambda text: _SWAP_RE.search(text), "from from to 把把换成从从")
    assert ratio < MAX_RATIO, f"swap: {small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", ["it's not timing, ", "not not ", "不是不是", "防火墙不是，", "跟跟无关", "could be a could be "])
def test_reading_a_ruled_out_cause_grows_linearly(unit: str) -> None:
    """Every user turn after a reply that suspects a cause is read for a denial of it, and every
    reply is read for its suspicions."""
    from detector.hypotheses import ruled_out_cause, suspected_causes
    from detector.schema import Turn

    context = [Turn(role="user", text="it times out"), Turn(role="assistant", text="Could be a timing issue with the fixture.")]
    engine = default_engine()
    ratio, small, large = growth_ratio(lambda text: ruled_out_cause(text, context, engine), unit)
    assert ratio < MAX_RATIO, f"{small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"
    ratio, small, large = growth_ratio(suspected_causes.__wrapped__, unit)
    assert ratio < MAX_RATIO, f"reply: {small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", ["back to adamw ", "going back to ", "回到回到", "钢琴又能考虑了，", "adamw comes back ", "should we go back to adamw? "])
def test_reading_a_return_to_an_earlier_option_grows_linearly(unit: str) -> None:
    """Every user turn is read for a return to an option an earlier reply offered."""
    from detector.returns import returned_option
    from detector.schema import Turn

    context = [Turn(role="user", text="optimizer?"), Turn(role="assistant", text="1. AdamW with cosine; 2. SGD. 可以：1. 钢琴；2. 美术。")]
    engine = default_engine()
    ratio, small, large = growth_ratio(lambda text: returned_option(text, context, engine), unit)
    assert ratio < MAX_RATIO, f"{small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("name, unit", [
    ("hearsay", "owner wants to scrap the x. not happening 老板非要把直播砍掉 我不同意 "),
    ("hearsay without its stand", "sales is lobbying hard to kill wants to drop keeps pushing to "),
    ("quoted hearsay", "Mark said, firmly, \"no way\". I'm not treating it as off the table 师姐说“别做了”，建议我 没采纳 "),
    ("hearsay speakers", "he said the x. they think we should 他说 她觉得 我妈 "),
    ("pause kept", "先放着，不是不要。not killing it. keep it on the list "),
    ("earlier talk", "from yesterday last week 上次聊的 之前 you suggested "),
    ("approval and opening choice", "Love it. sounds good, option 1. 行，方案一。"),
    ("approval without a stop", "love it sounds good perfect great 不错 挺好 "),
])
def test_the_session_34_readers_grow_linearly(name: str, unit: str) -> None:
    """The fusion reads these on every positive turn (first_turn.py, hearsay.py, statements.py)."""
    from detector import first_turn, hearsay, pauses, statements

    readers = (
        hearsay.opposed_hearsay,
        pauses.keeps_the_option,
        first_turn.refers_to_earlier_talk,
        statements.opens_with_approval,
        statements.opening_choice,
    )

    def read(text: str) -> object:
        return [reader(text) for reader in readers]

    ratio, small, large = growth_ratio(read, unit)
    assert ratio < MAX_RATIO, f"{name}: {small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", [
    "no x ever no x ", "“aaaaaaaaaaaaaaaaaaaaaaaaaa", "```\nx\n", "Rules:\n- a\n", "we must be the a must be ",
    "不管怎样都不都", "必须是缓存的问题必须是", "a.b.c.d.", "`x", "no no no ", "只能用了只能",
])
def test_reading_constraints_grows_linearly(unit: str) -> None:
    """Every user turn is read for standing constraints, pasted logs and policies included."""
    from detector.constraints import standing_constraints

    ratio, small, large = growth_ratio(standing_constraints, unit)
    assert ratio < MAX_RATIO, f"{unit!r}: {small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", ["不是学习率的问题，", "学习率不是问题", "the pool isn't the issue ", "it's not the pool that's the problem "])
def test_reading_a_ruled_out_fix_grows_linearly(unit: str) -> None:
    """After a reply that lists fixes, a turn is read for a denial that names what one works on."""
    from detector.hypotheses import ruled_out_cause
    from detector.schema import Turn

    reply = "可以试试：一是把学习率降到 1e-5；二是少解冻几层。Or: 1. Raise the pool size 2. Add a replica"
    context = [Turn(role="user", text="loss 不降，p99 slow"), Turn(role="assistant", text=reply)]
    engine = default_engine()
    ratio, small, large = growth_ratio(lambda text: ruled_out_cause(text, context, engine), unit)
    assert ratio < MAX_RATIO, f"{small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", ["屴", "只", "学习率"])
def test_segmenting_a_long_chinese_run_grows_linearly(unit: str) -> None:
    """jieba's HMM copies a path per character of a run of unseen words: read whole, 40,000 of one
    unseen character took 4 s, with the square of the length."""
    from detector.text import tokenize_zh

    ratio, small, large = growth_ratio(tokenize_zh.__wrapped__, unit)
    assert ratio < MAX_RATIO, f"{small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


@pytest.mark.parametrize("unit", ["(", "(a", "a.", "....", ":)"])
def test_tokenizing_a_long_english_chunk_grows_linearly(unit: str) -> None:
    """spaCy's affix splitting strips one prefix or suffix at a time and searched the whole rest
    for a suffix each time, and its special-case matcher tried every pair of tokens: a turn with
    8,000 "(" in a row took four minutes in the hybrid detector, 20,000 never ended. (The chunk
    cache is emptied each run, or only the first run would tokenize.)"""
    from detector.text import _EN_CHUNK_TOKENS, tokenize_en

    def tokenize(text: str) -> list[str]:
        _EN_CHUNK_TOKENS.clear()
        return tokenize_en(text)

    ratio, small, large = growth_ratio(tokenize, unit)
    assert ratio < MAX_RATIO, f"{small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"


def test_reading_the_clauses_of_a_turn_dense_with_cues_grows_linearly() -> None:
    """Each clause asked whether any cue of the turn ended inside it: clauses times cues, so 48 KB
    of "这个方案不行，换成B吧。" took ten seconds."""
    from detector.reasons import clause_kinds
    from detector.schema import CueHit, Label
    from detector.text import clause_spans

    def kinds(text: str) -> object:
        spans = clause_spans(text)
        hits = [CueHit(cue_id="zh.reject.x", label=Label.REJECT, lang="zh", weight=0.5, span="", start=s, end=e) for s, e in spans[::2]]
        return clause_kinds(text, spans, hits, ())

    ratio, small, large = growth_ratio(kinds, "这个方案不行，换成B吧。")
    assert ratio < MAX_RATIO, f"{small * 1e3:.2f} ms at 10 KB, {large * 1e3:.2f} ms at 100 KB"
