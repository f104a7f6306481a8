"""Spans read from a turn besides its target: the reason a rejection gives in a clause of its own
(reasons.py), and a replacement that must name a new direction (cues/spans.py)."""

from __future__ import annotations

import pytest

from detector import Detector
from detector.cues.spans import clean_span
from detector.reasons import reason_clause
from detector.schema import Label
from detector.text import normalize


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector("rules")


@pytest.mark.parametrize("text, label, reason", [
    # The consequence first, then the verdict: the clause before it.
    ("the garage is only 5 metres deep, it won't fit. forget the long-wheelbase van", Label.REJECT,
     "the garage is only 5 metres deep, it won't fit"),
    ("桂林那边 5 月是雨季，天天下雨，桂林先不去了", Label.REJECT, "桂林那边 5 月是雨季,天天下雨"),
    # The verdict first, then why: the clause after it.
    ("MongoDB 不考虑了，账务必须要事务", Label.REJECT, "账务必须要事务"),
    ("scrap the kafka idea, we have two engineers and no one on call", Label.REJECT,
     "we have two engineers and no one on call"),
    # A pivot: the new choice is not the reason, the complaint before the verdict is.
    ("羊肉太膻了，孩子们不吃，不做羊肉了，改做红烧排骨", Label.PIVOT, "羊肉太膻了,孩子们不吃"),
    # What the user grants is no reason: the reason is what comes after "but" / 但是.
    ("Kyushu sounds cool but my partner gets motion sick on long transfers, so C is out.", Label.REJECT,
     "my partner gets motion sick on long transfers"),
    ("大客户是满意了，但是小客户那边工单堆成山，机器人那个方案不行", Label.REJECT, "小客户那边工单堆成山"),
])
def test_a_reason_in_its_own_clause_is_found(detector: Detector, text: str, label: Label, reason: str) -> None:
    detection = detector.detect(text)
    assert detection.label is label
    assert detection.reason == reason


@pytest.mark.parametrize("text, target, reason", [
    # "too X, drop it": the complaint's clause is the reason, where the pattern's reason group
    # held a piece of it ("原因：高" had been the block's reason for the first one), and the
    # attribute after a Latin name is no part of the target.
    ("Redis 运维成本太高，不考虑了", "Redis", "Redis 运维成本太高"),
    ("Electron 太吃内存，不要了", "Electron", "Electron 太吃内存"),
    ("Redis集群太贵，算了", "Redis集群", "Redis集群太贵"),
    # A pattern's reason is widened to its clause when nothing else there is a verdict...
    ("Elasticsearch is way too much ops for us, rule that out.", "Elasticsearch",
     "Elasticsearch is way too much ops for us"),
    # ...and the clause beside it that says more joins it.
    ("Keycloak 太重了，我们运维就一个人，不考虑。", "Keycloak", "Keycloak 太重了,我们运维就一个人"),
    # A reason pattern's "to…" is no leading "to" ("too slow" had become "o slow").
    ("drop the nightly rebuild, too slow", "the nightly rebuild", "too slow"),
])
def test_a_too_x_rejection_gives_the_whole_complaint_as_its_reason(
    detector: Detector, text: str, target: str, reason: str
) -> None:
    detection = detector.detect(text)
    assert detection.label is Label.REJECT
    assert (detection.target, detection.reason) == (target, reason)


@pytest.mark.parametrize("text", [
    "drop redis",                                   # one clause: the verdict alone
    "要改表结构就不做了",                              # one clause, the reason inside it
    "hmm, ok, scrap it",                            # filler around the verdict
    "thinking again, drop the second option",       # talk about the talk, not a reason
    "no thanks. what else is out there?",           # a question after the verdict asks, it gives no reason
])
def test_no_reason_when_the_turn_gives_none_apart(detector: Detector, text: str) -> None:
    normalized = normalize(text)
    match = detector.engine.match(normalized)
    assert reason_clause(normalized, match.fired, ()) is None


# Turns read by `reason_clause` alone: the text and the reason it gives.
READ_APART = [
    # A hypothesis ruled out while diagnosing is the verdict; the evidence beside it is the reason.
    ("it's not the network, our infra team already checked, ping and mtr are clean",
     "our infra team already checked, ping and mtr are clean"),
    ("pools have free slots, parallelism is 128. so not that either", "pools have free slots, parallelism is 128"),
    ("不是网络的问题，抓包看过了", "抓包看过了"),
    # A clause that takes another option is the new choice, not the reason.
    ("好，就按第二个来，tracemalloc 先不考虑，生产环境不让装东西", "生产环境不让装东西"),
    ("retries hide the flake, let's go with option 2", "retries hide the flake"),
    # Nothing before the verdict: the reason is right after it, not after the choice that closes the turn.
    ("Redux 就算了，团队里一半人是新人，学习曲线太陡。先试 C", "团队里一半人是新人,学习曲线太陡"),
    ("ES is out, we have no one to run it. try the trigram index", "we have no one to run it"),
    # "kill" is a verdict only when it kills the option.
    ("that would kill our margins, forget it", "that would kill our margins"),  # a consequence, not "kill X"
    ("kill it, the margins are too thin", "the margins are too thin"),
    # No verdict word: the model heard the verdict in the complaint itself, which is the reason.
    ("Elasticsearch 我们之前维护过，太痛苦了", "Elasticsearch 我们之前维护过,太痛苦了"),
    ("layer cake is too much for me, I'd mess up the stacking", "layer cake is too much for me, I'd mess up the stacking"),
    # 不 and a verb closing the clause is the verdict; 不够 / 吃不消 in a complaint are the reason.
    ("猎头太看业绩了，每个月都在赌，猎头就不做了", "猎头太看业绩了,每个月都在赌"),
    ("钱不够了，一个人也吃不消了，这家店就不盘了", "钱不够了,一个人也吃不消了"),
    ("我还要带两个班，积分太耗精力了，积分制先搁着", "我还要带两个班,积分太耗精力了"),
    ("I played with appsmith for an hour and the UI builder fights me. screw low code", "I played with appsmith for an hour and the UI builder fights me"),
    # Who the user talked to is no reason; what they learned is.
    ("我跟老板聊了，大客户那边续费压力大，机器人先不搞了", "大客户那边续费压力大"),
    ("talked to my wife, she hates long drives. road trip is out", "she hates long drives"),
    # A question right before the verdict is the complaint said as one.
    ("another message queue to babysit? no thanks", "another message queue to babysit"),
    ("雨季就没意思了 天天下雨在别墅里发呆吗 巴厘岛这次不去了", "雨季就没意思了 天天下雨在别墅里发呆吗"),
    # Thanks are no reason: "非常感谢您的好意，one-pager 就不用麻烦您了".
    ("非常感谢您的好意，one-pager 就不用了，我们内部有固定的 memo 模板", "我们内部有固定的 memo 模板"),
    # Fillers, however many, give no reason.
    ("ok you know what, let's revisit Redux Toolkit. 既然要 action log，RTK 正好对上", "既然要 action log,RTK 正好对上"),
]


@pytest.mark.parametrize("text, reason", READ_APART)
def test_the_reason_is_read_apart_from_the_verdict(text: str, reason: str) -> None:
    """The clauses beside the verdict, the one before it first. "私教不请了" and "screw low code"
    were once read as reasons, which left the turn with none."""
    assert reason_clause(normalize(text), [], ()) == reason


def test_a_widened_reason_stays_in_its_paragraph() -> None:
    from detector.reasons import widen_reason

    text = "we drop the raffle, the prizes cost too much.\nAnd the venue is far from the station"
    assert widen_reason(text, "cost too much", [], ()) == "the prizes cost too much"


def test_a_so_no_clause_is_the_verdict() -> None:
    text = "dad can't drive on the left, so no kyushu loop. and the classic one sounds exhausting for them"
    assert reason_clause(normalize(text), [], ()) == "dad can't drive on the left"


def test_the_replacement_and_the_revisit_condition_are_no_reason() -> None:
    text = "不用 Fivetran 了，明年预算批了再说"
    assert reason_clause(text, [], ("Airbyte", "明年预算批了再说")) is None
    assert reason_clause("pass on kafka, sqs is enough", [], ("sqs",)) is None


def test_a_long_run_of_clauses_is_cut_to_the_two_nearest_the_verdict() -> None:
    text = "we tried it in 2022, it was slow, support was awful, it cost a fortune, so drop it"
    assert reason_clause(text, [], ()) == "support was awful, it cost a fortune"


@pytest.mark.parametrize("text, replacement", [
    ("太官方了，换个说法", None),                        # "something else", not a new direction
    ("杭州去过太多次了，换个别的", None),
    ("REST catalog 还得单独部署个服务，pass，HMS 现成的，用它", None),  # a pointer
    ("UUID 做主键插入会很散，直接排除。", None),           # a verdict
    ("用 FAISS 做 ANN，召回 recall@100 比 CF 还低，0.18 vs 0.22。调了一周没起色。这个先撤掉吧", None),
    ("A 不行，我们运维就两个人，换 B 吧", "B"),            # one Latin letter is a label
    ("源码交付那条换个做法，不要每个里程碑交了，改成第三方托管", "第三方托管"),
])
def test_a_replacement_names_a_new_direction_or_nothing(detector: Detector, text: str, replacement: str | None) -> None:
    match = detector.engine.with_spans(normalize(text), detector.engine.match(normalize(text)))
    assert match.spans.get("replacement") == replacement


@pytest.mark.parametrize("span, kind, cleaned", [
    ("tofu", "replacement", "tofu"),                      # had been "fu": "to" is no prefix of a word
    ("Tokyo plus Kyoto", "replacement", "Tokyo plus Kyoto"),
    ("user service", "target", "user service"),          # "use" of "user"
    ("without docker", "target", "without docker"),      # "with" of "without"
    ("tattoo", "target", "tattoo"),                      # a closing "too" only as a word
    ("snow", "replacement", "snow"),                     # a closing "now" likewise
    ("go with Postgres then", "replacement", "Postgres"),
    ("用 Redis 吧", "replacement", "Redis"),
    ("走地那个", "target", "走地"),                         # had been "地": the verb is half the name
    ("还是少", "replacement", ""),                         # an adverb goes, and one character names nothing
])
def test_fillers_are_stripped_as_words_not_as_letters(span: str, kind: str, cleaned: str) -> None:
    assert clean_span(span, kind) == cleaned


def test_a_reason_is_not_widened_over_a_verdict(detector: Detector) -> None:
    assert detector.detect("scrap it because the ops cost is too high").reason == "the ops cost is too high"


def test_a_switch_verb_inside_a_word_is_no_pivot(detector: Detector) -> None:
    # "because" ends in "use": "scrap it because …" had fired "scrap X, use Y" (a strong PIVOT cue)
    # with the replacement "the ops cost is too high", and "because" had been a target candidate.
    detection = detector.detect("scrap it because the ops cost is too high")
    assert "en.pivot.scrap_and_use" not in {hit.cue_id for hit in detection.explanation.fired}
    assert detection.replacement is None
    assert detection.target is None or "beca" not in detection.target


def test_a_complaint_with_a_question_after_it_is_not_taken_whole() -> None:
    """A question between or after the clauses ends the run: only a turn that is all complaint is."""
    assert reason_clause(normalize("the ops cost is high, is there anything lighter? we have one person on call"), [], []) is None




def test_over_budget_is_the_reason_it_gives(detector: Detector) -> None:
    # The cue was the verdict, so its clause could not be the reason: "hmm just checked pricing" was.
    detection = detector.detect("hmm just checked pricing, circleci is way over budget for us. scrap that")
    assert detection.reason is not None and "way over budget for us" in detection.reason


def test_the_answer_to_the_replys_question_is_no_reason(detector: Detector) -> None:
    # "七点左右到家" answers "您一般几点到家？"; read as the reason, the relapse guard took a later
    # "七点到家的话，…" for the reason argued away. The target stops at the space typed for a comma.
    from detector.schema import Turn

    context = [
        Turn(role="user", text="孩子写作业拖拉 有没有办法"),
        Turn(role="assistant", text="可以试这几个方向：\n1. 拆分+计时\n2. 积分奖励：按时完成攒积分\n3. 固定开工流程\n您一般几点到家？"),
    ]
    detection = detector.detect("七点左右到家 积分那套就别提了 幼儿园老师天天发贴纸 现在干点啥都先问给几个贴纸", context)
    assert detection.label is Label.REJECT
    assert detection.reason is not None and "七点" not in detection.reason
    assert detection.target is not None and "到家" not in detection.target


def test_a_widened_reason_keeps_to_a_sentence_whose_clause_names_its_subject(shipped_detector: Detector) -> None:
    """"Milvus 太重了" says why Milvus goes; the sentence before it is about another thing. A bare
    "too slow" still takes the sentence before as its reason."""
    milvus = shipped_detector.detect("升级 PG 这事 DBA 排期到明年了。Milvus 太重了，我们就两个人维护。qdrant 呢")
    assert milvus.reason == "Milvus 太重了,我们就两个人维护"
    assert shipped_detector.detect("thats 4 deploys. too slow").reason == "that's 4 deploys. too slow"


def test_a_chinese_full_stop_ends_an_english_reason(shipped_detector: Detector) -> None:
    detection = shipped_detector.detect("MobX 不考虑了，because 团队没人用过 observable 那套。at least not until 有人懂 MobX")
    assert detection.reason is not None and detection.reason.endswith("团队没人用过 observable 那套")
