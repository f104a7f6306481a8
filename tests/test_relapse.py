"""The relapse guard: does an assistant reply put a rejected alternative forward again?

A table of clear cases in both languages (each a kind of relapse or of legitimate mention), the
verdict's details, the floor the guard reaches on its development set through `pivot eval-relapse`,
and its cost: linear in the reply, about a tenth of a millisecond per ordinary reply.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from detector import relapse
from detector.loading import build_detector
from detector.relapse import check_reply
from detector.relapse.mentions import find_mentions
from detector.relapse.names import names_of
from detector.schema import Alternative, ConvergenceState, CurrentDecision, RejectedAlternative
from detector.store import MemoryStore
from detector.tracker import ConvergenceTracker

DEV = Path(__file__).resolve().parents[1] / "data" / "relapse_dev.jsonl"
# Long markdown replies in another style (option lists, next steps, tables, vendor names).
DEV2 = Path(__file__).resolve().parents[1] / "data" / "relapse_dev2.jsonl"


def _state(alternative: str, current: str = "", reason: str = "", rejected_at: int = 6) -> ConvergenceState:
    state = ConvergenceState(conversation_id="t")
    if current:
        state.current_decision = CurrentDecision(text=current, since_turn=rejected_at)
    state.rejected = [
        RejectedAlternative(alternative_id="alt-1", alternative=alternative, rejected_at=rejected_at, reason=reason,
                            revisit_if="-", evidence="")
    ]
    return state


# fmt: off
CASES = [
    # kind, rejected alternative, current decision, reason, reply, verdict
    ("name", "方案A(Redis 集中式缓存)", "方案B(本地 LRU)", "运维扛不住",
     "LRU 上限先设两万条。另外也可以再加一层 Redis 做共享缓存。", "RELAPSE"),
    ("variant", "Redis 集中式缓存", "本地 LRU", "运维扛不住",
     "嫌运维麻烦的话，直接买云上的托管版 Redis 就行。", "RELAPSE"),
    # A variant the vocabulary knows (session 14's kin groups): Next.js is React, 低碳水 is keto.
    ("kin", "a React SPA rewrite", "htmx", "too much churn",
     "For the checkout page I'd build a small Next.js app mounted under /checkout.", "RELAPSE"),
    ("kin", "生酮饮食", "地中海饮食", "坚持不下来",
     "晚餐可以试试低碳水饮食，只吃肉和蔬菜，掉秤很快。", "RELAPSE"),
    ("kin", "生酮饮食", "地中海饮食", "坚持不下来",
     "低碳水饮食你已经排除了，地中海饮食的早餐可以是全麦面包配橄榄油和番茄。", "OK"),
    # The agent owning its slip names the option as ruled out (session 56).
    ("kin", "腿部改成后脚抬高分腿蹲的简化版", "臀桥", "膝盖疼",
     "你说得对，那就是保加利亚分腿蹲的变体，是我的错😅 换成完全不吃膝盖的：\n- 单腿臀桥：每边3组×12次", "OK"),
    ("kin", "the rooflight-only version", "a rear dormer", "no headroom",
     "You're right, option 3 is the rooflight-only version again with a gable added, my mistake. Here is a dormer layout instead.", "OK"),
    # Session 56's groups: a swim is the pool, 市民服务热线 is 12345.
    ("kin", "4(Pool)", "Clinical Pilates", "the only public pool closed for renovation",
     "On weekends, an easy 20-minute swim would complement the Pilates nicely.", "RELAPSE"),
    ("kin", "打12345反映", "街道调解", "打过 被转来转去 最后也没下文",
     "墙面这种扯不清的，可以打市民服务热线反映一下，让街道出个人来现场看看。", "RELAPSE"),
    # "X 就不用自己运维了" is what X saves, not "X 就不用了" (we won't use X).
    ("variant", "Redis 集群", "本地 LRU", "运维成本太高",
     "用阿里云的托管 Redis 就不用自己运维了，成本问题也就解决了。", "RELAPSE"),
    ("negated", "Redis 集群", "本地 LRU", "运维成本太高",
     "Redis 就不用了，本地 LRU 够了。", "OK"),
    # An option that moves from one thing to another is named by where it goes: "把 Jedis 换成
    # Lettuce" is Lettuce (Jedis stays in every reply about the fix), "replace X with Y" is Y.
    ("name", "3(把 Jedis 换成 Lettuce)", "1(调大连接池)", "改动太大",
     "另外从长期看还是建议把 Jedis 换成 Lettuce，改动其实不大，我可以顺手一起改了。", "RELAPSE"),
    ("name", "3(把 Jedis 换成 Lettuce)", "1(调大连接池)", "改动太大",
     "已修复 Jedis 连接泄漏，getResource 改成了 try-with-resources。", "OK"),
    ("name", "Replace requests with httpx", "keep requests", "no new dependencies",
     "Since we keep requests, I've added a Session with a retry adapter to the requests client.", "OK"),
    # Put off until something holds, as the user asked.
    ("negated", "2(收入公开)", "", "现在一个月才几百块",
     "可以，等收入上来再做会更有说服力。", "OK"),
    # "With Redux out" frames it as out of the running.
    ("negated", "redux", "2(Zustand)", "manager hates it",
     "With Redux out, I'd go with Zustand + TanStack Query for the server data.", "OK"),
    # An index fund is how one turns an actively managed fund down, and "只有主动基金的几分之一"
    # compares with it.
    ("kin", "方案二(主动管理型偏股基金)", "", "亏了 30%",
     "指数基金不依赖个人判断，费率通常也只有主动基金的几分之一。", "OK"),
    # "用 RocketMQ 替换 Kafka" names Kafka as what goes; "替换成 Kafka" as what comes.
    ("negated", "kafka", "方案二(自建网关)", "运维不熟",
     "可以，用 RocketMQ 替换 Kafka 问题不大：每个网关节点对应一个 tag，网关按 tag 订阅自己的消息。", "OK"),
    ("name", "kafka", "方案二(自建网关)", "运维不熟",
     "我建议把消息总线替换成 Kafka，分区扩容更方便。", "RELAPSE"),
    ("hypernym", "Kafka", "数据库 outbox", "太重",
     "outbox 先跑着，量上来之后引入一个消息中间件会更稳。", "RELAPSE"),
    ("concession", "京都", "大阪", "人太多",
     "我知道你不想去京都，不过清水寺早上人很少，可以早起去一趟。", "RELAPSE"),
    ("hedge", "全部用 TypeScript 重写", "渐进式加 JSDoc", "时间不够",
     "不是说非改不可，但把工具函数重写成 TS 其实半天就够了。", "RELAPSE"),
    ("label", "方案A(Redis 集中式缓存)", "方案B(本地 LRU)", "运维扛不住",
     "方案B 先上线，方案A 可以放到二期再做。", "RELAPSE"),
    ("back-reference", "Redis 集中式缓存", "本地 LRU", "运维扛不住",
     "要不还是回到之前那个方案？一致性会好很多。", "RELAPSE"),
    ("name", "Redis cache", "in-process LRU", "ops cost",
     "Size the LRU at 20k entries. You could also put Redis in front of the database later.", "RELAPSE"),
    ("variant", "Redis cache", "in-process LRU", "ops cost",
     "A managed Redis would take the ops burden off your team.", "RELAPSE"),
    ("hypernym", "Redis", "local LRU", "ops cost",
     "An in-memory key-value store in front of the DB would let every pod share hot keys.", "RELAPSE"),
    ("concession", "Kubernetes", "docker compose", "team too small",
     "I know you said no k8s, but k3s would give you rolling deploys for free.", "RELAPSE"),
    ("aside", "Flutter", "Ionic", "no Dart experience",
     "Ionic builds for both stores. By the way, Flutter renders faster if you ever learn Dart.", "RELAPSE"),
    ("reason rebuttal", "Redis", "local LRU", "ops cost",
     "A hosted service would solve the ops cost, so it could be worth another look.", "RELAPSE"),
    ("description", "grid search for hyperparameters", "Bayesian optimization", "too slow",
     "The batch size alone could be grid-searched, the range is tiny.", "RELAPSE"),
    ("ruled out", "Redis 集中式缓存", "本地 LRU", "运维扛不住",
     "之前已否决 Redis（运维成本高），继续推进本地 LRU：先给热点接口加缓存。", "OK"),
    ("comparison", "Redis", "本地 LRU", "运维扛不住",
     "和 Redis 相比，本地 LRU 少一次网络往返，也不用单独运维。", "OK"),
    ("agreement", "5年期国债", "1年期存单", "明年要用钱",
     "对，那国债也不太合适，提前兑取会损失利息。", "OK"),
    ("negation", "Kubernetes", "docker compose", "团队太小",
     "不上 K8s，compose 里把健康检查和重启策略都配好了。", "OK"),
    ("history", "Kafka", "数据库 outbox", "太重",
     "回顾一下：第 4 轮你否决了 Kafka，现在按 outbox 加轮询来做。", "OK"),
    # Said to be what the user dropped, then named again in that frame; the reply taking its own
    # suggestion back; a "would have been" after the name's clause (session 48).
    ("history", "2(GEE)", "mixed effects", "dropout",
     "This is one practical advantage over the GEE route you dropped: standard GEE needs MCAR.", "OK"),
    ("history", "外婆", "钟点阿姨", "外婆腰做了手术",
     "另外我上面提的让外婆帮忙看半天也收回，外婆那边今年就不安排了，最后两周改成钟点阿姨。", "OK"),
    # What the rejected option cannot do, said of it (session 48).
    ("history", "A(跟团游)", "自由行", "老人走不动",
     "当初不跟团的好处在这就体现出来了：我们的行程可以随天气前后对调，跟团就做不到。", "OK"),
    ("similar word", "住民宿", "连锁酒店", "担心卫生",
     "酒店也有民俗风格的主题房，可以体验当地特色。", "OK"),
    ("user's question", "Redis 集中式缓存", "本地 LRU", "运维扛不住",
     "你问 Redis 集群最少几个节点：三主三从，这也是当初觉得运维扛不住的原因。", "OK"),
    ("ruled out", "Redis cache", "in-process LRU", "ops cost",
     "Since we ruled out Redis, the LRU stays in process with a 10-minute TTL.", "OK"),
    ("comparison", "Redis", "local LRU", "ops cost",
     "Unlike Redis, the local LRU needs no network hop and no one to run it.", "OK"),
    ("counterfactual", "Elasticsearch", "Postgres full-text search", "memory footprint",
     "Elasticsearch would be overkill for 200k rows; a GIN index does the job.", "OK"),
    ("agreement", "magic links", "passkeys", "shared mailboxes",
     "Good catch: shared mailboxes break magic links. Passkeys it is.", "OK"),
    ("similar word", "Docker Swarm", "Nomad", "dying ecosystem",
     "Nomad runs Docker containers natively, so the images stay as they are.", "OK"),
    ("checkpoint", "Redis cache", "local LRU", "ops cost",
     ("### [SEMANTIC CONVERGENCE]\nCurrent decision:\n- local LRU\nRejected alternatives:\n- Redis cache\n"
      "  - Reason: ops cost\n\nNext action:\n- load-test the hit rate"), "OK"),
    ("not named", "renting a car", "trains", "doesn't want to drive",
     "Every leg below is by train or local bus, so nobody has to drive.", "OK"),
    ("directive", "Notion", "Obsidian", "no offline mode",
     "## Team docs\n- For shared docs, create a Notion workspace for the team.", "RELAPSE"),
    ("directive", "起诉装修公司", "找消协调解", "耗时耗钱",
     "### 如果调解没结果\n直接去法院打官司，费用很低。", "RELAPSE"),
    # A place put back on the way (session 59), not a way back from it.
    ("directive", "牛奶海", "到洛绒牛场就回", "4600 米太高",
     "| D6 | 亚丁景区：冲古寺、珍珠海、洛绒牛场，体力好的话再往上走到牛奶海看看 | 香格里拉镇 |", "RELAPSE"),
    ("directive", "牛奶海", "到洛绒牛场就回", "4600 米太高",
     "D6 到洛绒牛场就往回走，回去的路上别赶，牛奶海那段已经拿掉了。", "OK"),
    ("advised against", "找外包团队", "自己招两个开发", "质量出过问题",
     "考虑到上次外包的质量问题，这里不建议再找外包过渡。", "OK"),
    ("left out", "纯电车", "混动车", "没有充电桩",
     "纯电的都没放进表里：小区没有充电桩，这个前提下纯电车不合适。", "OK"),
    ("history", "Kubernetes", "docker compose", "team too small",
     "Several people on the team had used EKS before, which made it tempting.", "OK"),
    # Said not to be needed, or said removed: the option is framed as gone (session 16).
    ("negated", "keto", "", "tried it twice, miserable both times",
     "No problem, keto isn't necessary. Keep the deficit and eat carbs around training.", "OK"),
    ("negated", "1(Carve space with EQ)", "the arrangement one", "",
     "- Verse 2: rhythm gtr muted\n- EQ cuts removed from gtr buses", "OK"),
    ("negated", "方案A(Redis 集中式缓存)", "方案B(本地 LRU)", "运维扛不住",
     "本地 LRU 够用，Redis 用不着。", "OK"),
    # The old one brought back is the relapse itself; the old one as history, or a revival
    # negated, is not ("旧的", "the old" frame a mention, unless the sentence revives it).
    ("revived", "Jenkins", "GitHub Actions", "维护成本高",
     "重任务要是超时，保底方案是把那台旧的 Jenkins 机器重新开起来，专门跑夜间构建。", "RELAPSE"),
    ("revived", "Jenkins", "GitHub Actions", "too much upkeep",
     "We could bring the old Jenkins box back online for the nightly builds.", "RELAPSE"),
    ("revived", "Jenkins", "GitHub Actions", "维护成本高",
     "建议恢复之前的 Jenkins 跑夜间构建。", "RELAPSE"),
    ("history", "Jenkins", "GitHub Actions", "维护成本高",
     "之前的 Jenkins 不会再重新开起来，机器下周回收。", "OK"),
    ("history", "Jenkins", "GitHub Actions", "too much upkeep",
     "We won't bring the old Jenkins box back online; it gets wiped on Friday.", "OK"),
    ("history", "Jenkins", "GitHub Actions", "too much upkeep",
     "The old Jenkins job failed again last night, one more reason the move was right.", "OK"),
    # Weighed once and set aside, told as history; what the plan is measured against (session 47).
    ("history", "一卡通", "共享单车", "审批周期长",
     "可简要交代选题过程：曾考虑校园一卡通消费数据，因审批与脱敏周期较长未采用，最终选择公开的共享单车数据。", "OK"),
    ("history", "RAG", "long context", "维护成本高",
     "和之前的全量 RAG 方案比，long context 省掉了 ingestion、embedding、vector store 一整套东西，一两天就能出 demo。", "OK"),
    ("relapse", "Redis", "本地 LRU", "运维扛不住",
     "热点数据可以用之前说的 Redis 再挡一层。", "RELAPSE"),
    # A webcam's gaze estimation is eye tracking by another name; a questionnaire is a survey study.
    ("kin", "c(eye tracking with a Tobii)", "1(Controlled lab experiment)", "the lab has no tracker",
     "To see what they read, you could add webcam-based gaze estimation with WebGazer.js to the sessions.", "RELAPSE"),
    ("kin", "2(A survey study of CS1 students)", "1(Controlled lab experiment)", "self-report is biased",
     "You could complement it with a short online questionnaire sent to students at partner universities.", "RELAPSE"),
    ("history", "referral", "onboarding 实验", "没有设计资源",
     "referral 原来占的那部分设计配额，可以挪到 onboarding checklist 和 empty state 上。", "OK"),
    # The agent taking back its own slip, reporting an undoing, logging a rejection with its reason,
    # or saying what would have had to be done with the option (session 47's second helper round).
    ("history", "2(HTTP /healthz via grpc-gateway on a second port)", "a gRPC health service", "no second port",
     ("Reverted the gateway bits: dropped `grpc-gateway/v2` from go.mod, removed the `HealthCheck` RPC and its http "
      "annotation, and took the gateway plugin out of `buf.gen.yaml`."), "OK"),
    ("history", "A(Keycloak)", "the hosted login page", "too much ops burden",
     "Decision log:\n- **Keycloak (self-hosted):** too much ops burden for a 3-dev team.", "OK"),
    ("history", "B(Auth0)", "Cognito", "pricing",
     ("This is the piece that would have been more awkward with Auth0: its scripts run on Auth0's infrastructure, "
      "so you'd have had to expose the verify endpoint to the internet."), "OK"),
    ("history", "Keycloak", "the hosted login page", "too much ops burden",
     "That was effectively the self-hosted Keycloak route under another name, so I've taken it out.", "OK"),
    ("history", "年终答谢晚宴", "年终直播", "太贵",
     "你说得对，包间餐叙本质上就是前面被你换成直播的年终答谢晚宴，只是规模小一点，我不该再塞回来。", "OK"),
    ("history", "lifeguarding", "dog walking", "the course costs $250",
     "Fair point, paying for the certification first is a catch-22. Let's set lifeguarding aside.", "OK"),
    # Given a year off, in words the user may pass on (session 47).
    ("history", "gala", "named-giving campaign", "the venue takes half of every ticket",
     ('On Sue: it may help to present it to the board as "we\'re resting the gala this year to put everything into '
      'the family room" rather than "we\'ve cancelled it". That\'s true, and it gives the trustees a story to tell.'), "OK"),
    # A revival reported as done is news about it, not a proposal.
    ("history", "Kafka", "RabbitMQ", "运维太重",
     "之前的 Kafka 集群已经恢复正常了，迁移继续。", "OK"),
    ("history", "Kafka", "RabbitMQ", "too heavy to run",
     "The old Kafka cluster came back online after the restart; the move to RabbitMQ goes on.", "OK"),
    # "你担心…" reports the user's worry and frames what it names; "如果你担心…" is the condition of a
    # proposal, and frames nothing.
    ("condition", "Algolia", "自托管 Meilisearch", "按请求计费，量大了太贵",
     "如果你担心自托管的稳定性，Algolia 现在有个免费套餐，可以先挂着当备胎。", "RELAPSE"),
    ("worry", "Algolia", "自托管 Meilisearch", "按请求计费，量大了太贵",
     "你担心 Algolia 的费用失控，所以选了 Meilisearch，自托管没有按量计费。", "OK"),
    # Written down as excluded is the rejection kept, not the option offered.
    ("excluded", "raw footage", "edited highlights only", "too much to hand over",
     "I'll add a line to the contract: 'Raw footage is not included and is deleted after 90 days.'", "OK"),
    ("excluded", "上门安装", "自己装", "加收 300 太贵",
     "报价单我改好了：总价 2680 元，不含上门安装，配件随箱寄出。", "OK"),
    # A list item opened by a verb is named by the verb in any form; the capital made "Knock" a
    # name, and "knocking through" named nothing. An opening name is no verb: "drainage" is no
    # French drain.
    ("verb", "3(Knock through to the dining room for a peninsula (needs a structural engineer))", "quartz worktops",
     "we rent the dining room out", "Alternatively, knocking through to the dining room for a peninsula would add storage.",
     "RELAPSE"),
    ("verb", "3(Knock through to the dining room for a peninsula (needs a structural engineer))", "quartz worktops",
     "we rent the dining room out", "Sorry, you ruled out knocking through, so the galley stays.", "OK"),
    ("verb", "1(French drain along the slope)", "rain garden", "no outlet",
     "For clay soil, a rain garden should be about 20-30% of the drainage area it serves.", "OK"),
    # Chinese between two capitalised words ends a name: "用 Airflow 建一个 DAG" is named by Airflow.
    ("name", "2(用 Airflow 建一个 DAG,好处是有重试和告警)", "", "为了一个周报搭 airflow 不值当",
     "其实搭一个轻量的 Airflow 也很快，可以考虑一下。", "RELAPSE"),
    # Chinese ending in 的 makes the first name a modifier: "Safari" alone does not name the option.
    ("modifier", "1(用了 Safari 不支持的 JS 语法)", "", "代码里没有 (?<= 的",
     "那升级到 2.0.1 应该就修了，changelog 里写了 fix Safari regex。", "OK"),
    # A unit is no name: the rejected token lifetime shares only 分钟 with a lockout.
    ("unit", "access token 15分钟", "", "",
     "另外建议登录连续失败5次就锁定15分钟。", "OK"),
    # A word for where is no name: "大学城周边" is not named by "周边3公里".
    ("place", "方案A(大学城周边)", "方案C(社区街铺)", "一年三个月没人",
     "好的，就集中看社区街铺。选社区铺主要看三点：周边3公里入住率、早晚高峰的人流方向。", "OK"),
    # Left out because the user said no, and held up as the yardstick: history, not a proposal.
    ("history", "日光", "方案1", "我爸晕车",
     "最终版：东京 3 → 箱根 1 → 京都 2。鬼怒川那边其实就在日光，你前面说了不去，我没排进去。", "OK"),
    # An agent that reports doing the rejected thing relapses; one that reports undoing it does not,
    # code marks around the name or not.
    ("agent", "Redis", "in-process LRU", "another service to run",
     "I added `redis` to the compose file so sessions survive restarts.", "RELAPSE"),
    ("agent", "Redis", "in-process LRU", "", "我顺手加了 Redis 做 session 缓存。", "RELAPSE"),
    ("agent", "migration", "manual CREATE INDEX", "not mid-incident",
     ("Deleted `migrations/0188_recreate_customer_email_idx.py` and the remote branch `fix/recreate-email-idx`; "
      "`git status` is clean."), "OK"),
    # An item of a list the reply introduces as options offers what it names; steps offer nothing.
    ("offered", "2(微水泥)", "1(瓷砖)", "师傅没做过",
     "墙面有几个方向：\nA. 墙砖，跟地砖同系列，最省心；\nB. 艺术涂料，便宜；\nC. 卫生间墙面做微水泥，做出来无缝很高级。", "RELAPSE"),
    ("steps", "Jira", "Linear", "too slow",
     "## Migration\n1. Export issues from Jira, CSV import into Linear.\n2. Map Jira statuses to Linear workflow states.", "OK"),
    # Let go in the reply's own words; a drop on a condition keeps the option alive.
    ("history", "2(Bump-out addition)", "", "Our backyard is basically a ski slope",
     "A sloped lot plus a slow HOA would turn the bump-out into a multi-year saga, so let's drop it.", "OK"),
    ("condition", "2(Bump-out addition)", "", "",
     "Honestly the bump-out would give you the most space. Let's price it, and drop it if it is over budget.", "RELAPSE"),
    ("yardstick", "方案B(继续在 LightGBM 上做 feature engineering)", "方案A(DIN)", "gain 基本饱和",
     "offline 实验建议：7 天 train / 1 天 eval，和 LightGBM baseline 对比 AUC 和 GAUC。", "OK"),
    # A place's 民宿 is one 民宿: another place's, and the kind's kin ("短租"), bring it not back.
    ("kind end", "A(莫干山民宿)", "安吉", "去年去过",
     "住宿建议安吉山里的设计民宿, 包栋更省心。", "OK"),
    ("kind end", "A(莫干山民宿)", "安吉", "去年去过", "也可以订个短租, 更划算。", "OK"),
    ("kind end", "A(莫干山民宿)", "安吉", "去年去过",
     "要是安吉订不上，莫干山那边的民宿也可以考虑，车程差不多。", "RELAPSE"),
    # The agent confirming the removal, then going on about something else.
    ("removal confirmed", "婚纱照", "", "影楼那种摆拍都是一个模子刻出来的",
     "好，婚纱照这项去掉，1.2 万并入机动，机动变成 5.5 万。这样婚礼当天的摄影就更重要了，建议选擅长抓拍、出片自然的摄影师。", "OK"),
    ("removal confirmed", "broad", "", "一周烧 $55 卖 $57",
     "可以，broad 关掉。Product targeting 选竞品 ASIN 的原则：评分比你低，价格比你高。", "OK"),
    # A word that proposes, negated right before it ("不安排", "不引入"), proposes nothing.
    ("negated", "桐庐 glamping", "安吉", "公司团建 insurance 不 cover 户外 overnight 的 camping",
     "住宿: 安吉山里的设计民宿, 包栋 (不安排帐篷或营地住宿, HR 的 insurance 不 cover overnight camping)", "OK"),
    # The reply withdrawing its own earlier slip, or leaving the thing out in its own words.
    ("withdrawn", "2(Data Vault 2.0)", "宽表", "维护不过来",
     "另外收回上一条里 raw vault 的建议——hub/link/satellite 本质上就是你否掉的 Data Vault。", "OK"),
    ("withdrawn", "1(纯 usage-based)", "credits", "账单不可预测",
     "更正一下上一版：我写了超额按 API 调用自动扣费，这其实是把你们去年否掉的 usage-based 又带了回来，账单一样不可预测。", "OK"),
    ("withdrawn", "4(A tutor on italki once a week)", "Genki", "",
     "I also took out the Sunday italki slot I slipped in last time, sorry about that.", "OK"),
    ("left out", "A(5 Whys)", "narrative format", "people get defensive",
     ("Makes sense. 5 Whys tends to pin things on whoever pushed the button, which cuts against a blameless review, "
      "so I'll leave it out and use a timeline plus contributing factors, which copes with several causes at once."), "OK"),
    # A schedule slot holding the rejected thing puts it in the plan; the slot's day, or one part of
    # a dish in it, names nothing.
    ("slot", "4(A tutor on italki once a week)", "Genki", "too pricey",
     "Mon: Genki grammar, 45 min\nSat: group class\nSun: 25-min italki chat with a community tutor + review", "RELAPSE"),
    ("slot", "周末去 Costco 大采购", "楼下菜市场", "没车",
     "- 周一：楼下菜市场买三天的菜\n- 周六：Costco 大采购，囤一周的肉", "RELAPSE"),
    ("slot", "1(A Vegas weekend)", "brewery crawl + golf", "flights",
     "Saturday: golf at 10, brewery crawl from 4, dinner at 8. Sunday: brunch and home.", "OK"),
    ("slot", "1(鸡胸肉+糙米+西兰花)", "鸡蛋", "吃吐了",
     "- 周一：黑椒牛肉+红薯\n- 周二：香煎豆腐+糙米+西兰花", "OK"),
    # Left out of the plan, decided against, its own slip corrected, cited as earlier work, scratched.
    ("left out", "增额终身寿", "定投", "现金流紧",
     "增额终身寿这类储蓄险就不放进方案了，先把保障做扎实，储蓄可以用每月定投或者存款慢慢攒，灵活性高很多。", "OK"),
    ("own slip", "婚庆全包套餐", "自己布置", "太贵",
     "另外上一版有个错：误把“婚庆全包套餐 28,000”列进了预算，你们已经决定不用全包婚庆，这一项改为自布置物料 7,000。", "OK"),
    ("earlier work", "A(横断面问卷调查)", "B(日记法)", "创新不够",
     "写论文时可以在引言里说明，以往研究（包括横断面问卷调查）只能看到相关，本研究结合日记法和随机干预，这是你的创新点。", "OK"),
    ("scratched", "4(Buildkite)", "1(GitHub Actions)", "no new vendors",
     "The image builds fine on a larger GitHub-hosted runner with layer caching, so scratch the Buildkite agent idea.", "OK"),
    # A two-letter field is no name of the option that ends with it; avoided in quotes; the user's
    # own words cited.
    ("acronym", "1(美国 top30 MS CS)", "2(香港)", "太贵",
     "选校建议：\n- 冲：HKU CS、CUHK CS\n- 保底：CityU CS、PolyU IT", "OK"),
    ("avoided", "3(生酮)", "2(均衡控卡)", "没力气",
     "- 外卖避开那种「低碳生酮餐」套餐，碳水还是要够。", "OK"),
    ("cited", "3(生酮)", "2(均衡控卡)", "没力气",
     "你说过 keto 让你训练没力气，所以练腿那天碳水给足。", "OK"),
    # A kind of clinic is no name of one: a plain 门诊 does not bring back the 特需门诊.
    ("kind end", "4(挂特需门诊)", "普通号", "太贵",
     "- 另外挂一个心内科普通门诊号(不用专家)，先把检查单开出来，结果出来再挂专家号;", "OK"),
    # Session 49: the maker's name before a product tail; work reported with the option as its means;
    # a clause that ends on a comparison with it, or what would have been with it.
    ("maker's name", "2(Datadog Logs)", "3(Grafana Loki)", "",
     "If search still feels slow, ship only the error lines to Datadog on its cheaper tier as a side index.", "RELAPSE"),
    ("maker's name", "Mendeley Reference Manager", "Zotero", "",
     "You could keep Mendeley installed as your PDF reader and let Zotero do the citations.", "RELAPSE"),
    ("reported work", "SQLAlchemy ORM models", "raw SQL with psycopg", "",
     "To keep the dedupe test short, I brought in a tiny `Event` SQLAlchemy model in etl/models.py.", "RELAPSE"),
    ("reported work", "a Redis cache", "no caching for now", "",
     "I put the dashboard query behind @upstash/redis with a 30s TTL.", "RELAPSE"),
    ("reported work", "1(SQLite via sqlite-net)", "JSON save files", "",
     "For the slot list I wrapped the timestamps in a little sqlite-net table so sorting is cheap.", "RELAPSE"),
    ("reported work", "a Redis cache", "in-process LRU", "", "I removed the Redis container and added the in-process LRU.", "OK"),
    ("reported work", "a Redis cache", "in-process LRU", "", "I added the in-process LRU instead of Redis.", "OK"),
    ("reported work", "a Redis cache", "in-process LRU", "", "I kept the LRU and left Redis out entirely.", "OK"),
    ("reported work", "a Redis cache", "in-process LRU", "", "I also added a note to the README on why Redis was ruled out.", "OK"),
    ("comparison", "Redis 集群", "本地 LRU", "", "和 Redis 比,本地 LRU 省掉了一跳网络。", "OK"),
    ("comparison", "C(找 agency 定制开发)", "A(Shopify 模板站)", "",
     "跟 agency 定制的报价比,A 方案在预算内还有余量,剩下的钱放在拍产品图上。", "OK"),
    ("comparison", "A(JSON save files)", "B(binary saves)", "",
     "Migration works differently than it would have with the JSON format: the fields don't describe themselves.", "OK"),
    ("comparison", "Redis 集群", "本地 LRU", "", "Redis 比本地 LRU 快很多，建议上 Redis。", "RELAPSE"),
    # Session 50: a change list's "加 X" (the name a package's tail), and a report on one part of the work.
    ("change list", "B(Riverpod)", "A(provider + ChangeNotifier)", "",
     "- pubspec.yaml：加 flutter_riverpod 2.4.9，main.dart 外面包了 ProviderScope", "RELAPSE"),
    ("reported part", "B(Riverpod)", "A(provider + ChangeNotifier)", "",
     "登录页本身仍然是 provider，只有全局 auth 这块用了 Riverpod。", "RELAPSE"),
    ("change list", "B(Riverpod)", "A(provider + ChangeNotifier)", "", "- pubspec.yaml：删除 flutter_riverpod，flutter pub get", "OK"),
    ("reported part", "Redis 集群", "本地 LRU", "", "之前那版用了 Redis，这次换成了本地 LRU。", "OK"),
    ("both out", "Twin", "a first-person guest narrator", "",
     "With the twin and the faked death both out, the midpoint jolt should come from the timeline.", "OK"),
    # Session 55: a change log's deliberate omissions, the user's exclusion acknowledged, a pause
    # said for this time only, and an option set aside before the reply moves on.
    ("not done on purpose", "reruns", "per-worker queues", "would mask the root cause",
     "- Not done on purpose: reruns (would mask the root cause) and eager mode (the test must cover the broker).", "OK"),
    ("you excluded", "appendix", "a single courier vignette", "",
     "My apologies, you had already excluded an appendix, and for good reason. A single courier it is.", "OK"),
    ("this time", "监控", "CloseableHttpResponse", "改动面越小越好",
     "其余不变。监控这次不加，那上线后验证可以用 Arthas 临时看池子状态，不用改代码。", "OK"),
    ("set aside", "sequence packing", "LoRA", "loss 曲线有点怪",
     "OK，packing 先放一边（以后研究时可以先查 attention mask）。FlashAttention 2 基本是无损加速，建议先上这个。", "OK"),
    ("this time", "监控", "CloseableHttpResponse", "改动面越小越好",
     "其余不变。这次顺手把监控也加上，连接池的指标接到 Prometheus。", "RELAPSE"),
    # A summary's list of what was weighed and left out (session 62's blind helpers).
    ("not adopted", "multiprocessing", "1(每个分区用 overwrite)", "IO bound",
     "- 不采用:multiprocessing(IO bound,fork 浪费内存)、per-chunk dedupe(跨 chunk 去不掉)、Great Expectations(依赖太重)", "OK"),
    # Session 71's blind rounds: the verdict restated with a bare verb after the name, an option set
    # aside in English, one named as what another resembles, and a word any suggestion says.
    ("restated", "A(微水泥)", "B(瓷砖)", "", "好，微水泥不做，卫生间墙地都贴瓷砖，跟客厅同系列。", "OK"),
    ("restated", "方案C(电窑)", "梭式窑", "", "好，不再加试验炉，电窑这条彻底不碰。", "OK"),
    ("restated", "方案B(H5互动地图)", "图文长卷", "", "H5互动地图相应撤出，执行建议如下：", "OK"),
    ("set aside", "2(Amazon)", "Etsy", "", "Setting Amazon aside, you could list on Etsy and your own site.", "OK"),
    ("resembles", "A(ClickHouse)", "StarRocks", "", "Druid 的问题其实和 ClickHouse 类似：订单状态一改就要重导整段数据。", "OK"),
    ("resembles", "A(ClickHouse)", "StarRocks", "", "可以考虑和 ClickHouse 类似的列存方案，比如 Druid。", "RELAPSE"),
    ("any suggestion", "2(建议分两组)", "一组 A 股可比公司", "", "建议先排查模型，再看回报提升的方向。", "OK"),
    ("off", "1(Barrel-pick experiences)", "horse farm tours", "", "Good to know, thanks, barrel picks are off then.", "OK"),
    ("not pursued", "1(静安嘉里中心中庭 pop-up)", "跟精品咖啡馆合作", "too expensive",
     ("Considered and not pursued: Douyin livestreaming (brand guideline), a UGC latte-art contest, and a shopping-mall "
      "pop-up (too generic, over budget)."), "OK"),
]
# fmt: on


@pytest.mark.parametrize(
    "kind, alternative, current, reason, reply, verdict", CASES, ids=[f"{c[-1]}-{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_clear_relapses_and_legitimate_mentions(
    kind: str, alternative: str, current: str, reason: str, reply: str, verdict: str
) -> None:
    assert check_reply(_state(alternative, current, reason), reply).verdict == verdict


def test_a_relapse_says_what_came_back_when_it_was_rejected_and_where() -> None:
    reply = "LRU 上限先设两万条。另外也可以再加一层 Redis 做共享缓存。"
    verdict = check_reply(_state("方案A(Redis 集中式缓存)", "方案B(本地 LRU)", rejected_at=6), reply)
    assert verdict.verdict == "RELAPSE"
    assert verdict.alternative == "方案A(Redis 集中式缓存)" and verdict.rejected_at == 6
    assert verdict.evidence == "另外也可以再加一层 Redis 做共享缓存。"
    assert "redis" in verdict.reason.lower() and "turn 6" in verdict.reason


@pytest.mark.parametrize(
    "reply, verdict",
    [
        # The agent says it set something up and shows it: the code is the proposal (session 47).
        (("Changed `deny/1`. I also set up the prod backend so the three nodes share counts:\n\n```elixir\n"
          "config :hammer,\n  backend: {Hammer.Backend.Redis, [expiry_ms: 7_200_000]}\n```\n\nDev and test stay on ETS."), "RELAPSE"),
        ("我顺手把共享计数也配好了：\n```yaml\ncache:\n  backend: redis\n```", "RELAPSE"),
        # A removal shown as a diff, a comment, or a block shown without saying it was added.
        ("I removed the Redis backend:\n```diff\n- backend: {Hammer.Backend.Redis, []}\n+ backend: {Hammer.Backend.ETS, []}\n```", "OK"),
        ("I also set up the ETS backend:\n```elixir\n# no Redis: counts are per node\nbackend: {Hammer.Backend.ETS, []}\n```", "OK"),
        ("The error you pasted says:\n```\n** (Redix.ConnectionError) :econnrefused\n```\nThat is the old Redis config still loaded.", "OK"),
        # A diff's added line says it was added, whatever opens the block (session 48).
        ("Done:\n\n```\n~ config/cache.exs\n+ backend: {Hammer.Backend.Redis, [expiry_ms: 60_000]}\n```\nTests pass.", "RELAPSE"),
        ("Done:\n\n```\n~ config/cache.exs\n- backend: {Hammer.Backend.Redis, []}\n+ backend: {Hammer.Backend.ETS, []}\n```", "OK"),
        ("Fixed:\n```diff\n+++ b/config/redis.exs\n@@ -1 +1 @@\n```", "OK"),
        # A diff's removed line proposes nothing; the agent saying it switched the thing off neither.
        ("Switched off the Redis backend; counts are per node now.\n\n```\n- config/redis.exs\n- deploy/redis.yaml\n+ config/ets.exs\n```", "OK"),
    ],
)
def test_code_the_reply_says_it_added_puts_the_option_back(reply: str, verdict: str) -> None:
    assert check_reply(_state("Redis", "ETS backend", "we don't run redis"), reply).verdict == verdict


def test_nothing_to_relapse_to_is_ok() -> None:
    empty = ConvergenceState(conversation_id="t")  # e.g. the user reopened the only rejected option
    assert check_reply(empty, "也可以考虑 Redis 集群。").verdict == "OK"
    assert check_reply(_state("Redis"), "   ").verdict == "OK"


def test_a_ruled_out_cause_is_not_named_by_the_word_for_a_cause() -> None:
    """Every suspect of a diagnosis is a "问题": "推送出了问题" names a new suspect, not the ruled-out
    "埋点/数据管道问题"; naming that one again still relapses."""
    state = _state("1(埋点/数据管道问题)", rejected_at=3)
    assert check_reply(state, "老用户回访下降，可能是推送出了问题，或者外部事件。").verdict == "OK"
    assert check_reply(state, "我还是怀疑埋点管道有问题，建议再对一下服务端日志。").verdict == "RELAPSE"


def test_a_current_decision_that_names_what_it_replaces_does_not_hide_it() -> None:
    state = _state("Redis", "in-process LRU instead of Redis")
    assert check_reply(state, "A managed Redis would solve the ops cost.").verdict == "RELAPSE"
    state = _state("Redis 集中式缓存", "本地 LRU（不用 Redis）")
    assert check_reply(state, "另外也可以上一个 Redis 集群。").verdict == "RELAPSE"


def test_a_category_the_current_decision_belongs_to_names_neither() -> None:
    state = _state("Kafka", "RabbitMQ")
    assert check_reply(state, "The message broker would be RabbitMQ, with queues declared at startup.").verdict == "OK"


@pytest.mark.parametrize("path, n, f1", [(DEV, 500, 0.93), (DEV2, 150, 0.88)], ids=["dev", "dev2"])
def test_the_development_sets_stay_above_their_floors(path: Path, n: int, f1: float) -> None:
    """Measured with the rules and the learned scorer (fitted on these sets): dev F1 0.962 (en) and
    0.982 (zh), precision 0.985; dev2 F1 0.987 (en) and 0.963 (zh), precision 0.974 and 0.929. The
    scorer trades a little precision for recall on unseen phrasing; the floors leave a margin."""
    completed = subprocess.run(
        [sys.executable, "-m", "detector.cli", "eval-relapse", str(path), "--json"],
        capture_output=True, text=True, timeout=300, check=True,
    )
    figures = json.loads(completed.stdout)
    assert figures["n"] >= n
    for lang in ("en", "zh"):
        assert figures["per_lang"][lang]["f1"] >= f1, figures["per_lang"][lang]
        assert figures["per_lang"][lang]["precision"] >= 0.9, figures["per_lang"][lang]


def _seconds(state: ConvergenceState, reply: str, runs: int = 5) -> float:
    """The fastest of `runs` checks: other load on a shared machine only ever slows a run down."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        check_reply(state, reply)
        times.append(time.perf_counter() - started)
    return min(times)


@pytest.mark.parametrize("unit", [
    "不用 Redis ", "no Redis, unlike Redis, ", "不用redis不上k8s之前已否决redis", "但是 but Redis 已否决 ",
    "the option we dropped ", "法律起诉途径 ", "本地 LRU 的容量设为一万条。",
])
def test_the_cost_grows_linearly_with_the_reply(unit: str) -> None:
    state = _state("方案A(Redis 集中式缓存)", "本地 LRU", "运维扛不住")
    small, large = (unit * (10_000 // len(unit) + 1))[:10_000], (unit * (100_000 // len(unit) + 1))[:100_000]
    _seconds(state, small, 1)  # names compiled, caches warm
    ratio = _seconds(state, large, 3) / max(_seconds(state, small), 1e-7)
    # Linear is ~10 (a little more out of the CPU caches), quadratic ~100.
    assert ratio < 40, f"{unit!r}: 10x the text cost {ratio:.1f}x the time"


def test_the_cost_grows_linearly_with_the_options_on_the_table_named() -> None:
    """Every name of another option on the table is blanked out: in one pass over the reply,
    however often the reply names it."""
    from detector.schema import Alternative

    state = _state("方案A(Redis 集中式缓存)", "本地 LRU", "运维扛不住")
    state.alternatives = [
        Alternative(id="alt-1", label="方案A", summary="Redis 集中式缓存", first_turn=1, status="rejected"),
        Alternative(id="alt-2", label="方案B", summary="Memcached 集群", first_turn=1),
    ]
    unit = "Memcached 也行，"
    small, large = (unit * (10_000 // len(unit) + 1))[:10_000], (unit * (100_000 // len(unit) + 1))[:100_000]
    _seconds(state, small, 1)
    ratio = _seconds(state, large, 3) / max(_seconds(state, small), 1e-7)
    assert ratio < 40, f"10x the text cost {ratio:.1f}x the time"


def _repeats(tree: list, inside_repeat: bool = False) -> list[str]:
    """Repeats nested inside a repeat that may run more than once (the shapes that backtrack)."""
    from re import _constants as c

    found = []
    for op, argument in tree:
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, high, body = argument
            if inside_repeat:
                found.append(f"{op} {{{low},{high}}}")
            found += _repeats(list(body), inside_repeat or high > 1)
        elif op == c.SUBPATTERN:
            found += _repeats(list(argument[-1]), inside_repeat)
        elif op == c.BRANCH:
            for branch in argument[1]:
                found += _repeats(list(branch), inside_repeat)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            found += _repeats(list(argument[1]), inside_repeat)
    return found


def test_no_pattern_nests_a_repeat_inside_a_repeat() -> None:
    from re import _parser

    names = names_of("方案A(Redis 集中式缓存)", "本地 LRU")
    # Every module of the package, so a pattern added to any of them is checked too.
    submodules = pkgutil.iter_modules(relapse.__path__)
    modules = [importlib.import_module(f"detector.relapse.{m.name}") for m in submodules]
    patterns = {
        f"{module.__name__}.{name}": value
        for module in modules
        for name, value in vars(module).items()
        if isinstance(value, re.Pattern)
    }
    patterns.update({f"names.{n}": re.compile(p.pattern) for n, p in (("anchors", names.anchors), ("kinds", names.kinds)) if p})
    for name, pattern in patterns.items():
        if pattern is not None:
            assert not _repeats(list(_parser.parse(pattern.pattern, pattern.flags))), name


def test_the_form_index_finds_exactly_the_forms_a_full_scan_finds() -> None:
    """kin.py looks forms up through an index by one of their words; that must find every form
    the plain test of each form finds, on the alternatives and decisions of the development cases."""
    import json
    from pathlib import Path

    from detector.relapse.kin import _ALL_FORMS, _has_form, _present_forms

    data = Path(__file__).resolve().parent.parent / "data"
    texts = set()
    for name in ("relapse_dev.jsonl", "relapse_dev2.jsonl", "relapse_dev3.jsonl", "relapse_dev4.jsonl"):
        for line in (data / name).read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            texts.update(item["alternative"].lower() for item in case["rejected"])
            texts.add(case["current_decision"].lower())
    assert len(texts) > 500
    for text in sorted(texts):
        singles = frozenset(char for char in text if "\u4e00" <= char <= "\u9fff")
        expected = {form for form in _ALL_FORMS if _has_form((text,), form, set(singles))}
        assert _present_forms((text,), singles) == expected, text


def test_every_lexicon_form_keeps_its_lookup_keys_cached() -> None:
    """The keys are computed once at import; a cache smaller than the lexicon (2,048 against 3,013
    forms after session 14's vocabulary) would evict them and recompute stems on every check."""
    from detector.relapse.kin import _ALL_FORMS, _form_keys

    maxsize = _form_keys.cache_info().maxsize
    assert maxsize is None or maxsize >= len(_ALL_FORMS)


def test_the_scorer_backs_up_the_rules_on_a_paraphrase_and_runs_on_the_stdlib() -> None:
    """"兼职司仪" is not a name of "请专业司仪" the rules know, but the reply shares a word with it and
    puts it forward: the scorer calls it a relapse. A reply that shares nothing with the rejected
    option is never the scorer's relapse, however suggestive ("put the kitchen on wheels" for a
    rejected food truck is missed on purpose: most replies suggest something, and few name the
    option, so without that link the guard would cry wolf). Run time never imports scikit-learn,
    scipy or numpy for it."""
    state = _state("请专业司仪", "伴郎主持", "太贵")
    verdict = check_reply(state, "万一伴郎临场紧张，可以让婚庆公司派个兼职司仪候着，费用不高。")
    assert verdict.verdict == "RELAPSE" and "learned score" in verdict.reason
    assert check_reply(state, "伴郎主持的串词我整理好了，开场两分钟自我介绍。").verdict == "OK"
    state = _state("a food truck", "a pop-up stall at the weekend market", "permits take months")
    assert check_reply(state, "If you want more reach, you could put the kitchen on wheels and park near the offices at lunch.").verdict == "OK"
    assert check_reply(state, "The stall opens Saturday at 8; bring two folding tables.").verdict == "OK"
    code = (
        "import sys; from detector.relapse import check_reply; from tests.test_relapse import _state; "
        "check_reply(_state('Redis'), 'Maybe try something else?'); "
        "print(sorted(m for m in ('sklearn', 'scipy', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_reply_with_nothing_rejected_leaves_the_guard_unloaded() -> None:
    """Most assistant turns come before any rejection; in a fresh hook process they must not pay
    for compiling the guard's lexicons."""
    code = (
        "import sys; from detector.relapse import check_reply; from detector.schema import ConvergenceState; "
        "from tests.test_relapse import _state; "
        "v = check_reply(ConvergenceState(conversation_id='c'), 'Option A: Redis. Option B: a local LRU.'); "
        "print(v.verdict, 'detector.relapse.verdict' in sys.modules); "
        "check_reply(_state('Redis'), 'Maybe try Redis?'); print('detector.relapse.verdict' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["OK", "False", "True"]


def test_the_shipped_weights_cover_every_feature() -> None:
    from detector.relapse.features import FEATURES
    from detector.relapse.scorer import default_scorer

    scorer = default_scorer()
    assert set(scorer.weights) == set(FEATURES) and 0 < scorer.threshold < 1


def test_the_shipped_weights_are_what_the_training_script_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The weights had drifted from the script as the rules that feed its features changed; the
    shipped file must be the script's output on the shipped data, to the byte, with its threshold no
    lower than the conversation floor."""
    from training.relapse_scorer import CONVERSATION_FLOOR, main

    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)  # the script reads data/relapse_dev*.jsonl from the project root
    written = tmp_path / "weights.json"
    assert main(["--out", str(written)]) == 0
    shipped = root / "detector" / "relapse" / "scorer_weights.json"
    assert written.read_bytes() == shipped.read_bytes()
    assert json.loads(written.read_text(encoding="utf-8"))["threshold"] >= CONVERSATION_FLOOR


@pytest.mark.parametrize("reply, current, expected", [
    ("If traffic grows 10x, move to a GPU spot node.", "CPU inference with ONNX", 1.0),
    ("如果以后 QPS 再翻倍，可以考虑加一个独立的内存键值服务。", "进程内 LRU 缓存", 1.0),
    # The condition is in another sentence than the suggestion.
    ("If traffic grows 10x, we will see it in the p95. A GPU spot node could help.", "CPU inference with ONNX", 0.0),
    # The suggestion under the condition is the current decision itself.
    ("If traffic grows 10x, the ONNX CPU inference could take a second replica.", "CPU inference with ONNX", 0.0),
])
def test_condition_forward_needs_the_condition_and_the_suggestion_in_one_sentence(
    reply: str, current: str, expected: float
) -> None:
    from detector.relapse.features import features_of
    from detector.relapse.sentences import sentences_of

    found = features_of(sentences_of(reply), "a GPU inference instance", current, frozenset())
    assert found["condition_forward"] == expected


def test_alarm_figures_count_judged_and_unjudged_alarms(tmp_path) -> None:
    """training.relapse_alarms: judged verdicts among a scan's relapse records; alarms nobody
    judged are counted apart, and records that are not relapses are ignored."""
    from training.relapse_alarms import alarm_figures

    judged = tmp_path / "judged.jsonl"
    judged.write_text(
        "\n".join(
            json.dumps({"conversation_id": c, "flagged_turn": t, "verdict": v})
            for c, t, v in [("a", 3, "TRUE_RELAPSE"), ("a", 5, "FALSE_ALARM"), ("b", 1, "FALSE_ALARM"), ("b", 7, "UNCLEAR")]
        ),
        encoding="utf-8",
    )
    scan = tmp_path / "scan.jsonl"
    scan.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"type": "relapse", "conversation_id": "a", "turn": 3},
                {"type": "relapse", "conversation_id": "a", "turn": 5},
                {"type": "detection", "conversation_id": "b", "turn": 1},
                {"type": "relapse", "conversation_id": "c", "turn": 2},
            ]
        ),
        encoding="utf-8",
    )
    figures = alarm_figures(scan, judged)
    assert figures == {"alarms": 3, "verdicts": {"TRUE_RELAPSE": 1, "FALSE_ALARM": 1, "UNJUDGED": 1}, "precision_of_judged": 0.5}


def test_an_option_only_the_rejecting_words_named_comes_back_only_by_its_whole_name() -> None:
    """"启动时自动执行" was cut from the user's rejection; nothing proposed it. "执行" in a reply
    about running scripts by hand is not that option, and the learned scorer does not speak for
    it; saying the whole name again is."""
    from detector.schema import Alternative, ConvergenceState, RejectedAlternative

    state = ConvergenceState(
        conversation_id="c",
        lang="zh",
        turn=3,
        alternatives=[Alternative(id="alt-1", label="启动时自动执行", summary="启动时自动执行", first_turn=3, proposed_by="user", status="rejected")],
        rejected=[RejectedAlternative(alternative_id="alt-1", alternative="启动时自动执行", rejected_at=3, reason="生产库不能让应用自己改表", revisit_if="", evidence="")],
    )
    assert check_reply(state, "另外建议禁止修改已经执行过的脚本，改动一律新开版本号。").verdict == "OK"
    assert check_reply(state, "其实也可以考虑启动时自动执行迁移，省掉人工步骤。").verdict == "RELAPSE"


def test_naming_another_option_still_on_the_table_is_not_the_rejected_one_coming_back() -> None:
    """Metabase and Streamlit were proposed beside Tableau, and Tableau was turned down. A reply
    about them names siblings of Tableau (BI tools), which read as a weak mention of it; they are
    options in their own right. Tableau itself, said again, still relapses."""
    from detector.schema import Alternative, ConvergenceState, RejectedAlternative

    options = [("方案A", "买 Tableau", "rejected"), ("方案B", "自建 Metabase", "proposed"), ("方案C", "用 Streamlit 自己写", "proposed")]
    state = ConvergenceState(
        conversation_id="c",
        lang="zh",
        turn=2,
        alternatives=[
            Alternative(id=f"alt-{i}", label=label, summary=summary, first_turn=1, status=status)
            for i, (label, summary, status) in enumerate(options, start=1)
        ],
        rejected=[RejectedAlternative(alternative_id="alt-1", alternative="方案A(买 Tableau)", rejected_at=2, reason="一年几十万", revisit_if="", evidence="")],
    )
    assert check_reply(state, "明白。那 Metabase 最省事，半天就能搭起来；Streamlit 更灵活但需要有人维护代码。").verdict == "OK"
    assert check_reply(state, "其实 Tableau 也可以考虑，交互体验更好。").verdict == "RELAPSE"


def test_a_lone_joining_verb_between_latin_names_names_nothing() -> None:
    """"做" sits between "API" and "zero-shot" in the option; a reply that suggests doing
    something else ("先跑方案一做基线") does not name the rejected option by it."""
    state = ConvergenceState(
        conversation_id="c",
        lang="zh",
        rejected=[RejectedAlternative(alternative_id="alt-3", alternative="方案三(调大模型 API 做 zero-shot)", rejected_at=2, reason="", revisit_if="", evidence="")],
    )
    assert check_reply(state, "建议先跑方案一做基线，再看 BERT 能提升多少。").verdict == "OK"
    assert check_reply(state, "其实可以先调大模型 API 做 zero-shot 试试。").verdict == "RELAPSE"


def test_a_cjk_mention_is_the_same_whatever_the_hash_seed() -> None:
    """A CJK name's three-character pieces are a set; the mention is the earliest of them in the
    reply, not whichever the set yields first, so a scan's output does not vary between runs."""
    import os

    code = (
        "from detector.relapse.names import names_of; from detector.relapse.mentions import find_mentions; "
        "print([(m.text, m.start) for m in find_mentions('可以再看看医养结合这条路', names_of('医养结合的养老院', '居家养老'))])"
    )
    root = Path(__file__).resolve().parent.parent
    seen = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout.strip()
        for seed in range(6)
    }
    assert seen == {"[('医养结', 5)]"}


def test_a_name_closed_by_a_full_stop_still_names_the_option() -> None:
    from detector.relapse.mentions import find_mentions
    from detector.relapse.names import names_of

    found = find_mentions("Then I suggest RabbitMQ, much lighter to run.", names_of("RabbitMQ.", ""))
    assert [(m.text, m.strong) for m in found] == [("rabbitmq", True)]


def test_a_reply_that_shares_only_a_filler_word_with_the_reason_rebuts_nothing() -> None:
    """"thinning the oaks is like 2k…": "like" builds the sentence, so "ground covers like
    pachysandra" does not argue the reason away."""
    state = _state(
        "Have an arborist thin the oak canopy to let more light in",
        reason="thinning the oaks is like 2k and the HOA needs approval for tree work, takes months",
    )
    reply = "Ground covers like pachysandra, vinca or creeping jenny, or a moss lawn, would be lower maintenance."
    assert check_reply(state, reply).verdict == "OK"


def test_how_the_user_found_the_problem_out_is_no_word_of_the_reason() -> None:
    """"checked, max connections peaked at 40 of 200" is about connections: "check whether an idle
    timeout could cut long-running transactions" names the word of the finding, and its "cut" is
    no problem going away. Said of the connections, the reason is argued away."""
    state = _state("1(Postgres hitting max_connections during the batch)", reason="checked, max connections peaked at 40 of 200")
    reply = "OK, connections are fine. Next, check whether an idle timeout could cut long-running transactions."
    assert check_reply(state, reply).verdict == "OK"
    rebutting = "A bigger instance would solve the connections peak for good, you could move to db.r6g.xlarge."
    assert check_reply(state, rebutting).verdict == "RELAPSE"


def test_a_guided_walkthrough_is_the_rejected_product_tour_again() -> None:
    state = _state("Option A(an interactive product tour on first login)", reason="everyone clicked skip")
    reply = "To make sure people find the templates, we could add a short guided walkthrough on first login."
    assert check_reply(state, reply).verdict == "RELAPSE"


def _listed_state(options: list[str], rejected: list[int]) -> ConvergenceState:
    """One reply's list of options (turn 1), the ones at `rejected` (0-based) turned down at turn 2."""
    from detector.schema import Alternative

    state = ConvergenceState(conversation_id="t", turn=2)
    state.alternatives = [
        Alternative(id=f"alt-{i}", label=str(i + 1), summary=summary, first_turn=1,
                    status="rejected" if i in rejected else "proposed")
        for i, summary in enumerate(options)
    ]
    state.rejected = [
        RejectedAlternative(alternative_id=f"alt-{i}", alternative=f"{i + 1}({options[i]})", rejected_at=2,
                            revisit_if="-", evidence="")
        for i in rejected
    ]
    return state


def test_what_the_options_of_one_list_share_names_none_of_them() -> None:
    """"weekend" frames "Nashville weekend" and "Vegas weekend" alike; a reply proposing a new
    "cabin spa weekend" after both were turned down brings neither back, while Nashville does."""
    state = _listed_state(["Nashville weekend", "Vegas weekend", "Lake house with a chef"], rejected=[0, 1])
    assert check_reply(state, "A cabin spa weekend or a relaxed local day would fit her well.").verdict == "OK"
    again = check_reply(state, "I'd still suggest Nashville, just skip the bar crawl and book a quiet hotel.")
    assert (again.verdict, again.alternative) == ("RELAPSE", "1(Nashville weekend)")


def test_an_option_whose_every_name_its_siblings_share_keeps_them() -> None:
    from detector.relapse.mentions import find_mentions

    alone = names_of("Kafka", "", "Kafka on Confluent Cloud")
    assert [m.text for m in find_mentions("Or run Kafka yourself on three brokers.", alone) if m.strong] == ["kafka"]


def test_a_lone_cjk_character_beside_a_number_is_a_unit_not_a_name() -> None:
    """"天" of "箱根 1 天" is in every itinerary; "箱根" still names the option, and "鱼" of "养鱼",
    the only CJK run of its option, still names that."""
    from detector.relapse.mentions import find_mentions

    hakone = names_of("箱根 1 天", "")
    assert find_mentions("那天下雨的话，看到富士山的概率就很低了。", hakone) == []
    assert [m.text for m in find_mentions("可以留一天去箱根泡温泉。", hakone) if m.strong] == ["箱根"]
    assert find_mentions("其实可以养几条孔雀鱼。", names_of("养鱼", ""))


def test_only_a_mention_links_a_reply_to_the_option_for_the_learned_scorer() -> None:
    """Words shared with the rejection's reason or, in a suggesting sentence, with the option were
    links too, and every alarm they let the scorer raise on ordinary conversations was false."""
    from detector.relapse.features import touches_option

    assert not touches_option({"reason_overlap": 1.0, "soft_overlap_suggesting": 0.4, "suggests_elsewhere": 1.0})
    assert touches_option({"mentions": 0.69, "unframed": 0.69})


def test_a_names_pattern_finds_what_its_regex_finds_and_compiles_only_when_a_name_opens_in_the_text() -> None:
    names = names_of("方案A(Redis 集中式缓存)", "本地 LRU")
    assert names.anchors is not None
    regex = re.compile(names.anchors.pattern)
    for text in ("也可以考虑 redis 集群", "方案a 其实也行", "继续推进本地 lru", "redis-cluster 也行", ""):
        assert [m.span() for m in names.anchors.finditer(text)] == [m.span() for m in regex.finditer(text)]
        assert (names.anchors.search(text) is None) == (regex.search(text) is None)
    fresh = names_of("Memcached tier in front of the API", "Postgres")
    assert fresh.anchors is not None and fresh.anchors.search("we keep postgres as the store") is None
    assert fresh.anchors._regex is None  # nothing opened a name: nothing compiled
    assert fresh.anchors.search("a memcached tier again") is not None


def test_put_off_until_something_holds_is_not_in_a_moment() -> None:
    """"等收入上来再做" waits on a condition; "等下再上" is "in a moment", no deferral."""
    from detector.relapse.stance_cues import RULED_OUT_RE

    assert RULED_OUT_RE.search("收入公开系列等月入过万后再启动")
    assert not RULED_OUT_RE.search("等下我们再上 Redis 集群")


def test_a_verb_that_opens_an_option_and_an_identifier_name_nothing() -> None:
    """"C) Move to BigQuery…" is named by BigQuery, not by "Move": "Move PDTs into dbt." proposes
    another option. And "dbt_run_log" is a table, not dbt."""
    moved = names_of("C(Move to BigQuery on-demand pricing if your workload is spiky)", "Snowflake")
    assert moved.anchors is not None
    assert moved.anchors.search("move pdts into dbt.") is None
    assert moved.anchors.search("bigquery would be cheaper") is not None
    dbt = names_of("3(Move PDTs into dbt)", "Snowflake")
    assert dbt.anchors is not None
    assert dbt.anchors.search("select max(run_completed_at) from analytics.dbt_run_log") is None
    assert dbt.anchors.search("build them in dbt instead") is not None


@pytest.mark.parametrize(
    "alternative, current, reply",
    [
        # Words joined by an ampersand or an underscore are still the name (session 48).
        ("Hearth & Harvest", "Smoke & Ember",
         "**Backup quote:** I'd also ask Hearth & Harvest to quote for a hog roast, so you have a fallback."),
        ("celery beat", "a k8s cronjob",
         "3. register it as a `django_celery_beat` PeriodicTask instead of a CronJob: the schedule lives in the DB"),
    ],
)
def test_a_name_joined_by_an_ampersand_or_an_underscore_comes_back(alternative: str, current: str, reply: str) -> None:
    assert check_reply(_state(alternative, current), reply).verdict == "RELAPSE"


def test_a_longer_name_is_one_part_of_a_snake_case_identifier() -> None:
    """"flutter_riverpod" and "order_grpc.go" bring back Riverpod and gRPC; a name under four letters
    stays out of identifiers ("dbt_run_log", above)."""
    riverpod = names_of("B(Riverpod)", "provider")
    assert riverpod.anchors is not None
    assert riverpod.anchors.search("pubspec.yaml：加 flutter_riverpod 2.4.9") is not None
    grpc = names_of("1(改 gRPC)", "http 超时和熔断")
    assert grpc.anchors is not None
    assert grpc.anchors.search("- internal/client/order_grpc.go：加了骨架") is not None


@pytest.mark.parametrize("content, message", [
    (b"[" * 100_000 + b"\n", "nested too deep"),
    (b"[1, 2]\n", "expected a JSON object"),
    (b"\xff\xfe\n", "invalid UTF-8"),
    (b'{"reply": "x"}\n', "not a relapse case (KeyError"),
])
def test_a_bad_case_file_is_an_error_naming_the_line(tmp_path: Path, content: bytes, message: str) -> None:
    """Relapse cases are read like every JSONL file (formats.json_lines): a bad line is one clear
    error naming the file and line, never a traceback."""
    from detector.errors import InputError
    from detector.learn import relapse_cases

    path = tmp_path / "cases.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError, match=":1: ") as raised:
        relapse_cases(path)
    assert message in str(raised.value)


@pytest.mark.parametrize("alternative, condition, reply, verdict", [
    ("EC2 买 Savings Plans", "等下季度流量稳定了再说",
     "好，先不承诺。下季度看 Cost Explorer 的 Savings Plans 推荐，它会按过去用量算出安全的承诺额。", "OK"),
    ("EC2 买 Savings Plans", "等下季度流量稳定了再说", "另外建议现在就买 Savings Plans，能省 30%。", "RELAPSE"),
    ("a Redis cache", "traffic doubles", "Once traffic doubles, a Redis cache would make sense.", "OK"),
    ("a Redis cache", "traffic doubles", "A Redis cache would cut traffic to the database.", "RELAPSE"),
    # With no condition of the user's, the default one defers nothing.
    ("a Redis cache", "the user brings it back, or new constraints or evidence appear",
     "When new constraints appear, a Redis cache would help.", "RELAPSE"),
])
def test_an_option_put_off_until_the_users_own_condition_is_no_relapse(
    alternative: str, condition: str, reply: str, verdict: str
) -> None:
    state = _state(alternative)
    state.rejected[0].revisit_if = condition
    assert check_reply(state, reply).verdict == verdict


@pytest.mark.parametrize("mention, alternative, whole", [
    ("k3s", "k8s", True),
    ("K8S", "k8s", True),
    ("Kafka", "Kafka Streams", False),  # a part of the name
    ("fine-tune", "LoRA", False),  # a word for its kind
    ("网贷", "消费贷", False),
    ("event sourcing", "EventStoreDB", False),
])
def test_a_name_only_the_user_said_comes_back_by_its_own_forms_only(mention: str, alternative: str, whole: bool) -> None:
    """A rejected name no proposal holds comes back by the name or another short form of it, which
    the kin lexicon knows; the lexicon's wider kin (parts, kinds) raised false alarms on train."""
    from detector.relapse.verdict import _says_whole

    assert _says_whole(mention, alternative) is whole


@pytest.mark.parametrize("pattern, text", [
    # A mention avoided inside quotes: "避开那种「低碳生酮餐」".
    ("NEGATED_BEFORE_RE", "外卖避开那种「低碳"),
    # The user's own words cited back ("你说过 keto 让你没力气") are history, not a proposal.
    ("RULED_OUT_RE", "你说过 keto 让你没力气"),
    ("RULED_OUT_RE", "增额终身寿这类储蓄险就不放进方案了"),
    ("RULED_OUT_RE", "另外收回上一条里 raw vault 的建议"),
    ("NEGATING_WORD_RE", "so scratch "),
    # Session 65: what it would be, judged, right after the mention.
    ("FRAMED_AFTER_RE", " would be a big risk"),
    ("FRAMED_AFTER_RE", " 最大的问题就是对话本身会吃掉时间"),
])
def test_the_framing_words_read_these(pattern: str, text: str) -> None:
    from detector.relapse import stance_cues

    assert getattr(stance_cues, pattern).search(text) is not None


def test_questionnaires_collected_back_withdraw_nothing() -> None:
    """收回 withdraws a suggestion; "几百份很快就能收回来" collects questionnaires."""
    from detector.relapse.stance_cues import RULED_OUT_RE

    assert RULED_OUT_RE.search("可以先发一轮横断面问卷当预研究，几百份很快就能收回来") is None


def test_an_everyday_word_before_a_product_tail_names_nothing_alone() -> None:
    """"Visual" of "Visual Studio Code" opens a phrase; it is no maker's name."""
    names = names_of("Visual Studio Code", "")
    assert names.cased is None or names.cased.search("a visual diff of the change") is None
    assert find_mentions("Visual changes only.", names) == []


def _tracked(turns: list[tuple[str, str]]) -> ConvergenceTracker:
    tracker = ConvergenceTracker(build_detector(), MemoryStore())
    for role, text in turns:
        (tracker.observe_user if role == "user" else tracker.observe_assistant)("c", text)
    return tracker


@pytest.mark.parametrize("lang, turns, reply", [
    ("en", [
        ("user", "our list API is slow under load, what are the options?"),
        ("assistant", "Two options:\nA. Put a Redis cache in front of Postgres.\nB. Add an in-process LRU cache per instance."),
        ("user", "no Redis, we can't run more infra. go with B"),
        ("assistant", "OK, B: an in-process LRU with a 5-minute TTL."),
        ("user", "my cofounder keeps saying we should go back to Redis. I disagree, we're not revisiting it. anyway, the list endpoint next"),
        ("assistant", "For the list endpoint, key the LRU by page and filter."),
    ], "One more idea: a managed Redis in front of Postgres would take the read load off for good."),
    ("zh", [
        ("user", "列表接口一压测就慢，有什么方案？"),
        ("assistant", "两个方案：\nA. 在 Postgres 前面加一层 Redis 缓存。\nB. 每个实例加进程内 LRU 缓存。"),
        ("user", "Redis 不要，运维扛不住，就 B"),
        ("assistant", "好，按 B：进程内 LRU，TTL 5 分钟。"),
        ("user", "我合伙人一直说要不还是回到 Redis 吧，我不同意，这个不再讨论了。先看列表接口。"),
        ("assistant", "列表接口按页码和筛选条件做 LRU 的 key。"),
    ], "另外也可以上一个托管版 Redis，把读压力彻底从 Postgres 上挪走。"),
], ids=["en", "zh"])
def test_someone_elses_wish_the_user_opposes_brings_nothing_back(lang: str, turns: list[tuple[str, str]], reply: str) -> None:
    """"My boss wants it back, but I disagree" is NONE by the label guide: the option stays rejected,
    the tracker takes no choice from the turn, and a reply that proposes it again relapses."""
    tracker = _tracked(turns)
    state = tracker.state("c")
    assert state.rejected and not any(event.kind in ("reopened", "accepted") for event in state.history)
    assert tracker.observe_assistant("c", reply).verdict == "RELAPSE"


def test_a_reply_that_cannot_name_a_rejection_is_passed_over_only_when_no_sentence_names_it() -> None:
    """`may_mention` lets the guard pass over a rejection a reply cannot mention; it must never
    pass over one that `find_mentions` finds in a sentence (the curated cases, every rejection
    against every reply), and it must pass over most of the others, or it saves nothing."""
    from detector.learn import relapse_cases
    from detector.relapse.mentions import ReplyWords, may_mention
    from detector.relapse.names import current_core
    from detector.relapse.sentences import sentences_of
    from detector.text import normalize

    root = Path(__file__).resolve().parent.parent / "data"
    cases = [case for name in ("relapse_dev.jsonl", "relapse_dev4.jsonl") for case in relapse_cases(root / name)]
    replies = [sentences_of(normalize(case.reply)) for case in cases]
    held = [ReplyWords.of(sentences) for sentences in replies]
    pairs = named = passed_over = 0
    for case in cases:
        current = current_core(case.state.current_decision.text) if case.state.current_decision else ""
        for rejection in case.state.rejected:
            names = names_of(rejection.alternative, current)
            for sentences, words in zip(replies, held):
                found = any(find_mentions(sentence, names) for sentence in sentences)
                pairs += 1
                named += found
                if not may_mention(words, names):
                    assert not found, (rejection.alternative, sentences)
                    passed_over += 1
    assert named and passed_over > 0.5 * (pairs - named)


@pytest.mark.parametrize(("reply", "verdict"), [
    ("One more idea: you could swap the last 2 Osaka nights for Takayama. It's quiet in early April.", "RELAPSE"),
    ("Since Takayama is out because of the bus transfers, Osaka keeps its 2 nights.", "OK"),
    # Kanazawa is in the option's description too, but the user did not turn it down by that name.
    ("For a day trip from Kyoto, Kanazawa is too far; Nara is an easy 45 minutes.", "OK"),
])
def test_the_name_the_user_turned_an_option_down_by_names_it(reply: str, verdict: str) -> None:
    """The option's name ("Tokyo + Japan Alps") shares Tokyo with the decision; the user said
    "takayama", which its description holds."""
    state = ConvergenceState(conversation_id="t", turn=8)
    state.alternatives = [
        Alternative(id="alt-1", label="1", summary="Golden Route: Tokyo (5 nights) → Hakone (2) → Kyoto (5) → Osaka (2).",
                    first_turn=1, status="current"),
        Alternative(id="alt-2", label="2", summary="Tokyo + Japan Alps: Tokyo → Kanazawa → Takayama → Shirakawa-go. Beautiful, but a bus transfer.",
                    first_turn=1, status="rejected"),
    ]
    state.current_decision = CurrentDecision(text="1(Golden Route)", since_turn=3, alternative_id="alt-1")
    state.rejected = [RejectedAlternative(
        alternative_id="alt-2", alternative="2(Tokyo + Japan Alps)", rejected_at=2, reason="those bus transfers with dad's leg",
        revisit_if="-", evidence="takayama looks so pretty but those bus transfers with dad's leg, nope. skip 2",
    )]
    assert check_reply(state, reply).verdict == verdict



def test_a_name_the_rejection_measures_against_is_no_name_of_the_option() -> None:
    """"lower than Al Ansari's" turns Wise down; hung on the exchange-house option, it does not make
    Al Ansari a name of it."""
    state = ConvergenceState(conversation_id="t", turn=3)
    state.alternatives = [
        Alternative(id="alt-1", label="1", summary="Wise - low, transparent fee and a good rate.", first_turn=1),
        Alternative(id="alt-3", label="3", summary="An exchange house app (Al Ansari, Lulu) sending straight to GCash.",
                    first_turn=1, status="rejected"),
    ]
    state.rejected = [RejectedAlternative(
        alternative_id="alt-3", alternative="3(An exchange house app)", rejected_at=2, reason=None, revisit_if="-",
        evidence="Checked the app. It's 33 AED fee for 3,000 and their rate today is lower than Al Ansari's. So not worth it naman.",
    )]
    assert check_reply(state, "Al Ansari's app to GCash is the one to try.").verdict == "OK"


def test_an_option_named_by_nothing_but_a_generic_word_is_named_by_it() -> None:
    """"手机" is a kind of thing (WEAK_BIGRAMS): inside "手机 phyphox 方案" it names nothing. Turned down
    alone, it is the whole option, and a reply that has the students time it on their phones puts it
    back (session 62's blind helpers). A bare "方案" still names nothing."""
    state = _state("手机", "单摆法")
    assert check_reply(state, "计时可以让学生用自己的手机秒表，比机械秒表方便。").verdict == "RELAPSE"
    assert check_reply(state, "手机你已经排除了，计时就用实验室的电子秒表。").verdict == "OK"
    assert check_reply(_state("方案", "单摆法"), "这个方案的计时用电子秒表。").verdict == "OK"


# Session 65 (round seventeen's false alarms): a list's own numbering, or a question word heading an
# item the assistant asked, names no option.
@pytest.mark.parametrize("alternative, reply", [
    ("一(按朝代编年)", "另外想提一个建议：每讲可以留十分钟教学员吟诵。"),
    ("二(问问学校艺术团)", "在草坪边上办个小市集，卖手作、二手、小吃，建议每个摊位收50元。"),
    ("Where the displaced barrels go", "I'd suggest we look at where the good reasons came out."),
    ("1(what you might want to study)", "You could email admissions and ask what you might need before May."),
])
def test_numbering_and_question_words_name_no_option(alternative: str, reply: str) -> None:
    assert check_reply(_state(alternative), reply).verdict == "OK"
    assert [m.text for m in find_mentions(reply, names_of(alternative, "")) if m.strong] == []


def test_the_description_after_a_question_word_still_names_the_option() -> None:
    reply = "You could also stack the displaced barrels in the old shed for now."
    assert check_reply(_state("Where the displaced barrels go"), reply).verdict == "RELAPSE"


@pytest.mark.parametrize("alternative, reply", [
    ("一(按朝代编年)", "沈老师说得极是，按朝代编年偏重知识梳理，对老年学员不太合适，不取。"),
    ("3(Velocity written in Update)", "You're right, Velocity in Update is too jittery for the lift, so it stays out."),
])
def test_telling_the_user_they_are_right_frames_the_mention(alternative: str, reply: str) -> None:
    assert check_reply(_state(alternative), reply).verdict == "OK"


@pytest.mark.parametrize("alternative, reply", [
    ("4(Deep learning segmentation)",
     "That's a sensible call for this chapter - with only point labels and no GPU, deep learning would be a big risk."),
    ("1(WhatsApp pre-order + self pickup)", "一个礼拜就发现问题，其实很值——WhatsApp 最大的问题就是对话本身会吃掉时间。"),
])
def test_an_option_judged_as_what_it_would_be_is_no_relapse(alternative: str, reply: str) -> None:
    assert check_reply(_state(alternative), reply).verdict == "OK"


def test_a_question_word_in_capitals_is_still_a_name() -> None:
    """NEVER_NAMES reads words, not acronyms: "US" of "US hosting" still names it."""
    mentions = find_mentions("We could keep the portal on US hosting after all.", names_of("US hosting", ""))
    assert [m.text for m in mentions if m.strong] == ["US"]


@pytest.mark.parametrize("alternative, reply", [
    # Session 66: what the user put off until a condition holds, in Cantonese's order; an option
    # said put down, "就此放下"; and the formal "不作示范".
    ("1(租 studio)", "唔使客氣！總結：平台用 Teachable；錄影用 iPad 方案，studio 等有收入先考慮；自家 app 已經排除。"),
    ("3(公共数据授权运营)", "这是一个与导师方向契合度很高的选择，公共数据方向就此放下。"),
    ("3(Potato osmosis)", "好，model investigation 改用 beetroot + colorimeter，potato osmosis 不作示范。"),
])
def test_an_option_put_down_or_off_in_more_words_is_no_relapse(alternative: str, reply: str) -> None:
    assert check_reply(_state(alternative), reply).verdict == "OK"
