"""What counts as the same option: the lexicons and patterns an alternative's names are read with.

Kept as data, apart from the code that reads it, so that a new variant, category or light verb is a
one-line change here. Kin groups and categories are plain tuples (looked up by `kin`); the patterns
are stdlib `re` with literal alternations and bounded windows, no repeat nested inside another, so
every match is linear in the text.
"""

from __future__ import annotations

import re

from detector.text import CJK_CHAR

# "A letter outside ASCII", which in these patterns means a CJK character: the exact Han ranges
# (CJK_CHAR) cost a millisecond each to compile, twenty times this, and the hook starts cold.
HAN = r"[^\W\d_a-zA-Z]"

# Each group lists surface forms that denote one option (product, variants, managed or lite
# editions, paraphrases, the hypernym a reply would use for it, both languages). A group joins an
# alternative's names when one of its forms occurs in the alternative's text, so "Redis 集中式缓存"
# brings in "ElastiCache" and "in-memory key-value store"; there is no chaining between groups.
KIN_GROUPS: tuple[tuple[str, ...], ...] = (
    ("redis", "elasticache", "memorystore", "keydb", "valkey", "dragonfly", "tair", "云数据库 redis", "upstash", "redis cluster", "redis sentinel",
     "in-memory key-value", "in-memory kv", "key-value store", "key-value cache", "kv store",
     "in-memory data store", "in-memory store", "cache server", "cache cluster", "distributed cache",
     "centralized cache", "centralised cache", "shared cache", "内存键值", "集中缓存", "键值存储", "键值数据库", "内存数据库",
     "分布式缓存", "集中式缓存", "缓存集群", "缓存服务器", "共享缓存", "缓存服务", "kv 服务", "内存 kv", "kv 缓存", "in-memory kv store"),
    ("memcached", "memcache", "distributed cache", "centralized cache", "centralised cache", "cache cluster",
     "分布式缓存", "集中式缓存", "集中缓存", "缓存集群", "缓存服务器"),
    ("kafka", "msk", "confluent", "redpanda", "kafka connect", "kafka streams", "event streaming",
     "event-streaming", "streaming platform", "event log", "消息队列", "消息中间件", "流处理平台"),
    ("rabbitmq", "amqp", "message broker", "message queue", "消息队列", "消息中间件"),
    ("kubernetes", "k8s", "k3s", "k0s", "microk8s", "minikube", "eks", "gke", "aks", "openshift", "rancher",
     "container orchestration", "容器编排", "ack", "tke", "托管 k8s", "托管集群"),
    ("docker swarm", "swarm"),
    ("microservices", "microservice", "micro-services", "微服务", "service mesh", "服务拆分", "拆分服务", "拆服务", "独立服务",
     "单独拆", "拆成一个服务", "拆出去", "separate service", "own service", "standalone service", "split into services",
     "carve out", "carve it out", "split out", "split it out", "own deployable service", "独立部署的服务"),
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
    ("自建机房", "自己机房", "自有机房", "本地机房", "on-prem data center", "托管到本地 idc", "托管到 idc", "服务器托管", "机柜",
     "colocation", "colo"),
    ("混合云", "混合部署", "hybrid cloud"),
    ("native app", "原生 app", "独立 app", "单独 app", "ios app", "android app", "dedicated app", "standalone app",
     "手机 app", "swift app", "swiftui app", "kotlin app", "原生应用"),
    ("crypto", "cryptocurrency", "bitcoin", "btc", "ethereum", "加密货币", "比特币", "以太坊", "数字货币", "数字资产", "虚拟币", "币圈", "altcoin", "altcoins", "crypto etf", "bitcoin etf"),
    ("buy a house", "buying a house", "home purchase", "condo", "买房", "购房", "二手房", "新房", "上车"),
    ("sharding", "shard", "分库分表", "分表", "分库", "水平拆分", "分片", "horizontal partitioning"),
    ("dog", "puppy", "puppies", "corgi", "labrador", "retriever", "beagle", "poodle", "terrier", "狗", "小狗", "狗狗", "犬",
     "柯基", "泰迪", "金毛", "柴犬", "拉布拉多", "边牧"),
    ("boarding", "pet hotel", "kennel", "cattery", "pet boarding", "寄养", "宠物寄养"),
    ("sue", "suing", "lawsuit", "litigation", "small claims", "small-claims court", "take them to court", "起诉", "打官司", "诉讼",
     "小额诉讼", "立案", "去法院", "上法院", "file a claim", "file suit", "court case"),
    ("takeout", "take-out", "food delivery", "delivery", "外卖", "点外卖"),
    ("serverless", "lambda", "cloud functions", "cloud function", "faas", "云函数", "函数计算"),
    ("photographer", "videographer", "摄影师", "跟拍", "跟拍师", "摄像师"),
    ("hiit", "high-intensity interval", "高强度间歇", "间歇训练"),
    ("marathon", "half marathon", "full marathon", "马拉松", "半马", "全马"),
    ("flowers", "flower", "bouquet", "roses", "鲜花", "花束", "一束花", "玫瑰", "送花"),
    ("nanny", "au pair", "babysitter", "保姆", "住家阿姨", "育儿嫂", "月嫂"),
    ("movers", "moving company", "moving crew", "moving service", "搬家公司", "搬家师傅", "搬家工人", "搬家服务"),
    ("agency", "dev shop", "outsourcing", "outsource", "toptal", "upwork", "外包", "外包公司", "外包团队", "人力外包", "驻场"),
    ("guided tour", "tour group", "group tour", "group day trip", "package tour", "旅行团", "跟团", "报团", "参团", "拼团", "一日游团", "包团", "小包团", "半自助游", "guided day tour", "escorted tour"),
    ("cruise", "cruise ship", "hurtigruten", "coastal voyage", "river cruise", "邮轮", "游轮", "small-ship", "sailing trip", "yacht charter", "游船"),
    ("camping", "glamping", "露营", "精致露营"),
    ("keto", "ketogenic", "low-carb, high-fat", "low-carb high-fat", "very-low-carb", "lchf", "生酮", "低碳水高脂",
     "低碳高脂", "极低碳水", "very-low-carb, high-fat"),
    ("used car", "pre-owned", "second-hand car", "secondhand car", "二手车"),
    ("hot pot", "hotpot", "火锅", "鸳鸯锅", "麻辣锅"),
    ("barbecue", "bbq", "grilling", "烧烤", "烤串"),
    ("taxi", "cab", "uber", "lyft", "didi", "滴滴", "打车", "出租车", "网约车", "rideshare", "ride-hail"),
    ("renting a car", "rental car", "car rental", "rent a car", "a rental", "drive yourself",
     "driving yourself", "self-drive", "rental", "自驾", "租车", "租辆车", "自己开车", "自己开"),
    ("airbnb", "vacation rental", "holiday rental", "short-term rental", "homestay", "民宿", "短租"),
    ("gym", "健身房", "健身卡", "健身中心", "fitness center", "gym membership", "fitness studio", "health club", "climbing gym", "健身工作室"),
    ("kyoto", "京都", "fushimi inari", "kiyomizu", "arashiyama", "伏见稻荷", "清水寺", "岚山", "金阁寺"),
    ("index fund", "etf", "etfs", "mutual fund", "s&p 500", "stock fund", "equity fund", "指数基金", "基金定投", "定投",
     "股票型基金", "股票基金", "偏股基金", "沪深300"),
    ("hardwood", "engineered wood", "engineered oak", "oak flooring", "parquet", "木地板", "实木地板", "复合地板"),
    ("electric car", "electric vehicle", "ev", "evs", "tesla", "model 3", "model y", "电车", "纯电", "新能源车"),
    ("e-bike", "ebike", "electric bike", "电动车", "电瓶车", "电单车", "电驴"),
    ("biking", "bike", "bicycle", "cycling", "骑车", "自行车", "单车"),
    ("civil service", "government job", "公务员", "考公", "事业编", "考编", "体制内", "事业单位", "国企", "public sector job"),
    ("discount", "打折", "折扣", "九五折", "九折", "八折", "降价", "price cut"),
    ("robot vacuum", "roomba", "roborock", "ecovacs", "扫地机器人", "扫地机", "扫拖机器人"),
    ("iphone", "苹果手机", "苹果"),
    ("tiktok", "douyin", "抖音", "dou+", "巨量引擎", "千川"),
    ("google ads", "adwords", "paid search", "search ads", "ppc", "谷歌广告", "搜索广告", "竞价广告"),
    ("destination wedding", "island wedding", "beach wedding", "海岛婚礼", "目的地婚礼", "海外婚礼",
     "沙滩婚礼", "沙滩仪式", "海边婚礼", "beach ceremony"),
    ("relocating", "relocate", "relocation", "moving to", "换城市", "换个城市", "去外地"),
    ("weekend work", "working weekends", "weekend", "saturday", "sunday", "周末加班", "加班", "周六", "周日"),
    ("deep frying", "deep-frying", "deep fry", "deep-fry", "deep-fried", "hot oil", "油炸", "下锅炸", "油锅", "过油", "炸一下"),
    ("tutoring center", "learning center", "cram school", "cram class", "补习班", "辅导班", "辅导机构", "补习机构",
     "培训机构"),
    ("raspberry pi", "树莓派", "orange pi", "香橙派", "开发板", "single-board computer", "sbc"),
    ("terraform", "opentofu", "terragrunt", "hcl"),
    ("dynamodb", "dynamo", "dynamo db"),
    ("freemium", "free tier", "free plan", "forever-free", "free forever", "免费版", "免费套餐", "免费档"),
    ("subscription", "subscriptions", "订阅", "订阅制", "包月", "连续包月", "月卡", "年费会员", "会员制", "monthly plan",
     "recurring billing", "membership plan"),
    ("stand mixer", "kitchenaid", "厨师机", "和面机", "hand mixer"),
    ("oven", "toaster oven", "烤箱", "小烤箱", "空气烤箱"),
    ("stock picking", "individual stocks", "single stocks", "picking stocks", "pick stocks", "个股", "选股", "炒股",
     "dividend stocks", "blue chips", "蓝筹股"),
    ("non-compete", "noncompete", "non-competition", "restrictive covenant", "竞业限制", "竞业协议", "竞业条款", "竞业"),
    ("quiz", "quizzes", "pop quiz", "kahoot", "小测", "测验", "随堂测"),
    ("online class", "online classes", "online course", "online tutoring", "网课", "线上课", "直播课", "录播课", "网校",
     "zoom class", "virtual class"),
    ("written exam", "final exam", "笔试", "闭卷", "期末考", "统考", "sit-down exam"),
    ("roll our own", "rolling our own", "roll your own", "homegrown", "home-grown", "homemade", "in-house", "write it ourselves",
     "build it ourselves", "write ourselves", "write our own", "build our own", "自研", "自己写", "自己开发", "自己实现"),
    ("event sourcing", "event-sourced", "event store", "eventstoredb", "事件溯源"),
    ("kdp", "kindle direct publishing", "self-publishing", "self-publish", "自出版", "自费出版"),
    ("monorepo", "mono-repo", "single repo", "one repo", "单仓", "大仓", "turborepo", "nx workspace", "lerna"),
    ("phone support", "phone line", "hotline", "call center", "call centre", "phone callback", "电话客服", "客服热线", "热线",
     "呼叫中心"),
    ("mini program", "mini-program", "小程序", "微信小程序"),
    ("阿里云", "aliyun", "alibaba cloud"),
    ("fine-tuning", "finetuning", "fine-tune", "微调", "lora", "qlora"),
    ("rag", "retrieval-augmented", "检索增强", "向量检索"),
    ("intermittent fasting", "轻断食", "间歇性断食", "16:8", "omad"),
    ("pressure cooker", "instant pot", "高压锅", "电压力锅"),
    ("microwave", "微波炉"),
    ("high-speed rail", "高铁", "bullet train", "shinkansen", "新干线", "动车"),
    ("grad school", "master's degree", "读研", "考研", "研究生"),
    ("phd", "doctorate", "读博", "博士"),
    ("nas", "群晖", "synology", "qnap", "威联通"),
    ("coupon", "coupons", "promo code", "优惠券", "满减"),
    ("referral program", "referral bonus", "推荐奖励", "邀请有礼", "拉新奖励", "老带新"),
    ("cold calling", "cold calls", "电话销售", "陌拜", "电销"),
    ("loyalty program", "points program", "会员积分", "积分制", "积分体系"),
    ("lawyer", "attorney", "律师", "legal counsel"),
    ("daycare", "托儿所", "托班", "nursery"),
    ("private tutor", "tutor", "家教", "一对一辅导"),
    ("wallpaper", "墙纸", "壁纸"),
    ("carpet", "rug", "地毯"),
    ("mechanical keyboard", "机械键盘"),
    ("macbook", "mac", "苹果电脑"),
    ("training from scratch", "train from scratch", "from scratch", "从头训练", "从零训练"),
)

# Categories: what a reply calls an option when it avoids its name ("a message broker" for
# Kafka). A category applies to an alternative one of whose names is a member; its phrases are weak
# mentions (they need an explicit suggestion), and none counts when the current decision is a member
# too (Kafka rejected for RabbitMQ: "the message broker" is then the current one).
CATEGORIES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
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
      "全文检索引擎", "搜索集群", "全文搜索引擎", "搜索服务", "检索引擎"),
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
    (("hosted llm api", "commercial llm api", "llm api", "closed model api", "商用大模型", "闭源大模型"),
     ("openai", "gpt-4", "gpt-4o", "chatgpt", "claude", "gemini")),
    (("ci server", "self-hosted ci", "自建 ci"),
     ("jenkins", "teamcity", "bamboo")),
    (("ssr framework", "meta-framework", "full-stack react framework", "server-side rendering framework", "服务端渲染框架"),
     ("next.js", "nextjs", "remix", "nuxt", "sveltekit", "gatsby")),
    (("nosql table", "serverless nosql", "managed nosql"),
     ("dynamodb", "firestore", "cosmos db", "bigtable")),
    (("theme park", "amusement park", "主题乐园", "游乐园"),
     ("disneyland", "disney", "迪士尼", "universal studios", "环球影城")),
    (("ride-hailing", "rideshare", "网约车"),
     ("uber", "lyft", "didi", "滴滴", "taxi", "打车")),
    (("vacation rental", "short-term rental", "民宿", "短租"),
     ("airbnb",)),
)
# A reply may point back instead of naming: "回到之前那个方案", "the option we dropped".
BACK_REFERENCE_RE = re.compile(
    r"(?:之前|原来|最开始|最初|一开始|刚才|先前|原先|上一个|前面)(?:的|说的|提的|否掉的|放弃的|被否的)?(?:那个|那套|那种)?"
    r"(?:方案|思路|做法|选项|办法|路子|想法|方向)|(?:被否|否掉|放弃|排除)(?:掉)?的(?:那个)?(?:方案|思路|选项|做法)"
    r"|\b(?:the|your|our) (?:original|previous|earlier|first|old|initial) (?:plan|idea|approach|option|"
    r"proposal|design|setup)"
    r"|\bthe (?:option|approach|plan|idea|one) (?:we|you) (?:dropped|rejected|ruled out|passed on|discarded|"
    r"set aside)",
    re.IGNORECASE,
)
# Words that say what kind of thing an option is, not which one: they never identify it alone.
WEAK_WORDS = frozenset(
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
MODIFIERS = frozenset(
    "hot cold used old big small cheap public private open free part double extra remote manual annual "
    "monthly weekly daily early late short long high low fast slow light heavy hard soft plain basic shared "
    "central direct raw fresh frozen family solo group weekend night morning summer winter beach city "
    "country mountain road air sea water index standing private".split()
)
# Function words and light verbs: never part of what is matched.
STOP_WORDS = frozenset(
    "a an the to of in on for with and or by at from as into via using use go going get getting buy buying "
    "hire hiring switch switching adopt adopting add adding build building run running make making do doing "
    "try trying rewrite rewriting put putting set setting have having keep everything all some our my your "
    "we us it its this that these those is are be just only also more less instead them they him her me one "
    "alone rent renting own offer offering give giving first early late now later off up out".split()
)
# CJK character pairs that describe a kind of thing (缓存, 数据库) rather than name one.
WEAK_BIGRAMS = frozenset(
    "缓存 数据 据库 服务 系统 方案 集群 平台 框架 工具 模型 公司 团队 管理 状态 一个 使用 旅行 饮食 工作 广告 手机 认证 部署 本地 线上 线下 全部 所有 我们 这个 那个 可以 用户 "
    "功能 项目 页面 接口 前端 后端 技术 产品 东西 时候 迁到 迁移 换成 改成 改用 切换 引入 解决 全站 在家 自己 单独 直接 自建".split()
)
ZH_FUNCTION_RE = re.compile("[的了着过和与及或在是对把被给从向很也都就]")
# What a current decision says it replaces: "instead of Redis", "不用 Redis", "替代 Redis".
REPLACED_RE = re.compile(
    r"(?:\binstead of|\brather than|\breplacing|\bin place of|\bnot\b|\bno\b|\bwithout|\bdrop(?:ping)?|"
    r"\bditch(?:ing)?|"
    r"\bskip(?:ping)?|替代|代替|取代|而不是|而非|不用|不要|不上|不再用|放弃|去掉|换掉)"
    r"\s?[^,，;；。()（）]{1,24}?(?=[,，;；。()（）]|而是|改用|换成|改成|\buse\b|\bgo with\b|\band\b|$)",
    re.IGNORECASE,
)
# Verbs inside a long CJK name, between its pieces ("在客厅做投影墙"), and the marks of a place.
ZH_INNER_VERB_RE = re.compile(f"安排|使用|采用|引入|搭建|部署|安装|(?<={HAN}{{2}})[发做用加请买装拍写种配接搭办送](?={HAN}{{2}})")
# One-character verbs left between Latin names ("调大模型 API 做 zero-shot"): with the function
# words of ZH_FUNCTION_RE, what joins names and is never a name (unlike "狗" of "养狗").
ZH_LONE_VERBS = frozenset("做用去买搞弄上写跑看加改换试接配装办让要会能还")
ZH_PLACE_RE = re.compile("^在|[上里中内外旁边]$")
# One-character suffixes that only say what kind of thing a 3-character name is (版, 店, 卡).
ZH_SUFFIXES = frozenset("版店卡馆团班端")
# One-character endings that make a word into a scheme or a kind ("订阅制", "集中式", "轻量化").
ZH_GENERIC_ENDINGS = frozenset("制式型化性类")
# A product name with a dotted suffix ("Next.js", "Socket.IO"): replies drop the suffix.
DOTTED_NAME_RE = re.compile(r"([A-Z][A-Za-z0-9]{1,20})\.(?:js|io|ai|net|app|dev|py)", re.IGNORECASE)
# A model number next to a name ("RTX 4090", "iPhone 15"; "M2 Max" has none): two to five digits.
MODEL_NUMBER_RE = re.compile(r"(?<![\w.,])\d{2,5}[A-Za-z]{0,2}(?![\w.,%])")
# Light verbs in front of a CJK name ("办健身房年卡", "吃火锅"): the name is what follows.
ZH_LEAD_RE = re.compile(
    r"^(?:单独|全部|直接|自建|自己|继续|把|先|再|也|都|还)?"
    r"(?:用|使用|采用|上|买|办|找|报|请|吃|去|住|投|养|铺|换|做|搞|选|走|送|坐|租|打|学|开|搬|加|跑|骑)?"
)
LABEL_RE = re.compile(
    r"^\s{0,3}(?P<label>(?:方案|思路|选项|路线|办法)\s?[A-Za-z\d一二三四五六七八九十]{1,2}"
    r"|(?:option|plan|approach|choice|alternative)\s?[A-Za-z\d]{1,2}\b)\s?[:：.)）(（-]?\s{0,2}",
    re.IGNORECASE,
)
PLACE_RE = re.compile(r"\s(?:in|at|on|inside|near)\s(?:the|a|an|my|our|your)\s", re.IGNORECASE)
NAME_END = frozenset(",，;；。")
PURPOSE_RE = re.compile(r"\s(?:for|to|so that|in order to)\s", re.IGNORECASE)
PART_SPLIT_RE = re.compile(r"[()（）:：,，/、;；+]|\s(?:or|或)\s")
LATIN_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z0-9+#.\-]{0,30}")
LATIN_WORD_RE = re.compile(r"[a-z][a-z0-9+#.\-]{0,30}")
CJK_RUN_RE = re.compile(f"[{CJK_CHAR}]+")
# Heads of compound product names that name something else alone ("Google Ads", "React Native").
COMPOUND_HEADS = frozenset(
    "google microsoft amazon aws azure apple docker react apache github gitlab visual oracle ibm meta adobe "
    "atlassian hashicorp elastic confluent cloudflare".split()
)
# "从 MySQL 迁到 Postgres", "moving from Jenkins to Actions": the option is where it goes.
MIGRATION_FROM_RE = re.compile(
    r"(?<![主自服跟随盲])从(?!而|来|不|未|小|前|此)\s?[^,，。;；]{1,40}?\s?"
    r"(?=迁(?:移)?到|迁往|换成|换到|切(?:换)?到|改成|改为|转到|转成|升级到|升级为)"
    r"|\bfrom\s[^,，。;；]{1,40}?\s(?=to\b)"
    r"|^\s?(?:switch|chang|mov|migrat|convert|upgrad)\w{0,4}\s[^,;]{1,40}?\s(?=to\s)",
    re.IGNORECASE,
)
