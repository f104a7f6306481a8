"""Target resolution (detector/targets.py): candidates from the cue, the context and the
user's own words, ranked by the shipped tree ensemble."""

from __future__ import annotations

import pytest

from detector.detect import Detector
from detector.learn import same_thing
from detector.schema import Label, Turn
from detector.targets import FEATURES, TargetQuery, _view, resolve, shared_runs, target_ranker, user_phrases

OPTIONS_ZH = Turn(role="assistant", text="方案A：Redis 缓存，部署简单。\n方案B：本地 LRU 缓存，零运维。")
OPTIONS_EN = Turn(role="assistant", text="Three ways out:\n1. Shed load: disable non-critical features\n2. Switch to read-only mode\n3. Wait it out")
SUGGESTION = Turn(role="assistant", text="For the build itself, I'd suggest React Native so you get iOS and Android from one codebase.")

# fmt: off
CASES = [
    # (user turn, label, context, gold target)
    ("方案A不行，运维扛不住", Label.REJECT, [OPTIONS_ZH], "方案A"),
    ("这个不行", Label.REJECT, [SUGGESTION], "React Native"),
    ("Redis 那套就别折腾了", Label.REJECT, [OPTIONS_ZH], "Redis"),
    ("drop the first option", Label.REJECT, [OPTIONS_EN], "Shed load"),
    ("self hosted runners are a no, security won't allow it",
     Label.REJECT, [Turn(role="assistant", text="1) cache dependencies, 2) split tests, 3) move to bigger self-hosted runners")],
     "self-hosted runners"),
    ("回头再看看方案A", Label.REOPEN, [OPTIONS_ZH, Turn(role="user", text="A 不要了")], "方案A"),
    ("Option 2 is off the table.", Label.REJECT, [], "Option 2"),
    # What the user says was ruled out before, not the modal verb of "可以重新考虑".
    ("我们之前否掉的 GraphQL 方案,现在前端说需要,可以重新考虑一下", Label.REOPEN, [], "GraphQL 方案"),
    # What a pointer stands beside is the target, over phrases the turn shares with replies
    # ("连接池" and the bare kind word "方向", which names no option).
    ("调大连接池这个方向不对，DBA 说 max_connections 快到上限了", Label.REJECT,
     [Turn(role="assistant", text="那数据库方向可以先放一放。下一步建议看线程池和连接池的使用情况。"),
      Turn(role="user", text="连接池确实满了，HikariCP 最大 20 个连接一直打满"),
      Turn(role="assistant", text="可以先把 maximumPoolSize 调到 50 试试，同时加上连接泄漏检测。")],
     "调大连接池"),
    # A label the user names outranks the recommended option the ranker leans to ...
    ("option 1 is a no", Label.REJECT,
     [Turn(role="assistant", text="Two ways: (1) add a retry decorator, or (2) mock the HTTP client. I'd suggest option 2.")],
     "add a retry decorator"),
    # ... but not the capture, by words of another option's description: the label is the choice.
    ("the RCT is dead on arrival, the ethics board won't approve a control group. so let's build on the logs, option 2",
     Label.REJECT,
     [Turn(role="assistant", text=("Three designs:\n1. **Experimental**: an RCT with nudges in some sections.\n"
                                   "2. **Observational**: model the LMS logs.\n3. **Mixed methods**: logs plus interviews."))],
     "RCT"),
    # A preposition alone names nothing ("along" had outranked the flower border).
    ("so nix the flower border along the fence. lets just tuck flowers in between the veggies instead", Label.PIVOT,
     [Turn(role="assistant", text="For the pollinator border along the sunny side fence (about 25 ft): bee balm, coneflower, aster.")],
     "flower border"),
]
# fmt: on


@pytest.mark.parametrize("text, label, context, gold", CASES)
def test_resolve_finds_the_target(text: str, label: Label, context: list[Turn], gold: str) -> None:
    detection = Detector("rules").engine.match(text)
    from detector.targets import query_for

    assert same_thing(resolve(query_for(text, label, detection), context), gold)


def test_a_label_that_is_the_choice_does_not_outrank_an_option_named_by_its_words() -> None:
    """"就按第一个来，缓存先不考虑": the label names the choice; the rule that puts a named label first
    stands aside, and the ranker weighs the cache option the turn names by its words."""
    text = "好，就按第一个来，缓存先不考虑，等索引效果出来再说"
    listed = Turn(role="assistant", text="有三个方向：一、给慢查询加索引；二、上 ClickHouse 做 OLAP；三、加一层 Redis 缓存。")
    from detector.targets import query_for

    target = resolve(query_for(text, Label.REJECT, Detector("rules").engine.match(text)), [listed])
    assert target is not None and "给慢查询加索引" not in target


@pytest.mark.parametrize("text", [
    "C is a non-starter, the integration tests on every PR are what catch our schema bugs",
    "C is a no-go: integration tests on each PR catch our migration bugs",
])
def test_a_label_inside_the_verdicts_capture_outranks_words_of_other_options(text: str) -> None:
    """The turn's words touch option B's name ("integration tests"), but the verdict's own subject
    is the label C: explicit words first (session 49)."""
    listed = Turn(role="assistant", text="Options:\nA) Cache dependencies between runs.\nB) Shard the integration tests "
                                         "across 4 runners.\nC) Run integration tests only on merge to main.")
    from detector.targets import query_for

    target = resolve(query_for(text, Label.REJECT, Detector("rules").engine.match(text)), [listed])
    assert target is not None and target.startswith("C(")


QUEUES = Turn(role="assistant", text="Options: A) Redis + RQ, simple and fast; B) RabbitMQ, more robust routing; "
                                    "C) Postgres with SKIP LOCKED, no new infra. I'd suggest A.")


@pytest.mark.parametrize("text, label, expected", [
    ("actually let's revisit A, the Postgres load turned out higher than we thought", Label.REOPEN, "A("),
    ("the queue depth is fine now, so we should drop C", Label.REJECT, "C("),
])
def test_a_bare_letter_the_verdict_captures_names_the_option_listed_under_it(text: str, label: Label, expected: str) -> None:
    """Mid-sentence a capital letter is no label (it may be the article), but as what the verdict
    names it is: other options' words in the turn ("Postgres") do not outrank it (session 50)."""
    from detector.targets import query_for

    engine = Detector("rules").engine
    target = resolve(query_for(text, label, engine.with_spans(text, engine.match(text))), [QUEUES])
    assert target is not None and target.startswith(expected)


def test_a_letter_the_cue_cut_out_of_a_word_names_no_option() -> None:
    """"14B 不太行": the cue captured "B" of the model size; option B was not turned down."""
    from detector.targets import _bare_label_captured, query_for

    text = "agreement 只有 70%，14B 不太行。换 72B"
    engine = Detector("rules").engine
    query = query_for(text, Label.PIVOT, engine.with_spans(text, engine.match(text)))
    assert query.raw == "B" and _bare_label_captured(query) == []


@pytest.mark.parametrize("text, phrase", [
    ("hmm 想了一晚上，LLM pre-label 这步拿掉吧。", "LLM pre-label"),
    ("no non-solicit, their legal will never sign that", "non-solicit"),
    ("ok the cert-manager thing is out, we bought a wildcard cert", "cert-manager"),
])
def test_a_hyphenated_word_is_one_word_of_the_users_phrase(text: str, phrase: str) -> None:
    """"pre-label" cut at its hyphen gave the target "LLM pre" (session 49)."""
    assert phrase in user_phrases(text)


def test_the_replacement_is_never_the_target() -> None:
    query = TargetQuery(text="不用 Redis 了，改用本地 LRU 缓存", label=Label.PIVOT, replacement="本地 LRU 缓存")
    target = resolve(query, [OPTIONS_ZH])
    assert target is not None and "LRU" not in target


def test_a_proposal_is_the_replacement_by_its_whole_summary_not_only_its_short_name() -> None:
    """The suggestion's short name stops before the bracket; "SASRec" is inside the option, so
    the pivot goes to it and cannot have left it."""
    suggestion = Turn(role="assistant", text="我建议直接上 transformer-based sequential recommendation（SASRec / BERT4Rec）。")
    query = TargetQuery(text="那就 SASRec 吧", label=Label.PIVOT, replacement="SASRec")
    target = resolve(query, [suggestion])
    assert target is None or "transformer" not in target


def test_chat_fillers_are_never_user_phrases() -> None:
    fillers = {"ugh", "lol", "you know", "know", "ill"}
    assert not fillers & set(user_phrases("ugh you know what, lol no more subscriptions"))
    assert not fillers & set(user_phrases("nah skip it then, ill look at it if I get married"))
    assert user_phrases("额 唉 那个 Kafka 方案算了") == ["Kafka 方案"]


def test_a_pointers_counter_is_no_part_of_the_name() -> None:
    """"这种桌游不行" turned down "种桌游": the pointer broke the phrase and its counter opened it."""
    assert user_phrases("这种桌游不行,太贵") == ["桌游"]
    assert user_phrases("那条路线不走了,换一条") == ["路线"]


def test_accented_latin_words_are_whole_words() -> None:
    """"Cancún" was cut at its ú into "Canc", and a lone accented word was counted as one Chinese
    character, which names nothing, so "Cancún is out" had no phrase at all."""
    assert user_phrases("Cancún is out, the café idea too") == ["Cancún", "café"]
    assert user_phrases("the Zürich office is a no") == ["Zürich office"]


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("香格里拉不去了", "香格里拉"),  # 里, a function word alone, inside a place name
        ("上海不去了", "上海"),
        ("用户画像那块先不做", "用户画像"),  # 用, a break word alone
        ("还款计划先不做", "还款计划"),
        ("个人所得税那块不考虑", "个人所得税"),  # and 那块, grammar, still breaks
    ],
)
def test_a_function_character_inside_a_chinese_word_is_part_of_the_phrase(text: str, phrase: str) -> None:
    assert phrase in user_phrases(text)


def test_chinese_grammar_words_still_break_the_users_phrases() -> None:
    """Demonstratives, degree words, complements and particles are grammar even as jieba words."""
    assert user_phrases("试用期太长了") == ["试用期"]
    assert user_phrases("可能回杭州 那研究所我还是不去了") == ["回杭州", "研究所"]


@pytest.mark.parametrize(
    ("text", "phrases"),
    [
        ("she won't do airbnb. find us a hotel with a pool", ["airbnb", "find", "hotel"]),
        ("ugh self-hosting is more than I signed up for", ["self-hosting", "signed up"]),
        ("$99 a year to tell me I'm broke? nah. something free", ["broke"]),
        ("一个月 5000 老板不会批的", ["5000", "老板"]),  # a number and the Chinese after a space are two
        ("晚一年上这个想法就算了", ["想法"]),
        # Places point at where a thing is: "there is coax in every room" names coax, not "there".
        ("there is coax in like every room. powerline i tried, flaky as hell, forget it", ["coax", "room", "powerline", "tried", "flaky", "hell"]),
    ],
)
def test_pronouns_comparisons_and_amounts_of_time_are_no_phrase(text: str, phrases: list[str]) -> None:
    """"she", "than", "a year" and "一个月" were recorded as rejected options; an option is named
    by what it is, not by who wants it, what it is compared with, or how long it takes."""
    assert user_phrases(text) == phrases


def test_a_place_name_with_a_function_character_is_the_target_in_context() -> None:
    route = Turn(role="assistant", text="建议路线：昆明 1 天 → 大理 3 天 → 丽江 2 天 → 香格里拉 2 天 → 回昆明 2 天。")
    query = TargetQuery(text="香格里拉不去了", label=Label.REJECT, raw="香格里拉")
    assert resolve(query, [route]) == "香格里拉"


def test_a_filler_that_opens_a_capture_is_no_part_of_the_target() -> None:
    """"算了 ES 不考虑了" rejects ES: the cue's capture starts at the clause, filler and all."""
    text = "算了 ES 不考虑了，运维成本太高"
    detection = Detector("rules").engine.match(text)
    from detector.targets import query_for

    assert resolve(query_for(text, Label.REJECT, detection), []) == "ES"


@pytest.mark.parametrize("text", ["emm 不太行", "我看还是算了", "hmm, not great"])
def test_a_capture_that_is_only_a_filler_names_nothing(text: str) -> None:
    """"emm 不太行" rejects what was proposed; "emm" was the cue's capture and the target."""
    from detector.targets import query_for

    reply = Turn(role="assistant", text="夜间同步我建议用 Apache Airflow：每张表一个 PythonOperator，自带重试和 Web UI 监控。")
    detection = Detector("rules").engine.match(text)
    assert resolve(query_for(text, Label.REJECT, detection), [reply]) == "Apache Airflow"


@pytest.mark.parametrize("text", ["ugh that's a deal breaker for us", "I am afraid it is not viable for us"])
def test_an_interjection_or_a_regret_before_a_pointer_names_nothing(text: str) -> None:
    """"ugh that" and "I am afraid it" were targets: the words before the pointer were read as a name."""
    from detector.targets import query_for

    reply = Turn(role="assistant", text="For the nightly sync I'd suggest Apache Airflow: one operator per table, retries built in.")
    detection = Detector("rules").engine.match(text)
    assert resolve(query_for(text, Label.REJECT, detection), [reply]) == "Apache Airflow"


@pytest.mark.parametrize(("text", "target"), [("算了 crypto 我不碰", "crypto"), ("私教课我不上了，教练态度太差", "私教课")])
def test_the_subject_after_a_topic_is_no_part_of_the_target(text: str, target: str) -> None:
    """"crypto 我不碰": the topic comes first, then who says no; "crypto 我" was the target."""
    from detector.targets import query_for

    detection = Detector("rules").engine.match(text)
    assert resolve(query_for(text, Label.REJECT, detection), []) == target


def test_a_long_capture_pointed_at_names_its_last_phrase() -> None:
    """"…月租3800 转租那个就算了吧": the cue took the whole clause before the pointer, amounts and all."""
    from detector.targets import query_for

    text = "押金两个月 7600 月租3800 转租那个就算了吧 我那小区挂出来的空房一大堆"
    detection = Detector("rules").engine.match(text)
    assert resolve(query_for(text, Label.REJECT, detection), []) == "转租"


def test_a_number_and_the_chinese_after_a_space_are_two_phrases() -> None:
    assert "转租" in user_phrases("月租3800 转租太麻烦了，")


def test_the_option_a_clause_takes_by_its_label_is_no_target(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"A sounds more like us. … I'd rather we didn't use the council's building control": A is kept."""
    reply = (
        "Two ways to run the build:\n- **A. Separate designer + builder** — a technologist does the drawings.\n"
        "- **B. A design-and-build loft specialist** — one contract.\n\nI'd lean towards A."
    )
    text = (
        "A sounds more like us. And while we're at it, I'd rather we didn't use the council's building control, "
        "a colleague waited three weeks for an inspection. Let's use one of the private approvers instead."
    )
    detection = shipped_detector.detect(text, [Turn(role="user", text="loft conversion, where to start?"), Turn(role="assistant", text=reply)])
    assert detection.label is not Label.NONE
    assert detection.target is not None and not detection.target.startswith("A(")


def test_user_phrases_split_at_verdicts_and_connectives() -> None:
    assert "hotel" in user_phrases("hotel's a no, feels like a conference")
    assert "CQRS+事件溯源" in user_phrases("昨天定的 CQRS+事件溯源那套,组里都说太重了")


def test_shared_runs_are_the_user_words_found_again() -> None:
    text = "self hosted runners are a no"
    from detector.targets import _tokens

    assert shared_runs(text, _tokens(text), _view("3) move to bigger self-hosted runners")) == ["self hosted runners"]


def test_a_break_word_said_again_is_no_shared_run() -> None:
    """"first" in "the first 20 customers" and in "validate demand first" names nothing: it was
    the REOPEN's target."""
    from detector.targets import _tokens

    text = "maybe the WhatsApp thing after all, to get the first 20 customers"
    runs = shared_runs(text, _tokens(text), _view("B tells you whether people will pay; validate demand first on WhatsApp."))
    assert "first" not in runs and "WhatsApp" in runs


@pytest.mark.parametrize("text, reply, kept", [
    ("!!!!! 之前投的 Amazon 有个 OA 过了 big tech 我又想冲一下了", "之前你说 big tech 的 OA 太难拿，那就先投 startup。", "big tech"),
    ("Jakarta 先不做 lah, 明年 volume 起来再说", "Jakarta 明年开仓也可以, just tell me lah", "Jakarta"),
    ("nah im good, ill just screenshot the calendar", "Good luck with the night shifts! I can make a calendar.", "calendar"),
])
def test_a_time_word_a_particle_or_a_judgement_said_again_is_no_shared_run(text: str, reply: str, kept: str) -> None:
    """"之前", "明年", "lah" and "good" say when, how or how it went, never which option: each was a
    turn's target once the reply said it too."""
    from detector.targets import _tokens

    runs = shared_runs(text, _tokens(text), _view(reply))
    assert kept in runs
    assert not {"之前", "明年", "lah", "good"} & set(runs)


def test_a_term_of_address_is_no_target(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"Sir rollback is not possible" and "mate. we're not self-hosting airflow" address the
    assistant: "Sir" and "mate" were the targets."""
    from detector.schema import Turn

    reply = "Alternatively, if you need the build green quickly, you could roll back to AGP 7.4.2 and upgrade in smaller steps."
    context = [Turn(role="user", text="build fails after AGP 8 upgrade"), Turn(role="assistant", text=reply)]
    detection = shipped_detector.detect("Sir rollback is not possible, Play Console is giving warning that target SDK 34 is mandatory", context)
    assert detection.label.value == "REJECT"
    assert detection.target == "rollback"


def test_shipped_ranker_scores_every_feature_this_version_computes() -> None:
    ranker = target_ranker()
    assert ranker.feature_names == FEATURES
    assert ranker.metadata["trained_on"] == "data/train.jsonl"


def test_a_labelled_option_keeps_its_closing_bracket() -> None:
    """Edge punctuation is trimmed from candidates, but "方案A(Redis 缓存)" keeps the bracket that
    closes the one inside it."""
    from detector.targets import _surface

    assert _surface("方案A(Redis 集中式缓存)").text == "方案A(Redis 集中式缓存)"
    assert _surface("(Redis)。").text == "Redis"
    assert _surface("Option 1(Celery with RabbitMQ).").text == "Option 1(Celery with RabbitMQ)"


def test_a_pivots_target_is_never_its_replacement() -> None:
    """"上 Loki" names what replaces the rejected option: the target is the other option."""
    from detector.loading import build_detector

    context = [
        Turn(role="user", text="日志方案？"),
        Turn(role="assistant", text="方案A：ELK（Elasticsearch+Logstash+Kibana）。方案B：Loki+Grafana，轻量。"),
    ]
    detection = build_detector().detect("那ES那条先不考虑了，没人维护等于埋雷。上Loki", context)
    assert detection.label is Label.PIVOT and detection.replacement == "Loki"
    assert detection.target is not None and "loki" not in detection.target.lower()


def test_a_word_said_only_inside_the_replacement_is_no_target() -> None:
    """"embedded recruiter for 3 months then" goes to the embedded recruiter: "embedded", which the
    reply also said, was the target, and the tracker recorded the choice as rejected."""
    context = [
        Turn(role="user", text="agency or in-house for our first 5 hires?"),
        Turn(role="assistant", text="Agency: fast, 20-25% fee. In-house: cheaper. Hybrid: an embedded contract recruiter for 3 months."),
        Turn(role="user", text="what if the CTO did all the sourcing herself?"),
        Turn(role="assistant", text="She'd lose half her week for months, and product velocity drops."),
    ]
    query = TargetQuery(
        text="yeah she'd hate that. embedded recruiter for 3 months then", label=Label.PIVOT,
        replacement="embedded recruiter for 3 months",
    )
    assert "embedded" not in (resolve(query, context) or "")


BOARDS = [
    Turn(role="user", text="橱柜柜体用什么板材"),
    Turn(role="assistant", text="常见两种：\n1. 颗粒板：便宜，防潮差一些\n2. 多层板：贵 30%，防潮和握钉力更好\n我建议厨房用多层板。"),
]


@pytest.mark.parametrize("text, replacement", [
    ("那颗粒板吧 省点钱", "颗粒板"),
    ("还是画图日记吧，三年级孩子都爱画画", "画图日记"),
    ("不再纠结城市线 就定巴厘岛了", "巴厘岛"),
    ("telluride prices are nuts. pilot then", "pilot"),
    ("let's look at the S3 parquet route, all reads are batch analytics anyway", "the S3 parquet route"),
])
def test_a_turn_without_a_cue_still_gets_its_spans_when_labelled_positive(text: str, replacement: str) -> None:
    """Most pivots real users type fire no cue; the span patterns still find what they switch to
    once the model has called the turn positive (and only then: NONE turns are not read)."""
    engine = Detector("rules").engine
    from detector.text import normalize

    normalized = normalize(text)
    match = engine.match(normalized)
    assert not match.fired and match.spans == {}
    assert engine.with_spans(normalized, match).spans["replacement"] == replacement


class _CallsPivot:
    """A stand-in model that calls every turn a PIVOT: whether "那颗粒板吧" against the assistant's
    advice is a pivot or an acceptance is a borderline call the shipped model makes differently
    from one retrain to the next, and what is checked here is what follows from the call."""

    def decide(self, text, context, match, rules, mode, explanation):  # type: ignore[no-untyped-def]
        scores = {Label.NONE: 0.1, Label.REJECT: 0.1, Label.PIVOT: 0.8, Label.REOPEN: 0.0}
        return Label.PIVOT, 0.8, scores


def test_an_uncued_pivot_rejects_the_other_option_and_names_its_choice() -> None:
    """"那颗粒板吧" after 颗粒板 and 多层板 were offered, read as a pivot: the choice is 颗粒板, so what
    is dropped is 多层板 (the replacement keeps the target off the choice)."""
    detection = Detector("hybrid", classifier=_CallsPivot()).detect("那颗粒板吧 省点钱", BOARDS)  # type: ignore[arg-type]
    assert detection.label is Label.PIVOT
    assert detection.replacement == "颗粒板"
    assert detection.target is not None and "多层板" in detection.target


@pytest.mark.parametrize("text, reason", [
    ("kyoto is a 14h flight for 5 days, nah", "kyoto is a 14h flight for 5 days"),
    ("iceland would eat the whole budget in 2 days lol", "would eat the whole budget in 2 days lol"),
    ("lisbon? nah", None),  # the option's name alone is no reason
])
def test_a_verdict_by_consequence_keeps_the_consequence_as_its_reason(text: str, reason: str | None) -> None:
    from detector.text import normalize

    engine = Detector("rules").engine
    normalized = normalize(text)
    assert engine.with_spans(normalized, engine.match(normalized)).spans.get("reason") == reason


def test_a_replacement_given_by_its_label_is_never_the_target() -> None:
    """"…so no. let's go with option 2": option 2 is where the pivot goes, named by its label only."""
    listed = Turn(role="assistant", text="(1) add a retry decorator around the call, or (2) mock the HTTP client. I'd suggest option 2.")
    query = TargetQuery(text="retries hide flakiness, so no. let's go with option 2", label=Label.PIVOT, replacement="option 2")
    target = resolve(query, [listed])
    assert target is not None and "mock" not in target


def test_a_word_for_a_kind_of_option_is_no_candidate() -> None:
    """"方向" shared with "那数据库方向可以先放一放" names no option ("协作这个方向不对")."""
    from detector.targets import candidates

    text = "协作这个方向不对，改做AI摘要"
    query = TargetQuery(text=text, label=Label.PIVOT, raw="这个方向")
    found = {c.text for c in candidates(query, [Turn(role="assistant", text="协作方向的话，可以先做评论和多人光标。")])}
    assert "方向" not in found and "协作" in found


@pytest.mark.parametrize(
    "text, beside",
    [
        ("拆读写那个方案不行，太重了", "拆读写"),
        ("那指数定投这个方向不对啊", "指数定投"),
        ("别往这个方向查了", None),  # the pointer is the verb's object
        ("drop 这个思路吧", None),
        ("别去那了", None),  # a bare 那 is a place, not a pointer beside a name
        ("forget the plan", None),  # English puts the verb there
    ],
)
def test_a_pointer_takes_the_name_said_right_before_it(text: str, beside: str | None) -> None:
    from detector.targets import query_for

    query = query_for(text, Label.REJECT, Detector("rules").engine.with_spans(text, Detector("rules").engine.match(text)))
    assert query.named_beside_pointer is (beside is not None)
    if beside is not None:
        assert query.raw == beside


def test_a_short_name_of_one_offered_option_is_that_option(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"stop suggesting ES" after a list whose recommended option is the index: "ES" shares no word
    with "Move search to Elasticsearch", and the ranker took the recommended option."""
    from detector.schema import Turn

    reply = (
        "I looked at the handler. Three options:\n1. Add a Postgres GIN index on products.name with pg_trgm\n"
        "2. Move search to Elasticsearch\n3. Cache search results in Redis for 60s\nI'd start with option 1."
    )
    context = [Turn(role="user", text="the /search endpoint takes 3s on prod"), Turn(role="assistant", text=reply)]
    assert shipped_detector.detect("stop suggesting ES", context).target == "2(Move search to Elasticsearch)"


def test_a_courtesy_is_no_candidate_target() -> None:
    """"Thank" had outranked every option of a long polite turn (and "Please" others)."""
    from detector.targets import candidates, query_for

    text = "Thank you, this is so much clearer. Please, I wonder if we might take a different route on measurement, though."
    query = query_for(text, Label.PIVOT, Detector("rules").engine.match(text))
    found = {c.text.lower() for c in candidates(query, [Turn(role="assistant", text="Option 1: TABE pre- and post-tests.")])}
    assert found and not found & {"thank", "please"}


@pytest.mark.parametrize(
    "reply, text, target",
    [
        # The capture as the conversation named it, not a word of it the ranker liked better:
        # celery stays (it sends the emails); celery beat goes.
        (("Plan: a @shared_task in billing/tasks.py, scheduled with Celery beat (deploy/k8s/celery-beat.yaml). "
          "Celery beat is the natural fit since the workers already exist."),
         "not celery beat, use a k8s cronjob. we've been burned by beat firing twice after a deploy", "celery beat"),
        ("Two routes: self-hosted runners on our own boxes, or bigger GitHub-hosted runners.",
         "self-hosted runners are out, security won't allow it", "self-hosted runners"),
    ],
)
def test_the_whole_capture_outranks_a_fragment_of_it(shipped_detector, reply: str, text: str, target: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="nightly job to expire stale invoices, celery 5 already runs the emails"),
               Turn(role="assistant", text=reply)]
    assert shipped_detector.detect(text, context).target == target


def _resolved(text: str, label: Label, context: list[Turn]) -> str | None:
    from detector.targets import query_for

    return resolve(query_for(text, label, Detector("rules").engine.match(text)), context)


FILLER_TURNS = [Turn(role=role, text=text) for _ in range(6) for role, text in (("user", "ok"), ("assistant", "Sure."))]


def test_a_label_listed_out_of_reach_is_the_target_itself() -> None:
    """方案一 was listed more turns back than the ranker reads: the label, not an option of the
    window, is what the user goes back to."""
    context = [
        Turn(role="assistant", text="方案一：ES 关键词检索\n方案二：pgvector 向量检索"),
        *FILLER_TURNS,
        Turn(role="assistant", text="pgvector 支持 PG 12 以上。建议 HNSW 索引需要 pgvector 0.5+。"),
    ]
    assert _resolved("要不还是回到方案一吧，ES 我们本来就有", Label.REOPEN, context) == "方案一"


def test_a_product_name_is_no_label() -> None:
    """"Route53" is no route 53, whatever the label pattern makes of it."""
    context = [Turn(role="assistant", text="1. WAF 开例外\n2. 改用 DNS-01 challenge\n3. 手动买证书\n那我推荐 2。")]
    assert _resolved("DNS-01 要给 cert-manager Route53 权限，IAM 改动得过 security review，现在来不及", Label.REJECT, context) != "Route53"


def test_a_short_name_the_option_opens_with_is_its_target() -> None:
    context = [Turn(role="assistant", text="1. GC频繁：jstat 看 FGC\n2. 业务线程热点/死循环\n3. 锁竞争导致的自旋")]
    assert _resolved("jstat看了，FGC一小时才两三次，不是GC的问题", Label.REJECT, context) == "1(GC频繁)"


def test_a_lettered_label_names_no_place_among_plain_bullets() -> None:
    """"那A方案捡回来吧" points at no first item of the latest list, of measurement tools; 方案A was
    listed out of reach."""
    context = [
        Turn(role="assistant", text="方案A：被试间实验\n方案B：纵向追踪4周\n方案C：眼动仪"),
        *FILLER_TURNS,
        Turn(role="assistant", text="测量工具：\n- 注意网络测验ANT\n- 持续注意反应任务SART\n- 外加一份自评的注意力问卷"),
    ]
    assert _resolved("师兄说他们组有经费可以付被试费，那A方案捡回来吧", Label.REOPEN, context) == "A方案"


_LOGGING = [
    Turn(role="user", text="日志平台选型 ES Loki 还是云厂商的"),
    Turn(role="assistant", text="1. 自建 ES\n2. Loki\n3. 阿里云 SLS"),
    Turn(role="user", text="es那套太重了 除非招到专职搞es的人"),
    Turn(role="assistant", text="那就在 Loki 和 ClickHouse 之间选：\n1. Loki\n2. Vector 采集写入自建 ClickHouse"),
    Turn(role="user", text="clickhouse吧"),
    *[Turn(role=role, text=f"第{i}步的细节怎么配" if role == "user" else f"第{i}步这样配即可。")
      for i in range(8) for role in ("assistant", "user")],
    Turn(role="assistant", text="ClickHouse 的 TTL 设 30 天。"),
]


@pytest.mark.parametrize(("text", "expected"), [
    # What the reopening cue names comes back, not what the turn drops beside it.
    ("刚开完会 hr说下个月有个专职es运维入职 之前否掉的es可以重新拉回来看看 clickhouse就先不推了", "es"),
    # However far back it was named: the window the ranker reads no longer holds "ES".
    ("let's revisit ES, clickhouse is fine for now but we'll see", "ES"),
])
def test_a_reopening_brings_back_what_its_cue_names(shipped_detector, text: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    detection = shipped_detector.detect(text, _LOGGING)
    assert detection.label is Label.REOPEN
    assert detection.target == expected


def test_the_name_a_capture_gives_before_its_pointer_is_the_target(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """The cue took "新写入那个方向" whole; the name is what the pointer stands beside, not "dbsize"
    or "写入", the runs the ranker cut from the turn."""
    context = [
        Turn(role="user", text="redis 内存两小时涨了 7 个 G 怎么查"),
        Turn(role="assistant", text="可能是：1. 新写入暴增 2. 大 key 3. 客户端输出缓冲区。先看 dbsize 有没有涨。"),
    ]
    detection = shipped_detector.detect("dbsize一直在三千万上下 跟昨天这个点几乎一样 新写入那个方向可以排除了", context)
    assert detection.label is Label.REJECT
    assert detection.target == "新写入"


def test_a_product_name_that_opens_one_options_name_is_that_option(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"gitlab is out" turns down "GitLab CI", however much the rest of the turn says "github"."""
    reply = (
        "Realistic options:\n1. **GitHub Actions + path filters** – one workflow per service.\n"
        "2. **Bazel + Buildkite with a remote cache** – hermetic builds.\n3. **Nx + Nx Cloud on GitHub Actions**.\n"
        "4. **GitLab CI** – parent-child pipelines with `rules: changes`."
    )
    context = [Turn(role="user", text="need a ci setup for our monorepo"), Turn(role="assistant", text=reply)]
    text = "github. gitlab is out, we're not moving off github, too much tooling hangs off it. whats the diff between 1 and 3"
    detection = shipped_detector.detect(text, context)
    assert detection.label is Label.REJECT
    assert detection.target == "4(GitLab CI)"


def test_a_person_in_the_story_or_a_word_of_grammar_is_never_the_target(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Session 69: "老板刚拍板，…" recorded 老板 as what the turn turned down; no gold target of any
    labelled set is such a word alone."""
    from detector.targets import _surface

    assert all(_surface(word) is None for word in ("老板", "客户", "孩子", "right", "after", "一下"))
    context = [
        Turn(role="user", text="假如付费卡卖不动，上线俩月又撤下来，是不是挺难看的"),
        Turn(role="assistant", text="确实有这个风险，所以一般先小范围试：只对近 30 天下单 2 次以上的用户展示入口，首月 1 元体验，看转化率再决定是否全量。"),
    ]
    detection = shipped_detector.detect("老板刚拍板，要钱的一律不上，搞等级那个", context)
    assert detection.label is Label.REJECT
    assert detection.target is not None and "老板" not in detection.target
