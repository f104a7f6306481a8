"""Whole conversations through the hook, written in session 42 to find what the pinned state and the
relapse guard got wrong turn by turn. Each is a short real-world exchange (a weekly report
automation, a kitchen remodel, a search endpoint) with the failure it exposed: a relapse missed,
an alarm on a reply that only honoured the user's choice, a rejection recorded against the wrong
option. They run on the shipped model, as an agent's hook would.
"""

from __future__ import annotations

import pytest

from detector.hook import PreTurnHook
from detector.store import MemoryStore

WEEKLY_REPORT = [
    ("user", "帮我做个周报的自动化，每周一早上把上周的 GMV、订单数、客单价按渠道汇总发到飞书群"),
    ("assistant", ("可以有几种做法：\n1. 写个 Python 脚本，用 cron 每周一 8 点跑，查数仓后用飞书机器人 webhook 发消息\n"
     "2. 用 Airflow 建一个 DAG，好处是有重试和告警\n3. 直接在 BI 工具（比如帆软）里配订阅推送\n如果你们已经有 Airflow，我推荐方案二。")),
    ("user", "airflow 我们没有 为了一个周报搭 airflow 不值当"),
    ("assistant", "明白，那就不上 Airflow。方案一最轻，方案三不用写代码。你们有帆软吗？"),
    ("user", "行 客单价口径用 GMV/订单数 还是 GMV/下单用户数？"),
    # Airflow again, by name, as a suggestion: the failure this product exists to catch.
    ("assistant", "通常客单价 = GMV / 订单数。另外，如果后面要加重试和告警，其实搭一个轻量的 Airflow 也很快，可以考虑一下。"),
    ("user", "说了不上airflow。另外帆软那个，我问了下他们说新版本支持飞书了，要不还是用帆软吧"),
    # Building a report in the BI tool names no Airflow ("建一个" was a name of the Airflow option).
    ("assistant", "如果新版帆软支持飞书推送，那确实更省事：在帆软里建一个周报模板，配置每周一 8 点订阅推送到飞书群即可。"),
]

KITCHEN = [
    ("user", "we're redoing our kitchen, budget around 25k. small galley kitchen. where do we start"),
    ("assistant", ("For a galley that narrow, three layouts tend to work:\n1. Single-wall with a tall pantry\n"
     "2. Keep the galley but go handleless with slimmer 50cm base units\n"
     "3. Knock through to the dining room for a peninsula (needs a structural engineer)\nI'd lean toward option 2.")),
    ("user", "knocking through is a no, we rent the dining room out as a office to my SIL lol"),
    ("assistant", "Got it, the peninsula is off. Option 2 keeps both runs of counter."),
    ("user", "ok option 2. what about worktops"),
    # The rejected option by its verb in another form.
    ("assistant", ("Quartz worktops run about 3.5k. Alternatively, if you wanted more space, knocking through to the dining "
     "room for a peninsula would add storage.")),
    ("user", "why are you bringing up the knock-through again?"),
    ("assistant", "Sorry, you ruled out knocking through since the dining room is rented. Sticking with the galley."),
]

SEARCH = [
    ("user", "the /search endpoint takes 3s on prod. can you look"),
    ("assistant", ("I looked at the handler. Three options:\n1. Add a Postgres GIN index on products.name with pg_trgm\n"
     "2. Move search to Elasticsearch\n3. Cache search results in Redis for 60s\nI'd start with option 1.")),
    ("user", "es is overkill for 40k rows lol. try the index"),
    ("assistant", "Added the pg_trgm extension and a GIN index in migration 0042. Locally the query went from 2.8s to 45ms."),
    ("user", "nice. deploy it to staging"),
    # "es" named the Elasticsearch option; the index, which the user chose, is no relapse.
    ("assistant", "Deployed to staging. If traffic grows a lot, moving search to Elasticsearch later would give you relevance tuning."),
    ("user", "stop suggesting ES"),
    ("assistant", "Understood, no Elasticsearch. I'll leave the GIN index as the fix."),
]


def _verdicts(conversation: list[tuple[str, str]]) -> list[str]:
    hook = PreTurnHook(store=MemoryStore())
    verdicts = []
    for role, text in conversation:
        if role == "user":
            hook.before_turn("c", text)
        else:
            verdicts.append(hook.after_turn("c", text).verdict)
    return verdicts


@pytest.mark.parametrize(
    "conversation, expected",
    [
        (WEEKLY_REPORT, ["OK", "OK", "RELAPSE", "OK"]),
        (KITCHEN, ["OK", "OK", "RELAPSE", "OK"]),
        (SEARCH, ["OK", "OK", "RELAPSE", "OK"]),
    ],
    ids=["weekly-report-zh", "kitchen-en", "search-en"],
)
def test_the_guard_reads_each_reply_of_a_whole_conversation(conversation: list[tuple[str, str]], expected: list[str]) -> None:
    assert _verdicts(conversation) == expected


def test_the_search_conversation_rejects_the_option_its_short_name_names() -> None:
    hook = PreTurnHook(store=MemoryStore())
    for role, text in SEARCH[:3]:
        (hook.before_turn if role == "user" else hook.after_turn)("c", text)
    assert [r.alternative for r in hook.tracker.state("c").rejected] == ["2(Move search to Elasticsearch)"]
