"""Does an assistant reply bring a rejected alternative back?

Naming a rejected option is not a relapse: "之前已否决 Redis（运维成本高），继续推进本地 LRU" is
exactly what a well-behaved agent writes. Each sentence of the reply is searched for *mentions* of
each rejected alternative, and each mention is read for its *stance*.

1. Mentions. Strong: a name of the alternative (its proper names, "Redis" of "Redis 集中式缓存",
   "Swarm" of "Docker Swarm" but never "React" of "React Native"; all the distinctive words of a
   description; three characters in a row of a CJK name), its label ("方案A"), or a kin form
   (variants, managed or lite editions: "ElastiCache", "k3s"; data in `_KIN_GROUPS`). Weak: part
   of a description ("tutoring" of "in-person tutoring center", "起诉" of "走法律途径起诉"), a
   category ("a message broker" for Kafka), a pointer back ("回到之前那个方案", "the option we
   dropped"). What the current decision shares with it ("缓存" when "本地 LRU 缓存" is current)
   names neither.
2. Stance. A mention is framed when the words around it rule it out, tell its history, compare
   against it, negate it, agree with the user's rejection, or give it as the reason for the current
   decision (已否决 / 不上 K8s / unlike Redis / 对，那国债也不太合适 / Kyoto would have been
   packed). An unframed mention relapses when its sentence puts something forward: a strong one
   with any proposal or praise (也可以 / would solve / the standard choice), a weak one only with
   an explicit suggestion (建议 / 不妨 / worth); a name alone is as often logistics as a relapse.
   "I know you ruled it out, but …" relapses when what follows the "but" proposes without going
   back to the current decision, and so does arguing the rejection's reason away ("a managed
   service would solve the ops cost").

Precision comes first (a false alarm on a reply that names the option as rejected is the worst
error): when a rule is unsure it leans to OK, and the lexicons are small, explicit data.
Everything is stdlib `re` with literal alternations and bounded windows, an alternative's names
are compiled once and cached: a check takes about 0.1 ms, the first one in a fresh process 2 ms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from detector.schema import ConvergenceState, RelapseVerdict
from detector.text import CJK_CHAR, normalize

# "A letter outside ASCII", which in these patterns means a CJK character: the exact Han ranges
# (CJK_CHAR) cost a millisecond each to compile, twenty times this, and the hook starts cold.
_HAN = r"[^\W\d_a-zA-Z]"

# ------------------------------------------------------------------------------------------
# Lexicon: what counts as the same option

# Each group lists surface forms that denote one option (product, variants, managed or lite
# editions, paraphrases, the hypernym a reply would use for it, both languages). A group joins an
# alternative's names when one of its forms occurs in the alternative's text, so "Redis 集中式缓存"
# brings in "ElastiCache" and "in-memory key-value store"; there is no chaining between groups.
_KIN_GROUPS: tuple[tuple[str, ...], ...] = (
    ("redis", "elasticache", "memorystore", "keydb", "valkey", "dragonfly", "redis cluster", "redis sentinel",
     "in-memory key-value", "in-memory kv", "key-value store", "key-value cache", "kv store",
     "in-memory data store", "in-memory store", "cache server", "cache cluster", "distributed cache",
     "centralized cache", "centralised cache", "shared cache", "内存键值", "集中缓存", "键值存储", "键值数据库", "内存数据库",
     "分布式缓存", "集中式缓存", "缓存集群", "缓存服务器", "共享缓存", "缓存服务"),
    ("memcached", "memcache", "distributed cache", "centralized cache", "centralised cache", "cache cluster",
     "分布式缓存", "集中式缓存", "集中缓存", "缓存集群", "缓存服务器"),
    ("kafka", "msk", "confluent", "redpanda", "kafka connect", "kafka streams", "event streaming",
     "event-streaming", "streaming platform", "event log", "消息队列", "消息中间件", "流处理平台"),
    ("rabbitmq", "amqp", "message broker", "message queue", "消息队列", "消息中间件"),
    ("kubernetes", "k8s", "k3s", "k0s", "microk8s", "minikube", "eks", "gke", "aks", "openshift", "rancher",
     "container orchestration", "容器编排"),
    ("docker swarm", "swarm"),
    ("microservices", "microservice", "micro-services", "微服务", "service mesh", "服务拆分", "拆分服务", "拆服务", "独立服务",
     "单独拆", "拆成一个服务", "拆出去", "separate service", "own service", "standalone service", "split into services"),
    ("mongodb", "mongo", "documentdb", "document database", "document store", "document db", "文档数据库",
     "文档型数据库", "文档库"),
    ("elasticsearch", "elastic search", "es", "opensearch", "elastic cloud", "es 集群"),
    ("graphql", "apollo", "hasura"),
    ("postgres", "postgresql", "pg"),
    ("mysql", "mariadb", "percona"),
    ("spark", "pyspark", "databricks", "emr", "dataproc"),
    ("redux", "redux toolkit", "rtk"),
    ("react native", "expo"),
    ("openai", "chatgpt", "gpt", "gpt-4", "gpt-4o", "gpt-3.5", "gpt4"),
    ("gpt-4", "gpt-4o", "gpt4", "gpt-4-turbo", "gpt-4 turbo", "chatgpt"),
    ("aws", "amazon web services", "s3", "ec2", "cloudfront", "dynamodb", "亚马逊云"),
    ("azure", "微软云"),
    ("gcp", "google cloud", "谷歌云", "bigquery"),
    ("wordpress", "wp engine", "wpengine", "wordpress.com"),
    ("typescript", "ts"),
    ("excel macros", "excel macro", "vba", "excel 宏", "宏脚本"),
    ("bare metal", "bare-metal", "dedicated server", "物理机", "独立服务器"),
    ("自建机房", "自己机房", "自有机房", "本地机房", "on-prem data center"),
    ("混合云", "混合部署", "hybrid cloud"),
    ("native app", "原生 app", "独立 app", "单独 app", "ios app", "android app", "dedicated app", "standalone app",
     "手机 app"),
    ("sharding", "shard", "分库分表", "分表", "分库", "水平拆分", "分片", "horizontal partitioning"),
    ("dog", "puppy", "puppies", "狗", "小狗", "狗狗", "犬", "柯基", "泰迪", "金毛", "柴犬"),
    ("boarding", "pet hotel", "kennel", "cattery", "pet boarding", "寄养", "宠物寄养"),
    ("sue", "suing", "lawsuit", "litigation", "起诉", "打官司", "诉讼"),
    ("takeout", "take-out", "food delivery", "delivery", "外卖", "点外卖"),
    ("serverless", "lambda", "cloud functions", "cloud function", "faas", "云函数", "函数计算"),
    ("photographer", "videographer", "摄影师", "跟拍", "跟拍师", "摄像师"),
    ("hiit", "high-intensity interval", "高强度间歇", "间歇训练"),
    ("marathon", "half marathon", "full marathon", "马拉松", "半马", "全马"),
    ("flowers", "flower", "bouquet", "roses", "鲜花", "花束", "一束花", "玫瑰", "送花"),
    ("nanny", "au pair", "babysitter", "保姆", "住家阿姨", "育儿嫂", "月嫂"),
    ("movers", "moving company", "moving crew", "moving service", "搬家公司", "搬家师傅", "搬家工人", "搬家服务"),
    ("agency", "dev shop", "outsourcing", "outsource", "外包", "外包公司", "外包团队"),
    ("guided tour", "tour group", "group tour", "group day trip", "package tour", "旅行团", "跟团", "报团", "参团"),
    ("cruise", "cruise ship", "邮轮", "游轮"),
    ("camping", "glamping", "露营", "精致露营"),
    ("keto", "ketogenic", "low-carb, high-fat", "low-carb high-fat", "very-low-carb", "lchf", "生酮", "低碳水高脂",
     "低碳高脂"),
    ("used car", "pre-owned", "second-hand car", "secondhand car", "二手车"),
    ("hot pot", "hotpot", "火锅", "鸳鸯锅", "麻辣锅"),
    ("barbecue", "bbq", "grilling", "烧烤", "烤串"),
    ("taxi", "cab", "uber", "lyft", "didi", "滴滴", "打车", "出租车", "网约车", "rideshare", "ride-hail"),
    ("renting a car", "rental car", "car rental", "rent a car", "a rental", "drive yourself",
     "driving yourself", "self-drive", "自驾", "租车", "租辆车", "自己开车", "自己开"),
    ("airbnb", "vacation rental", "holiday rental", "short-term rental", "homestay", "民宿", "短租"),
    ("gym", "健身房", "健身卡"),
    ("index fund", "etf", "etfs", "mutual fund", "s&p 500", "指数基金", "基金定投", "定投"),
    ("hardwood", "engineered wood", "木地板", "实木地板", "复合地板"),
    ("electric car", "electric vehicle", "ev", "evs", "tesla", "model 3", "model y", "电车", "纯电", "新能源车"),
    ("e-bike", "ebike", "electric bike", "电动车", "电瓶车", "电单车", "电驴"),
    ("biking", "bike", "bicycle", "cycling", "骑车", "自行车", "单车"),
    ("civil service", "government job", "公务员", "考公", "事业编", "考编", "体制内"),
    ("discount", "打折", "折扣", "九五折", "九折", "八折", "降价", "price cut"),
    ("robot vacuum", "roomba", "roborock", "ecovacs", "扫地机器人", "扫地机", "扫拖机器人"),
    ("iphone", "苹果手机", "苹果"),
    ("tiktok", "douyin", "抖音", "dou+"),
    ("google ads", "adwords", "谷歌广告"),
    ("destination wedding", "island wedding", "beach wedding", "海岛婚礼", "目的地婚礼", "海外婚礼"),
    ("relocating", "relocate", "relocation", "moving to", "换城市", "换个城市", "去外地"),
    ("weekend work", "working weekends", "weekend", "saturday", "sunday", "周末加班", "加班", "周六", "周日"),
    ("deep frying", "deep-frying", "deep fry", "deep-fry", "deep-fried", "hot oil", "油炸", "下锅炸"),
    ("tutoring center", "补习班", "辅导班"),
    ("training from scratch", "train from scratch", "from scratch", "从头训练", "从零训练"),
)

# Categories: what a reply calls an option when it avoids its name ("a message broker" for
# Kafka). A category applies to an alternative one of whose names is a member; its phrases are weak
# mentions (they need an explicit suggestion), and none counts when the current decision is a member
# too (Kafka rejected for RabbitMQ: "the message broker" is then the current one).
_CATEGORIES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("message broker", "message queue", "event streaming platform", "streaming platform", "event bus",
      "pub/sub system", "消息队列", "消息中间件", "消息总线", "事件总线", "流处理平台"),
     ("kafka", "rabbitmq", "pulsar", "nats", "activemq", "rocketmq", "sqs", "kinesis", "redpanda", "msk",
      "confluent")),
    (("in-memory key-value store", "in-memory store", "key-value store", "cache server", "distributed cache",
      "centralized cache", "shared cache", "cache cluster", "in-memory data store", "in-memory database",
      "内存键值", "键值存储", "内存数据库", "分布式缓存", "集中式缓存", "集中缓存", "缓存集群", "缓存服务器", "共享缓存"),
     ("redis", "memcached", "elasticache", "memorystore", "keydb", "valkey", "dragonfly", "hazelcast")),
    (("container orchestrator", "container orchestration", "orchestration platform", "managed kubernetes",
      "容器编排", "编排平台"),
     ("kubernetes", "k8s", "k3s", "eks", "gke", "aks", "openshift", "docker swarm", "swarm", "ecs",
      "rancher")),
    (("document database", "document store", "document db", "nosql store", "nosql database",
      "schemaless database", "schemaless store", "文档数据库", "文档型数据库", "nosql"),
     ("mongodb", "mongo", "couchdb", "documentdb", "firestore", "cosmos db", "dynamodb")),
    (("search engine", "search cluster", "full-text search engine", "dedicated search service", "搜索引擎",
      "全文检索引擎", "搜索集群"),
     ("elasticsearch", "opensearch", "solr", "meilisearch", "typesense", "algolia")),
    (("workflow orchestrator", "workflow scheduler", "dag scheduler", "工作流调度", "调度平台", "任务编排"),
     ("airflow", "dagster", "prefect", "luigi", "argo workflows", "temporal")),
    (("cloud data warehouse", "columnar warehouse", "columnar database", "olap database",
      "analytics warehouse", "数据仓库", "数仓", "列式数据库", "列式库"),
     ("bigquery", "snowflake", "redshift", "clickhouse", "druid", "doris", "starrocks")),
    (("serverless functions", "functions as a service", "faas", "cloud functions", "云函数", "函数计算"),
     ("lambda", "aws lambda", "azure functions", "cloudflare workers", "serverless")),
    (("vector database", "vector store", "向量数据库", "向量库"),
     ("pinecone", "weaviate", "milvus", "qdrant", "chroma")),
    (("time-series database", "tsdb", "时序数据库"),
     ("influxdb", "timescaledb", "tdengine")),
    (("graph database", "图数据库"),
     ("neo4j", "neptune", "nebula graph", "tigergraph")),
    (("cross-platform framework", "cross-platform layer", "hybrid app framework", "跨端框架", "跨平台框架"),
     ("react native", "flutter", "ionic", "uni-app", "taro", "xamarin")),
    (("state management library", "global store", "状态管理库"),
     ("redux", "mobx", "vuex", "pinia", "recoil")),
    (("static site generator", "静态站点生成器"),
     ("hugo", "jekyll", "gatsby", "eleventy", "hexo")),
    (("headless cms", "content management system", "内容管理系统"),
     ("wordpress", "contentful", "strapi", "drupal")),
    (("bi tool", "dashboarding tool", "报表工具", "bi 工具"),
     ("tableau", "power bi", "looker", "metabase", "superset")),
    (("service mesh", "服务网格"),
     ("istio", "linkerd")),
    (("hosted llm api", "commercial llm api", "closed model api", "商用大模型", "闭源大模型"),
     ("openai", "gpt-4", "gpt-4o", "chatgpt", "claude", "gemini")),
    (("ci server", "self-hosted ci", "自建 ci"),
     ("jenkins", "teamcity", "bamboo")),
    (("theme park", "amusement park", "主题乐园", "游乐园"),
     ("disneyland", "disney", "迪士尼", "universal studios", "环球影城")),
    (("ride-hailing", "rideshare", "网约车"),
     ("uber", "lyft", "didi", "滴滴", "taxi", "打车")),
    (("vacation rental", "short-term rental", "民宿", "短租"),
     ("airbnb",)),
)
# A reply may point back instead of naming: "回到之前那个方案", "the option we dropped".
_BACK_REFERENCE_RE = re.compile(
    r"(?:之前|原来|最开始|最初|一开始|刚才|先前|原先|上一个|前面)(?:的|说的|提的|否掉的|放弃的|被否的)?(?:那个|那套|那种)?"
    r"(?:方案|思路|做法|选项|办法|路子|想法|方向)|(?:被否|否掉|放弃|排除)(?:掉)?的(?:那个)?(?:方案|思路|选项|做法)"
    r"|\b(?:the|your|our) (?:original|previous|earlier|first|old|initial) (?:plan|idea|approach|option|"
    r"proposal|design|setup)"
    r"|\bthe (?:option|approach|plan|idea|one) (?:we|you) (?:dropped|rejected|ruled out|passed on|discarded|"
    r"set aside)",
    re.I,
)
# Words that say what kind of thing an option is, not which one: they never identify it alone.
_WEAK_WORDS = frozenset(
    "cache caching database db store storage server service cluster queue system tool app application "
    "platform framework library solution setup stack layer api engine instance version cloud hosting host "
    "managed hosted self-hosted local online offline in-person new full whole custom simple small big large "
    "single separate dedicated native mobile web site website car house home trip center centre class "
    "course ad team company work working job model data file based gateway state management script code "
    "project feature page room place food diet floor investing training deep outdoor indoor trip travel "
    "ticket plan option approach idea thing way cheap expensive premium pro lite free paid etf sdk ui ux "
    "cli gui vm crm erp cms llm ai manager operator".split()
)
# Everyday modifiers that open a phrase: "Hot pot", "Used car" are not names.
_MODIFIERS = frozenset(
    "hot cold used old big small cheap public private open free part double extra remote manual annual "
    "monthly weekly daily early late short long high low fast slow light heavy hard soft plain basic shared "
    "central direct raw fresh frozen family solo group weekend night morning summer winter beach city "
    "country mountain road air sea water index standing private".split()
)
# Function words and light verbs: never part of what is matched.
_STOP_WORDS = frozenset(
    "a an the to of in on for with and or by at from as into via using use go going get getting buy buying "
    "hire hiring switch switching adopt adopting add adding build building run running make making do doing "
    "try trying rewrite rewriting put putting set setting have having keep everything all some our my your "
    "we us it its this that these those is are be just only also more less instead them they him her me one "
    "alone rent renting own offer offering give giving first early late now later off up out".split()
)
# CJK character pairs that describe a kind of thing (缓存, 数据库) rather than name one.
_WEAK_BIGRAMS = frozenset(
    "缓存 数据 据库 服务 系统 方案 集群 平台 框架 工具 模型 公司 团队 管理 状态 一个 使用 旅行 饮食 工作 广告 手机 认证 部署 本地 线上 线下 全部 所有 我们 这个 那个 可以 用户 "
    "功能 项目 页面 接口 前端 后端 技术 产品 东西 时候 迁到 迁移 换成 改成 改用 切换 引入 解决 全站 在家 自己 单独 直接 自建".split()
)
_ZH_FUNCTION_RE = re.compile("[的了着过和与及或在是对把被给从向很也都就]")
# What a current decision says it replaces: "instead of Redis", "不用 Redis", "替代 Redis".
_REPLACED_RE = re.compile(
    r"(?:\binstead of|\brather than|\breplacing|\bin place of|\bnot\b|\bno\b|\bwithout|\bdrop(?:ping)?|"
    r"\bditch(?:ing)?|"
    r"\bskip(?:ping)?|替代|代替|取代|而不是|而非|不用|不要|不上|不再用|放弃|去掉|换掉)"
    r"\s?[^,，;；。()（）]{1,24}?(?=[,，;；。()（）]|而是|改用|换成|改成|\buse\b|\bgo with\b|\band\b|$)",
    re.I,
)
# Verbs inside a long CJK name, between its pieces ("在客厅做投影墙"), and the marks of a place.
_ZH_INNER_VERB_RE = re.compile(f"安排|使用|采用|引入|搭建|部署|安装|(?<={_HAN}{{2}})[发做用加请买装拍写种配接搭办送](?={_HAN}{{2}})")
_ZH_PLACE_RE = re.compile("^在|[上里中内外旁边]$")
# One-character suffixes that only say what kind of thing a 3-character name is (版, 店, 卡).
_ZH_SUFFIXES = frozenset("版店卡馆团班端")
# Light verbs in front of a CJK name ("办健身房年卡", "吃火锅"): the name is what follows.
_ZH_LEAD_RE = re.compile(
    r"^(?:单独|全部|直接|自建|自己|继续|把|先|再|也|都|还)?"
    r"(?:用|使用|采用|上|买|办|找|报|请|吃|去|住|投|养|铺|换|做|搞|选|走|送|坐|租|打|学|开|搬|加|跑|骑)?"
)
_LABEL_RE = re.compile(
    r"^\s{0,3}(?P<label>(?:方案|思路|选项|路线|办法)\s?[A-Za-z\d一二三四五六七八九十]{1,2}"
    r"|(?:option|plan|approach|choice|alternative)\s?[A-Za-z\d]{1,2}\b)\s?[:：.)）(（-]?\s{0,2}",
    re.I,
)
_PLACE_RE = re.compile(r"\s(?:in|at|on|inside|near)\s(?:the|a|an|my|our|your)\s", re.I)
_NAME_END = frozenset(",，;；。")
_PURPOSE_RE = re.compile(r"\s(?:for|to|so that|in order to)\s", re.I)
_PART_SPLIT_RE = re.compile(r"[()（）:：,，/、;；+]|\s(?:or|或)\s")
_LATIN_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z0-9+#.\-]{0,30}")
_LATIN_WORD_RE = re.compile(r"[a-z][a-z0-9+#.\-]{0,30}")
_CJK_RUN_RE = re.compile(f"[{CJK_CHAR}]+")
# Heads of compound product names that name something else alone ("Google Ads", "React Native").
_COMPOUND_HEADS = frozenset(
    "google microsoft amazon aws azure apple docker react apache github gitlab visual oracle ibm meta adobe "
    "atlassian hashicorp elastic confluent cloudflare".split()
)
# "从 MySQL 迁到 Postgres", "moving from Jenkins to Actions": the option is where it goes.
_MIGRATION_FROM_RE = re.compile(
    r"(?<![主自服跟随盲])从(?!而|来|不|未|小|前|此)\s?[^,，。;；]{1,40}?\s?"
    r"(?=迁(?:移)?到|迁往|换成|换到|切(?:换)?到|改成|改为|转到|转成|升级到|升级为)"
    r"|\bfrom\s[^,，。;；]{1,40}?\s(?=to\b)"
    r"|^\s?(?:switch|chang|mov|migrat|convert|upgrad)\w{0,4}\s[^,;]{1,40}?\s(?=to\s)",
    re.I,
)

# ------------------------------------------------------------------------------------------
# Stance: the words around a mention

_ZH_BOUNDARY = "但是|但|不过|可是|然而|只是|话说回来"
# "X, but Y": what follows a contrast decides.
_CONTRAST_RE = re.compile(rf"(?:{_ZH_BOUNDARY}|\bbut\b|\bhowever\b|\bthat said\b|\bthough\b|\byet\b)", re.I)
# "对，那国债也不太合适" / "Good catch — shared mailboxes break magic links": the reply agrees with
# the rejection; what follows in that sentence explains it ("对于", "对了" are not agreement).
_AGREEMENT_RE = re.compile(
    r"^\W{0,3}(?:(?:对的?|是的|没错|同意|确实|有道理|合理|理解|明白了?)(?=[,，。!！;；\s—])|"
    r"(?:right|agreed|true|good (?:catch|point|call)|fair(?: point| enough)?|makes sense|exactly|yes|yeah|"
    r"yep|"
    r"indeed|understood)(?=\s?[,.!;:—–-]))",
    re.I,
)
_CLAUSE_RE = re.compile(r"[,;:，；：、()（）—]")
_INNER_NEGATION_RE = re.compile(r"不|没|别|\b(?:no|not|without)\b", re.I)
# Explicit: the option is ruled out, historical, or the user's own rejection is being reported.
_RULED_OUT_RE = re.compile(
    r"已(?:经)?(?:被)?(?:否决|排除|放弃|否掉|否了|否|弃用|淘汰|砍掉|去掉|pass)|被否|否决|否了|排除|放弃|不再(?:考虑|用|推荐|提|展开)|"
    rf"(?<={_HAN})再说(?=[,，。!！]|$)|就算了|划掉|搁置|放一放|先放着|迁出|迁离|你(?:刚才)?问(?:的|到|过)?|关于你(?:问|提)的|回答你|先不(?:做|"
    rf"用|上|考虑)|没选|当初没|当时没|的原因|被(?:取代|替换|替代)|暂时不|不考虑|不予考虑|去掉了|回顾|之前(?:说过|定了|讨论|否|排除|放弃|在)|"
    rf"你(?:之前)?说(?:过)?(?:不|别)|"
    r"按你的意思|如你所说|你不(?:想|太|喜欢|要|放心|愿意)|你担心|既然你(?:想|要|提|问)|你(?:想|要)重新|你刚(?:才)?(?:问|提)|"
    r"\b(?:ruled out|rejected|(?:we|I|I've|we've|have|has|was|were|been|got) dropped|dropped (?:it|that|"
    r"this|them)|"
    r"crossed (?:off|out)|decided against|set aside|no longer|off the table|off the list|is out|are out|"
    r"are both out|is ruled|passed on|said no|as you (?:said|asked|decided|wanted)|as agreed|we agreed|"
    r"we decided|"
    r"you mentioned (?:not|that you don't|you didn't)|you (?:said|decided|didn't want|don't want|disliked|"
    r"rejected|vetoed|ruled|asked|"
    r"weren't comfortable)|per your|left out|skipp(?:ed|ing)|ditched|scrapped|holding off|"
    r"hold off|recap|since you want|you want to (?:revisit|reconsider)|why we (?:passed|dropped|skipped|"
    r"didn't)|"
    r"which is why|that's why we|out of the picture|keeps? (?:us|it|them) out|keeping \w+ out|stays? out|"
    r"superseded|replaced by|to your question|your question about|you asked (?:about|whether|how|if|what|"
    r"why)|"
    r"as for your question|waits? until|can wait|on hold|parked|shelved|mov(?:e|ed|ing) (?:off|away from)|"
    r"migrat(?:e|ed|ing) (?:off|away from)|(?:is|are|was|were|been) cancel(?:l)?ed|you'll decide|you decide|"
    r"your call|up to you)\b|由你(?:到时候)?(?:来)?决定|你来定|"
    r"到时候再定|你再定",
    re.I,
)
# A negation or comparison right before the mention: 不上 K8s / 比 Electron / the crunch of deep frying.
_NEGATED_BEFORE_RE = re.compile(
    r"(?:(?<![要是能会好行可])不(?!妨|错|如|过|少|但|仅|光|会|难)|没有?|别|无需|免得|而非|而不是|代替|取代|相比|"
    rf"相较|比起|比|不同于|除了|避开|跳过|去掉|放弃|砍掉|停掉|停用|关掉|撤掉|下掉|拒绝|拒了){_HAN}{{0,5}}\s?$"
    r"|(?:之前|原来|原先|当初|以前|残留|遗留|旧)的?\s?$"
    r"|\b(?:crunch|warmth|feel|look|taste|flavou?r|benefits?|advantages?|upside|flexibility|perks?|"
    r"convenience|"
    r"charm|vibe|power|speed) of (?:a |an |the )?$",
    re.I,
)
# An English negation or comparison up to two words before the mention ("avoid paying a …"):
# checked word by word from the end, so no pattern repeats a group.
_NEGATING_WORD_RE = re.compile(
    r"\b(?:no|not|never|without|unlike|than|versus|vs\.?|instead of|rather than|in place of|avoid(?:s|ing)?|"
    r"skip(?:s|ped|ping)?|drop(?:s|ped|ping)?|ditch(?:ed)?|replac(?:e|es|ed|ing)|compared (?:to|with)|"
    r"need for|don't need|no need for|to avoid|away from|moved from|wanted from|you had with|you had about|"
    r"the way|previous|earlier|original|old|former|(?:a )?(?:third|half|quarter|fraction) of|problems? with|"
    r"issues? with|"
    r"downsides? of|drawbacks? of|risks? of|overhead of|burden of|complexity of|over(?! to)|alternative to|"
    r"replacement for|substitute for|take on(?: what)?|clone of|similar to|leftover|remaining|remove|delete|"
    r"rip out|tear down|decommission|retire|clean up)\s$",
    re.I,
)
_LAST_WORD_RE = re.compile(r"[\w'-]{1,15}\s$")
# Right after the mention: a comparison, a verdict against it, or its past tense.
_FRAMED_AFTER_RE = re.compile(
    rf"^\s?(?:不{_HAN}{{1,2}}了|的(?:[一二三四五六七八九十几]分之[一二三四五六七八九十几]|一半|[一二两三四五六七八九十几]倍)|相比|相较|那种|那样|一样|般|"
    rf"就算了|不动|不碰|不改|{_HAN}{{0,4}}(?:取消了|停掉了|砍掉了|撤掉了)|就不|不再|已经(?:被)?(?:否|排除|放弃|去掉|砍掉|划掉)|已被|被(?:否|排除|"
    rf"放弃|砍|去掉|pass)|先不|太重|太贵|太复杂|太麻烦|扛不住|不适合|不划算|没必要|"
    r"的(?:问题|缺点|成本太|运维太|口感|感觉|效果|优点|好处|味道|灵活性|风格)|那条路|的方案因为|方案因为|对我们)"
    r"|^[\w\s'-]{0,30}?\b(?:would have|would've|(?:was|were)(?! (?:better|the better|right|fine|good|worth|"
    r"smarter|simpler))|"
    r"had been|is out|are out|is off|"
    r"would be overkill|is overkill|is too|are too|you (?:disliked|rejected|had|didn't|wanted)|quote|did|"
    r"used to)\b"
    r"|^-?(?:like|style|esque)\b|^\s(?:flavou?rs?|taste|feel|vibes?|style|experience)\b"
    r"|^[\w\s'-]{0,30}?\b(?:can|should|will|could) be (?:deleted|removed|dropped|retired|cleaned up)\b"
    rf"|^[^,，;；]{{0,20}}?(?:删掉|删除|移除|下线|清理掉|的{_HAN}{{0,4}}替代)",
    re.I,
)
# A short verdict clause after the option's: "开屏广告影响体验，不做了".
_VERDICT_CLAUSE_RE = re.compile(rf"[,，]\s?(?:就|也|先|都|暂时)?(?:不{_HAN}{{1,2}}了|算了|作罢|放弃了|排除了|否了)")
# "X 容易卡住，所以选了 <current>": a reason that leads to the current decision.
_CAUSAL_RE = re.compile(r"所以|因此|于是|因而|\b(?:so|which is why|that's why|hence|therefore)\b", re.I)
# A verdict against the option anywhere in its clause.
_AGAINST_RE = re.compile(
    r"太重|太贵|太复杂|太麻烦|扛不住|不适合|不划算|没必要|杀鸡用牛刀|成本太高|代价太大|没有足够|不现实|超(?:出)?预算|"
    r"我们没有|没有条件|不具备|受不了|吃不消|不太(?:合适|适合|行|现实|可行|方便)|不符合|不满足|不支持|不兼容|会降低|"
    r"清零|暴雷|踩坑|有坑|走不通|行不通|不可行|过不了|批不了|不允许|不喜欢|讨厌|反感|"
    r"(?:撑|扛|顶|吃|受|管|搞|做|跑|推|用|养|买|付|承担)不(?:起来|住|起|动|了|消|定|过来)|"
    rf"(?<![不没])(?<![不没]{_HAN})(?<![不没]{_HAN}{{2}})太(?!好|棒|香|爽|赞|值|方便|划算|合适|舒服|美|漂亮|实惠|省心|省事|好用|"
    rf"稳){_HAN}|"
    r"\b(?:overkill|too (?:heavy|expensive|complex|slow|much|costly|big|risky)|not worth|isn't worth|"
    r"unnecessary|would have been|would've been|would have meant|(?:don't|do not|doesn't) have (?:the|"
    r"enough)|"
    r"can't afford|cannot afford|can't (?:handle|take|budget for|justify)|lack the|breaks?|broke|broken|"
    r"(?:won't|doesn't|wouldn't|can't) work|(?:not|isn't) an option|unsafe|not supported|unsupported|"
    r"incompatible|"
    r"non-starter|no-go|deal-?breaker|too (?!much to)[a-z]{3,}|"
    r"(?:doesn't|does not|don't|won't) fit|unrealistic|over budget|"
    r"out of budget|dislikes?|hates?|can't stand|(?:doesn't|don't|didn't) (?:like|want)|"
    r"(?:can't|cannot|won't) be \w+ed|none of th(?:ose|em|ese))\b",
    re.I,
)
# The sentence puts something forward.
_PROPOSES_RE = re.compile(
    r"未尝不可|倒是可以|适合|觉得|认为|个人|不贵|不算贵|就行|就好|即可|(?<!不)可以(?!说)|也可|还可|不妨|"
    r"不如|建议|推荐|试试|试一下|试投|或者|换成|换到|改用|换回|退回|回到|要不|何不|考虑(?!到)|影响不大|"
    r"问题不大|投一下|也能|能解决|"
    r"更好|更合适|更自由|更方便|更省|更快|更稳|更灵活|更强|强很多|好很多|高很多|值得|顺便|顺路|顺带|另外|再加|加一层|加上|引入|上一个|"
    r"搭一个|搭一层|来一个|也行|也不错|不错|挺好|划算|性价比|省心|省事|办法|选择|备选|兜底|二期|下个迭代|以后再|后面再|躲不过|"
    r"还是得|最好用|可以看看|留作|体验|安排|不会贵|只贵|平稳|比较好|稳妥|方便|保住|想想|用起来|起一个|预留|会更|再配|其实|就够|"
    r"收益|搞定|能让|可以让|第[一二三四五六七八九十\d]步|下一步|装好|安装|部署|接入|迁到|迁移到|帮助|长期|最大|最快|最好|"
    r"合适|改回|换回来|加一条|加一个|加个|做一个|做个|搞一个|同步做|顺手|会(?:低|高|快|好|省|少)|有意思|也很|再比较|再对比|优惠|效率|翻倍|没关系|无妨|"
    r"\b(?:could|might|may|would|'d|should|consider|suggest|recommend|how about|what about|why not|try|"
    r"alternatively|another option|an option|also|as well|too|by the way|btw|in parallel|meanwhile|"
    r"in the meantime|"
    r"worth|go with|switch|moving to|move to|fall(?:ing)? back|go back|bring in|bringing in|add|adding|"
    r"layering|"
    r"spin up|pick up|picking up|adopt|next step|down the road|long term|eventually|later|phase two|saves?|"
    r"gives?|fits?|better|best|easier|cheaper|faster|calmer|safer|bet|steal|great|good|fine|makes? sense|"
    r"pays? off|just saying|have you (?:looked at|considered|thought about|tried)|join(?:ing)?|book(?:ing)?|"
    r"shipping|carve|swing by|fun|flexibility|handles?|solves?|fix|help|only \$\d+ more|pick a|open to|"
    r"takes? care of|lets? (?:you|us|all|every)|if (?:you|we|they|the team|the \w+ team) (?:want|need)s?|"
    r"step (?:\d|one|two|three|four|five)|install|provision|deploy|set up|migrate|valuable|worthwhile|useful|"
    r"discount|compare (?:again|once more)|doubles?|boost|fastest|quickest|simplest|easiest|no problem|"
    r"personally|I (?:still )?(?:think|feel)|in my view|perfect|ideal|keep an eye on|beats?|isn't that|"
    r"not that (?:expensive|pricey|hard|bad)|let's|let us|standard choice|industry standard|go-to|easy to|"
    r"effortless(?:ly)?|(?:is|are|would be) enough)\b|够用|足够|首选|标配|成熟",
    re.I,
)
# Explicit suggestion: what a mention by part of a description needs before it counts.
_SUGGESTS_RE = re.compile(
    r"建议|推荐|不妨|可以考虑|也可以|还可以|可以再|可以试|可以换|可以用|可以加|可以上|未尝不可|倒是可以|要不|何不|不如|或者|顺便|顺带|顺路|另外|也行|也不错|"
    r"值得|兜底|备选|会更|其实|改回|换回|没问题|不迟|迟早|早晚|躲不过|"
    r"更(?:好|合适|自在|方便|划算|省|快|稳|强|灵活|自由|热闹|舒服|便宜|高|有)|"
    r"\b(?:how about|what about|why not|consider|suggest|recommend|could|might|you may want|alternatively|"
    r"also|"
    r"as well|worth|instead|if you want|is fine|would(?! have|n't)|'d (?:suggest|go|recommend|put|add)|"
    r"open to|"
    r"better|in parallel|switch(?:ing)? to|go(?:ing)? back to|moving to|valuable|useful|worthwhile|helpful|"
    r"pays? off|good (?:fit|choice|option|idea|move)|hard to avoid|inevitable|sooner or later|eventually|"
    r"is an option|"
    r"no problem)\b",
    re.I,
)
# Arguing a rejection's reason away: "would solve the ops cost", "运维可以交给云厂商".
_REBUTS_RE = re.compile(
    r"解决|搞定|不是问题|不成问题|不用担心|无需担心|不必担心|不用操心|不再是|交给|省掉|省去|免去|免运维|不需要自己|"
    r"\b(?:solve[sd]?|fix(?:es|ed)?|removes?|eliminates?|takes? care of|no longer|(?:isn't|is not|"
    r"not) (?:an issue|a problem)|"
    r"offload|goes away|mitigates?)\b",
    re.I,
)
# "I know you ruled it out, but …": a concession whose "but" proposes brings the option back.
_CONCESSION_RE = re.compile(
    r"我知道|我理解|我明白|虽然|尽管|固然|不是说|不是劝|\b(?:I know|I understand|I get (?:it|that)|"
    r"I reali[sz]e|granted|although|even though|not saying|not pushing|not suggesting)\b",
    re.I,
)
# "Although X was ruled out, …": the comma closing such an opening clause turns the sentence.
_CONCESSIVE_OPENER_RE = re.compile(
    r"^\W{0,3}(?:虽然|尽管|固然|由于|因为|既然|\b(?:although|even though|though|while|whilst|granted|since|because|"
    r"given that|as)\b)",
    re.I,
)
_COMMA_RE = re.compile(r"[,，]")
# After a leading reason clause, the main clause brings the option back only through "it": "Since
# Redis handles sessions natively, it would be the better fit".
_REFERS_BACK_RE = re.compile(r"^\s?(?:it\b|it'[sd]\b|they\b|它|这个|那个)", re.I)
# A checkpoint section that lists rejected options: everything in it is history.
_REJECTED_SECTION_RE = re.compile(
    r"(?:^|\n)[#>*\-\s]{0,6}(?:已否决|否决的?方案|rejected(?: alternatives| options)?|"
    r"ruled out)\s?[:：]?\s{0,2}(?=\n|$)",
    re.I,
)
# A sentence ends at CJK or Latin end punctuation; a Latin full stop only before a space ("2.3%").
# Sentences longer than this are read in windows; a reply names an option in at most this many places
# per sentence worth reading (the first unframed one decides anyway).
_MAX_SENTENCE = 400
_MAX_MENTIONS = 12
_SENTENCE_RE = re.compile(r"[^。!?！？;；\n]+?(?:[。!?！？;；\n]+|\.(?=\s)|$)")


@dataclass(frozen=True, slots=True)
class _CjkName:
    """A CJK name without a dictionary: its distinctive character pairs, the pairs at its two
    ends (which are real words, unlike pairs straddling a word boundary), and the generic head it
    needs when it has one ("谷歌广告" is not mentioned by "谷歌搜索")."""

    pairs: frozenset[str]
    edges: frozenset[str]
    head: str
    triples: frozenset[str] = frozenset()  # three characters in a row: as good as the name


@dataclass(frozen=True, slots=True)
class _Names:
    """How one rejected alternative can be mentioned, compiled once."""

    anchors: re.Pattern[str] | None  # names, kin and label, matched on lower-cased text
    cased: re.Pattern[str] | None  # names that spell common words ("Go", "Swarm"): case must match
    cased_any: re.Pattern[str] | None  # the same, any case, for Chinese sentences
    kinds: re.Pattern[str] | None  # category phrases ("a message broker"): weak mentions
    words: tuple[frozenset[str], ...]  # per descriptive part: Latin stems, half of which make a mention
    cjk: tuple[_CjkName, ...]


@dataclass(frozen=True, slots=True)
class _Mention:
    """Where a sentence names a rejected alternative; `strong` when by a name, a kin form or a
    whole phrase, weak when only by part of a description (it then needs a proposal to count)."""

    start: int
    end: int
    text: str
    strong: bool = True


# ------------------------------------------------------------------------------------------
# Public API


def check_reply(state: ConvergenceState, reply: str) -> RelapseVerdict:
    """RELAPSE when a reply puts a currently rejected alternative forward again.

    The first relapsing mention decides; its sentence is the evidence. Alternatives the user
    reopened are no longer in `state.rejected`, so replies about them are OK.
    """
    text = normalize(reply)
    if not text or not state.rejected:
        reason = "no rejected alternative to relapse to" if text else "empty reply"
        return RelapseVerdict(verdict="OK", reason=reason)
    current = _current_core(state.current_decision.text) if state.current_decision else ""
    sentences = _sentences(text)
    for rejection in state.rejected:
        names = _names_of(rejection.alternative, current)
        reason = _reason_keys(rejection.reason or "", current)
        for sentence in sentences:
            mention = _relapsing_mention(sentence, names, current) or _rebuttal(sentence, reason, current)
            if mention is not None:
                return RelapseVerdict(
                    verdict="RELAPSE",
                    alternative=rejection.alternative,
                    rejected_at=rejection.rejected_at,
                    evidence=sentence.strip()[:300],
                    reason=f"re-proposes {mention.text!r}, rejected at turn {rejection.rejected_at}",
                )
    return RelapseVerdict(
        verdict="OK", reason="no rejected alternative is put forward again (mentions frame them as ruled out)"
    )


def _current_core(current: str) -> str:
    """The current decision without what it says it replaces: in "本地 LRU（不用 Redis）" or "an
    in-process LRU instead of Redis", Redis is not part of the current decision."""
    return _REPLACED_RE.sub(" ", _MIGRATION_FROM_RE.sub(" ", normalize(current)))


# ------------------------------------------------------------------------------------------
# Sentences and stance


def _sentences(text: str) -> list[str]:
    """Sentences, minus those inside a checkpoint's "Rejected:" section (they are history). A
    sentence that never ends (a pasted log, a list without stops) is read in windows of at most
    `_MAX_SENTENCE` characters, so the work per reply stays linear in its length."""
    sections = [(m.end(), _section_end(text, m.end())) for m in _REJECTED_SECTION_RE.finditer(text)]
    sentences = []
    for match in _SENTENCE_RE.finditer(text):
        if match.group().strip() and not any(start <= match.start() < end for start, end in sections):
            sentences += _windows(match.group())
    return sentences


def _windows(sentence: str) -> list[str]:
    """The sentence cut, at a space or a comma where possible, into pieces `_MAX_SENTENCE` long."""
    pieces = []
    while len(sentence) > _MAX_SENTENCE:
        cut = max(sentence.rfind(" ", 0, _MAX_SENTENCE), sentence.rfind(",", 0, _MAX_SENTENCE))
        cut = cut if cut > _MAX_SENTENCE // 2 else _MAX_SENTENCE
        pieces.append(sentence[:cut])
        sentence = sentence[cut:]
    return pieces + [sentence]


def _section_end(text: str, start: int) -> int:
    """A section runs to the next blank line (or the end of the reply)."""
    end = text.find("\n\n", start)
    return len(text) if end < 0 else end


def _relapsing_mention(sentence: str, names: _Names, current: str) -> _Mention | None:
    """The first mention in the sentence that puts the alternative forward, if any."""
    mentions = _mentions(sentence, names)
    if not mentions:
        return None
    for mention in mentions[:_MAX_MENTIONS]:
        if _framed(_masked(sentence, mention), mention, current):
            continue
        # A name must come with something put forward, part of a description with an explicit
        # suggestion: a name alone is as often logistics ("Uig (on Skye)") as a relapse.
        start = _segment_start(sentence, mention.start)
        if _SUGGESTS_RE.search(sentence, start) or (mention.strong and _PROPOSES_RE.search(sentence, start)):
            return mention
    return mentions[0] if _conceded_then_proposed(sentence, current) else None


@lru_cache(maxsize=512)
def _opening_clause_end(sentence: str) -> int:
    """The end of a leading reason or concession clause ("因为猫会应激，" / "Although …,"), or 0."""
    opener = _CONCESSIVE_OPENER_RE.match(sentence)
    comma = _COMMA_RE.search(sentence, opener.end()) if opener else None
    return comma.start() if comma else 0


@lru_cache(maxsize=512)
def _boundaries(sentence: str) -> tuple[tuple[int, int], ...]:
    """Where a sentence turns: contrast words ("…, but …"), and the comma that closes a leading
    concessive clause ("Even though Redis was rejected, it might …")."""
    opener = _CONCESSIVE_OPENER_RE.match(sentence)
    skip = opener.end() if opener else 0  # the "though" of "Even though" opens, it does not turn
    turns = [(m.start(), m.end()) for m in _CONTRAST_RE.finditer(sentence, skip)]
    if opener is not None:
        comma = _COMMA_RE.search(sentence, opener.end())
        if comma is not None and not any(start < comma.start() for start, _ in turns):
            turns.insert(0, (comma.start(), comma.end()))
    return tuple(turns)


def _rebuttal(sentence: str, reason: frozenset[str], current: str) -> _Mention | None:
    """"A managed service would solve the ops cost": arguing the rejection's reason away, with a
    suggestion and without turning to the current decision, brings the option back unnamed."""
    if not reason or _REBUTS_RE.search(sentence) is None or _names_current(sentence, current):
        return None
    lowered = sentence.lower()
    keys = [key for key in _key_matches(lowered) if key[2] in reason]
    if not keys:
        return None
    start, end, _ = keys[0]
    # The reason is not the option: "运维的问题" is not a verdict on anything, only a ruling-out is.
    if start < _opening_clause_end(sentence) or _RULED_OUT_RE.search(sentence):
        return None
    if not _SUGGESTS_RE.search(sentence):
        return None
    return _Mention(start, end, sentence[start:end], strong=False)


def _key_matches(lowered: str) -> list[tuple[int, int, str]]:
    """Latin words (stemmed) and CJK character pairs of a sentence, with offsets, as reason keys
    are written."""
    found = [(m.start(), m.end(), _stem(m.group())) for m in _LATIN_TOKEN_RE.finditer(lowered)]
    for run in _CJK_RUN_RE.finditer(lowered):
        found += [(i, i + 2, lowered[i : i + 2]) for i in range(run.start(), run.end() - 1)]
    return sorted(found)


@lru_cache(maxsize=4096)
def _reason_keys(reason: str, current: str) -> frozenset[str]:
    """What a rebuttal of the reason would repeat: its distinctive words and character pairs
    ("ops", "cost" of "ops cost"; "运维" of "运维扛不住")."""
    lowered = normalize(reason).lower()
    shared = _plain_words(current) | _cjk_bigrams(current)
    words = {_stem(w) for w in _plain_words(lowered) if _stem(w) not in _WEAK_STEMS and len(w) > 2} - shared
    pairs = {p for p in _cjk_bigrams(lowered) - _WEAK_BIGRAMS - shared if not _ZH_FUNCTION_RE.search(p)}
    pairs = {p for p in pairs if "不" not in p}  # "扛不" is how the reason is put, not what it is about
    return frozenset(words | pairs)


def _masked(sentence: str, mention: _Mention) -> str:
    """The sentence with the mention's own words blanked: "the option we dropped" points back, it
    does not rule anything out."""
    return sentence[: mention.start] + " " * (mention.end - mention.start) + sentence[mention.end :]


def _segment_start(sentence: str, position: int) -> int:
    """Where the segment holding `position` starts ("…, but |here")."""
    starts = [end for start, end in _boundaries(sentence) if end <= position]
    return starts[-1] if starts else 0


def _segment_end(sentence: str, position: int) -> int:
    """Where the segment holding `position` ends ("here| but …")."""
    ends = [start for start, _ in _boundaries(sentence) if start >= position]
    return ends[0] if ends else len(sentence)


def _clause(sentence: str, mention: _Mention) -> tuple[int, int]:
    """The comma clause around the mention, inside its contrast segment."""
    start = max(_segment_start(sentence, mention.start), _last_clause_break(sentence, mention.start))
    match = _CLAUSE_RE.search(sentence, mention.end)
    end = min(match.start() if match else len(sentence), _segment_end(sentence, mention.end))
    return start, end


def _last_clause_break(sentence: str, position: int) -> int:
    """The end of the last comma (or colon, dash, parenthesis) before `position`, or 0."""
    start = 0
    for match in _CLAUSE_RE.finditer(sentence, 0, position):
        start = match.end()
    return start


def _framed(sentence: str, mention: _Mention, current: str) -> bool:
    """Is the mention ruled out, history, compared against or negated where it stands?

    Explicit verdicts (已否决, ruled out) reach over the whole contrast segment; negations and
    verdicts against the option only over their own clause, so "托管的不用操心" does not frame a
    Redis named in the clause before it. A later "but" that rules the option out or returns to the
    current decision frames what came before ("Redis would be nice, but you ruled it out").
    """
    if mention.end <= _opening_clause_end(sentence):
        return True  # a reason or a concession, subordinate to what the sentence goes on to say
    if _INNER_NEGATION_RE.search(sentence, mention.start, mention.end):
        return True  # "冰岛不自驾": the name is split by a negation
    if _AGREEMENT_RE.match(sentence) and not any(start < mention.start for start, _ in _boundaries(sentence)):
        return True  # agreeing with the user's rejection
    segment_start = _segment_start(sentence, mention.start)
    segment_end = _segment_end(sentence, mention.end)
    if _RULED_OUT_RE.search(sentence, segment_start, segment_end):
        return True
    clause_start, clause_end = _clause(sentence, mention)
    if _AGAINST_RE.search(sentence, clause_start, clause_end):
        return True
    if _negated_before(sentence[max(clause_start, mention.start - 24) : mention.start]):
        return True
    if _FRAMED_AFTER_RE.search(sentence[mention.end : clause_end]):
        return True
    if _VERDICT_CLAUSE_RE.search(sentence, mention.end, segment_end):
        return True
    if _leads_to_current(sentence, mention, segment_end, current):
        return True
    return _later_segment_returns(sentence, segment_end, current)


def _negated_before(window: str) -> bool:
    """Does the text just before a mention negate it or compare against it ("不上", "unlike",
    "avoid paying a")? English negations may stand up to two words before the mention."""
    if _NEGATED_BEFORE_RE.search(window):
        return True
    for _ in range(3):
        if _NEGATING_WORD_RE.search(window):
            return True
        last = _LAST_WORD_RE.search(window)
        if last is None:
            return False
        window = window[: last.start()]
    return False


def _leads_to_current(sentence: str, mention: _Mention, segment_end: int, current: str) -> bool:
    """"X 容易卡住，所以选了无线吸尘器": the mention is a reason for the current decision."""
    causal = _CAUSAL_RE.search(sentence, mention.end, segment_end)
    return causal is not None and _names_current(sentence[causal.end() : segment_end], current)


def _later_segment_returns(sentence: str, segment_end: int, current: str) -> bool:
    """After a "but": the option is ruled out, or the sentence goes back to the current decision."""
    if segment_end >= len(sentence):
        return False
    tail = sentence[segment_end:]
    return bool(_RULED_OUT_RE.search(tail)) or _names_current(tail, current)


def _conceded_then_proposed(sentence: str, current: str) -> bool:
    """"我知道你不想去京都，不过岚山那边人少，可以去半天": the concession names the option, the
    part after the contrast proposes without returning to the current decision (after a reason
    clause, only when it refers back to the option: "Since Redis …, it would be …")."""
    turns = _boundaries(sentence)
    if not turns:
        return False
    tail = sentence[turns[0][1] :]
    if not _CONCESSION_RE.search(sentence, 0, turns[0][0]) and not (
        _opening_clause_end(sentence) == turns[0][0] and _REFERS_BACK_RE.match(tail)
    ):
        return False
    if _RULED_OUT_RE.search(tail) or _names_current(tail, current):
        return False
    return bool(_PROPOSES_RE.search(tail))


def _names_current(text: str, current: str) -> bool:
    """Does the text name the current decision by one of its names? Shared words ("deploys" of
    "deploy script") are too weak to say the sentence turned back to it."""
    if not current:
        return False
    names = _names_of(current, "")
    lowered = text.lower()
    return bool(
        (names.anchors and names.anchors.search(lowered))
        or (names.cased and names.cased.search(text))
        or any(t in lowered for name in names.cjk for t in name.triples)
    )


# ------------------------------------------------------------------------------------------
# Mentions


def _mentions(sentence: str, names: _Names) -> list[_Mention]:
    """Where the sentence names the alternative: anchors first, then shared distinctive words."""
    lowered = sentence.lower()
    found = _matches(names.anchors, lowered, strong=True)
    if names.cased:
        # Inside Chinese text a Latin word is a name whatever its case ("用 compose 起依赖").
        text = lowered if _CJK_RUN_RE.search(sentence) else sentence
        pattern = names.cased_any if text is lowered else names.cased
        found += _matches(pattern, text, strong=True)
    if names.kinds:
        found += _matches(names.kinds, lowered, strong=False)
    found += _matches(_BACK_REFERENCE_RE, sentence, strong=False)
    if names.words:
        found += _word_mentions(lowered, names.words)
    if names.cjk:
        found += _cjk_mentions(lowered, names.cjk)
    return _merged(found)


def _matches(pattern: re.Pattern[str] | None, text: str, strong: bool) -> list[_Mention]:
    """Every match of a names pattern, as mentions of the given strength."""
    if pattern is None:
        return []
    return [_Mention(m.start(), m.end(), m.group(), strong) for m in pattern.finditer(text)]


def _merged(mentions: list[_Mention]) -> list[_Mention]:
    """Overlapping or adjacent mentions become one, so "frying" inside "deep frying" is read with
    "deep", and "存日志" after "MongoDB " with it."""
    merged: list[_Mention] = []
    for mention in sorted(mentions, key=lambda m: (m.start, -m.end)):
        if merged and mention.start <= merged[-1].end + 1:
            last = merged[-1]
            if mention.end > last.end:
                merged[-1] = _Mention(last.start, mention.end, last.text, last.strong or mention.strong)
            elif mention.strong and not last.strong:
                merged[-1] = _Mention(last.start, last.end, last.text, True)
            continue
        merged.append(mention)
    return merged


def _word_mentions(lowered: str, parts: tuple[frozenset[str], ...]) -> list[_Mention]:
    """A part is mentioned when half its distinctive words are ("tutoring" of "tutoring center");
    strongly when all of them are."""
    tokens = _stemmed_tokens(lowered)
    found = []
    for words in parts:
        hits = [(start, end, stem) for start, end, stem in tokens if stem in words]
        covered = len({stem for _, _, stem in hits})
        if hits and covered * 2 >= len(words):
            start, end, _ = hits[0]
            found.append(_Mention(start, end, lowered[start:end], strong=covered == len(words)))
    return found


def _stemmed_tokens(lowered: str) -> list[tuple[int, int, str]]:
    """Stemmed words with offsets; a hyphenated word also as its pieces, and two words in a row
    also joined ("first person" meets "first-person")."""
    tokens = []
    previous: tuple[int, int] | None = None
    for match in _LATIN_TOKEN_RE.finditer(lowered):
        word = match.group().rstrip(".")
        tokens.append((match.start(), match.end(), _stem(word)))
        if "-" in word:
            tokens += [(match.start(), match.end(), _stem(piece)) for piece in word.split("-") if piece]
        if previous is not None and match.start() - previous[1] == 1:
            tokens.append((previous[0], match.end(), _stem(f"{lowered[previous[0]:previous[1]]}-{word}")))
        previous = (match.start(), match.end())
    return tokens


def _cjk_mentions(lowered: str, names: tuple[_CjkName, ...]) -> list[_Mention]:
    """A CJK name is mentioned strongly by three of its characters in a row ("竞业限制" of
    "合同里加竞业限制条款"), weakly by a word at one of its ends ("起诉" of "法律途径起诉"), by half
    its distinctive pairs, or by two of them; never by a modifier without its generic head."""
    found = []
    for name in names:
        if name.head and name.head not in lowered:
            continue
        triple = next((t for t in name.triples if t in lowered), None)
        if triple is not None:
            position = lowered.find(triple)
            found.append(_Mention(position, position + 3, triple))
            continue
        hits = sorted((lowered.find(pair), pair) for pair in name.pairs if pair in lowered)
        at_edge = any(pair in name.edges for _, pair in hits)
        if hits and (at_edge or len(hits) * 2 >= len(name.pairs) or len(hits) >= 2):
            position, pair = hits[0]
            strong = at_edge and len(hits) >= 2  # "每天 … 站会" of "全员每天站会"
            found.append(_Mention(position, position + len(pair), pair, strong=strong))
    return found


# ------------------------------------------------------------------------------------------
# Names of an alternative


@dataclass(slots=True)
class _Reading:
    """What reading an alternative's text has found so far, part by part."""

    shared: set[str]  # words and character pairs of the current decision
    anchors: set[str] = field(default_factory=set)
    cased: set[str] = field(default_factory=set)
    words: list[frozenset[str]] = field(default_factory=list)
    cjk: list[_CjkName] = field(default_factory=list)
    singles: set[str] = field(default_factory=set)  # one-character CJK names ("狗" of "养狗")
    sources: list[str] = field(default_factory=list)  # where kin and category forms are looked for


@lru_cache(maxsize=4096)
def _names_of(alternative: str, current: str) -> _Names:
    """Compile how `alternative` can be mentioned; what it shares with the current decision
    ("wedding" of "Bali wedding" when "backyard wedding" is current) does not identify it."""
    text = normalize(alternative)
    label_match = _LABEL_RE.match(text)
    body = _MIGRATION_FROM_RE.sub(" ", _name_part(text[label_match.end() :] if label_match else text))
    reading = _Reading(shared=_plain_words(current) | _cjk_bigrams(current))
    for part in (p.strip() for p in _PART_SPLIT_RE.split(body)):
        if part:
            _read_part(part, reading)
    return _compiled(reading, current, label_match.group("label") if label_match else None)


def _read_part(part: str, reading: _Reading) -> None:
    """One part of an alternative ("Redis 集中式缓存", "hiring movers"): its proper names, or the
    words of its description, and its CJK names."""
    proper = _proper_names(part, reading.shared, reading.anchors, reading.cased)
    reading.sources += _CJK_RUN_RE.findall(part)
    runs = _capital_runs(_LATIN_TOKEN_RE.findall(part), has_cjk=bool(_CJK_RUN_RE.search(part)))
    if not any(len(run) > 1 for run in runs):
        reading.sources.append(part.lower())  # "Excel macros" may bring in VBA; "AWS Secrets Manager" no AWS
    if not proper:
        stems = _descriptive_stems(part, reading.shared)
        if stems:
            reading.words.append(stems)
        if len(part) >= 4 and any(w not in _WEAK_WORDS for w in _plain_words(part)):
            reading.anchors.add(part.lower())
    for core in _cjk_cores(part):
        _read_cjk(core, proper, reading)


def _read_cjk(core: str, proper: bool, reading: _Reading) -> None:
    """A CJK name: whole, it is an anchor (beside a proper name only when it is three characters
    or more: "Redis 集中式缓存"); alone, it is also matched in part ("起诉" of "法律途径起诉")."""
    shared = reading.shared
    if len(core) == 1:
        reading.singles.add(core)
        if not proper and core not in shared:
            reading.cjk.append(_CjkName(frozenset({core}), frozenset({core}), ""))
    elif core not in _WEAK_BIGRAMS and core not in shared and (len(core) >= 3 or not proper):
        reading.anchors.add(core)
        if len(core) == 3 and core[-1] in _ZH_SUFFIXES and core[:2] not in _WEAK_BIGRAMS | shared:
            reading.anchors.add(core[:2])  # "安卓版" is named by "安卓", "奶茶店" by "奶茶"
    if len(core) >= 3 and not proper:
        reading.cjk += [name for name in (_cjk_name(p, shared) for p in _pieces(core)) if name is not None]


def _compiled(reading: _Reading, current: str, label: str | None) -> _Names:
    """The patterns for what was read, with kin forms and category members as names and category
    phrases as weak mentions, minus anything the current decision is too."""
    sources = tuple(reading.sources)
    names = frozenset(reading.anchors | {c.lower() for c in reading.cased})
    anchors = reading.anchors | _kin_of(sources, names, reading.singles)
    anchors = {a for a in anchors if a not in _WEAK_WORDS and a not in reading.shared}
    excluded = _current_categories(current)
    anchors |= _members_of(sources, names) - excluded - reading.shared
    kinds = _categories_of(sources, names | frozenset(anchors)) - excluded - anchors
    return _Names(
        _anchor_pattern(anchors, label),
        _anchor_pattern(reading.cased, None),
        _anchor_pattern({c.lower() for c in reading.cased}, None),
        _anchor_pattern(kinds, None),
        tuple(reading.words),
        tuple(reading.cjk),
    )


def _name_part(summary: str) -> str:
    """The name of an alternative, without the description after it: "Redis 集中式缓存，多实例共享，
    命中率高" is named by "Redis 集中式缓存", and replies talking about hit rates do not name it.
    A separator inside parentheses ("方案A(Redis，集中式)") does not end the name."""
    depth = 0
    for index, char in enumerate(summary):
        depth += char in "(（"
        depth -= char in ")）" and depth > 0
        if depth == 0 and char in _NAME_END and index >= 2:
            return summary[:index]
    return summary


def _proper_names(part: str, shared: set[str], anchors: set[str], cased: set[str]) -> bool:
    """Add the part's proper names to `anchors`, or to `cased` when they spell a common word
    ("Go", "Swarm"); True when the part has one. "Docker Swarm" also names "Swarm", "React Native"
    never "React": the head of a compound product name is another product."""
    found = False
    for run in _capital_runs(_LATIN_TOKEN_RE.findall(part), has_cjk=bool(_CJK_RUN_RE.search(part))):
        lowered = [t.lower() for t in run]
        if len(run) == 1:
            word = lowered[0]
            if word in shared or (_stem(word) in _WEAK_STEMS and word not in _STOP_WORDS):
                continue  # "App", "API": a kind of thing, capitalised
            (cased if word in _STOP_WORDS else anchors).add(run[0] if word in _STOP_WORDS else word)
            found = True
            continue
        anchors.add(" ".join(lowered))
        found = True
        for token in _solo_names(run):
            # "GPT-4", "MongoDB" look like names in any case; "Swarm" only capitalised.
            word = token.lower()
            if word not in shared:
                (anchors if _looks_coined(token) else cased).add(word if _looks_coined(token) else token)
    return found


def _solo_names(run: list[str]) -> list[str]:
    """Which words of a multi-word name name it alone: the product after a vendor ("Apache
    Kafka" → "Kafka", "Docker Swarm" → "Swarm"), the name before generic words ("Redis Cache" →
    "Redis"), and coined words ("GPT-4 API" → "GPT-4"). "Great Expectations" or "AWS Secrets
    Manager" have none: "Expectations" or "Secrets" alone are other things."""
    lowered = [t.lower() for t in run]
    generic = [_stem(w) in _WEAK_STEMS for w in lowered]
    if lowered[0] in _COMPOUND_HEADS and len(run) == 2 and not generic[1]:
        return [run[1]]
    if not generic[0] and lowered[0] not in _COMPOUND_HEADS and all(generic[1:]):
        return [run[0]]
    return [t for t, w in zip(run, lowered) if _looks_coined(t) and w not in _COMPOUND_HEADS]


def _looks_coined(token: str) -> bool:
    """Inner capitals or digits ("MongoDB", "GPT-4", "k8s"): no English word looks like that."""
    return any(c.isdigit() for c in token) or any(c.isupper() for c in token[1:])


def _capital_runs(tokens: list[str], has_cjk: bool) -> list[list[str]]:
    """Runs of capitalised tokens: one proper name each. A capital that only opens an English
    phrase ("Hiring movers") makes no name; inside Chinese text every capital does ("换成 Go")."""
    runs: list[list[str]] = []
    previous = -2
    for index, token in enumerate(tokens):
        if token.islower() or len(token) < 2:
            continue
        opens_phrase = index == 0 and token.istitle() and len(tokens) > 1
        if opens_phrase and not has_cjk and _ordinary_word(token.lower()):
            continue
        if index == previous + 1 and runs:
            runs[-1].append(token)
        else:
            runs.append([token])
        previous = index
    return runs


def _ordinary_word(word: str) -> bool:
    """A word that starts an English phrase with a capital without being a name ("Hiring",
    "Deep", "Hot"); "Redis cache" keeps "Redis"."""
    return (
        word in _STOP_WORDS
        or _stem(word) in _WEAK_STEMS
        or word in _MODIFIERS
        or word.endswith(("ing", "ed", "ly", "al", "ive", "ous", "ful", "able", "ic"))
    )


def _descriptive_stems(part: str, shared: set[str]) -> frozenset[str]:
    """The stems of a descriptive part's distinctive words ("movers" of "hiring movers"), up to a
    purpose phrase ("grid search for hyperparameters", "a sweepstakes to attract new users") and,
    when something is left before it, a place ("fruit trees in the backyard")."""
    stems = set()
    head = _PURPOSE_RE.split(part, maxsplit=1)[0]
    placed = _PLACE_RE.split(head, maxsplit=1)[0]
    tokens = _LATIN_TOKEN_RE.findall(placed if _plain_words(placed) - _WEAK_WORDS else head)
    if len(tokens) > 1 and tokens[0].lower().endswith("ing"):
        tokens = tokens[1:]  # "planting fruit trees": the trees are the option
    for token in tokens:
        word = token.lower()
        if word in _STOP_WORDS or word in shared or len(word) <= 2:
            continue
        if _stem(word) not in _WEAK_STEMS:
            stems.add(_stem(word))
    return frozenset(stems)


def _cjk_cores(part: str) -> list[str]:
    """CJK runs of the part without the light verb in front ("办健身房年卡" → "健身房年卡")."""
    cores = []
    for run in _CJK_RUN_RE.findall(part):
        lead = _ZH_LEAD_RE.match(run)
        core = run[lead.end() :] if lead and len(run) - lead.end() >= 1 else run
        cores.append(core)
    return cores


def _pieces(core: str) -> list[str]:
    """The name, and for a long one the pieces between the verbs inside it, places dropped:
    "大促当天发短信提醒" → also "短信提醒"; "在客厅做投影墙" → also "投影墙", not "在客厅"."""
    if len(core) < 6:
        return [core]
    pieces = [p for p in _ZH_INNER_VERB_RE.split(core) if len(p) >= 2 and not _ZH_PLACE_RE.search(p)]
    return [core] + [p for p in pieces if p != core]


def _cjk_name(core: str, shared: set[str]) -> _CjkName | None:
    """Pairs that hold a function character ("的账号" of "…过的账号…") name nothing."""
    pairs = frozenset(p for p in _cjk_bigrams(core) - _WEAK_BIGRAMS - shared if not _ZH_FUNCTION_RE.search(p))
    if not pairs:
        return None
    head = core[-2:] if core[-2:] in _WEAK_BIGRAMS or core[-2:] in shared else ""
    triples = frozenset(
        core[i : i + 3] for i in range(len(core) - 2) if {core[i : i + 2], core[i + 1 : i + 3]} <= pairs
    )
    edges = frozenset({core[:2], core[-2:]}) & pairs
    return _CjkName(pairs, edges, head, triples if len(core) > 3 else frozenset())


def _kin_of(sources: tuple[str, ...], names: frozenset[str], single_cores: set[str]) -> set[str]:
    """Forms of every kin group one of whose forms the alternative's names or descriptions
    contain, word by word ("单独做一个 App" holds both words of "单独 app"). Proper names count
    whole only: "AWS Secrets Manager" brings in no AWS kin. A one-character form ("狗") counts
    only when it is the whole name ("养狗"), not a word inside another ("把猫送去寄养")."""
    kin: set[str] = set()
    for group in _KIN_GROUPS:
        if any(form in names or _has_form(sources, form, single_cores) for form in group):
            kin.update(group)
    return kin


def _categories_of(sources: tuple[str, ...], names: frozenset[str]) -> set[str]:
    """The category phrases of every category one of whose members names the alternative."""
    phrases: set[str] = set()
    for category, members in _CATEGORIES:
        if any(member in names or _has_form(sources, member, set()) for member in members):
            phrases.update(category)
    return phrases


def _members_of(sources: tuple[str, ...], names: frozenset[str]) -> set[str]:
    """When the alternative is a category ("消息队列", "a document database"), its members name
    it: "上一个 Kafka" re-proposes a rejected "消息队列"."""
    members: set[str] = set()
    for category, category_members in _CATEGORIES:
        if any(phrase in names or _has_form(sources, phrase, set()) for phrase in category):
            members.update(category_members)
    return members


@lru_cache(maxsize=1024)
def _current_categories(current: str) -> frozenset[str]:
    """The category phrases and members that fit the current decision too: they name neither."""
    lowered = current.lower()
    phrases: set[str] = set()
    for category, members in _CATEGORIES:
        if any(_has_form((lowered,), form, set()) for form in members + category):
            phrases.update(category + members)
    return frozenset(phrases)


def _has_form(sources: tuple[str, ...], form: str, single_cores: set[str]) -> bool:
    """Does every word of `form` occur in the sources (a Latin word by stem, anything else as
    text)? Sets, not regexes: the hook runs in a fresh process, where compiling a pattern per form
    would cost more than the whole check."""
    if len(form) == 1:
        return form in single_cores
    stems, text = _source_index(sources)
    return all(key in stems if latin else key in text for latin, key in _form_keys(form))


@lru_cache(maxsize=2048)
def _form_keys(form: str) -> tuple[tuple[bool, str], ...]:
    """A form's words as lookup keys: (True, stem) for a Latin word, (False, text) otherwise."""
    return tuple(
        (True, _stem(piece)) if _LATIN_WORD_RE.fullmatch(piece) else (False, piece) for piece in form.split()
    )


@lru_cache(maxsize=4096)
def _source_index(sources: tuple[str, ...]) -> tuple[frozenset[str], str]:
    """The stems of the sources' Latin words (hyphenated ones also by piece) and their text."""
    stems = set()
    for token in _LATIN_TOKEN_RE.findall(" ".join(sources)):
        stems.add(_stem(token))
        stems.update(_stem(piece) for piece in token.split("-") if piece)
    return frozenset(stems), " ".join(sources)


def _literal(form: str) -> str:
    """A form as a regex: its words in order, with a space, a hyphen or nothing between them."""
    return r"[\s\-]?".join(re.escape(piece) for piece in re.split(r"[\s\-]+", form.strip()))


def _anchor_pattern(anchors: set[str], label: str | None) -> re.Pattern[str] | None:
    """One pattern for all of an alternative's names, longest first: Latin ones on word
    boundaries (a plural allowed), CJK ones anywhere (CJK text has no word boundaries). A label
    counts unless it is being defined anew ("方案A：…" opens a new list, where A may be something
    else)."""
    latin = sorted((a for a in anchors if a[:1].isascii()), key=len, reverse=True)
    other = sorted((a for a in anchors if a and not a[:1].isascii()), key=len, reverse=True)
    pieces = []
    if latin:
        names = "|".join(_literal(a) for a in latin)
        pieces.append(rf"(?<![A-Za-z0-9])(?:{names})(?:s|es|'s)?(?![A-Za-z0-9])")
    pieces += [_literal(a) for a in other]
    if label:
        pieces.append(rf"(?<![A-Za-z0-9]){_literal(label.lower())}(?![A-Za-z0-9])(?!\s?[:：.)）])")
    return re.compile("|".join(pieces)) if pieces else None


def _plain_words(text: str) -> set[str]:
    """Lower-cased Latin words, function words left out."""
    return {t.lower() for t in _LATIN_TOKEN_RE.findall(text)} - _STOP_WORDS


def _cjk_bigrams(text: str) -> set[str]:
    """Every pair of adjacent CJK characters: without a dictionary, the unit two mentions share."""
    return {run[i : i + 2] for run in _CJK_RUN_RE.findall(text) for i in range(len(run) - 1)}


def _stem(word: str) -> str:
    """Plural, -ing/-ed and a final -e folded away, so "hiking" meets "hike" and "movers" "mover"."""
    word = word.lower().removesuffix("'s")
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ing") and len(word) >= 6:
        return word[:-3]
    if word.endswith("ed") and len(word) >= 5:
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


# Weak words compared by stem ("caching" is as generic as "cache").
_WEAK_STEMS = frozenset(_stem(w) for w in _WEAK_WORDS)

def _warm_form_keys() -> None:
    """Every kin and category form's lookup keys, once per process at import: a cold check in a
    fresh hook process then spends its time on the reply, not on the lexicon."""
    for group in _KIN_GROUPS + tuple(phrases + members for phrases, members in _CATEGORIES):
        for form in group:
            _form_keys(form)


_warm_form_keys()
