"""Options read from assistant turns as real assistants write them (alternatives.py)."""

from __future__ import annotations

import pytest

from detector.alternatives import (
    Proposal,
    content_keys,
    extract_proposals,
    label_references,
    letters_named,
    proposal_by_label,
    sole_containers,
)
from detector.text import normalize

MARKDOWN_ZH = """可以考虑以下几种方案：

**方案一：使用 Redis 集群**
- 优点：多实例共享
- 缺点：运维成本高

**方案二：本地 LRU 缓存**
- 优点：零运维

我个人更推荐方案二。"""

MARKDOWN_EN = """Here are a few approaches you could take:

### 1. Redis cluster
A centralized cache shared by all instances. **Pros:** shared state. **Cons:** ops overhead.

### 2. In-process LRU cache
Each instance keeps its own cache.

### 3. CDN edge caching
Cache responses at the edge.

I'd go with option 2 here."""


@pytest.mark.parametrize("text, expected, recommended", [
    (MARKDOWN_ZH, [("方案一", "使用 Redis 集群"), ("方案二", "本地 LRU 缓存")], "方案二"),
    (MARKDOWN_EN, [("1", "Redis cluster"), ("2", "In-process LRU cache"), ("3", "CDN edge caching")], "2"),
    ("1. **Redis cluster** — shared\n2. **In-process LRU** — zero ops", [("1", "Redis cluster"), ("2", "In-process LRU")], None),
    ("1. **Materialized view** in Postgres, refreshed by cron\n2. Use `functools.lru_cache`",
     [("1", "Materialized view in Postgres"), ("2", "Use functools.lru_cache")], None),
])
def test_markdown_options_announcements_and_recommendations(
    text: str, expected: list[tuple[str, str]], recommended: str | None
) -> None:
    """"可以考虑以下几种方案" announces the list and "我更推荐方案二" recommends a listed option:
    neither is an option of its own."""
    proposals = extract_proposals(text)
    assert [(p.label, p.name) for p in proposals] == expected
    assert [p.label for p in proposals if p.recommended] == ([recommended] if recommended else [])


def test_an_option_recommended_twice_in_one_suggestion_is_marked_once() -> None:
    """"推荐E或E+G的组合" names E on both sides of 或: the second side found E already marked, and
    marking it again once raised ValueError out of the tracker, losing the turn."""
    reply = (
        "几个新一点的方向：\n\nE. 包场livehouse：请一支乐队驻场\nF. 沉浸式戏剧包场：演员和观众互动\n"
        "G. 主题变装派对：定一个主题\n\n个人比较推荐E或E+G的组合，热闹、有记忆点。"
    )
    proposals = extract_proposals(reply)
    assert [p.label for p in proposals] == ["E", "F", "G"]
    assert [p.label for p in proposals if p.recommended] == ["E", "G"]


def test_a_suggestion_that_is_no_listed_option_is_an_option_of_its_own() -> None:
    proposals = extract_proposals("I'd suggest a managed Redis, or you could try some other cache")
    assert [(p.name, p.recommended) for p in proposals] == [("a managed Redis", True)]


@pytest.mark.parametrize("reply, name", [
    ("I'd add Redux Toolkit for the global state: a store with slices for auth and cart.", "Redux Toolkit for the global state"),
    ("For offline data, you could use Firestore with offline persistence.", "Firestore with offline persistence"),
    ("We could switch to Vite. The build would drop to seconds.", "Vite"),
    ("I'd add it as a second stretch item.", None),  # a pronoun: what it stands for was said before
    # A Chinese count word after the verb is no part of the name; a span of time is.
    ("可以考虑上一个托管的 ES 服务，运维压力小很多。", "托管的 ES 服务"),
    ("我建议加一层 Redis 缓存", "Redis 缓存"),
    ("建议台面做整块不拼接", "台面做整块不拼接"),
    ("建议一个月后再看", "一个月后再看"),
    ("我建议个人用户先用免费版", "个人用户先用免费版"),  # 个 of 个人, after no verb
])
def test_a_suggestion_in_a_coding_agents_words_is_an_option(reply: str, name: str | None) -> None:
    assert [p.name for p in extract_proposals(reply)] == ([name] if name else [])


@pytest.mark.parametrize("summary, name", [
    ("sheet pan chicken thighs with roasted veg and lemon", "sheet pan chicken thighs with roasted…"),
    ("Make the bucket requester-pays so they cover egress", "Make the bucket requester-pays so they…"),
    ("a short name", "a short name"),
])
def test_a_long_name_is_cut_at_a_word_break_and_says_so(summary: str, name: str) -> None:
    """A name cut inside a word ("…with roasted ve") reads as another thing, and no longer
    contains the name it stands for."""
    assert Proposal("1", summary).name == name


def test_a_long_bullet_is_shown_once() -> None:
    """A bullet's label is its name: shown as "React Native so you get iOS and Android…", not
    as that label followed by the same name in brackets."""
    proposals = extract_proposals("- React Native so you get iOS and Android from one codebase\n- Flutter, one codebase too")
    assert [p.display for p in proposals] == ["React Native so you get iOS and Android…", "Flutter"]


@pytest.mark.parametrize("text, expected", [
    ("Likely causes:\n1. A memory leak\n2. A sidecar (e.g. the log shipper) growing", ["1", "2"]),
    ("Take vitamin D. Then:\n1. Walk daily\n2. Sleep eight hours", ["1", "2"]),
    ("A. Redis cluster\nB. In-process LRU", ["A", "B"]),
    ("Two ways:\na) Redis cache in front of the API\nb) In-process LRU cache", ["a", "b"]),
])
def test_a_lone_letter_is_a_label_only_where_an_item_opens(text: str, expected: list[str]) -> None:
    """"e.g." and "vitamin D." are no options G and D (labelled options would hide the list)."""
    assert [p.label for p in extract_proposals(text)] == expected


def test_the_last_one_among_no_options_is_none() -> None:
    """"scrap the last option" after a reply that listed nothing points at nothing (it crashed
    the detector: the target ranker asks every recent turn, most of which list nothing)."""
    from detector.alternatives import proposal_by_label
    from detector.detect import Detector
    from detector.schema import Turn

    assert proposal_by_label("the last option", ()) is None
    detection = Detector("rules").detect("scrap the last option, go with plan B", [Turn(role="assistant", text="Sure, happy to help.")])
    assert detection.label.is_positive



TABLE_ZH = """## 可选方向

| 方案 | 改动量 | 预期收益 |
|---|---|---|
| **A. 迁移到 SSR** | 大 | 首屏 -60% |
| **B. 图片懒加载 + next/image** | 小 | 首屏 -30% |
| **C. 第三方脚本改成 `afterInteractive`** | 小 | 首屏 -20% |

我建议先做 B 和 C，成本低。"""


@pytest.mark.parametrize("text, expected, recommended", [
    (TABLE_ZH, [("A", "迁移到 SSR"), ("B", "图片懒加载 + next/image"), ("C", "第三方脚本改成 afterInteractive")], ["B", "C"]),
    ("| Option | Cost |\n|---|---|\n| Redis cluster | high |\n| In-process LRU | none |",
     [("Redis cluster", "Redis cluster"), ("In-process LRU", "In-process LRU")], []),
    ("| Metric | Value |\n|---|---|\n| p50 | 3 ms |\n| p99 | 9 ms |", [], []),  # facts, not options
    ("```ruby\nUser.find_in_batches { |b| b.update_all(x: 1) }\n```", [], []),  # code, not option b
])
def test_options_in_tables_and_suggestions_by_letter(
    text: str, expected: list[tuple[str, str]], recommended: list[str]
) -> None:
    proposals = extract_proposals(text)
    assert [(p.label, p.name) for p in proposals] == expected
    assert [p.label for p in proposals if p.recommended] == recommended


def test_a_whole_list_on_one_numbered_line_is_read_as_its_options() -> None:
    reply = "1) An in-app widget: a floating button. 2) A public board like Canny, with upvotes. 3) Periodic NPS surveys by email."
    assert [(p.label, p.summary) for p in extract_proposals(reply)] == [
        ("1", "An in-app widget: a floating button"),
        ("2", "A public board like Canny, with upvotes"),
        ("3", "Periodic NPS surveys by email"),
    ]


def test_an_option_on_a_line_too_long_to_read_whole_is_still_an_option() -> None:
    """Options that run past 160 characters are read to there, as numbered lines and bullets are:
    the first of three "方案N：" lines, 175 characters long, was dropped, and "就用方案1" then
    chose 方案2, the first option left."""
    first = (
        "方案1：next-intl + [locale] 动态段。所有页面移到 app/[locale]/ 下，URL 形如 /zh/pricing、/en/pricing，"
        "middleware 根据 cookie 或 Accept-Language 重定向；SSG 通过 generateStaticParams 为每种语言生成静态页，"
        "对 SEO 最友好，老链接 301 到带语言前缀的地址，已有收录不受影响，站点地图也要按语言分别生成。"
    )
    assert len(first) > 160
    reply = f"方案：\n{first}\n方案2：i18next 纯客户端切换，URL 不变。\n方案3：每种语言一个子域名。\n推荐方案1。"
    proposals = extract_proposals(reply)
    assert [p.label for p in proposals] == ["方案1", "方案2", "方案3"]
    assert proposals[0].summary.startswith("next-intl + [locale] 动态段") and len(proposals[0].summary) <= 160


@pytest.mark.parametrize("text, expected", [
    ("可以：A. 暑假报物理衔接班；B. 找一对一补薄弱章节；C. 自己刷题+看视频课。",
     [("A", "暑假报物理衔接班"), ("B", "找一对一补薄弱章节"), ("C", "自己刷题+看视频课")]),
    ("Best practice is: A) keep it private + CloudFront, B) keep it public for that prefix, C) move assets to a CDN.",
     [("A", "keep it private + CloudFront"), ("B", "keep it public for that prefix"), ("C", "move assets to a CDN")]),
    # A letter ending a word is no mark ("yourself)", "store. "), nor one after a word ("Plan A. Then").
    ("1) Build auth yourself (passwords and resets) 2) Use Google SSO via OIDC", [("1", "Build auth yourself (passwords and resets)"), ("2", "Use Google SSO via OIDC")]),
    ("Take vitamin D. Then rest. I got an A. B. was fine", []),
])
def test_options_lettered_inline_are_read_as_a_list(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(p.label, p.summary) for p in extract_proposals(text)] == expected


@pytest.mark.parametrize("text, expected", [
    ("一天的话：方案A 上午兵马俑，下午回城逛大雁塔；方案B 城墙骑行+碑林+回民街；方案C 华山一日游。",
     [("方案A", "上午兵马俑", "上午兵马俑，下午回城逛大雁塔"), ("方案B", "城墙骑行+碑林+回民街", "城墙骑行+碑林+回民街"),
      ("方案C", "华山一日游", "华山一日游")]),
    # A dash between Chinese characters joins a route; it is no end of the option's name.
    ("推荐两条线：路线一 昆明—大理—丽江，经典；路线二 昆明—建水—元阳，人少。",
     [("路线一", "昆明—大理—丽江", "昆明—大理—丽江，经典"), ("路线二", "昆明—建水—元阳", "昆明—建水—元阳，人少")]),
    # One label set off by a space is a remark on an option, and labels that do not count up are no list.
    ("方案A 很稳。", []),
    ("方案二 太贵；方案四 太慢。", []),
])
def test_labels_set_off_by_a_space_inline_are_a_list(text: str, expected: list[tuple[str, str, str]]) -> None:
    """Replies often write their options on one line with only a space after each label; before,
    none of them was read, and "兵马俑来回太远了" rejected a bare "兵马俑" instead of 方案A."""
    assert [(p.label, p.name, p.summary) for p in extract_proposals(text)] == expected


def test_a_short_name_in_brackets_names_the_option() -> None:
    """"the story one" points at "Option B (story): 'Last spring…'", whose text says no "story"."""
    reply = "Option A (direct): 'I'm applying because I ran campaigns.' Option B (story): 'Last spring, a campaign I ran doubled sign-ups.'"
    assert [(p.label, p.name) for p in extract_proposals(reply)] == [("Option A", "direct"), ("Option B", "story")]
    assert extract_proposals(reply)[1].summary == "story: 'Last spring, a campaign I ran doubled sign-ups.'"


@pytest.mark.parametrize("text, expected", [
    # Inline, in parentheses, "or" between them; a closing recommendation marks its option.
    (("I can fix it in two ways: (1) add a retry decorator around the network call, or (2) mock the HTTP client "
      "so the test never hits the network. I'd suggest option 2."),
     [("1", "add a retry decorator around the network call", False), ("2", "mock the HTTP client so the test never hits the network", True)]),
    ("两个排查方向：一是用 tracemalloc 在生产环境抓快照；二是在本地用 memray 复现。我建议先走第二个。",
     [("一", "用 tracemalloc 在生产环境抓快照", False), ("二", "在本地用 memray 复现", True)]),
    ("两个方向：\n一、用 tracemalloc 抓快照\n二、本地用 memray 复现", [("一", "用 tracemalloc 抓快照", False), ("二", "本地用 memray 复现", False)]),
    ("有三种做法：\n（一）用 Redis 做缓存\n（二）本地 LRU\n（三）加数据库索引",
     [("一", "用 Redis 做缓存", False), ("二", "本地 LRU", False), ("三", "加数据库索引", False)]),
    ("Options:\n(a) Redis cache\n(b) local LRU", [("a", "Redis cache", False), ("b", "local LRU", False)]),
    ("第一，用 Redis 做缓存；第二，本地 LRU。", [("一", "用 Redis 做缓存", False), ("二", "本地 LRU", False)]),
    ("有三个方向：一、给慢查询加索引；二、上 ClickHouse 做 OLAP；三、加一层 Redis 缓存。",
     [("一", "给慢查询加索引", False), ("二", "上 ClickHouse 做 OLAP", False), ("三", "加一层 Redis 缓存", False)]),
    # A second batch numbered on from the first is a list; an "e.g." ends no item.
    ("More names: 5. Splitsy 6) Penny & Co 7) Honeybudget", [("5", "Splitsy", False), ("6", "Penny & Co", False), ("7", "Honeybudget", False)]),
    ("Two ways: (1) a distributed lock (e.g. Postgres advisory locks), or (2) an idempotent sync.",
     [("1", "a distributed lock (e.g. Postgres advisory locks)", False), ("2", "an idempotent sync", False)]),
])
def test_lists_in_the_forms_replies_write_them(text: str, expected: list[tuple[str, str, bool]]) -> None:
    assert [(p.label, p.summary, p.recommended) for p in extract_proposals(text)] == expected


@pytest.mark.parametrize("text", [
    "1.5 GB is the limit, see 2. below",  # a decimal, and a lone number
    "The fund returned 3.5% last year and 0.3% this quarter; fees 1.0 and 0.8.",
    "It costs about 50. You onboard them yourself. Day 1 → Kyoto, 4 → Osaka.",  # numbers that do not count up
    "Here is what I changed:\n1. fixed the import\n3. removed the retry",
])
def test_numbers_in_running_text_are_no_list(text: str) -> None:
    assert [p for p in extract_proposals(text) if not p.recommended] == []


@pytest.mark.parametrize("text, expected", [
    # A coding agent proposes by saying what it will do; the user answers that ("no, don't add redis").
    ("I'll add a Redis cache in front of the user service to cut the p99 latency. Shall I start with the pool?",
     ["add a Redis cache in front of the user service to cut the p99 latency"]),
    ("Let me set up GitHub Actions with a matrix build for py3.9-3.12.", ["set up GitHub Actions with a matrix build for py3.9-3.12"]),
    ("The easiest path is to bump the timeout to 60s.", ["bump the timeout to 60s"]),
    ("我打算用 Kafka 做消息队列，先把 topic 规划好。", ["Kafka 做消息队列"]),
    # Talk about the talk proposes nothing, and two announced steps are a plan, not a choice.
    ("Sure, I'll leave the widget spec open.", []),
    ("Got it, I'll keep summaries to 2 sentences max. Let me know if that works.", []),
    ("I'll add the index, then I'll rerun the migration.", []),
    # Listed options win: the announcement is no option of its own.
    ("Two ways: (1) add a retry decorator, or (2) mock the HTTP client. I'll start with option 2.",
     ["add a retry decorator", "mock the HTTP client"]),
])
def test_what_the_assistant_says_it_will_do_is_its_proposal(text: str, expected: list[str]) -> None:
    proposals = extract_proposals(text)
    assert [p.summary for p in proposals] == expected
    assert all(p.recommended for p in proposals) or len(proposals) > 1


def test_content_keys_fold_a_word_s_forms_so_two_mentions_meet() -> None:
    assert content_keys("retries hide the flakiness") & content_keys("add a retry decorator") == {"retry"}
    assert content_keys("caching layers") == content_keys("cache layer")
    assert content_keys("Postgres-backed queue") >= content_keys("the postgres queue")
    # A versioned name, typed joined or hyphenated, meets itself and the name alone.
    assert {"gpt4", "gpt"} <= content_keys("gpt4其实可以再考虑下") & content_keys("调用 GPT-4 API")
    assert content_keys("vue") <= content_keys("vue3")


def test_a_versioned_name_is_mentioned_however_it_is_typed_and_a_lone_numeral_names_nothing() -> None:
    """"chatglm … pass" names "方案三：本地部署 ChatGLM-6B"; "一般" does not name "方案一"."""
    from detector.mentions import mention

    glm = Proposal(label="方案三", summary="本地部署 ChatGLM-6B")
    gpt = Proposal(label="方案一", summary="调用 GPT-4 API")
    assert mention("chatglm 我之前用过效果一般 pass。", glm) is not None
    assert mention("chatglm6b 就别试了", glm) is not None
    assert mention("chatglm 我之前用过效果一般 pass。", gpt) is None
    assert mention("方案一不行", gpt) is not None


def test_a_longer_name_in_brackets_still_names_the_option() -> None:
    """At 30 characters "(referral + co-branded onboarding)" was too long, and Plan B was no option."""
    reply = (
        "Plan A (referral credit only): 2 months free per referred firm.\n"
        "Plan B (referral + co-branded onboarding): the above plus a co-branded onboarding page.\n"
        "Plan C (rev share): 15-20% of first-year revenue."
    )
    assert [p.label for p in extract_proposals(reply)] == ["Plan A", "Plan B", "Plan C"]


def test_a_letter_no_lettered_option_carries_names_none_by_its_place() -> None:
    """With Plan A and Plan C read, "B" is not the second one read; "2" still is."""
    listed = [Proposal("Plan A", "referral credit"), Proposal("Plan C", "rev share")]
    assert proposal_by_label("B", listed) is None
    assert proposal_by_label("option 2", listed) == listed[1]


@pytest.mark.parametrize("text, letters", [
    ("Between A and B, B adds Hakone. Want me to draft B day by day?", ["A", "B", "B", "B"]),
    ("A managed Redis would do. Use a B-tree index.", []),  # the article; a letter inside a word
    ("Grade A or C, your call", ["A", "C"]),
])
def test_option_letters_in_running_text(text: str, letters: list[str]) -> None:
    assert letters_named(text) == letters


@pytest.mark.parametrize("reply, names", [
    ("A Peloton bike is a great investment if you like classes: structured workouts, tracking.", ["A Peloton bike"]),
    ("Postgres is a solid default here. It handles JSON too.", ["Postgres"]),
    ("本地 LRU 缓存是个不错的选择，零运维。", ["本地 LRU 缓存"]),
    ("This is a good choice if you have the time.", []),  # a pronoun praises what came before
    ("It is a great option for beginners.", []),
])
def test_a_suggestion_made_by_praising_its_subject_is_a_proposal(reply: str, names: list[str]) -> None:
    """"$1500? no" after "A Peloton bike is a great investment…" rejects the bike: the reply proposed it."""
    assert [p.name for p in extract_proposals(reply)] == names


@pytest.mark.parametrize("text, references", [
    ("B is out, too slow", ["B"]),
    ("I don't want a websocket server for this", []),  # the pronoun, not an option I
    ("a managed Redis is fine", []),
    # A digit opening the turn before a verdict names the option so numbered; before a count or
    # a unit it is an amount.
    ("2 不行 太重", ["2"]),
    ("1 sounds like linkedin cringe. 2", ["1"]),
    ("3 节点太多了 客户机器紧", []),
    ("5,000 resamples, the job is slow", []),
])
def test_a_capital_opening_the_turn_is_a_label_but_the_pronoun_is_not(text: str, references: list[str]) -> None:
    assert label_references(text) == references


def test_bullets_that_name_a_facet_of_each_option_are_no_options() -> None:
    """"- Cost: …" and "- Security: …" under each of three CI services: rejecting CircleCI had
    rejected "Security"."""
    reply = (
        "Comparing the other three:\n\nGitHub Actions\n- Cost: included minutes.\n- Security: no new vendor.\n\n"
        "CircleCI\n- Cost: credit-based.\n- Security: a separate vendor with repo access.\n\n"
        "Buildkite\n- Cost: per-user pricing.\n- Security: you patch the agents."
    )
    assert extract_proposals(reply) == ()
    assert [p.name for p in extract_proposals("Two ways:\n- Cost: cut the plan\n- Speed: add a cache")] == ["Cost", "Speed"]


def test_a_word_of_a_label_ending_one_line_is_no_label_of_the_next() -> None:
    """"…never release()d on some error path\\n2. **Listeners piling up**" is the second item of a
    numbered list, not an option "path 2": read as one, it hid the other three suspects."""
    reply = (
        "For an Express + pg stack, the usual suspects are:\n\n"
        "1. **pg pool leak**: a client is checked out and never released on some error path\n"
        "2. **Listeners piling up**: `.on()` called per request on a long-lived object\n"
        "3. **Unbounded in-memory cache**: a module-level `Map` that never evicts\n"
    )
    assert [p.display for p in extract_proposals(normalize(reply))] == [
        "1(pg pool leak)",
        "2(Listeners piling up)",
        "3(Unbounded in-memory cache)",
    ]


@pytest.mark.parametrize(
    "reply",
    [
        "A few questions before I plan this:\n1. What is your budget?\n2. How many guests?\n3. Indoor or outdoor?",
        "在开始之前想确认几个问题：\n1. 预算大概多少？\n2. 需要支持多少并发？\n3. 团队熟悉哪些语言？",
        "Questions for the landlord:\n- Is the deposit refundable?\n- Who pays for repairs?",
    ],
)
def test_a_list_of_questions_offers_no_options(reply: str) -> None:
    """Clarifying questions are no alternatives: "no budget limit" must reject no "1(What is your budget?)"."""
    assert extract_proposals(reply) == ()


def test_a_list_of_options_that_ends_in_a_question_is_still_options() -> None:
    reply = "Three ways to go:\n1. Redis in front of Postgres\n2. A local LRU per instance\n3. Or just a bigger instance?"
    assert [p.label for p in extract_proposals(reply)] == ["1", "2", "3"]


@pytest.mark.parametrize(
    "reply, name",
    [
        ("我给这几个不稳定的登录测试加一个重试装饰器，失败时最多重跑 3 次。现在就改 tests/test_login.py。", "重试装饰器"),
        ("我先给订单接口加个本地缓存，TTL 先设 60 秒。", "本地缓存"),
        ("我打算为导出任务引入 Celery 队列，跑完发邮件通知。", "Celery 队列"),
        # Thinking aloud, or what was done in the code above, proposes nothing.
        ("我在想要不要用 Redis。", None),
        ("我在上面的代码里用了 asyncio。", None),
        ("我在 config 里加上了重试和超时。", None),
    ],
)
def test_what_a_coding_agent_says_it_will_do_to_something_is_its_proposal(reply: str, name: str | None) -> None:
    """"我给X加Y" names the thing done to before the verb; the user's "别加重试" answers it."""
    proposals = extract_proposals(normalize(reply))
    assert [p.name for p in proposals] == ([name] if name else [])


def test_a_bare_number_recommended_is_the_listed_option_so_numbered() -> None:
    """"我推荐 3" marks option 3; it had become an option named "3"."""
    reply = "几种做法：\n1. 用 SQLite 自己写 sync\n2. 上 CouchDB\n3. 用 Firestore 的 offline persistence\n我推荐 3，开发成本最低。"
    proposals = extract_proposals(reply)
    assert [(p.label, p.recommended) for p in proposals] == [("1", False), ("2", False), ("3", True)]


def test_a_suggestion_by_a_listed_options_own_words_recommends_it() -> None:
    """"I'd go with the private room" names the listed "A private room at a restaurant": that
    option is recommended, and no second option "the private room" is added."""
    reply = (
        "A few directions:\n- A private room at a restaurant, set menu\n- A rented Airbnb with catering\n"
        "- An escape room + drinks after\nI'd go with the private room, it's the least work for you."
    )
    proposals = extract_proposals(reply)
    assert [(p.name, p.recommended) for p in proposals] == [
        ("A private room at a restaurant", True),
        ("A rented Airbnb with catering", False),
        ("An escape room + drinks after", False),
    ]


@pytest.mark.parametrize(
    ("reply", "names"),
    [
        # Two options in one suggestion; a point inside a number ends neither.
        (
            "For finishes, I'd suggest quartz worktops (~3.5k for this size) or laminate (~900) if you want budget left.",
            ["quartz worktops", "laminate"],
        ),
        ("I'd suggest Postgres or MySQL.", ["Postgres", "MySQL"]),
        ("我建议用 Redis 或者 Memcached", ["Redis", "Memcached"]),
        # One option: a count, a phrase, a list of three, an "or" in brackets.
        ("I suggest a 2 or 3 night stay.", ["a 2 or 3 night stay"]),
        ("I recommend more or less the same plan.", ["more or less the same plan"]),
        ("建议住洱海边的民宿(双廊或者才村一带)", ["住洱海边的民宿"]),
        # "可以考虑一下" proposes nothing; a sentence opened by 或者 and a verb offers the other option.
        ("其实搭一个轻量的 Airflow 也很快，可以考虑一下。", []),
        ("可以考虑一下 Redis 集群。", ["Redis 集群"]),
        ("建议放在跳板机上，用 crontab 配置。或者放在 K8s 里做 CronJob，稳定性更好。", ["放在跳板机上", "放在 K8s 里做 CronJob"]),
        ("或者你想先看看报价？", []),
        # An enumeration's last item without the word that joins it.
        ("可以考虑:TextCNN、TinyBERT、或者 fastText", ["TextCNN", "TinyBERT", "fastText"]),
    ],
)
def test_a_suggestion_of_one_thing_or_another_offers_both(reply: str, names: list[str]) -> None:
    assert [p.name for p in extract_proposals(normalize(reply))] == names


@pytest.mark.parametrize("word", ["方法", "策略", "模式", "框架", "版本"])
def test_more_chinese_words_make_a_list_label(word: str) -> None:
    # "方法1：SOTP…\n方法2：整体一组 comps…" had been read as one broken enumeration; "方法二就跳过"
    # named nothing.
    reply = f"两种做法：\n{word}1：按业务拆分估值，再加总\n{word}2：整体一组可比公司，用一个倍数"
    proposals = extract_proposals(reply)
    assert [p.label for p in proposals] == [f"{word}1", f"{word}2"]
    assert proposal_by_label(f"{word}2 就跳过", proposals) == proposals[1]


def test_a_bracketed_aside_with_enumeration_commas_is_one_item() -> None:
    assert extract_proposals("推荐一起上：React Query 管服务端数据（缓存、重试、分页），Zustand 只管纯客户端状态。") == ()
    items = extract_proposals("可选：A（便宜、慢）、B（快）、C")
    assert [p.summary for p in items] == ["A（便宜、慢）", "B（快）", "C"]


def test_a_connective_is_no_part_of_a_praised_option() -> None:
    reply = "Then the park pavilion with a taco truck is a strong option: about $900 total."
    assert [p.summary for p in extract_proposals(reply)] == ["the park pavilion with a taco truck"]


def test_the_quickest_way_a_chinese_reply_names_is_its_suggestion() -> None:
    reply = "先排查几个方向：\n1. 新版本引入的慢查询\n2. 数据库负载高\n最快的止血方式是直接回滚到上一个版本。"
    assert extract_proposals(reply)[-1] == Proposal("回滚到上一个版本", "回滚到上一个版本", recommended=True)


def test_sole_containers_finds_the_one_option_whose_name_holds_every_word() -> None:
    """One holder is the answer; two holders, none, or a text without content words, no answer."""
    options = [
        Proposal("1", "A hot air balloon ride over the valley"),
        Proposal("2", "用 tracemalloc 在生产环境抓快照"),
        Proposal("3", "Balloon twisting class for the kids"),
        Proposal("4", "A guided valley hike"),
    ]
    texts = ["hot air balloon", "tracemalloc", "balloon", "submarine", "the", "valley ride"]
    assert sole_containers(texts, options) == [options[0], options[1], None, None, None, options[0]]


def test_a_lone_proposal_has_no_place_a_label_names() -> None:
    """"回到方案一" after "建议 HNSW 索引需要 pgvector 0.5+" names no first option there."""
    assert proposal_by_label("方案一", [Proposal("HNSW 索引", "HNSW 索引需要 pgvector 0.5+")]) is None
    two = [Proposal("1", "Redis"), Proposal("2", "Memcached")]
    assert proposal_by_label("方案一", two) == two[0]


def test_questions_listed_with_a_list_comma_offer_no_options() -> None:
    reply = "剩下的方向怎么选，主要看几个问题：\n- 查询维度有几种？只按用户查，还是还有按商户、按时间范围的查询？\n- 数据冷热比例怎样？"
    assert extract_proposals(normalize(reply)) == ()
    assert [p.name for p in extract_proposals("建议配：定期寿险、重疾险、百万医疗")] == ["定期寿险", "重疾险", "百万医疗"]


@pytest.mark.parametrize("text, expected", [
    ("C is overkill. B, the replica is fine", ["C", "B"]),  # a letter standing as a sentence of its own
    ("A 不行。B 吧", ["A", "B"]),
    ("It failed. A bit slow.", []),  # an article
    ("Done. I, for one, agree.", []),  # a pronoun
])
def test_a_capital_letter_after_a_sentence_is_a_label(text: str, expected: list[str]) -> None:
    assert label_references(text) == expected


@pytest.mark.parametrize(("text", "references"), [
    ("plan a dedicated QA hire", []),
    ("want me to plan a trip to the coast", []),
    ("plan a is out", ["plan a"]),
    ("go with plan a", ["plan a"]),
    ("scrap plan a, too slow", ["plan a"]),
])
def test_the_verb_plan_and_its_article_name_no_plan_a(text: str, references: list[str]) -> None:
    assert label_references(text) == references


def test_a_comma_between_two_describing_words_is_inside_the_name() -> None:
    """Session 65: "A smaller, replica-led version" was "4(A smaller)", a name every reply about a
    smaller anything brought back; "The gym, three times a week" still ends at its comma."""
    reply = "Options:\n3. Working through a touring organiser. A specialist handles it.\n4. A smaller, replica-led version. Facsimiles.\n5. The gym, three times a week."
    assert [p.display for p in extract_proposals(reply)] == [
        "3(Working through a touring organiser)",
        "4(A smaller, replica-led version)",
        "5(The gym)",
    ]
