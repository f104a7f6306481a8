"""A cause the assistant suspected, ruled out by the user while diagnosing ("it's not timing", "不是
DNS"), against the same words as a question, a condition, a report, a fact corrected or a guess at
what the user wants."""

from __future__ import annotations

import pytest

from detector.cues.engine import default_engine
from detector.hypotheses import ruled_out_cause, suspected_causes
from detector.schema import Turn
from detector.text import normalize

_DNS = "Could be slow DNS resolution inside the cluster; check with dig how long lookups take from the pod."
_TIMING = "Could be a timing issue with the test fixture teardown."
_RACE = "This looks like a race condition between the two writers; try adding a lock around save()."
_PROXY = "My guess is the proxy is stripping the auth header."
_DNS_ZH = "可能是 DNS 解析慢导致的超时，可以先用 dig 看一下解析时间。"
_LEAK = "像是内存泄漏，建议先 dump 一下堆。"
_FIREWALL = "我怀疑是防火墙规则拦了。"
_SYMPTOM = "our calls to the payments API time out about 5% of the time"


def _context(reply: str, symptom: str = _SYMPTOM) -> list[Turn]:
    return [Turn(role="user", text=symptom), Turn(role="assistant", text=reply)]


def _ruled_out(reply: str, text: str, symptom: str = _SYMPTOM) -> str | None:
    return ruled_out_cause(normalize(text), _context(reply, symptom), default_engine())


@pytest.mark.parametrize("reply, causes", [
    (_DNS, ["slow DNS resolution inside the cluster"]),
    (_TIMING, ["timing issue"]),
    (_RACE, ["race condition"]),
    ("Then my next suspect is the connection pool: if it's exhausted, requests wait.", ["connection pool"]),
    (_DNS_ZH, ["DNS 解析慢"]),
    (_FIREWALL, ["防火墙规则拦"]),
    ("OK. Another possibility: it might be throttling. Or it could be the retry storm.", ["throttling", "retry storm"]),
    # A list of suspects: each item is a cause.
    ("可能原因：1) 某个 task 死锁或无限等待；2) prefetch 太大，worker 抢了一堆 task；3) RabbitMQ 的 heartbeat 超时导致连接假死。",
     ["某个 task 死锁或无限等待", "prefetch 太大", "RabbitMQ 的 heartbeat 超时"]),
    # A list of the usual causes, in either language.
    ("常见原因有这么几个：\n1. CPU throttling：container 设了 CPU limit\n2. preset 太慢\n3. S3 I/O：下载慢",
     ["CPU throttling", "preset 太慢", "S3 I/O"]),
    ("Common causes:\n1. A stale lockfile\n2. A cache key that never changes",
     ["A stale lockfile", "A cache key"]),
    # A question to the user and a guess at what the user wants suspect no cause.
    ("Sounds like you want a Python script for this?", []),
    # The usual cause named as one ("最常见原因是"), a dot inside its name.
    ("报错是 gres/gpu 插件初始化失败。最常见原因是 gres.conf 写法不对，比如 File 的范围写错。", ["gres.conf 写法不对"]),
    ("Could be that you need the 2023 version of the form.", []),
    # A denial suspects nothing (session 71).
    ("Probably not you. The box size usually comes from the storage type.", []),
    ("I'll add a retry with backoff.", []),
    # The cause named as the textbook explanation.
    ("训练集指标一直涨、验证集不动，最典型的解释是过拟合，建议加 dropout。", ["过拟合"]),
    ("The most likely explanation is a stale build cache on the runner.", ["stale build cache"]),
    # The worry named; a colon ends the cause.
    ("我比较担心的是 SRM：如果 treat 组里有一部分用户没被正确 log，lift 就可能是假的。", ["SRM"]),
    ("My main worry is clock skew between the two brokers.", ["clock skew"]),
])
def test_the_causes_a_reply_suspects(reply: str, causes: list[str]) -> None:
    assert [cause.label for cause in suspected_causes(normalize(reply))] == causes


@pytest.mark.parametrize("reply, text, cause", [
    (_DNS, "not DNS, dig answers in 2ms from the pod", "slow DNS resolution inside the cluster"),
    (_TIMING, "it's not timing. I added sleeps and it still fails", "timing issue"),
    (_TIMING, "not timing — I added a 5s sleep, same failure", "timing issue"),
    (_RACE, "it's not a race, it fails with a single worker too", "race condition"),
    (_PROXY, "proxy isn't the issue, I hit the service directly and still get 401", "proxy is stripping the auth header"),
    ("Probably the new index slowed inserts down.", "the index is fine, inserts were slow before it too",
     "new index slowed inserts down"),
    ("Might be the memory limit on the container; check for OOMKilled.", "ruled out memory, limits are fine. what next?",
     "memory limit"),
    (_DNS_ZH, "不是 DNS，dig 出来 2ms。", "DNS 解析慢"),
    (_LEAK, "内存泄漏不是，堆一直稳定在 2G", "内存泄漏"),
    (_LEAK, "dump 了，堆一直稳定在 2G，跟内存泄漏没关系", "内存泄漏"),
    (_FIREWALL, "防火墙不是，我直接关了也一样", "防火墙规则拦"),
    ("报错是 gres/gpu 插件初始化失败。最常见原因是 gres.conf 写法不对，比如 File 的范围写错。",
     "gres.conf 没问题：\n```\nName=gpu File=/dev/nvidia[0-7]\n```\n而且报的是 couldn't find plugin，不是解析错误。", "gres.conf 写法不对"),
    ("训练集指标一直涨、验证集不动，最典型的解释是过拟合，建议加 dropout。", "不是过拟合，验证集 loss 也在降", "过拟合"),
    ("我比较担心的是 SRM：如果 treat 组里有一部分用户没被正确 log，lift 就可能是假的。",
     "SRM 不是问题，我早跑过了，chi2 p = 0.56。别在这上面花时间了", "SRM"),
    (_FIREWALL, "关了防火墙还是一样，应该不是这个", "防火墙规则拦"),  # a pointer at the only suspicion
    (_FIREWALL, "关了防火墙还是一样，应该不是这个原因", "防火墙规则拦"),  # a pointer with its noun (is_deictic)
    ("Subject lines could be the issue.", "subject lines aren't it, both variants tanked", "Subject lines"),
    # Named by a word of the clause that suspected it, past its short name.
    ("Probably the idle timeout on the ALB.", "not the ALB, I bumped its idle timeout to 300", "idle timeout"),
    ("Off-heap growth has three likely culprits: 1) direct ByteBuffers (Netty) 2) a thread leak 3) JNI allocations.",
     "thread count flat at ~180 for a week, so thread leak is ruled out", "a thread leak"),
    ("我怀疑是 GC 回收不及时。", "是突然冲到 512 的，不是慢慢涨。所以 GC 回收不及时这个推测站不住", "GC 回收不及时"),
    # A name too short to be a content word ("pg", "S3") still opens the suspect it names.
    ("The usual suspects are:\n1. **pg pool leak**: a client never released\n2. **Listeners piling up**: per request",
     "not pg. totalCount sits at 10 the whole time", "pg pool leak"),
    ("常见原因有这么几个：\n1. CPU throttling：container 设了 CPU limit\n2. preset 太慢\n3. S3 I/O：下载慢",
     "S3 那个也不是，download 一个 2G 的文件 40 秒就完了", "S3 I/O"),
    ("常见原因有这么几个：\n1. CPU throttling：container 设了 CPU limit\n2. preset 太慢\n3. S3 I/O：下载慢",
     "不是 CPU throttle，throttled_periods 基本是 0", "CPU throttling"),
    # The topic, what the user checked on it, then the denial (session 62).
    ("可能的原因：\n1. 电源纹波太大\n2. 晶振频偏\n3. 固件里的中断优先级",
     "晶振我量过了不是这个，频偏只有 3ppm", "晶振频偏"),
])
def test_a_denial_of_the_suspected_cause_names_it(reply: str, text: str, cause: str) -> None:
    assert _ruled_out(reply, text) == cause


@pytest.mark.parametrize("reply, text, symptom", [
    (_FIREWALL, "不是防火墙吧？我也不确定", _SYMPTOM),  # a question
    ("Might be the disk filling up.", "is it not the disk? df shows 40% free", _SYMPTOM),
    (_LEAK, "如果不是内存泄漏的话还能是什么", _SYMPTOM),  # a condition
    ("Might be the disk filling up.", "my coworker says it's not the disk but I haven't checked", _SYMPTOM),  # reported
    (_TIMING, "the log says `not timing related`", _SYMPTOM),  # code
    ("I think the issue is the timezone setting on the CI runner.", "yes that was it!! fixed, thanks", _SYMPTOM),
    (_PROXY, "ok I'll check the proxy logs", _SYMPTOM),
    (_DNS, "it's not the cheapest fix but fine", _SYMPTOM),  # another object than the cause
    # No fault is being diagnosed: a guess at a fact, corrected, is a correction.
    ("我估计是周三的航班更便宜。", "不是周三，是周四出发", "帮我看看下周去成都的机票"),
    ("Looks like the Lisbon hotel is cheaper overall.", "not the Lisbon one, the Porto one was cheaper", "compare these two"),
    ("Sounds like you want a Python script for this?", "not a script, a notebook I can share", "automate my report"),
    # A figure set right while diagnosing (round twenty): "四个月不是三个月" rules out no suspect.
    ("回测和实盘差 8 个点，可能的原因：\n1. 滑点和冲击成本\n2. 样本太短，三个月说明不了问题\n3. 未来函数",
     "更正下，实盘是四个月不是三个月。换手单边日均8%左右", "回测年化 22%，实盘只有 14%，差在哪"),
])
def test_the_same_words_elsewhere_rule_out_nothing(reply: str, text: str, symptom: str) -> None:
    assert _ruled_out(reply, text, symptom) is None


_FIXES_ZH = "可以试试:一是把学习率降到 1e-5 并加 warmup;二是少解冻几层;三是加数据增强。我建议先试第一个。"
_FIXES_EN = "A few things to try:\n1. Raise the connection pool size to 50\n2. Add a read replica\n3. Cache the product lookups"


@pytest.mark.parametrize("reply, text, fix", [
    (_FIXES_ZH, "我觉得不是学习率的问题，是标注有问题，先查标注", "一(把学习率降到 1e-5 并加 warmup)"),
    (_FIXES_ZH, "学习率不是问题，先查标注", "一(把学习率降到 1e-5 并加 warmup)"),
    (_FIXES_EN, "the connection pool isn't the issue, it never goes above 12", "1(Raise the connection pool size to 50)"),
])
def test_a_fix_the_reply_listed_is_ruled_out_with_what_it_works_on(reply: str, text: str, fix: str) -> None:
    """A listed fix suspects what it changes: denying that thing is the problem turns the fix down."""
    assert _ruled_out(reply, text, "loss stops falling after epoch 3, p99 too") == fix


@pytest.mark.parametrize("reply, text", [
    (_FIXES_ZH, "不是 1e-5，是 3e-5"),  # a number corrected, not called the problem
    (_FIXES_ZH, "不是这个问题"),  # a pointer cannot tell which fix
    (_FIXES_EN, "not 3, it's 2 replicas we have"),
    (_FIXES_EN, "is the connection pool not the issue?"),  # asked
])
def test_a_listed_fix_is_not_ruled_out_by_other_denials(reply: str, text: str) -> None:
    assert _ruled_out(reply, text, "loss stops falling after epoch 3, p99 too") is None


def test_a_suspect_stays_open_for_one_check_and_only_the_last_reply_is_pointed_at() -> None:
    """The list, a reply on one check, then "不是磁盘": the list is still what the user answers. Two
    replies on, or a bare "not that one" aimed past the last reply, rules out nothing."""
    check = Turn(role="assistant", text="Let me look at the logs.")
    one_check = [*_context(_DNS), Turn(role="user", text="ok"), check]
    assert ruled_out_cause("not DNS", one_check, default_engine()) == "slow DNS resolution inside the cluster"
    assert ruled_out_cause("not that one", one_check, default_engine()) is None
    two_checks = [*one_check, Turn(role="user", text="ok"), Turn(role="assistant", text="And the metrics.")]
    assert ruled_out_cause("not DNS", two_checks, default_engine()) is None
    assert ruled_out_cause("not DNS", [], default_engine()) is None
    zh = [
        Turn(role="user", text="从库延迟一直在涨，你上去看看"),
        Turn(role="assistant", text="常见原因有几类：\n1. 主库有大事务\n2. 从库 SQL 线程回放跟不上\n3. 从库磁盘 IO 瓶颈"),
        Turn(role="user", text="网络不是 io线程拉得很快"),
        Turn(role="assistant", text="同意，IO 线程没有落后，积压在 SQL 线程回放。下一步可以看从库磁盘。"),
    ]
    assert ruled_out_cause(normalize("iostat看过了 util才20%左右 await也正常 不是磁盘"), zh, default_engine()) == "从库磁盘 IO 瓶颈"


def test_a_ruled_out_cause_is_rejected_and_suspecting_it_again_is_a_relapse(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """The cause is the assistant's, in its words: a later reply that suspects it again relapses,
    one that names it as ruled out does not."""
    from detector.store import MemoryStore
    from detector.tracker import ConvergenceTracker

    tracker = ConvergenceTracker(shipped_detector, MemoryStore())
    tracker.observe_user("c", _SYMPTOM)
    tracker.observe_assistant("c", Turn(role="assistant", text=_DNS))
    suggestion = tracker.observe_user("c", "not DNS, dig answers in 2ms from the pod")
    assert suggestion is not None and suggestion.trigger == "rejection"
    state = tracker.state("c")
    assert [r.alternative for r in state.rejected] == ["slow DNS resolution inside the cluster"]
    assert state.rejected[0].reason == "dig answers in 2ms from the pod"
    assert next(a for a in state.alternatives if a.summary == "slow DNS resolution inside the cluster").proposed_by == "assistant"
    tracker.observe_user("c", "pool stats look normal, max 12 of 50 in use")
    again = tracker.observe_assistant(
        "c", Turn(role="assistant", text="It might still be DNS resolution at the node level, so check the node-local DNS cache.")
    )
    assert again.verdict == "RELAPSE"
    tracker.observe_user("c", "ugh")
    ruled_out = tracker.observe_assistant(
        "c", Turn(role="assistant", text="We already ruled out DNS, so let's look at the provider's rate-limit headers.")
    )
    assert ruled_out.verdict == "OK"
