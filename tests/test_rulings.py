"""The fusion's rules (detect.Detector._ruling) act in rules and hybrid mode; classifier mode is the
model alone, so that `--mode classifier` measures what the model learned."""

from __future__ import annotations

from pathlib import Path

import pytest

from detector.courtesies import is_courtesy
from detector.detect import FORBIDDING_CONFIDENCE
from detector.loading import build_detector
from detector.reminders import only_reminds
from detector.schema import Label, Turn

ROUNDS = Path(__file__).resolve().parents[1] / "data" / "blind_rounds"

_CASES = [
    ("这个内存泄漏有两个排查方向：一是用 tracemalloc 在生产环境抓快照；二是在本地用 memray 复现压测场景。", "别用 tracemalloc",
     "forbids an option"),
    ("I've updated `parse_config` to use pydantic models instead of raw dicts.", "revert that", "orders undone a change"),
    ("I've switched the worker pool from threads to asyncio.", "go back to threads", "back to threads"),
    ("Could be a timing issue with the test fixture teardown.", "it's not timing, it still fails", "rules out the cause"),
]


@pytest.mark.parametrize("reply, text, rule", _CASES)
def test_the_rules_act_in_hybrid_mode_and_not_in_classifier_mode(shipped_detector, reply: str, text: str, rule: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="it fails, help"), Turn(role="assistant", text=reply)]
    assert rule in shipped_detector.detect(text, context).explanation.rule
    assert rule not in build_detector(mode="classifier").detect(text, context).explanation.rule


_FORCED = [
    # A prohibition of an option just proposed.
    ("这个内存泄漏有两个排查方向：一是用 tracemalloc 在生产环境抓快照；二是在本地用 memray 复现压测场景。我建议先走第二个。",
     "别用 tracemalloc", "一(用 tracemalloc", "forbids an option"),
    ("I can fix the flaky test in two ways: (1) add a retry decorator around the network call, or (2) mock the HTTP client "
     + "with responses so the test never hits the network. I'd suggest option 2.",
     "no retry decorator please", "1(add a retry decorator", "forbids an option"),
    # An order to undo the change just reported.
    ("I've updated `parse_config` to use pydantic models instead of raw dicts and migrated the three call sites.",
     "revert that. we can't add pydantic as a dependency to this package", "pydantic models", "orders undone a change"),
    ("我把登录接口改成了用 JWT，session 相关的代码都删掉了。", "撤回吧，网关那边只认 session，JWT 现在接不了", "JWT",
     "orders undone a change"),
    # "put it back" is also a reopening cue's phrase; here it undoes the change (the model read REOPEN 0.93).
    ("Added `--json` to every command. Since the CLI layout changed I also bumped the version from 1.4.2 to 2.0.0 in `pyproject.toml`.",
     "who asked you to bump the version? release tooling does that. put it back.", "bumped the version",
     "orders undone a change"),
    # A denial of the cause just suspected.
    ("Could be a timing issue with the test fixture teardown.", "it's not timing. I added sleeps and it still fails",
     "timing issue", "rules out the cause"),
    ("我怀疑是防火墙规则拦了。", "防火墙不是，我直接关了也一样", "防火墙", "rules out the cause"),
    # Session 61: a list of suspects headed "one of a few causes", denied as typed ("its not").
    (("When deploys fail at random steps, it's usually one of a few causes:\n\n1. **Asset precompilation** runs on every host.\n"
      "2. **Database migrations** take locks or time out while the app is serving traffic.\n3. **SSH flakiness** to one host."),
     "its not the migrations, we run those separately as a one-off job before deploy", "Database migrations take locks or time…",
     "rules out the cause"),
    # An option offered as what the assistant could do next (the model read NONE 0.68).
    (("I've wrapped fetch_user() in a retry decorator and bumped the timeout to 10s. Next I could add a circuit breaker with "
      "pybreaker if you'd like."), "no circuit breaker, we don't need another dependency", "a circuit breaker with pybreaker if you'…",
     "forbids an option"),
    # A polite decline of what the assistant just offered to do (the model read the first NONE at 0.78).
    ("京都 4 天：岚山、东山、伏见稻荷。需要我帮你查一下小火车的订票时间吗？", "不用了 我妹在京都 她帮我们订",
     "查一下小火车的订票时间", "declines what the assistant just offered"),
    # The offer named first, and declined as the user's own words name it (the model read NONE 0.87).
    ("preStop 和 graceful shutdown 一起配上。要不要我顺便写一条 Prometheus 告警规则，回调 failure 率或 502 超过阈值就推钉钉？",
     "告警不用你写 运维那边有统一的监控平台 我提个工单就完事 你先把补单脚本给我", "告警", "declines what the assistant just offered"),
    # An offer said as what the assistant can do on request, and a decline said politely (NONE 0.92 and 0.81).
    ("CRR 规则里用 filter 排除 tmp/ 前缀。\n\n需要的话我可以写个脚本，帮你生成 Batch Replication 要用的 manifest。",
     "不用 控制台点点就行 它自己能从 inventory 生成", "manifest", "declines what the assistant just offered"),
    ("可以在钱包内侧烫上名字。要不要我把整套步骤整理成一张清单，您打印出来贴在工作台旁边？",
     "不用麻烦您了，您讲的我都一条一条抄在本子上了，我们老年人还是习惯手写。真是太感谢您了！", "清单",
     "declines what the assistant just offered"),
    # The offer named first, then "不用了" (the model read PIVOT 0.66: the platform does it).
    ("CUPED 的 SQL 我可以帮你写。要不要我给你一个 SQL 模板？", "sql 不用了 我们实验平台自带 CUPED 勾一下就行 😂 那就这么开了", "sql",
     "declines what the assistant just offered"),
    ("Long docs are truncated to 2048 tokens. If you want, I can switch to packing so the tail isn't lost.",
     "no need, the tail is boilerplate anyway", "packing", "declines what the assistant just offered"),
    # Thanks first, then the no; an offer asked as "would it help if I …", a long one; a no, then
    # that it is done already; Cantonese 唔使 (the model read all five NONE).
    ("Shall I also draft a one-page checklist the volunteers can keep at the front desk during opening hours next month?",
     "Thank you, but no — our coordinator already has one she likes.", "checklist", "declines what the assistant just offered"),
    ("Would it help if I wrote a small script that reads every sensor on the line and prints the readings in one table, so you can compare them?",
     "Thanks, not necessary, our technician has a tool from the vendor for that.", "script", "declines what the assistant just offered"),
    ("If it's useful, I can draft a list of questions to ask the contractors.",
     "That's kind of you, but my brother has already written one up.", "list of questions", "declines what the assistant just offered"),
    ("Want me to sketch a config schema (fields, defaults, validation per section) you could edit by hand?",
     "nah we've got a yaml template already, all good", "config schema", "declines what the assistant just offered"),
    ("If you'd like, I can make a printable weekly plan with the shift windows, the meal times and the grocery list laid out.",
     "nah im good, ill just screenshot this", "printable weekly plan", "declines what the assistant just offered"),
    ("要唔要我幫你寫埋個 risk report module？", "risk report 嗰part 唔使喇 thx，desk 有現成嘅", "risk report",
     "declines what the assistant just offered"),
    # Session 62: an offer typed in traditional characters, declined in Cantonese (the offer went
    # unread: the reply was not normalised).
    ("OK，下一步要準備 template。要唔要我幫你起草埋啲 WhatsApp 通知範本，等你可以直接交俾 Meta 審批？",
     "唔使 la, 我哋有 agency 搞開 wording", "WhatsApp 通知范本", "declines what the assistant just offered"),
    # English thanks before a Chinese decline; an offer "我还可以…", its "，包括…" tail left off.
    ("需要的话我还可以帮您起草一份导师手册，包括选拔标准和前 90 天的 checklist。",
     "thanks, 这个先不用了. 我们去年已经有一版, 直接 reuse 就行", "起草一份导师手册", "declines what the assistant just offered"),
    # Session 63: a British or Irish "you're alright" after a long offer, its dash-set aside left
    # off; a decline said after the reason, mid-turn; an offer conditioned after it ("…if that
    # helps?"); a no, then that the user will write it.
    ("The trench needs the council's permission. I could draft a short letter to the estates team if that helps?",
     "no you're alright on the letter, our treasurer used to work in their office", "draft a short letter to the estates team",
     "declines what the assistant just offered"),
    ("Root cause is settled. Want me to draft the postmortem from this thread?",
     "nah i'll write the postmortem myself, you'd make it sound like a press release", "draft the postmortem",
     "declines what the assistant just offered"),
    (("Would you like me to put together a one-page brief for the caterer — numbers per sitting, dietary needs, "
      "arrival times, the setup of the trestle tables and the urns — and a short note you could forward to the hall committee?"),
     "ah no you're alright, the caterer is my sister-in-law, she knows the hall better than any of us",
     "put together a one-page brief for the caterer", "declines what the assistant just offered"),
    ("节目单大致就是这样。要不要我帮你写一版主持人串词？",
     "串词 主持人自己会写 不用麻烦了 另外合唱放到倒数第二个", "写一版主持人串词", "declines what the assistant just offered"),
    # Session 64: a New Zealander's "she'll be right", a "God, no" before "I'll write my own", a
    # formal 不必麻烦了 and a 不用写了 before the reason (the model read the first three NONE, the last
    # a PIVOT).
    ("Ask him about water gates where the gully line crosses the creek. Want me to draft an email to a couple of fencing contractors asking for quotes?",
     "Nah she'll be right, I'll just ring Dave. He did the neighbour's.", "draft an email to a couple of fencing contractors",
     "declines what the assistant just offered"),
    ("Want me to write a sample scene of a reckoner paying the fine, so you can hear how it sounds on the page?",
     "God, no, I'll write my own scenes, thank you - keep your mitts off the prose. But do keep going on the rules.",
     "write a sample scene of a reckoner paying the fine", "declines what the assistant just offered"),
    ("我們不打折，但會把每一本書好好地交到你手上。\n\n如果需要的話，我也可以幫您設計一張 LINE 集點卡的圖樣說明。",
     "公告寫得很溫暖，謝謝您。集點卡的部分就不用麻煩了，店員說 LINE 後台有現成的樣板可以直接套用。", "集点卡",
     "declines what the assistant just offered"),
    ("好的。需要的话，我可以帮您整理一份VR与全景图的对比表，方便周会上汇报。",
     "不必麻烦了，谢谢您，这部分我自己整理即可。我们回到办事指引模块，您觉得它应该做成什么形式比较好？", "VR与全景图的对比表",
     "declines what the assistant just offered"),
    # Session 66: an interjection before the thanks; the user will do it ("我自己寫就好"), in
    # traditional characters.
    ("Happy to help with the listing too. Would you like me to draft a short listing description for the barn?",
     "Ah no thank you, that's kind, but our Carys does all the words in this family.", "draft a short listing description for the barn",
     "declines what the assistant just offered"),
    ("季訂方案這樣就可以開賣了。要不要我幫你寫一篇粉專的季訂開賣貼文？",
     "貼文我自己寫就好，謝謝你～我比較想用自己的口氣跟客人講話", "贴文", "declines what the assistant just offered"),
    ("生成码，打印成标签发给这户，他们装瓶时贴上就行。\n\n需要的话，我可以帮你写一份给社员看的贴码说明，一步一步的，字大一点。",
     "不用写了 他们也不看字 下礼拜开社员大会我当面讲就行 再说个事 快递这块 蜂蜜怕漏 你看用啥包装好", "贴码说明",
     "declines what the assistant just offered"),
    # Session 61: kindness named with an adverb; thanks before a decline that names the offer
    # (the model read all three NONE).
    ("Would you like me to sketch out a wiring schematic with cable sizes and fuse ratings?",
     "That's awfully kind, but I think I'll leave the wiring to the electrician at the marina.",
     "sketch out a wiring schematic", "declines what the assistant just offered"),
    ("要不要我帮您画一张入库和发药的扫码流程图，贴在药房墙上？",
     "流程图就不麻烦您了，我们几个年纪大，看那种框框箭头的图反而糊涂，您用文字一条一条写清楚就行。", "流程图",
     "declines what the assistant just offered"),
    ("需要的话我可以帮你起草一页 one-pager，方便你给 principal 汇报。",
     "非常感谢您的好意，one-pager 就不用麻烦您了，我们内部有固定的 investment memo 模板。", "one-pager",
     "declines what the assistant just offered"),
    # Session 59: an offer made as "If it would help, I could also …", kindness named as a thought
    # (the model read it NONE at 0.67).
    ("Visitors should stay home if unwell. If it would help, I could also add a QR code on the poster for a short symptom self-check form.",
     "That is a kind thought, but I suspect a self-check form would create more work for our ward clerks than it would save.",
     "add a QR code on the poster for a short symptom self-check form", "declines what the assistant just offered"),
]


def test_not_today_with_thanks_declines_an_offer(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"Not today, thank you" turns down the offer (the model read NONE at 0.53); a bare "not today"
    to "anything else, e.g. …?" only ends the session (train en-life-054)."""
    reply = "The questionnaire can be reconsidered after the new DPO starts in March.\n\nWould you like me to draft the advert wording as well?"
    context = [Turn(role="user", text="recruitment plan"), Turn(role="assistant", text=reply)]
    detection = shipped_detector.detect("Not today, thank you. The sponsor supplies approved wording for all participant-facing material.", context)
    assert detection.label is Label.REJECT
    assert "declines what the assistant just offered" in detection.explanation.rule
    assert "declines what the assistant just offered" not in shipped_detector.detect("not today", context).explanation.rule


def test_a_declined_offer_is_the_target_of_the_rejection(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """The model reads "no thanks" right on its own; what it turns down is the offer, not a word of the turn."""
    reply = "Done, the outline is in the doc. Want me to draft the follow-up email too?"
    detection = shipped_detector.detect("no thanks, I'll write it myself", [Turn(role="user", text="outline my talk"), Turn(role="assistant", text=reply)])
    assert detection.label is Label.REJECT
    assert detection.target == "draft the follow-up email too"


def test_a_declined_offer_is_the_thing_offered_without_how_it_would_be_made(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """The state matches rejected options by their words: "with the sleep windows, caffeine cutoffs
    and meal times" once put caffeine, an option of its own, on the rejected list."""
    reply = "Caffeine: none after 0400. If you'd like, I can make a printable weekly calendar with the sleep windows, caffeine cutoffs and meal times laid out."
    detection = shipped_detector.detect("nah im good, ill just screenshot this", [Turn(role="user", text="plan my week"), Turn(role="assistant", text=reply)])
    assert detection.target == "make a printable weekly calendar"


def test_thanks_before_a_request_declines_nothing(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Only kindness named may take a bare "but" ("That's kind of you, but …"): "thanks, but" asks for more."""
    reply = "Here is the outline. Want me to draft the follow-up email too?"
    detection = shipped_detector.detect("thanks, but can you make the outline shorter first", [Turn(role="user", text="outline my talk"), Turn(role="assistant", text=reply)])
    assert "declines what the assistant just offered" not in detection.explanation.rule


def test_not_yet_declines_an_offer_a_sentence_of_why_follows(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Not "once", nor the first bullet of the plan above the offer."""
    reply = (
        "Updated plan:\n\n- 1 full-time senior backend engineer.\n- 2 contract-to-hire mobile devs.\n\n"
        "Want me to also plan a dedicated QA hire? With 3 new people shipping, bugs can pile up quickly."
    )
    detection = shipped_detector.detect("not yet. maybe once we have paying users", [Turn(role="user", text="staffing?"), Turn(role="assistant", text=reply)])
    assert detection.label is Label.REJECT
    assert detection.target == "plan a dedicated QA hire"


@pytest.mark.parametrize("reply", ["都改好了。还需要我做什么吗？", "Anything else I can help with?", "还有什么需要我帮忙的吗？"])
def test_a_no_to_anything_else_declines_no_offer(shipped_detector, reply: str) -> None:  # type: ignore[no-untyped-def]
    """The label guide: a plain "no" to "anything else?" declines nothing; nothing was offered."""
    detection = shipped_detector.detect("不用了", [Turn(role="user", text="帮我改下简历"), Turn(role="assistant", text=reply)])
    assert "declines what the assistant just offered" not in detection.explanation.rule


@pytest.mark.parametrize("reply, text, target, rule", _FORCED)
def test_a_ruling_rejects_its_target_whatever_the_model_says(shipped_detector, reply: str, text: str, target: str, rule: str) -> None:  # type: ignore[no-untyped-def]
    """The model may read these turns as NONE; the rule's verdict stands, with the confidence of
    a rule and the target the rule found."""
    detection = shipped_detector.detect(text, [Turn(role="user", text="it fails, help"), Turn(role="assistant", text=reply)])
    assert detection.label in (Label.REJECT, Label.PIVOT)
    assert detection.confidence >= FORBIDDING_CONFIDENCE
    assert detection.target is not None and target in detection.target
    assert rule in detection.explanation.rule


def test_a_prohibition_the_model_missed_is_a_rejection_not_a_pivot(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """With no cue and the model sure of NONE, its tiny PIVOT (0.04) outweighed its tinier REJECT
    (0.01): a prohibition that names no way to go is a REJECT."""
    reply = "I've wrapped fetch_user() in a retry decorator. Next I could add a circuit breaker with pybreaker if you'd like."
    detection = shipped_detector.detect("ok but skip the circuit breaker", [Turn(role="user", text="it times out"), Turn(role="assistant", text=reply)])
    assert detection.label is Label.REJECT
    assert "forbids an option" in detection.explanation.rule
    # The rule's confidence, not the model's NONE (0.95) it overruled.
    assert detection.confidence == FORBIDDING_CONFIDENCE


_AIRFLOW = "夜间同步我建议用 Apache Airflow：每张表一个 PythonOperator，自带重试和 Web UI 监控。"


@pytest.mark.parametrize("text", ["不用客气", "没事，不用道歉", "不用急，慢慢来", "no worries, take your time", "ok thanks!"])
def test_a_turn_of_courtesies_is_none_whatever_the_model_says(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    """The model read "不用客气" after a proposal as a polite decline of it."""
    detection = shipped_detector.detect(text, [Turn(role="user", text="每晚同步 40 张表"), Turn(role="assistant", text=_AIRFLOW)])
    assert detection.label is Label.NONE
    assert detection.target is None


@pytest.mark.parametrize("text", ["不用了，谢谢", "不用麻烦了", "no thanks", "不用急，先把 Airflow 砍了"])
def test_a_decline_or_a_verdict_beside_a_courtesy_is_no_courtesy(text: str) -> None:
    assert not is_courtesy(text)


_REDIS_AGAIN = [
    Turn(role="user", text="we need caching for the pricing service, p95 is 800ms. hard constraint: no new infra"),
    Turn(role="assistant", text="Options:\n1. A shared Redis cache\n2. An in-process LRU cache in each pod\n3. HTTP caching at the CDN"),
    Turn(role="user", text="redis is out, platform won't own another thing. in-process sounds fine"),
    Turn(role="assistant", text="If finance needs price changes to show immediately, the cleanest fix is a shared Redis with explicit invalidation on price updates."),
]
_MEALS = [
    Turn(role="user", text="帮我配一周的减脂餐"),
    Turn(role="assistant", text="三个方案：\n1. 鸡胸肉+糙米+西兰花\n2. 牛肉+红薯+菠菜\n3. 三文鱼+藜麦+芦笋"),
    Turn(role="user", text="鸡胸肉吃腻了，不要了"),
    Turn(role="assistant", text="那我建议用牛肉+红薯+菠菜，牛肉选牛里脊，每餐 150g。"),
]


@pytest.mark.parametrize("context, text, label, target", [
    # The model read the option it forbids, rejected before, as coming back.
    (_REDIS_AGAIN, "again, no redis this quarter. it's not the cost, it's platform having to own another thing",
     Label.REJECT, "a shared Redis"),
    # Beside the prohibition the turn brings back another option, which is its target.
    (_MEALS, "吃了两周，牛肉那天总是做硬。牛肉不要了，我想还是鸡胸肉，换个做法就是了", Label.REOPEN, "1(鸡胸肉"),
])
def test_a_reopening_beside_a_prohibition_is_of_another_option_or_none(
    shipped_detector, context: list[Turn], text: str, label: Label, target: str  # type: ignore[no-untyped-def]
) -> None:
    found = shipped_detector.detect(text, context)
    assert found.label is label and found.target is not None and found.target.startswith(target)


@pytest.mark.parametrize(("text", "restates"), [
    ("i said no mac. i need solidworks on my own machine for projects", True),
    ("like I said, no Redis this quarter", True),
    ("again?? 我说了不要花钱的方案。用 buildx 的 gha cache 就行", True),
    ("说了别动它", True),
    # A bare no said again, after a reply offered the rejected thing once more.
    ("I said no", True),
    ("again, no", True),
    ("we've been over this.", True),
    # Said again, then turned: the reopening the model learned stays one.
    ("i said no agencies, but these guys have actual references. could we use them?", False),
    ("no mac, too expensive", False),  # a first no, not said again
    # Session 55: the option before "说了", or between "说了" and its verb; and a reopening cue
    # that was an order to keep it out ("别加回来") or a word beginning with 回 ("用回放验证").
    ("旁路说了不搞 工程链路用回放验证就够了吧", True),
    ("扩pod我第一条消息就说了不行啊 配额满了 你怎么又绕回来了", True),
    ("说了比亚迪不看了。。老婆那关过不了的 换个型号也一样", True),
    ("KR4 那个 15% 别加回来 stretch 也说了不行", True),
    ("老板说了比亚迪不看了", False),  # someone else's no
])
def test_a_no_said_again_is_never_a_reopening(text: str, restates: bool) -> None:
    """"i said no mac" answers a reply that brought the MacBook back; read as a REOPEN, it took the
    rejection off the list at the very turn the user insisted on it."""
    from detector.cues.engine import default_engine
    from detector.detect import _restates_a_rejection
    from detector.text import normalize

    engine = default_engine()
    normalized = normalize(text)
    assert _restates_a_rejection(engine.match(normalized), normalized, engine.restating_cue_ids) is restates


def test_the_restating_cues_are_named_in_the_lexicon() -> None:
    """Which cues say a no again is the lexicon's word (`restates = true`), not a list in the code."""
    from detector.cues.engine import default_engine

    assert {"en.reject.said_no_before", "zh.reject.said_no_before"} <= default_engine().restating_cue_ids


_OPTIONS_EN = (
    "Three ways to get the events in:\n1. Nightly batch export to S3, loaded with Snowpipe.\n"
    "2. Kafka Connect streaming into Snowflake.\n3. A managed tool like Fivetran.\nI'd lean towards option 1."
)
_OPTIONS_ZH = "有三个方案：\n方案一：全屋定制柜，做整面电视墙收纳。\n方案二：成品柜加开放式书架。\n方案三：只刷墙换沙发。\n我推荐方案一。"


@pytest.mark.parametrize(
    "reply, text, taken",
    [
        (_OPTIONS_EN, "Going with option 1. Actually, let's use S3 Intelligent-Tiering instead of Standard for the bucket.",
         "Nightly batch"),
        (_OPTIONS_EN, "Option 1. Run it at 3 am UTC instead, and partition the prefix by hour.", "Nightly batch"),
        (_OPTIONS_ZH, "行，方案一。颜色别用白色了，换成浅灰。", "全屋定制柜"),
        # A part of the option taken is a detail of it.
        (_OPTIONS_EN, "ok 1 it is. swap Snowpipe for a plain COPY INTO, we don't need near-real-time.", "Nightly batch"),
        (_OPTIONS_ZH, "选方案一。把电视墙那块换成岩板，其它不变。", "全屋定制柜"),
    ],
)
def test_a_turn_that_takes_an_option_and_changes_it_drops_nothing(shipped_detector, reply: str, text: str, taken: str) -> None:  # type: ignore[no-untyped-def]
    """The label guide's parameter change: the "instead" or "别用" is about a detail of the option
    the opening sentence takes, so the turn is NONE, and the tracker records the option as decided."""
    from detector.store import MemoryStore
    from detector.tracker import ConvergenceTracker

    context = [Turn(role="user", text="help me choose"), Turn(role="assistant", text=reply)]
    detection = shipped_detector.detect(text, context)
    assert detection.label is Label.NONE, detection.explanation.rule
    tracker = ConvergenceTracker(shipped_detector, MemoryStore())
    for turn in context:
        (tracker.observe_user("c", turn.text) if turn.role == "user" else tracker.observe_assistant("c", turn))
    tracker.observe_user("c", text)
    state = tracker.state("c")
    assert not state.rejected
    assert state.current_decision is not None and taken in state.current_decision.text


_EXHIBITS = (
    "That's a common story with touring digital pieces, so let's do without it. Some low-tech options that "
    "survive touring well:\n\n- A traverse board visitors can peg, the way a watch logged a ship's course and "
    "speed, with a simple panel showing how the pegs turn into a position.\n- A working sextant, mounted and "
    "secured, aimed at a painted horizon and an artificial 'sun'.\n- A lift-the-flap panel comparing a chart "
    "from 1680 with one from 1840 of the same stretch of coast.\n\nNone of these need power, and any venue technician "
    "can fix them."
)
_OUTREACH = (
    "Sign-ups are the hard part, so it's good to plan for them. Ideas that work in small towns:\n\n- A flyer "
    "in the water bill with the keyword in big letters.\n- A sign-up table at the farmers market and the fall "
    "festival. Sign people up on the spot with their phone.\n- School take-home sheets, with the Spanish version "
    "on the back.\n- Announcements at churches and the senior center.\n- For people who never sign up, you could "
    "still load the water billing numbers as a default list with an easy opt-out."
)
_COSTS = (
    "Fair, it's been done to death lately. Other costs that suit a sea-bound magic:\n\n- Salt. Each working "
    "draws salt and water out of the reckoner's body, so they're always thirsty and cramping, and a big working "
    "can kill by dehydration.\n- Debt. Every working is recorded in the harbour ledger, and the tide collects, "
    "with interest, at a time of its choosing.\n- Cold. Reckoners take on the temperature of deep water, slowly "
    "and permanently."
)


@pytest.mark.parametrize(
    "reply, text",
    [
        # Session 64: an option praised by name as the turn opens (the model read PIVOT 0.63, PIVOT
        # 0.66 and REJECT 0.74, with no cue).
        (_EXHIBITS, (
            "The traverse board is a charming suggestion. I must apologise for the delay in replying, incidentally; "
            "we had a leak in the stores over the weekend, and I have spent rather more time with buckets and blotting "
            "paper than I should like."
        )),
        (_OUTREACH, "The flyer in the water bill is smart, they already get mail from us every month. Let's do that and the farmers market."),
        (_COSTS, (
            "Salt! Yes. Mages who are permanently parched in the wettest city in the kingdom. That's the irony I'm "
            "after. Also it means they're all drinking, which is useful for plot."
        )),
    ],
)
def test_a_turn_that_opens_by_praising_an_option_drops_nothing(shipped_detector, reply: str, text: str) -> None:  # type: ignore[no-untyped-def]
    detection = shipped_detector.detect(text, [Turn(role="user", text="help me choose"), Turn(role="assistant", text=reply)])
    assert detection.label is Label.NONE, detection.explanation.rule


@pytest.mark.parametrize(
    "text, praised",
    [
        ("The traverse board is a charming suggestion. I must apologise", "The traverse board"),
        ("the flyer is smart, they get mail from us", "the flyer"),
        ("Salt! Yes. Mages who are parched", "Salt"),
        # Negated, or turned against it: no praise.
        ("so the running plan is not for me then, my knees will cry after one week", None),
        ("Redis is smart? no", None),
    ],
)
def test_what_counts_as_praise_of_an_option_in_the_opening(text: str, praised: str | None) -> None:
    from detector.statements import praised_opening

    assert praised_opening(text) == praised


@pytest.mark.parametrize(
    "reply, text",
    [
        (_OPTIONS_EN, "nah nightly is too stale for the analysts. streaming it is, option 2."),
        (_OPTIONS_EN, "Option 2. The nightly batch is too stale for the analysts, drop option 1."),
        (_OPTIONS_ZH, "方案一太贵了，还是方案二吧。"),
        (_OPTIONS_ZH, "方案二。方案一工期太长，不考虑了。"),
        # Session 63: "take X off the list" removes X; it takes nothing.
        (_OPTIONS_EN, "Let's take option 3 off the list. A managed tool means another vendor contract, and procurement takes months."),
    ],
)
def test_a_turn_that_takes_one_option_and_drops_another_still_drops_it(shipped_detector, reply: str, text: str) -> None:  # type: ignore[no-untyped-def]
    detection = shipped_detector.detect(text, [Turn(role="user", text="help me choose"), Turn(role="assistant", text=reply)])
    assert detection.label in (Label.REJECT, Label.PIVOT)
    assert "takes the option" not in detection.explanation.rule


@pytest.mark.parametrize(
    "text",
    [
        "checkout button does nothing on safari ios 17, works everywhere else. web inspector console is empty",
        "react 项目状态管理全靠 context + useReducer，组件一多 re-render 卡成 PPT，换啥",
        "燃气热水器洗澡洗一半就灭火 变凉水 要关了再开才行 冬天才这样",
        "our api docs are a 90 page pdf lol. moving to web docs. options?",
        # Session 68: "last month" is the user's own history, and quoting "from scratch" a habit.
        ("Hiya!! I'm a wedding florist, just me and a part time helper. 1) My pricing is a total mess, I basically quote every "
         "wedding from scratch and undercharge constantly, I did a wedding last month for £1,400 and made about £6 an hour. Help!!"),
    ],
)
def test_a_first_turn_that_refers_to_no_earlier_talk_turns_nothing_down(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    """Nothing has been discussed yet: an opening request is NONE however negative its words."""
    assert shipped_detector.detect(text, [], opens_conversation=True).label is Label.NONE
    # Checked on its own, the same turn says nothing of what came before: the rule does not read it.
    assert "first turn" not in shipped_detector.detect(text, []).explanation.rule


@pytest.mark.parametrize(
    "text",
    [
        "scrap the sharding plan from yesterday. we're just going to buy a bigger instance",
        "上次聊的那个 microservices 拆分方案作废吧，team 就四个人根本 maintain 不过来",
        "the fine-tuning idea you suggested is dead. doing RAG over our docs instead",
        "上个方案作废，重新来",
    ],
)
def test_a_first_turn_may_turn_down_what_came_before_the_conversation(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    assert shipped_detector.detect(text, [], opens_conversation=True).label in (Label.REJECT, Label.PIVOT)


def test_the_first_turn_rule_reads_only_first_turns(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """The same words after a proposal are a verdict on it."""
    text = "浴缸就不考虑了，地方太小"
    context = [Turn(role="user", text="卫生间想翻新"), Turn(role="assistant", text="可以考虑装一个独立浴缸，再做干湿分离。")]
    assert shipped_detector.detect(text, context).label is Label.REJECT


def test_the_tracker_reads_its_first_turn_as_the_opening(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    from detector.store import MemoryStore
    from detector.tracker import ConvergenceTracker

    tracker = ConvergenceTracker(shipped_detector, MemoryStore())
    assert tracker.observe_user("c", "react 项目状态管理全靠 context + useReducer，组件一多 re-render 卡成 PPT，换啥") is None
    assert not tracker.state("c").rejected


_PLAN = "Here's the plan: 2 nights in Tokyo, 2 in Kanazawa, 3 in Kyoto, then fly home from Osaka on the 14th."


@pytest.mark.parametrize(
    "text",
    [
        "Love it. Make it 3 nights in Kanazawa instead of 2 though, and take the extra night from Tokyo.",
        "sounds good. my partner wants Kyoto first, so let's do that instead of ending there. rest stays the same.",
        # The approval after a word of assent (the model read PIVOT 0.72).
        "ok yeah i like that. 3 nights in Kanazawa, take the extra one from Tokyo. lets go with that",
    ],
)
def test_a_turn_that_approves_the_reply_and_adjusts_it_is_none(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="plan a week in japan"), Turn(role="assistant", text=_PLAN)]
    assert shipped_detector.detect(text, context).label is Label.NONE


@pytest.mark.parametrize("text", ["ok yeah i like that.", "Sure, that works!", "okay, that makes sense."])
def test_an_approval_may_open_with_a_word_of_assent_and_a_bare_assent_approves_nothing(text: str) -> None:
    from detector.statements import opens_with_approval

    assert opens_with_approval(f"{text} Make it 3 nights in Kanazawa instead of 2.")
    assert not opens_with_approval("Alright. We're stopping the VC raise, including that $3M offer.")


@pytest.mark.parametrize(
    "reply, text",
    [
        (_PLAN, "Looks good. Kanazawa is out though, my knee can't do the walking. Give those nights to Kyoto."),
        (_OPTIONS_EN, "Sounds good. Actually let's go with option 2 instead, the analysts want fresher data."),
    ],
)
def test_an_approval_before_a_verdict_or_a_named_option_leaves_the_verdict(shipped_detector, reply: str, text: str) -> None:  # type: ignore[no-untyped-def]
    detection = shipped_detector.detect(text, [Turn(role="user", text="help"), Turn(role="assistant", text=reply)])
    assert "approving the reply" not in detection.explanation.rule


@pytest.mark.parametrize(
    "text",
    [
        "owner wants to scrap the scone program because 'nobody orders scones'. they're 4% of sales at 80% margin, not happening",
        "sales is lobbying hard to kill the waitlist and do SMS because two prospects asked. I'm not reshuffling the roadmap for two deals",
        "老板非要把直播砍掉，说投入产出不划算，我不同意，直播是我们唯一的新客来源",
        # Someone's verdict said or quoted, the user's stand in other words, in a long update.
        ('Quick update. My sister rang last night and said, quite bluntly, "no way we sell the cabin, Grandpa built it". '
        "I get why she feels that way, but I'm not treating selling as off the table yet. Can you list what we'd need to check first?"),
        ("昨天跟仓库主管开会，他拍着桌子说“自动分拣线太贵了，我建议直接放弃，还是靠人工”。我回去把账算了一遍，"
        "两年就能回本，主管的意见我没采纳，分拣线照常上。你帮我想想怎么跟他沟通比较好？"),
        "导师看了开题报告，说样本太小，建议我换成纵向追踪。我有点不服气，横断面设计是合理的，我还是打算按原来的设计做，只是想听听你的看法。",
        # A return someone else wants (the model read a reopening, 0.86).
        "offline 出来了 AUC +0.3%，没到目标。老板看了说要不还是回去搞 LightGBM 加 feature 吧，but I disagree，那条路真的榨干了",
        # A role typed in English, words between it and the verb; the stand as "我还是觉得", "不用理他".
        ("我 lead 其实想直接砍掉 online serving 这部分, 全部 batch precompute 好塞进 model service 的 local cache. "
        "但 fraud 那边很多 feature 是 5 分钟窗口的, batch 根本来不及, 所以我不同意他这个想法"),
        "我 cofounder 刚在 slack 说还是想 test 去掉 Starter, 他觉得 Starter 在 cannibalize Pro. 我还是觉得风险太大, 不想动, 先专心做 CTA test",
        # A C-level role typed in English (session 71).
        "我们 CFO 觉得外包就是烧钱，想把这个方案直接 kill 掉，但我不同意，外包这半年其实省了不少人力。帮我整理几个论点",
        "My manager reckons we should just tell them to drop Kotlin and hire a Java person. I think that'd be a mistake, their whole app is Kotlin.",
        # Session 71's last round: a department and its person, "扔掉", "全停", "我 disagree", "不敢苟同".
        "还有个事，运营部 Kevin 说公众号推送全停，他觉得打开率太低。我倒觉着他想多了，老用户的复购一半是推送带来的。",
        "我们组长的意思是 Jenkins 直接扔掉，全换 GitLab CI。我不太认同，迁移成本太高，插件也没对齐。你怎么看？",
        "PM 那边想把 cache 层整个砍掉省成本，我 disagree，砍了 p99 又要回到两秒。",
        "另有一事：财务部同事主张取消年会，理由是预算紧张。本人对此不敢苟同，年会兼具表彰之用，请代拟几点意见。",
        # The stand in Wu speech ("伊拎不清": he is muddled).
        "阿拉老板刚刚讲 CRM 干脆不要搞了，直接用 Excel 算了。我觉得伊拎不清，客户一多 Excel 根本管不牢，侬帮我理几条理由我去跟伊 argue。",
        "我老公刚看了说踢脚线藏线太low了 还是想开槽 但他从来不管装修的事就嘴上说说 不用理他 还是按踢脚线这个弄",
        "我导觉得TR-C没戏 说我们交通理论那块太薄 大概率直接拒稿 不过我倒想赌一把",
        "我 skip-level 觉得 onboarding 那条跟 HR 的 onboarding metric 重复，想让我删掉，我觉得 not really，HR 管的是入职流程不是 dev env，先留着",
        # A sister; a colleague against whom the user says it can still be saved; a misunderstanding.
        "我姐说要不别跑北京了 就在市里看看得了 我不太同意 市里那台机器根本查不出来",
        "同事看了后台数据说别折腾了 直接停更去做视频 我觉得这个号还能救一救 不想就这么停了",
        "finance 那边好像误会了，以为我要把年度预算也砍掉，不是这个意思，我只调季度那部分",
        "我妈打电话说上海那场干脆别办了 都回老家办 那肯定不行 我同事朋友都在上海 你别听她的",
        "室友说日记法太麻烦 让我还是发问卷算了 我不太同意 日记法能看到每天的变化",
        # Session 47: HR and 主任 as parties, a colleague by surname, 撤了 / 废了 / 换掉 as the change;
        # the stand as keeping the course ("我这边还是按国产走"), the view made the other's alone
        # ("那是他个人意见"), holding the change off ("我跟他说先别急", "我觉得没必要折腾").
        "我们HR说技术社区发帖这条要砍掉，说去年发过没人理。我不太同意，去年那帖子写得太水了，这次我自己写，留着。",
        "今天开会财务总监又说国产的不靠谱 想把国产MES这条整个砍掉 但我觉得他是没见过现在国产的东西 所以我这边还是按国产走 你别受他影响",
        "信息科主任昨天跟我说 他的想法是明年干脆把excel这套也废了 全部走HIS 但那是他个人意见 我们现在还是按excel推",
        "我们组长看了说单车这个题太烂大街了 想换掉重新选 我跟他说先别急 题目普通没关系 做深一点也能拿高分",
        "我们 DBA 老张一直在嚷嚷 Delta 不行，要整个换成 Iceberg。我觉得没必要折腾，Databricks 上 Delta 支持最好",
        "我老婆其实一直想把店里那四张堂食桌撤了，腾出地方放烘焙设备。我是觉得不能撤，好多熟客就是下午来坐一坐的",
        # Session 48: the party's "不值" / "没前途" / "瞎折腾", and the user paying it no heed.
        "我妈刚打电话来 说猫生病花这个钱不值 还不如再养一只 气死我了 我肯定不听她的啊 他就是我家孩子 该治还得治",
        "我老公今天泼我冷水 说现在做号的比看号的还多 没前途 让我别瞎折腾了 我才不理他 先干三个月看看",
        # Session 49: "我自己不这么想", "我才不听呢", "我想留着".
        "我爸的意思是官司太耗人了 让我别告了 认了算了 但我自己不这么想 这是我应得的钱",
        "我婆婆说狗老了就别花钱做手术了 顺其自然 我才不听呢 它跟了我们十年",
        "合伙人说 Notion 以后要收费 想直接砍掉 换成飞书文档 但我觉得 wiki 那块太顺手了 我想留着",
        # The change said in passing or to come ("just pinged that we should", "might tell me to").
        "fyi my lead just pinged that we should kill the analytics replica plan and tell the metabase folks to live with it. I don't agree and it's half built anyway, so keep going",
        "My supervisor might tell me to skip the theoretical framework section since ch1 covers it, idk, I'd rather keep a short version.",
        "孩子爷爷昨天打电话来说，春运这么挤，要不今年就别回了，视频拜个年就行。我们已经三年没回去了，老人嘴上这么说心里肯定想",
        # Someone urging a course, whatever its verb, and the user not taking it.
        'my bf says i should just double it to $760 and "see who sticks around" which... no. i\'m not doing that, 550 feels right.',
        'My mum reckons family day care "isn\'t proper childcare" and we should just go with the big centre. So I\'m not swayed.',
        # Session 52: another course wanted in its place ("wants us to … instead"), and the stand as
        # "that's a mistake" or a bare "sticking with".
        "ceo wants us to do the mobile app instead, but honestly I think that's a mistake. sticking with xero",
        # Session 54: what the party made of it at once ("第一反应是 … pass"), and the user arguing back.
        "我老板看到价格第一反应是 PagerDuty 太贵直接 pass，but honestly I think it's nothing compared to 一次 3 小时的 outage，我会去跟他 argue 的",
        # Session 55: an English verb typed in a Chinese turn, and "我个人不太同意".
        "我们 VP 看了说 devex survey 那个 O 太软 想直接 drop 掉 我个人不太同意 survey 是唯一能反映大家体感的东西 你帮我想想怎么说服他",
        # Session 64: "说不用做", a producer who "看到 … 就想" scrap it, and the alarm played down.
        "network 这块我 manager 说不用做, 他觉得 customer 不会因为 signal 走 lah, 都是 price. but 我不同意 leh, east side 那边 coverage 很差. 我想 try",
        "producer 看到 APK 130MB 就想把整个 Godot migration scrap 掉, 回 Unity 6 算了. 我觉得没那么严重, size 应该能压下来. 你看有什么办法",
        "我们 sales director 一直在 push 说要把小红书预算全砍了, all in 抖音. 我个人是不同意的, 新品不种草, 抖音直播间根本没人搜",
        # Session 68: 提出 as the wanting, 场长 as a party, 换新 and 不太想搞 as the change, "I do not
        # concur", a bare "Don't agree.", "bin" and a suggestion made "at two consecutive work sessions".
        "昨天院长办公会上，分管副院长提出原厂商那条路应该直接放弃，理由是老厂商不行了。我个人并不认同这个判断，问题主要在于新版本是否成熟。",
        "没有。场长的意思是干脆整台齿轮箱换新的，一劳永逸。我不同意，箱子才跑了六年，换整台纯属浪费钱。你别管他，接着说备件怎么弄。",
        "tech lead 说 OpenFGA 太重，要多维护一个 service，他不太想搞。我个人觉得还好，managed 的 Okta FGA 也可以考虑吧？",
        "Board Member Hargrove has suggested at two consecutive work sessions that we simply drop the RFP concept and renew with Tri-County. I do not concur with that position.",
        "Ops director wants to bin the solver idea outright, says we haven't got the people to maintain it. Don't agree. Got two analysts doing weekly Excel reports.",
        # Round twenty-nine: 想直接上 as urging, 不完全同意, "she's havering".
        "设备科长想直接上封闭式那套，说售后省心，一个电话搞定。我不完全同意，试剂锁死一家，往后五年议价我们一点底气都没有。",
        "My head distiller, Morag, says we should drop the tasting bar from the extension and put that money into a second tour route. I think she's havering.",
    ],
)
def test_a_change_someone_else_wants_and_the_user_opposes_is_none(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="roadmap help"), Turn(role="assistant", text="Here is the plan for next quarter.")]
    assert shipped_detector.detect(text, context).label is Label.NONE


@pytest.mark.parametrize(
    "text",
    [
        "my boss wants to drop redis, and honestly he's right. let's drop it",
        "owner wants to scrap the scone program and I agree, they don't sell. scrap it",
        # The "no way" is the landlord's, and the user takes it: nothing the user stands on.
        "landlord says no way on the dog, the lease is strict about pets. so the flat on Elm street is out",
        # "先别急" said to the assistant is no stand against the report (train s22zhlife-022).
        "签证中心说预约一直都是满的，没办法加急。所以冰岛这次是去不成了。你先别急着给我推荐别的地方",
        # The user is the one who says "we should".
        "I think we should drop redis. it's one more thing to run",
        "the ceo wants us to do the mobile app instead, and honestly he's right. let's do it",
    ],
)
def test_a_change_someone_else_wants_and_the_user_takes_is_no_hearsay(text: str) -> None:
    from detector.hearsay import opposed_hearsay

    assert not opposed_hearsay(text)


def test_the_party_called_unreasonable_is_a_stand_against_the_report() -> None:
    """Round twenty-eight: "I think she's being a bit of a misery guts" (the model read a rejection)."""
    from detector.hearsay import opposed_hearsay

    assert opposed_hearsay(
        "Go on. I'll warn you though, my business partner Siobhán reckons we should ditch the hotel idea altogether, "
        "says it's notions. I think she's being a bit of a misery guts to be honest, but I'd like numbers before I argue with her."
    )


@pytest.mark.parametrize("text", [
    "我先生觉得 biology = 没前途 lol 你怎么看",
    "my boss says we should just drop redis and live with the latency. what do you think?",
])
def test_a_report_put_to_the_assistant_is_not_taken_up(text: str) -> None:
    from detector.hearsay import opposed_hearsay

    assert opposed_hearsay(text)


def test_a_verdict_reported_and_put_to_the_assistant_is_no_rejection(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """The label guide's reported rejection: the user asks the assistant's view of it and takes it
    up neither way, so the turn is NONE (the model read it as REJECT 0.92)."""
    context = [Turn(role="user", text="college plan for my son"), Turn(role="assistant", text="1. Princeton SCEA 2. Rutgers Honors")]
    text = "Princeton calculator 跑了 大概 $60k/yr. 另外 Kevin 想做 computational biology. 我先生觉得 biology = 没前途 lol 你怎么看"
    detection = shipped_detector.detect(text, context)
    assert detection.label is Label.NONE
    assert "puts it to the assistant" in detection.explanation.rule


def test_a_verdict_of_the_users_own_before_the_hearsay_keeps_the_turn(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """A long update may drop one option in its own words and then report, and oppose, someone
    else's view on another: the drop stands."""
    from detector.hearsay import opposed_hearsay

    text = (
        "灰度发布这块先不做了，等监控平台上线再说，现在连基础告警都没有。\n\n"
        "另外运维组长看了方案，建议我们干脆把健康检查也去掉，省得误报。我不太认同，健康检查是底线，照常保留。"
    )
    context = [Turn(role="user", text="上线方案"), Turn(role="assistant", text="建议：1. 灰度发布；2. 健康检查；3. 回滚脚本。")]
    assert opposed_hearsay(text)  # the report and the stand alone
    assert shipped_detector.detect(text, context).label is Label.REJECT


# -- pauses that keep the option (pauses.py) -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        ("周报的事跟你说一下：年会抽奖那部分先放一放，等预算批下来再说，不是取消。\n\n"
        "原因是财务这周在关账，谁都没空审批。你先帮我把茶歇和场地的清单列出来吧，另外签到要不要用小程序？"),
        ("On the referral bonus, I still like it, I think our alumni would actually use it. Just not this quarter, "
        "we're mid budget freeze and I don't want to promise money I can't pay. Keep it on the list and bring it up in January."),
        "let's park the dark mode toggle for now, not killing it, I want the onboarding flow done first",
    ],
)
def test_a_pause_that_says_the_option_stays_is_none(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    context = [
        Turn(role="user", text="plan help"),
        Turn(role="assistant", text="Options: 1. a referral bonus; 2. a dark mode toggle; 3. 年会抽奖; 4. onboarding flow."),
    ]
    assert shipped_detector.detect(text, context).label is Label.NONE


@pytest.mark.parametrize(
    "text, verdicts, kept",
    [
        ("签到小程序先放着，不是不要哦，这周先不讨论", [], True),
        # "不是不要X，是不要只有X" sets one thing against another; it keeps nothing.
        ("客户不是不要折扣，是不要只有折扣", [], False),
        # A verdict in another point of the message drops something else: the turn keeps its label.
        ("1. 小程序先放一放，不是不做。\n2. 现场抽奖不搞了，直接排除。", [28], False),
        ("1. 小程序先放一放，不是不做。\n2. 现场抽奖照常。", [6], True),
        # Only the talk pauses: "先不讨论", "先不聊了" (not "先不管了", which more often drops it).
        ("年会抽奖那个先不讨论了，财务要先核一下预算，等他们回复再说", [], True),
        ("小程序先不聊这个了，下周再说", [], True),
        # Session 59: "forget X for a sec" sets the talk of it aside, for a moment.
        ("forget cyberpunk for a sec lol. how loud is this thing gonna be", [0], True),
        ("forget cyberpunk, it won't run at 60 anyway", [0], False),
        ("先不唠这个了 你说探店那个 找网红得多钱", [], True),
        ("加副本要半小时，先不管了，直接在应用层加个缓存", [], False),
        # Session 61: an order not to strike the option off keeps it ("先别排除", "先别从列表里拿掉").
        ("CFO 说 Anaplan 太贵了 但我觉得价格是可以谈的 先别排除", [10], True),
        ("CTO还没拍板，所以自研先别从列表里拿掉", [10], True),
        ("自研太贵，排除", [3], False),
        # Session 62: "不是不去" keeps a place as "不是不要" keeps an option.
        ("这回还是按原计划走 莫干山先放着 不是不去 等秋天再说", [], True),
    ],
)
def test_what_counts_as_a_pause_that_keeps_the_option(text: str, verdicts: list[int], kept: bool) -> None:
    from detector.pauses import keeps_the_option

    assert keeps_the_option(text, verdicts) is kept


def test_answers_to_clarifying_questions_forbid_nothing(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """A reply that lists questions offers no options: "- no renters insurance" answers one."""
    reply = (
        "Happy to help plan the move. Questions before I draft a budget:\n- What is your monthly income after tax?\n"
        "- Do you have renters insurance already?\n- Is a car part of the plan, or will you rely on transit?"
    )
    text = "Answers:\n- about $4,100 a month after tax\n- no renters insurance, I let it lapse last year\n- no car, transit only\nCan you draft the budget now?"
    context = [Turn(role="user", text="moving to Chicago in May"), Turn(role="assistant", text=reply)]
    assert shipped_detector.detect(text, context).label is Label.NONE


@pytest.mark.parametrize("text", ["别加重试", "不要重试装饰器，这是掩盖问题，去查真正的竞态"])
def test_forbidding_what_the_agent_said_it_would_do_to_something_is_a_rejection(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    reply = "我给这几个不稳定的登录测试加一个重试装饰器，失败时最多重跑 3 次。现在就改 tests/test_login.py。"
    context = [Turn(role="user", text="登录的测试老是偶发失败，修一下"), Turn(role="assistant", text=reply)]
    detection = shipped_detector.detect(text, context)
    assert detection.label is Label.REJECT
    assert detection.target is not None and "重试装饰器" in detection.target


@pytest.mark.parametrize("text", ["？？", "??", "!!!", "…", "?! 🙄"])
def test_a_turn_with_no_words_is_none_whatever_the_model_says(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    """The model read "？？" after a reply as a rejection (0.90) of the option its context fell on."""
    detection = shipped_detector.detect(text, [Turn(role="user", text="每晚同步 40 张表"), Turn(role="assistant", text=_AIRFLOW)])
    assert detection.label is Label.NONE
    assert detection.target is None


_LAPTOPS = "That leaves the Legion Pro 7i and the ProArt P16 as the real contenders. The Legion is faster, the ProArt lighter."


@pytest.mark.parametrize("text, ruled", [
    ("legion vs proart. just pick one", True),  # the model read a pivot away from Legion, 0.69
    ("legion or proart? you pick", True),
    ("nah, legion or proart? you pick", False),  # a no beside the request keeps the model's reading
    ("legion is too heavy. proart or the xps, which one", False),
])
def test_a_turn_that_only_hands_the_choice_back_turns_nothing_down(shipped_detector, text: str, ruled: bool) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="laptop for 4k editing, 2k budget"), Turn(role="assistant", text=_LAPTOPS)]
    detection = shipped_detector.detect(text, context)
    if ruled:  # NONE, by the rule where the model read a turn-down
        assert detection.label is Label.NONE
    else:
        assert "hands the choice between two options" not in detection.explanation.rule


def test_a_format_instruction_forbids_no_option_that_shares_its_characters(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"别用表格" is about the reply; an option whose description says "内表格式" is not forbidden
    (the rule had forced a PIVOT of 存储, and the guard then read every 对象存储 as a relapse)."""
    reply = (
        "大致架构：\n- FE：3 节点高可用，负责元数据和查询规划。\n"
        "- 存储：对象存储作为主存储，表数据以 StarRocks 内表格式落在上面。\n- 调度：Azkaban 先保留。"
    )
    context = [Turn(role="user", text="数仓迁移怎么搞"), Turn(role="assistant", text=reply)]
    detection = shipped_detector.detect("下面的内容别用表格了，我要转给老板，他只在手机上看，分点写就行。", context)
    assert "forbids an option" not in detection.explanation.rule


def test_a_return_the_same_sentence_weighs_with_a_question_returns_to_nothing(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"现在是回到窗口开始，会不会太宽容？" describes how the game behaves and asks about it."""
    reply = "核心循环可以是：\n1. 在退潮窗口内赶到某个地点\n2. 收集前任看守人的日记碎片"
    context = [Turn(role="user", text="帮我想想玩法"), Turn(role="assistant", text=reply)]
    text = "说说被困住的处理：玩家没赶在涨潮前回来，现在是回到窗口开始，会不会太宽容？"
    assert shipped_detector.detect(text, context).label is Label.NONE


@pytest.mark.parametrize(
    "text",
    [
        # Voice-typed corrections of a number, no punctuation, the numbers in words.
        "等下等下 装修贷不是十二万 我刚打开app看了 剩十五万零三百 利率是对的四点八 车贷那个没错",
        "你这个算错了吧 三万乘四点八 一年也就一千四出头 哪来的三千多",
        "等一下 我娃一岁三个月了 不是八个月 辅食那个阶段早就过了 现在跟着大人吃软饭 碎菜啥的",
        "达人报价我问过了 一条800 哪有两三百",
        # A figure the assistant made up, and a count set right in words.
        "装修贷利率你别瞎编 我们根本没问过银行 合同上写的是四点八",
        "no no, it's two loans not one, the car one is separate",
    ],
)
def test_a_short_correction_of_a_fact_is_none(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="帮我算算先还哪个贷款"),
               Turn(role="assistant", text="方案A：六万全部提前还装修贷（十二万，利率4.8%）。方案B：先还车贷。方案C：留三万应急，三万还装修贷。")]
    detection = shipped_detector.detect(text, context)
    assert detection.label is Label.NONE
    assert "corrects a number or a fact" in detection.explanation.rule


@pytest.mark.parametrize(
    "text",
    [
        "pro 定 $5/mo… scrap that, $7 吧 $5 太像玩具",
        "每周三次… 算了 forget it 还是两次 三次我坚持不了",
        "forget what i said about the budget, the board came back and it's £6k now",
    ],
)
def test_a_figure_of_the_users_own_taken_back_is_none(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    """"scrap that" and "算了" drop the number the user just gave, not a direction: a parameter change."""
    context = [Turn(role="user", text="help me price it"), Turn(role="assistant", text="A: freemium + pro. B: one-time purchase. C: lifetime deal.")]
    detection = shipped_detector.detect(text, context)
    assert detection.label is Label.NONE
    assert "takes back a figure of its own" in detection.explanation.rule


@pytest.mark.parametrize("text, taken_back", [
    ("7.5 不对 是 9", True), ("$119/mo, no wait, $139", True), ("scratch what I said about 3 nights, we can do 4", True),
    ("forget the 30s i said, fills are sparse overnight. make it 90s", True),
    ("1 这条 forget it，走 2", False), ("意蜂 forget it，两箱中蜂就够", False), ("forget what i said about Redis, we can run it", False),
    ("2 算了 手续费要三成 还是走 3", False), ("3 forget it, it needs 2 more servers", False),
])
def test_a_figure_taken_back_is_told_from_an_option_taken_back(text: str, taken_back: bool) -> None:
    from detector.corrections import takes_back_its_own_figure

    assert takes_back_its_own_figure(text) is taken_back


def test_taking_made_up_figures_out_is_no_correction() -> None:
    """"这数字哪来的?? … 全撤了 别瞎编" orders the made-up figures out: a verdict, not a correction."""
    from detector.corrections import corrects_a_fact

    assert corrects_a_fact("这数字你别瞎编 我们根本没算过")
    assert not corrects_a_fact("这数字哪来的?? 我没给过你啊 全撤了 别瞎编")


def test_a_correction_that_also_turns_elsewhere_is_not_read_as_one(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Only a short REJECT with no cue: "HMAC 让对方自己实现签名，肯定一堆人算错，不选。OAuth2 吧" goes on
    to say where to go."""
    context = [Turn(role="user", text="webhook 怎么鉴权"), Turn(role="assistant", text="1. HMAC 签名 2. OAuth2 client credentials 3. mTLS")]
    detection = shipped_detector.detect("HMAC 让对方自己实现签名，肯定一堆人算错，不选。OAuth2 吧", context)
    assert detection.label is Label.PIVOT


@pytest.mark.parametrize(("first", "reply", "text", "target"), [
    ("the RCT thing is a non-starter. no control group, we're a library",
     "On evaluation, you could add rigor cheaply: sessions are oversubscribed, so a waitlist comparison group forms on its own.",
     "no comparison group, waitlist or otherwise. we went over this", "comparison group"),
    ("公众号先不做 以后再说", "另外可以同步开一个公众号，把视频文字版发上去，长尾流量不错。",
     "公众号前面说了以后再说 现在别给我加活 一周一更都够呛", "公众号"),
    # Session 55: "你怎么又绕回来了", "we literally just did".
    ("扩容不行 配额满了", "两手一起做：maxPerRoute 提到 50，同时扩容到 16 个 pod。",
     "扩容不行啊 配额满了 你怎么又绕回来了", "扩容"),
    ("okta is out, their pricing page says contact sales, so no", "Honestly, Okta's workforce plan would give you SCIM and device trust in one place.",
     "we literally just did the okta thing. contact sales. no. what can google do natively", "okta"),
    # Session 59: the return called out, a no by itself ("又来了", "前面不是删了吗"); an earlier no only
    # the cue layer reads ("直接 pass", "is out"), a name at a sentence's end ("quickbooks."), "we've
    # been over this".
    ("DiD 直接 pass，随机化本来就保证了两组同时吃到 push", "结论里可以再补一句：用 DiD 做稳健性检验。",
     "DiD 又来了… 最后那句删掉", "DiD"),
    ("头部 KOL 就别找了，一条 80 万", "Key activations: 头部 KOL 一位，负责首发日声量。",
     "头部 KOL 前面不是删了吗 预算里根本没这笔钱", "KOL"),
    ("quickbooks is out. my brother in law pays 35 a month for it", "For mileage, QuickBooks tracks every drive automatically.",
     "i said no quickbooks. any version.", "quickbooks"),
    ("self-hosting airflow is a non-starter, we have two people", "For a fair baseline, self-hosting Airflow on EKS stays the cheapest fallback.",
     "mate. we've been over this, not self-hosting airflow", "self-hosting airflow"),
    # Session 60: more ways to call a return out, in a longer turn that goes on to other business;
    # the name in the sentence that calls it out, else the one the turn names first; a concession
    # before the call-out leads up to it.
    ("No app for the farmers, they have feature phones", "For farmers who want price history, a simple Android app could come later.",
     ("Again with the app? I told you from the beginning, yam phones! No app for the farmers please, even later. "
      "If they want history they can dial the USSD and we can add a last 4 weeks option to the menu."), "app"),
    ("terragrunt is out, another binary and another DSL to page me at 3am", "Terragrunt's dependency blocks would handle that ordering for free.",
     ("the ID format was it, cheers, had the role ARN in there instead of the name. but you've snuck terragrunt back in "
      "at the end there like a sock in a duvet cover. the Makefile already runs iam before apps."), "terragrunt"),
    ("broad 不留了 直接关 一周烧 $55 卖 $57", "另外建议把 broad 以 $0.30 的低价重新开起来捡漏，预算 $5/天。",
     "broad 上周就关了呀 你又绕回来了🙄 低价也不开", "broad"),
    ("配件降权不行 运营那关过不去", "方案：配件统一乘 0.5，再加一个向量兜底，品牌词典也可以补上。",
     "配件统一乘0.5 这个前面不是说了运营那关过不去吗 怎么又来了 品牌词典这个可以", "配件"),
    # Session 61: the northern 不整; a long turn that says its no and "I said" first, then goes on
    # (the name a plural of the reply's); the name in the clause that says it was said, not a
    # longer one after it.
    ("满减不整 利润本来就薄", "活动建议：满 80 减 15，再配一个满减券包。", "满减不是说了不整吗 你这记性", "满减"),
    ("no influencers. we burned 40k on that in 2022",
     "UK plan: merchant tastings, and a micro-influencer seeding round with London wine accounts.",
     ("no influencers. I said. not micro, not macro, not nano. anyway – which competitions actually move bottles "
      "in UK indie shops? does a Decanter medal still mean anything or does everyone have one by now?"), "influencers"),
    ("仓库不行 没窗户，练习卷也不要印太多", "可以借用仓库当自习室，练习卷放在门口的架子上。",
     "仓库那个都说过了 没窗户 我老婆也守不了夜. 别的学校的话 实验小学倒是可以试 小学练习卷多", "仓库"),
    # Session 63: the no said again as "不去" (a place); a return called out as the reply's doing.
    ("Ealing 不去 离公司太远", "预算内的话，Ealing 和 Acton 的一居室都在 1,400 左右。",
     "Ealing 我不是说了不去嘛 通勤一个半小时", "Ealing"),
    ("no set visiting hours, the board ended them last year",
     "Draft policy: open visiting from 8 am to 8 pm, with set visiting hours on the surgical ward during rounds.",
     "I may be misreading, but the draft appears to reintroduce set visiting hours on the surgical ward.",
     "set visiting hours on the surgical ward"),
    ("no set visiting hours, the board ended them last year",
     "Draft policy: open visiting from 8 am to 8 pm, with set visiting hours on the surgical ward during rounds.",
     "the last paragraph brings back set visiting hours, which the board ended", "set visiting hours"),
    # Session 64: said before as 已经说明, formally; the no ("换不了") in the clause after the one
    # that says so, in a turn over 120 characters that goes on to other business.
    ("消息队列的方案，建议暂不考虑。引入新的中间件需要走立项和等保评估，周期至少半年。",
     "处理上可以请厂商把上传间隔缩短到1分钟。从长远看，更彻底的是把各条线统一接到消息队列上做实时推送。",
     "上传间隔改为1分钟可行，我会联系厂商工程师。消息队列的事前面已经说明，今年不具备条件，请不要再列入本次整改方案。", "消息队列"),
    ("框架别换，组里统一用自己的向量化框架，我一个实习生动不了。",
     "如果想从根本上避免这类问题，还是建议把回测迁到 backtrader 这种事件驱动框架，逐根K线推进。",
     ("框架的事说过了，换不了。\n给我写个检查函数，自动查未来函数：把 t 之后的数据全改成 NaN，看 t 时刻的信号变不变，"
      "再把结果按股票汇总成一张表，标出信号变了的日期和字段，表头用中文，日期用 YYYY-MM-DD，输出到 reports 目录下，文件名带上今天的日期。"), "框架"),
])
def test_a_no_said_again_to_what_the_reply_brought_back_is_a_rejection(shipped_detector, first: str, reply: str, text: str, target: str) -> None:  # type: ignore[no-untyped-def]
    """The model read both as NONE: "we went over this" and "前面说了" are as often the user's
    correction of their own words. The join with the reply and the earlier no decides."""
    context = [Turn(role="user", text=first), Turn(role="assistant", text="明白。"), Turn(role="user", text="ok"), Turn(role="assistant", text=reply)]
    detection = shipped_detector.detect(text, context)
    assert detection.label is Label.REJECT
    assert detection.target == target
    assert "says its no again" in detection.explanation.rule


def test_a_call_out_with_no_name_beside_it_restates_what_the_turn_names_first(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"don't keep bringing back" names nothing; the turn named the thing first, not the longest
    name it shares with the reply ("succession scheme")."""
    from detector.restatements import restated_rejection

    context = [
        Turn(role="user", text="central kitchen cannot, the sauce is my dad's secret. succession scheme no need also"),
        Turn(role="assistant", text="Options: a succession scheme, or move prep to a central kitchen with a sealed sauce base."),
    ]
    text = "eh central kitchen we already say no right, the sauce cannot go out. don't keep bringing back haha. succession scheme got website?"
    assert restated_rejection(text, context, shipped_detector.engine) == "central kitchen"


@pytest.mark.parametrize("text", [
    "its moentech, not delta like i said earlier",  # a correction of the user's own words
    "i said no agencies, but these guys have references",  # the first half of a reopening
])
def test_i_said_is_no_restatement_by_itself(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    context = [Turn(role="user", text="no agencies, and not delta"), Turn(role="assistant", text="Then delta or an agency like moentech could work.")]
    assert "says its no again" not in shipped_detector.detect(text, context).explanation.rule


def test_what_i_said_taken_back_is_no_restatement() -> None:
    """Over 120 characters the no may sit in the clause after the one that says "I said"; a turn
    that takes back what it said says its no no more (train en-prod-019)."""
    from detector.cues.engine import default_engine
    from detector.restatements import restated_rejection

    context = [
        Turn(role="user", text="no duotone icons, it's double the drawing work"),
        Turn(role="assistant", text="Good choice, Phosphor has regular, fill, and duotone weights in one set."),
    ]
    text = "wait so Phosphor gives us duotone for free? then I take back what I said about duotone, since it'd be no extra drawing work"
    assert len(text) > 120
    assert restated_rejection(text, context, default_engine()) is None


@pytest.mark.parametrize(
    ("said", "text", "target"),
    [
        # The model read it as bringing the planner back (REOPEN 0.69).
        (
            [
                "Fundraiser for 120 people, $6k budget. Staffing?",
                "Two options:\n1. Hire an event planner to run the night.\n2. Use volunteers with a written run sheet.",
                "no event planner, we can't afford one. volunteers it is",
                "Great. For the night, bring in a part-time coordinator to manage the volunteers.",
            ],
            "isn't the coordinator just the event planner again? no. volunteers run it.",
            "coordinator",
        ),
        # The model read the round's turn REOPEN, this one NONE.
        (
            [
                "OTA 升级后砖了十几台 ESP32 reset reason 是 TASK_WDT",
                "可能原因：\n1. 写 flash 时掉电\n2. 分区表写坏",
                "不是掉电 电池都是满电才推的",
                "那也可能是 brown-out，电压瞬间跌落导致复位。",
            ],
            "brown-out 就是掉电吧… 都说了电是满的 😑 而且 reset reason 是 TASK_WDT 不是 BROWNOUT",
            "brown-out",
        ),
    ],
)
def test_a_new_name_for_a_rejected_option_is_turned_down_again(shipped_detector, said: list[str], text: str, target: str) -> None:  # type: ignore[no-untyped-def]
    """The option just proposed, named as one already turned down, the no recalled: a restating
    cue, so the turn rejects the new name and never reopens the old one."""
    context = [Turn(role="user" if index % 2 == 0 else "assistant", text=turn) for index, turn in enumerate(said)]
    detection = shipped_detector.detect(text, context)
    assert detection.label is Label.REJECT
    assert detection.target == target


_SLOW_SEARCH = [
    Turn(role="user", text="the /search endpoint is slow, p95 is 2s"),
    Turn(role="assistant", text="I profiled it: most time is in the ORM query. I'd suggest adding a Redis cache in front of "
         "search_products(), keyed by the query string, with a 5 minute TTL. Alternatively we could add a composite index "
         "on (category, price). Want me to implement the cache?"),
]


@pytest.mark.parametrize("text", ["don't forget to update the changelog", "also don't forget the README", "别忘了加索引"])
def test_a_reminder_of_work_to_do_is_none(shipped_detector, text: str) -> None:  # type: ignore[no-untyped-def]
    """The model read the "don't" and the 别 of a reminder as a rejection of the proposal."""
    detection = shipped_detector.detect(text, _SLOW_SEARCH)
    assert detection.label is Label.NONE
    assert "reminders.py" in detection.explanation.rule


@pytest.mark.parametrize("text", ["don't forget we said no redis", "别忘了，缓存不要了", "我记得这个索引不行"])
def test_a_reminder_beside_another_no_is_left_to_the_cues_and_the_model(text: str) -> None:
    assert not only_reminds(text)


def test_i_am_not_persuaded_stands_against_the_report() -> None:
    """Session 63: a stand said in a formal register, after another party's "drop it"."""
    from detector.hearsay import opposed_hearsay

    assert opposed_hearsay(
        "The treasurer says nobody reads the appendix in a report like this and that I should drop it. "
        "I am not persuaded; the auditors always turn to it first."
    )


# Session 65 (round eighteen): more parties, more of their verdicts, and more of the user's stands.
@pytest.mark.parametrize("text", [
    "我老婆说积分这个东西根本没得人用，要搞就直接会员打九折。我觉得她说的不对哈，打折打多了反而掉价",
    "我们教研组长看了说水质这个题目太大了，建议别做。我倒不太同意，范围缩小一点不就行了嘛",
    "理事长昨天跟我说，搞啥平台啊，费那劲，还用Excel得了。我寻思不行啊，上头年年来查",
    "社长看了小样说太像旅游画册，想毙掉。我倒觉得不至于，调成偏冷的灰绿色调应该能出书卷气",
    "Gordon suggested at the last meeting that we scrap the whole playout idea. I told him he's off his head.",
    "我姐说 TikTok 很 cringe，叫我不要搞了。but 我觉得 her generation 不懂，我还是要试",
    # Session 66 (round nineteen): wanting the user to make the change, and "she's wrong".
    "My agent, who has the instincts of a bailiff, wants me to cut Colin's subplot altogether. I think she's wrong — it's the only warmth in the book.",
    "审核这一步，我们部门主任说干脆取消掉，让系统自动通过算了。我觉得不太妥当，善本毕竟很珍贵。",
    "学院有几位资深班主任认为UPI年代过于久远，主张放弃，改用其他新量表。但我个人认为，UPI常模数据最完整，仍然坚持使用。",
    # Round twenty-one: a northern "俺" and "可不这么想"; a party set off by a relative clause, "is of the
    # opinion that I ought to"; a Singlish "我老公 say … 不要" and "I still want to consider".
    "俺们理事长昨天说干脆不上软件了，接着用Excel得了，省钱。俺可不这么想，Excel那玩意儿一多就乱套",
    "My son-in-law, who works in marketing in Birmingham, is of the opinion that I ought to abandon print altogether. I do not share his enthusiasm in the least.",
    "我老公 say Kuo Chuan 不要, because his colleague say homework very a lot. But I think 这种 hearsay 不准 leh, I still want to consider.",
    # Session 67 (round twenty-two): a wife, a researcher and "他以为 … 主张"; the stands "想多咧",
    # "不以为然" and "我没同意".
    "我媳妇说外卖平台抽成太高，干脆别做外卖了，专心弄堂食。我觉得她想多咧，外卖还得做，现在年轻人都不爱出门。",
    "今日与老年大学的主任谈及此事，他以为书法欣赏讲座之类“太虚”，主张一概不要，只教写字。我倒不以为然。",
    "JuiceFS 这块，组里有个研究员嚷嚷要放弃 JuiceFS 直接 rsync 同步，我没同意，几十 TB 的数据扫一遍都要半天。",
    # Round twenty-three: "想把共享这事否了", doubts expressed by a council member, a supervisor's "too
    # destructive" and the user's "i think that's overblown".
    "业委会主任说外来车进来不安全，想把共享这事否了。我觉得他想多了，一年能收十几万，能补物业费缺口。",
    "one of our elected members has expressed considerable scepticism about dockless schemes, citing reports of pavement clutter elsewhere. I do not entirely share that view.",
    "my supervisor reckons seining is 'too destructive for the meadow' but tbh i think thats overblown, we'd be hauling over the sandy edges",
    # Round twenty-four: an owner (东家) wanting the roof redone and "俺觉着没必要", a village head who
    # "胡谝", a library director and "挺想坚持", a "senior" and "我个人不这么看", "is of the view that".
    "中。说说屋面。东家想全揭了重铺，说一劳永逸，俺觉着没必要，就后坡塌了一小块。",
    "隔壁村长说租库不划算，叫我别租，我觉得他胡谝，他没算过账。租库还是能考虑。",
    "我们馆长昨天看了初步方案，说老年手机课没什么意思，想把它砍掉。但我自己其实挺想坚持的。",
    "我们组里有个 senior 说干脆 Feast 也别上了，abstraction 太 leaky，不如全部自研。我个人不这么看。",
    "our conductor, Mr Okafor, is of the view that we ought to abandon the premiere altogether. I disagree rather strongly.",
    # Round twenty-five: "的意思是干脆先不折腾 … 我觉得不得行", "建议直接取消。对此我个人并不认同", "he'd rather we scrapped".
    "院长的意思是干脆先不折腾，等县里统一上新系统再说，我觉得不得行，那个等到猴年马月哦。",
    "有几位导师在征求意见时提出，集中讲座效果不佳，建议直接取消。对此我个人并不认同。",
    "Dr Evans, our principal, has said he'd rather we scrapped the whole project and limped on. I do love him dearly but I don't agree.",
    # Session 69 (round thirty-two): the thing, then how he wants it; "我倒觉得" set against a mother's "别…".
    "Dr Okafor has emailed this morning to say he wants the staggered release idea scrapped entirely. I don't agree with him.",
    "还有个事儿。我妈说别教他用手机付钱了，怕他被骗。我倒觉得该学，现在菜市场卖菜的都贴个码。你说呢？",
    "我老板刚跑过来说，干脆买个 TMS 算了，省得折腾。我觉得他就是被那个 TMS 销售忽悠了，一年好几万，我们就报价这一个需求。anyway 你怎么看？",
    # Session 70 (round thirty-five): "我其实不同意", "但本人认为", 改回, "asked me … whether we should
    # drop", doubts held (持保留意见), the party's motive blamed ("他就是懒得跑").
    "我们老板看了一眼 repo 就说太重了，想直接砍掉。但我其实不同意，自己写的那版 bug 更多。",
    "分管领导对这种形式持保留意见，认为调性不符。但本人认为，它在年轻受众中有吸引力。",
    "我主管看到 remote 就说不准，想整个改回 in-person。但我觉得很多用户在外地，叫上来不现实。",
    "我们副校长说跟高中合作没戏，让我别费那劲。我觉得他就是懒得跑。",
    "Board chair asked me at the last meeting whether we should just drop the whole thing. I told him no way.",
    # Round thirty-six and thirty-seven: 堂客 and 讲, "她是瞎操心"; "的意见是"; "让我改成" after a long report;
    # "talking out of his arse".
    "我堂客讲莫买电车，讲电池几年就废了。我觉得她是瞎操心，现在电池都保八年。",
    "我们教研组长的意见是把实验课整个砍掉。我不同意，去年就有人实验拉胯没进省队。",
    "我室友读金融的，她说 panel regression 太 boring 了，examiner 看多了根本不会给 distinction，让我改成 mixed methods。but honestly 我觉得她说得不对。",
    "Our treasurer reckons we should scrap organised travel and let everyone make their own way. He's talking out of his arse though.",
    "My daughter is pressing hard for option D. I rather suspect she would like me to abandon chronology altogether. I am not persuaded.",
    # Round thirty-nine: "倾向直接把 … 砍掉".
    "我老板其实倾向直接把外包砍掉，他觉得自己带人太累。but honestly 我不同意，上一期外包的数据质量好太多了。",
])
def test_more_parties_and_stands_make_opposed_hearsay(text: str) -> None:
    from detector.hearsay import opposed_hearsay
    from detector.text import normalize

    assert opposed_hearsay(normalize(text))


def test_a_turn_that_opens_by_supposing_a_change_is_none(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Round eighteen's "那如果储值不搞呢？…", which the model read as a REJECT at 0.72."""
    from detector.formats import read_transcripts

    conversation = next(t for t in read_transcripts(ROUNDS / "round18.jsonl") if t.id == "r18z1")
    assert conversation.turns[10].text.startswith("那如果储值不搞呢")
    detection = shipped_detector.detect_in(conversation.turns, 10, conversation.lang)
    assert detection.label is Label.NONE
    assert "suppositions.py" in detection.explanation.rule


def test_a_supposition_beside_a_verdict_cue_is_left_to_the_cues() -> None:
    from detector.suppositions import opens_with_a_supposition

    assert opens_with_a_supposition("如果我把按本数改成按页数记呢？")
    assert opens_with_a_supposition("what if we skipped the waitlist entirely? the launch is in two weeks")
    assert not opens_with_a_supposition("储值不搞了。如果以后要做呢，再说")


@pytest.mark.parametrize("text, asks", [
    ("要不要干脆把 affiliate 也砍了，全部自己投流？达人沟通太累了，我们组就三个人。", True),
    ("对了，我刚看到另一家平台分成挺高的…要不干脆不在这边上架了，转过去？？", True),
    ("那要不然先试试 B？", True),
    ("要不干脆换成B吧", False),  # no question: a switch
    ("我需要不需要先备案？", False),  # 需要不 is no 要不
    ("说了很多。" * 40 + "要不要干脆砍了？", False),  # asked in passing in a long update
])
def test_a_short_turn_that_asks_whether_to_change(text: str, asks: bool) -> None:
    """Session 69 (round thirty-one): "要不要干脆…？" and "要不干脆…？？" asked, and read as pivots."""
    from detector.suppositions import asks_whether_to
    from detector.text import normalize

    assert asks_whether_to(normalize(text)) is asks


def test_a_return_put_as_a_hypothetical_is_none(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Round forty-two: the model read "Quick hypothetical: … go back to pure lidar + camera?" as a
    reopening (0.70); a turn that says it only asks reopens nothing either."""
    context = [
        Turn(role="user", text="雨天误检太多，感知这块怎么改？"),
        Turn(role="assistant", text="方案：1. 纯 lidar + camera 多帧融合；2. 加 radar 做 late fusion。建议 2。"),
        Turn(role="user", text="纯 lidar + camera 那个不要了，算力不够。就 late fusion。"),
        Turn(role="assistant", text="好，late fusion，radar 外参先标一遍。"),
    ]
    for text in (
        "Just asking — if the radar extrinsics keep drifting, do we go back to pure lidar + camera? 方案先不改。",
        "我只是问问：之前那个纯 lidar + camera 的方案，如果算力够了是不是可以再捡回来？",
    ):
        assert shipped_detector.detect(text, context).label is Label.NONE, text


def test_a_short_turn_asking_whether_to_drop_an_option_is_none(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    context = [
        Turn(role="user", text="新店要做海外短视频带货，内容怎么安排？"),
        Turn(role="assistant", text="建议两条腿：1. affiliate 达人带货，冷启动快；2. 品牌自己拍短视频，配英文字幕。"),
    ]
    detection = shipped_detector.detect("要不要干脆把 affiliate 也砍了，全部自己投流？达人沟通太累了，我们组就三个人。", context)
    assert detection.label is Label.NONE
    assert "suppositions.py" in detection.explanation.rule


@pytest.mark.parametrize("text, only_asks", [
    ("如果 survey 也不做，光靠 interview 够不够撑起整个 research？tutor 会不会说 sample too small？我只是先问问，还没决定要不要砍。", True),
    ("要不要把 IVF-PQ 换成 HNSW？随便问一下", True),
    ("would dropping Landsat be crazy? just asking, the committee hasn't met", True),
    ("big bang in the middle of Q4 with the freeze coming, that's just asking for it", False),
    ("Redis 不要了。顺便问一下，部署要多久？", False),
    # Session 71: a question put as a hypothetical.
    ("Quick hypothetical: if the supplier slips again, should we go back to the old distributor? 先问问，不改计划。", True),
    ("Hypothetically, if we skipped the staging deploy for docs-only changes, would anything break?", True),
])
def test_a_turn_that_says_it_only_asks(text: str, only_asks: bool) -> None:
    """Round nineteen: "如果 survey 也不做…？我只是先问问" fired two REJECT cues inside its supposition."""
    from detector.suppositions import says_it_only_asks
    from detector.text import normalize

    assert says_it_only_asks(normalize(text)) is only_asks


@pytest.mark.parametrize("reply, text, target", [
    # The offer in traditional characters, longer than sixty characters to its question mark.
    ("對了，要不要我順便幫你寫一個 Editor Window，可以在 Unity 裡直接打開 world.db、瀏覽 chunk、看每個玩家的 inventory？debug 存檔會方便很多。",
     "不用啦，我們已經用 Odin Inspector 自己兜了一個 save viewer，我自己來。", "写一个 Editor Window"),
    # The thing first, then whether it would be useful; what it would record, after a hyphen, left out.
    ("One more thing I could offer: would a template for a production log - recording each production's date and Bates range - be useful?",
     "Thank you, but no. Our office already has a standard form for that purpose.", "a template for a production log"),
    # Session 67 (round twenty-two): a formal "That will not be necessary", and Cantonese "唔使住" (not yet).
    ("I can draft the formal recommendation paper for the committee if that helps.",
     "That will not be necessary, thank you; the clerk drafts all recommendations in the school's house style.",
     "draft the formal recommendation paper for the committee"),
    ("要不要我幫你 draft 埋 landing page 嘅 copy？",
     "唔使住，copy 我哋 in-house 有個 copywriter 會寫，佢好執著㗎 😂", "draft 埋 landing page 的 copy"),
    # Session 68 (round twenty-eight): the thing named, then "暂不需要".
    ("目前已梳理的条款包括许可范围、期限和费用。需要我帮您起草一份许可合同简本，用于商标局备案吗？",
     "简本暂不需要，谢谢。客户倾向于由其长期合作的商标代理机构统一办理备案。", "简本"),
    # Session 71 (round forty-three): "Nah, don't need that".
    ("Want me to draft a simple lease template for the two of you?",
     "Nah, don't need that, my cousin's a solicitor and she'll do it for a bottle of wine. Cheers though.",
     "draft a simple lease template for the two of you"),
])
def test_more_offers_are_declined(shipped_detector, reply: str, text: str, target: str) -> None:  # type: ignore[no-untyped-def]
    detection = shipped_detector.detect(text, [Turn(role="user", text="ok"), Turn(role="assistant", text=reply)])
    assert detection.label is Label.REJECT
    assert detection.target == target


@pytest.mark.parametrize("text, owns", [
    ("Hold your horses there. The adapter hose on my gauge was leaking, and #4 reads 105. My mistake, not the engine's.", True),
    ("wait no. dupes are on payment_ref not delivery_id, i misread the output.", True),
    ("不好意思，是我记错了，周三才开会", True),
    ("不对不对，不是四根，我刚才数错了。前檐四根，东山墙里头还包着两根", True),
    # Session 68: "I got that wrong", and 刚才说错了 with the 我 left out.
    ("oops sorry no, I got that wrong, my markup is actually 3x not 2.5x, i changed it in january", True),
    ("科二8台，科三也是8台。哦不对，科三是6台，刚才说错了", True),
    ("I was wrong about Redis, let's bring it back", False),
    ("that's a mistake, drop it", False),
])
def test_a_turn_that_owns_a_mistake(text: str, owns: bool) -> None:
    """Round nineteen: two turns owning a misreading, which the model read as pivots."""
    from detector.corrections import owns_a_mistake

    assert owns_a_mistake(text) is owns


@pytest.mark.parametrize("conversation_id, index, words, why", [
    ("r19e3", 4, "My mistake", "their own"),  # a mistake owned: the plan stands
])
def test_round_nineteen_turns_the_model_read_as_verdicts_are_none(  # type: ignore[no-untyped-def]
    shipped_detector, conversation_id: str, index: int, words: str, why: str
) -> None:
    from detector.formats import read_transcripts

    conversation = next(t for t in read_transcripts(ROUNDS / "round19.jsonl") if t.id == conversation_id)
    assert words in conversation.turns[index].text
    detection = shipped_detector.detect_in(conversation.turns, index, conversation.lang)
    assert detection.label is Label.NONE
    assert why in detection.explanation.rule


def test_a_supposition_that_says_it_only_asks_is_none(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Round nineteen's "如果 survey 也不做，光靠 interview 够不够撑起整个 research？… 我只是先问问": since
    session 67 the supposition guard reaches its question across the clause between, so its cues are
    held back and the model's NONE stands; before, the rule that a turn only asks decided it."""
    from detector.formats import read_transcripts

    conversation = next(t for t in read_transcripts(ROUNDS / "round19.jsonl") if t.id == "r19m5")
    detection = shipped_detector.detect_in(conversation.turns, 6, conversation.lang)
    assert detection.label is Label.NONE
    assert {held.reason for held in detection.explanation.suppressed} == {"hypothetical"}


def test_a_number_denied_in_english_corrects_a_fact() -> None:
    """Session 65: the English of "不是十二万"."""
    from detector.corrections import corrects_a_fact

    assert corrects_a_fact("uiuc isn't 18k, that's just tuition")
    assert not corrects_a_fact("uiuc isn't worth it, the loans would be huge")


@pytest.mark.parametrize("round_file, conversation_id, index, label", [
    ("round22.jsonl", "r22z1", 16, Label.NONE),  # "你这个不对，用不了六七十平": a figure set right, 用不了 no switch
    ("round22.jsonl", "r22z5", 12, Label.PIVOT),  # "A 和 C 都跑过，效果一般。给点别的。"
    ("round22.jsonl", "r22e6", 18, Label.PIVOT),  # "Neither of those. What else is there?": the question is the request
    ("round22.jsonl", "r22m1", 18, Label.PIVOT),  # "KServe 这个 direction 我收回 … 直接 plain k8s": a withdrawal, no reopening
    ("round23.jsonl", "r23e3", 20, Label.REOPEN),  # "it might be worth reconsidering physical docking stations"
    ("round23.jsonl", "r23e4", 2, Label.REJECT),  # "Options 4 and 5 can be dismissed at once."
    ("round23.jsonl", "r23m5", 10, Label.NONE),  # "LLM 翻出来的时候把 { } 给弄乱了": a translation, nothing dug out
    ("round24.jsonl", "r24z1", 2, Label.NONE),  # "如果暂不实施 … 会受到多大影响？": a supposition that runs on for two clauses
    ("round24.jsonl", "r24z1", 18, Label.REJECT),  # "该项暂不推进"
    ("round24.jsonl", "r24z1", 22, Label.REOPEN),  # "请将此前暂缓的需求响应式公交重新纳入方案"
    ("round24.jsonl", "r24e3", 0, Label.NONE),  # an opening that says "as we were last year" refers to no earlier talk
    ("round24.jsonl", "r24m4", 16, Label.REJECT),  # "第 3 种我们应该不能用"
    ("round25.jsonl", "r25z4", 16, Label.REJECT),  # "…此前已明确本年度不予纳入，请删除": a no said again, formally
    ("round25.jsonl", "r25z6", 20, Label.REJECT),  # "第4条又是应急组那套，删。": a return called out
    ("round25.jsonl", "r25m1", 4, Label.REJECT),  # "Kubecost 直接 pass 吧。…": only rejection cues, nowhere to go, a weak PIVOT
])
def test_blind_round_turns_read_as_labelled(  # type: ignore[no-untyped-def]
    shipped_detector, round_file: str, conversation_id: str, index: int, label: Label
) -> None:
    """Session 67: turns of rounds twenty-two to twenty-five that the cues or the fusion misread (a
    switch read into "用不了", a request for other options the question guard held back, "我收回"
    after the user's own option, a supposition that runs two clauses to its question, a no said
    again formally, a weak PIVOT that names nowhere to go), each read after the mends before it."""
    from detector.formats import read_transcripts

    conversation = next(t for t in read_transcripts(ROUNDS / round_file) if t.id == conversation_id)
    assert shipped_detector.detect_in(conversation.turns, index, conversation.lang).label is label


def test_a_revisit_condition_ends_at_a_dash() -> None:
    """Session 70 (round thirty-seven): the condition ran on past the dash into what followed it."""
    from detector.detect import Detector

    detection = Detector("rules").detect("hold off on the new fryer till the March budget – the old one limps along")
    assert detection.label is Label.REJECT
    assert detection.revisit_if == "the March budget"


@pytest.mark.parametrize("text", [
    "Let us set the budget narrative aside until next week, if you don't mind; my finance officer is travelling. It remains on our list, of course.",
    "park the kapt to ksp move for now. still on the list, just not this sprint",
    # Session 69 (round thirty-two): "不是说不整", and the talk of it held: "工具先别讲".
    "软包上托盘那事儿先搁着，托盘一买老鼻子钱了，回头再唠，不是说不整。先把速比这事儿弄利索。",
    "飞书我们公司在用。anyway 工具先别讲，先把报价逻辑理顺，逻辑不对用啥工具都白搭。",
    # Session 70 (round thirty-seven): "not scrapping them".
    "Let's hold off on the new uniforms till the booster meeting – not scrapping them, I just need the parents there.",
    # Round thirty-nine: the talk of it put off ("let's not do the … convo rn", "for another evening").
    "let's not do the pricing convo rn, that's a tomorrow-me problem",
    "Let us leave the money side for another evening, please. My husband keeps those papers.",
])
def test_a_pause_that_keeps_the_option_on_the_list(text: str) -> None:
    """Round twenty-three: "It remains on our list, of course", which the model read as a REJECT at 0.76."""
    from detector.pauses import keeps_the_option
    from detector.text import normalize

    assert keeps_the_option(normalize(text))


def test_a_weak_pivot_that_names_nowhere_to_go_is_left_alone_when_a_cue_reads_a_switch(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """The rule reads only turns where the cues read a rejection and none a switch."""
    from detector.cues.engine import CueMatch
    from detector.detect import _unnamed_replacement_reject
    from detector.schema import Explanation

    def label_of(match: CueMatch, pivot: float) -> Label:
        scores = {Label.NONE: 0.0, Label.REJECT: 1.0 - pivot, Label.PIVOT: pivot, Label.REOPEN: 0.0}
        return _unnamed_replacement_reject(match, scores, pivot, Explanation(decided_by="hybrid", rule=""))[0]

    rejecting = shipped_detector.engine.match("Kubecost 直接 pass 吧")
    assert label_of(rejecting, 0.54) is Label.REJECT
    assert label_of(rejecting, 0.7) is Label.PIVOT  # the model sure of its PIVOT
    assert label_of(shipped_detector.engine.match("Kubecost 不行,换 OpenCost"), 0.54) is Label.PIVOT
    assert label_of(CueMatch(), 0.54) is Label.PIVOT


def test_what_a_revisit_condition_frames_is_nowhere_to_go(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """Session 69 (round thirty-one): "we'll look at it once …" was taken for the replacement."""
    text = "Park's out for opening. Marketing wants it, doesn't matter. We'll look at it once the builder's back in January."
    detection = shipped_detector.detect(text, [Turn(role="user", text="which runs first?"), Turn(role="assistant", text="1. Base block 2. Lynx 3. Terrain park")])
    assert detection.label is Label.REJECT
    assert detection.replacement is None
    assert detection.revisit_if is not None and "builder's back" in detection.revisit_if
