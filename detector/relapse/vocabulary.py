"""What counts as the same option: the lexicons and patterns an alternative's names are read with.

Kept as data, apart from the code that reads it, so that a new variant, category or light verb is a
one-line change here. Kin groups and categories are plain tuples (looked up by `kin`); the patterns
are stdlib `re` with literal alternations and bounded windows, no repeat nested inside another, so
every match is linear in the text.
"""

from __future__ import annotations

import re

from detector.text import (
    CJK_CHAR,
    KEPT_OUT_EN,
    KEPT_OUT_ZH,
    LABEL_MARK,
    LABEL_WORD_EN,
    LABEL_WORD_ZH,
    LATIN_NAME_RE,
)

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
    # Not an actively managed fund ("mutual fund", "偏股基金"): choosing an index fund is how one
    # turns those down.
    ("index fund", "etf", "etfs", "s&p 500", "stock fund", "equity fund", "指数基金", "基金定投", "定投",
     "股票型基金", "股票基金", "沪深300"),
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
    # China's citizen service line, by its number or its names.
    ("12345", "市民服务热线", "市民热线", "市长热线", "政务服务热线", "政务热线", "便民热线"),
    ("swimming", "swim", "lap swimming", "pool", "aqua aerobics", "aqua jogging", "water aerobics", "游泳", "泳池", "游泳馆",
     "水中有氧"),
    ("ble", "bluetooth", "bluetooth low energy", "蓝牙", "低功耗蓝牙"),
    ("gacha", "抽卡", "loot box", "loot boxes", "lootbox", "randomized packs", "randomised packs", "扭蛋", "开箱", "盲盒"),
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
    ("群晖", "synology"),
    ("威联通", "qnap"),
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
    # ==== Session 14: software and technology (written apart from every evaluation set) ====
    # ---- frontend -------------------------------------------------------------------------------
    # React, with the meta-frameworks that are React apps (Next.js, Remix, Gatsby) and Preact.
    ("react", "react.js", "reactjs", "react app", "react spa", "react 18", "react 19", "create react app", 
     "next.js", "nextjs", "remix", "gatsby", "react router", "preact", "react server components",
     "react 框架", "react 前端", "react 技术栈", "react 全家桶"),
    # Vue and Nuxt.
    ("vue", "vue.js", "vuejs", "vue 3", "vue3", "vue 2", "vue2", "nuxt", "nuxt.js", "nuxtjs", "nuxt 3",
     "vitepress", "vue 框架", "vue 全家桶", "vue 技术栈"),
    # Angular (and AngularJS before it).
    ("angular", "angularjs", "angular.js", "angular 2", "angular cli", "angular universal", "analogjs",
     "angular 框架"),
    # Svelte and SvelteKit.
    ("svelte", "sveltekit", "svelte kit", "svelte 5", "sapper", "svelte 框架"),
    # Utility-first CSS: Tailwind and its look-alikes (UnoCSS, Windi CSS, Twind).
    ("tailwind", "tailwindcss", "tailwind css", "tailwind ui", "daisyui", "windicss", "windi css", "unocss",
     "uno css", "twind", "utility-first css", "utility-first", "atomic css", "原子化 css", "原子化css",
     "原子 css"),
    # CSS-in-JS (styles written in the component's JavaScript), whichever library.
    ("css-in-js", "styled-components", "styled components", "@emotion/styled", "@emotion/react", 
     "jss", "vanilla-extract", "linaria", "panda css", "styled-jsx"),

    # ---- mobile ---------------------------------------------------------------------------------
    ("flutter", "flutter app", "flutterflow", "flutter web", "flutter 跨端", "flutter 跨平台", "flutter 框架"),
    # Extends the existing ("react native", "expo") group with new forms.
    ("react native", "react-native", "expo", "expo go", "expo router", "eas build", "react native web",
     "rn 跨端", "rn 框架"),
    # Native iOS development.
    ("native ios", "ios native", "swiftui", "uikit", "objective-c", "swift ios", "原生 ios", "ios 原生",
     "原生ios", "ios原生"),
    # Native Android development.
    ("native android", "android native", "jetpack compose", "kotlin android", "原生 android", "android 原生",
     "原生安卓", "安卓原生", "原生android"),

    # ---- desktop --------------------------------------------------------------------------------
    ("electron", "electron.js", "electronjs", "electron app", "electron-builder", "electron forge",
     "electron 桌面", "electron 应用"),
    ("tauri", "tauri app", "tauri 2", "tauri 应用"),

    # ---- auth -----------------------------------------------------------------------------------
    # Auth0 (sold by Okta since 2023 as "Okta Customer Identity Cloud").
    ("auth0", "auth0 universal login", "okta customer identity", "okta customer identity cloud", "okta ciam"),
    # Okta's workforce identity product.
    ("okta", "okta sso", "okta workforce identity", "okta workforce"),
    # Keycloak and Red Hat's build of it.
    ("keycloak", "red hat sso", "rh-sso", "red hat build of keycloak"),
    ("cognito", "aws cognito", "amazon cognito", "cognito user pool", "cognito user pools", "cognito 认证"),
    # Firebase Authentication and its paid upgrade, Google Identity Platform.
    ("firebase auth", "firebase authentication", "google identity platform", "firebase 认证", "firebase认证",
     "firebase 登录"),
    # Clerk (the bare word is an everyday noun: only longer forms).
    ("clerk.com", "clerk.dev", "clerk auth", "clerk 认证", "clerk 登录"),
    # Supabase Auth (GoTrue underneath).
    ("supabase auth", "gotrue", "supabase 认证", "supabase 登录"),
    # Authentication written in-house.
    ("self-built auth", "homegrown auth", "home-grown auth", "in-house auth", "hand-rolled auth",
     "roll our own auth", "build our own auth", "diy auth", "自建认证", "自研认证", "自建登录", "自研登录",
     "自己做登录", "自己写登录", "自建账号体系", "自建用户体系", "自研账号体系", "自建鉴权", "自研鉴权", "自己实现鉴权",
     "自己实现登录"),

    # ---- payments -------------------------------------------------------------------------------
    ("stripe", "stripe checkout", "stripe billing", "stripe connect", "stripe payments", "stripe elements",
     "stripe api", "stripe 支付"),
    # PayPal and its own processor and wallet (Braintree, Venmo).
    ("paypal", "braintree", "venmo", "paypal checkout", "贝宝", "paypal 支付"),
    ("adyen", "adyen 支付"),
    ("支付宝", "alipay", "alipay+", "支付宝当面付", "支付宝收款"),
    ("微信支付", "wechat pay", "weixin pay", "微信收款", "微信商户号", "微信小程序支付"),

    # ---- observability --------------------------------------------------------------------------
    # Prometheus and the Prometheus-compatible long-term stores (Thanos, Mimir, VictoriaMetrics).
    ("prometheus", "promql", "alertmanager", "node_exporter", "prometheus exporter", "thanos",
     "victoriametrics", "mimir", "managed prometheus", "普罗米修斯"),
    ("grafana", "grafana cloud", "grafana labs", "grafana dashboard", "grafana dashboards", "grafana 大盘",
     "grafana 看板", "grafana 面板", "lgtm stack"),
    ("datadog", "datadog apm", "datadog agent", "ddog", "datadog 监控"),
    ("new relic", "newrelic", "new relic one", "new relic apm"),
    # The Elastic logging stack (ELK/EFK), Kibana, and Kibana's OpenSearch fork.
    ("elk stack", "efk", "efk stack", "elastic stack", "logstash", "kibana", "filebeat",
     "opensearch dashboards", "elastic observability", "elastic apm", "elk 日志", "elk 日志平台"),
    ("grafana loki", "loki", "promtail", "logql"),
    # Sentry, and GlitchTip, its Sentry-protocol clone.
    ("sentry", "sentry.io", "self-hosted sentry", "glitchtip", "sentry 监控", "sentry sdk"),
    ("jaeger", "jaeger tracing", "jaeger ui"),

    # ---- CI/CD ----------------------------------------------------------------------------------
    ("jenkins", "jenkinsfile", "jenkins pipeline", "jenkins pipelines", "jenkins x", "cloudbees",
     "jenkins 流水线"),
    ("github actions", "github action", "github workflow", "github workflows", ".github/workflows",
     "github actions 工作流"),
    ("gitlab ci", "gitlab-ci", "gitlab ci/cd", ".gitlab-ci.yml", "gitlab runner", "gitlab pipeline",
     "gitlab pipelines", "gitlab 流水线"),
    ("circleci", "circle ci", "circleci orbs"),
    ("buildkite", "buildkite agent", "buildkite pipeline"),
    # Argo CD (Argo Rollouts is its progressive-delivery add-on; Akuity sells it managed).
    ("argo cd", "argocd", "argo-cd", "argo rollouts", "akuity"),

    # ---- compute and hosting --------------------------------------------------------------------
    # EC2 and Lightsail, AWS's VPS edition of it.
    ("ec2", "aws ec2", "amazon ec2", "ec2 instance", "ec2 instances", "lightsail", "amazon lightsail",
     "ec2 实例"),
    # Extends the existing serverless group with the products' own names and Chinese forms.
    ("serverless", "lambda", "aws lambda", "azure functions", "google cloud functions", "cloudflare workers",
     "vercel functions", "netlify functions", "serverless functions", "serverless function",
     "无服务器", "无服务器架构", "腾讯云函数", "阿里云函数计算", "函数即服务", "云函数", "函数计算"),
    ("fargate", "aws fargate", "ecs fargate", "ecs on fargate", "eks fargate"),
    ("cloudrun", "gcp cloud run"),
    ("google app engine", "gae", "app engine standard", "app engine flexible"),
    ("heroku", "heroku dyno", "heroku dynos", "dyno", "dynos"),
    ("vercel", "vercel.app", "vercel edge", "vercel 部署"),
    ("netlify", "netlify.app", "netlify edge", "netlify 部署"),
    ("fly.io", "flyio", "fly machines", "flyctl", "fly.toml"),
    # Extends the existing self-run data centre group (自建机房) with new forms.
    ("自建机房", "on-prem data center", "colocation", "自建 idc", "自建idc", "idc 机房", "idc机房", "机房托管",
     "机柜租用", "租机柜", "自建数据中心", "自有数据中心", "私有数据中心", "private data center", "private datacenter",
     "on-prem servers", "on-premises servers", "on-prem hardware"),
    # Running on several clouds at once.
    ("multi-cloud", "multicloud", "multi cloud", "多云架构", "多云部署", "多云策略", "多云方案", "多云管理",
     "跨云部署", "cloud-agnostic"),
    # The monolith (the option microservices are weighed against; the file has microservices).
    ("monolith", "monolithic", "modular monolith", "majestic monolith", "单体", "单体应用", "单体架构", "巨石应用",
     "单体服务"),

    # ---- containers -----------------------------------------------------------------------------
    ("docker", "dockerfile", "docker container", "docker containers", "docker image", "docker desktop",
     "containerize", "containerized", "containerise", "containerised", "容器化", "容器化部署", "docker 容器",
     "docker 镜像", "docker 部署", "docker部署"),
    ("docker compose", "docker-compose", "compose.yaml", "docker-compose.yml", "compose 编排"),
    ("podman", "podman compose", "podman-compose", "buildah"),

    # ---- databases ------------------------------------------------------------------------------
    # Extends the existing ("postgres", "postgresql", "pg") group with managed editions and forms.
    ("postgres", "postgresql", "pgsql", "postgre", "rds postgres", "rds for postgresql", "aurora postgresql",
     "aurora postgres", "cloud sql for postgresql", "azure database for postgresql", "neon.tech",
     "neon postgres", "crunchy bridge", "pg 数据库", "postgres 数据库", "postgresql 数据库"),
    # Extends the existing MySQL group with managed editions and MySQL-protocol services (PlanetScale).
    ("mysql", "rds mysql", "rds for mysql", "aurora mysql", "cloud sql for mysql", "polardb mysql", "planetscale",
     "vitess", "mysql 数据库", "云数据库 mysql", "tencentdb for mysql"),
    ("sqlite", "sqlite3", "libsql", "turso", "litestream", "rqlite", "cloudflare d1", "sqlite 数据库"),
    # Oracle Database (the bare "oracle" is an ML and everyday word).
    ("oracle db", "oracle database", "oracle 数据库", "oracle数据库", "oracle rac", "oracle exadata", "oracle 19c",
     "oracle 23ai", "甲骨文数据库", "pl/sql", "plsql"),
    ("sql server", "sqlserver", "mssql", "microsoft sql server", "azure sql", "azure sql database", "t-sql",
     "tsql"),
    ("tidb", "tidb cloud", "pingcap", "tikv"),
    ("cockroachdb", "cockroach db", "cockroach labs", "crdb"),
    ("spanner", "cloud spanner", "google spanner", "谷歌 spanner"),
    ("aurora", "amazon aurora", "aws aurora", "aurora serverless", "aurora mysql", "aurora postgresql",
     "aurora dsql"),
    # Extends the existing sharding group with the middleware that does it.
    ("sharding", "分库分表", "shardingsphere", "sharding-jdbc", "sharding jdbc", "mycat", "citus", "vitess",
     "sharded database", "sharded cluster", "数据分片", "水平分库", "水平分表", "分库分表中间件"),
    # pgvector: vectors kept in Postgres instead of a vector database.
    ("pgvector", "pg_vector", "pgvecto.rs", "pgvectorscale"),
    ("algolia", "algolia search", "instantsearch", "docsearch"),

    # ---- ORMs -----------------------------------------------------------------------------------
    ("prisma", "prisma orm", "prisma client", "prisma accelerate", "prisma schema"),
    ("sqlalchemy", "sqlmodel", "flask-sqlalchemy", "sqlalchemy orm", "sqlalchemy core"),
    ("hibernate", "jpa", "spring data jpa", "hibernate orm"),
    ("mybatis", "mybatis-plus", "mybatis plus", "ibatis"),
    # SQL written by hand, no ORM.
    ("handwritten sql", "hand-written sql", "原生 sql", "原生sql", "手写 sql", "手写sql", "裸 sql"),

    # ---- API styles -----------------------------------------------------------------------------
    # Extends the existing ("graphql", "apollo", "hasura") group with new forms.
    ("graphql", "gql", "graphql api", "graphql schema", "apollo server", "apollo client", "apollo federation",
     "postgraphile", "graphql yoga", "urql", "graphql 接口"),
    ("grpc", "grpc-web", "protobuf", "protocol buffers", "proto3", "connectrpc", "connect-rpc", "grpc 接口"),
    ("rest api", "rest apis", "restful", "restful api", "rest endpoint", "rest endpoints", "openapi",
     "openapi spec", "swagger", "rest 接口", "restful 接口", "rest风格"),
    ("trpc", "trpc router", "trpc procedures"),
    ("websocket", "websockets", "web socket", "socket.io", "socketio", "signalr", "action cable", "actioncable",
     "phoenix channels", "websocket 连接", "websocket 长连接"),

    # ---- task queues ----------------------------------------------------------------------------
    ("celery", "celery worker", "celery workers", "celery beat", "celery task", "celery 任务"),
    ("sidekiq", "sidekiq pro", "sidekiq enterprise"),
    # Bull / BullMQ (the bare word is an everyday word).
    ("bullmq", "bull.js", "bull 队列"),

    # ---- machine learning -----------------------------------------------------------------------
    # Neural-network approaches as one option ("deep learning" against a tree model).
    ("deep learning", "deep-learning", "neural network", "neural networks", "neural net", "neural nets",
     "deep neural network", "deep neural networks", "dnn", "mlp", "multilayer perceptron",
     "multi-layer perceptron", "feedforward network", "深度学习", "神经网络", "深度神经网络", "多层感知机",
     "深度模型", "全连接网络"),
    # Transformer models (also brought in with the other architectures by the deep learning category).
    ("transformer", "transformers", "transformer model", "transformer-based", "tabtransformer", "ft-transformer",
     "bert", "transformer 模型"),
    # Gradient boosting as a method.
    ("gradient boosting", "gradient-boosting", "gradient boosted trees", "gradient-boosted trees",
     "boosted trees", "gbdt", "gbm", "gbrt", "histgradientboosting", "梯度提升", "梯度提升树", "提升树"),
    ("xgboost", "xgb", "xgbclassifier", "xgbregressor"),
    ("lightgbm", "lgbm", "lgbmclassifier", "lgbmregressor"),
    ("catboost", "catboostclassifier", "catboostregressor"),
    # Extends the existing OpenAI group with newer models, the API and Azure's hosted edition.
    ("openai", "chatgpt", "gpt-4", "gpt-4o", "openai api", "azure openai", "azure openai service", "gpt-4.1",
     "gpt-4o-mini", "gpt-5", "gpt-3.5-turbo", "o1-preview", "o1-mini", "o3-mini", "o4-mini",
     "text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002"),
    ("claude", "anthropic", "claude api", "anthropic api", "claude sonnet", "claude opus", "claude haiku",
     "claude 3.5 sonnet"),
    ("gemini", "gemini pro", "gemini flash", "gemini api", "google gemini", "vertex ai gemini"),

    # ---- data tools -----------------------------------------------------------------------------
    ("flink", "apache flink", "pyflink", "flink sql", "flink cdc", "ververica", "实时计算 flink"),
    ("dbt", "dbt core", "dbt cloud", "data build tool", "dbt models"),
    # pandas and Modin, its drop-in parallel edition.
    ("pandas", "pandas dataframe", "pd.dataframe", "modin"),
    ("polars", "polars dataframe", "pola.rs", "py-polars"),
    ("duckdb", "duck db", "motherduck"),

    # ---- infra as code --------------------------------------------------------------------------
    ("pulumi", "pulumi cloud", "pulumi ai"),
    # CloudFormation and what compiles to it (CDK, SAM).
    ("cloudformation", "aws cloudformation", "cfn", "aws sam", "aws cdk", "cdk stack", "cloudformation template"),

    # ---- design tools ---------------------------------------------------------------------------
    ("figma", "figjam", "figma design", "figma 设计稿", "figma 原型", "figma file"),
    # Sketch (the bare word is an everyday word: only forms that cannot be anything else).
    ("sketchapp", "sketch.app", "sketch 设计稿", "sketch for mac"),

    # ---- hardware -------------------------------------------------------------------------------
    # Extends the existing Raspberry Pi group with the Linux boards by model.
    ("raspberry pi", "树莓派", "raspberry pi 4", "raspberry pi 5", "raspberry pi 3", "pi zero", "pi zero 2 w",
     "raspberry pi zero", "rpi", "rpi4", "rpi5", "cm4", "树莓派 4", "树莓派4", "树莓派 5", "树莓派5", "树莓派 zero"),
    # Raspberry Pi Pico: a microcontroller board, not a Linux computer.
    ("pi pico", "raspberry pi pico", "rp2040", "rp2350", "树莓派 pico", "树莓派pico"),
    ("arduino", "arduino uno", "arduino nano", "arduino mega", "atmega328", "atmega328p", "arduino 开发板"),
    ("esp32", "esp8266", "esp-idf", "esp32-s3", "esp32-c3", "esp32-c6", "nodemcu", "乐鑫", "esp32 开发板"),

    # ---- CMS ------------------------------------------------------------------------------------
    # Ghost (the bare word is an everyday word).
    ("ghost cms", "ghost.org", "ghost(pro)", "ghost 博客"),
    ("strapi", "strapi cloud", "strapi cms"),
    ("contentful", "contentful cms"),
    # Decap CMS, formerly Netlify CMS ("decap" alone is also an electronics word).
    ("decap cms", "netlify cms"),

    # ---- feature flags and experiments ----------------------------------------------------------
    ("launchdarkly", "launch darkly"),
    # Unleash (the bare word is an everyday verb).
    ("getunleash", "unleash feature flags", "unleash proxy"),
    ("optimizely", "optimizely web", "optimizely feature experimentation"),

    # An onboarding tour of the product's screens, whatever it is called.
    ("product tour", "guided tour", "onboarding tour", "interactive tour", "in-app tour", "feature tour",
     "guided walkthrough", "product walkthrough", "onboarding walkthrough", "interactive walkthrough",
     "产品导览", "新手引导", "引导教程", "操作引导", "新手教程"),
    # ---- low-code -------------------------------------------------------------------------------
    ("low-code", "lowcode", "no-code", "nocode", "低代码", "无代码", "零代码", "低代码平台", "无代码平台",
     "零代码平台", "拖拽搭建"),
    ("retool", "retool workflows"),

    # ---- spreadsheets, docs, chat ---------------------------------------------------------------
    # Excel (the bare "excel" is an everyday verb: only longer forms) and its WPS clone.
    ("microsoft excel", "ms excel", "excel 表格", "excel表格", "excel spreadsheet",
     "excel spreadsheets", "excel 文件", "excel workbook", "xlsx", "excel 365", "excel online", "wps 表格",
     "wps表格"),
    ("google sheets", "google sheet", "gsheets", "谷歌表格", "google 表格", "google spreadsheet",
     "google spreadsheets", "谷歌 sheets"),
    ("飞书表格", "飞书电子表格", "lark sheets", "feishu sheets", "飞书 sheets"),
    # Notion (the bare "notion" is an everyday noun: only longer forms).
    ("notion.so", "notion 文档", "notion 页面", "notion workspace", "notion wiki", "notion database",
     "notion 数据库", "notion 笔记", "notion 知识库"),
    ("obsidian", "obsidian.md", "obsidian vault", "obsidian 笔记", "obsidian 插件"),
    ("confluence", "atlassian confluence", "confluence wiki", "confluence cloud", "confluence 页面",
     "confluence 文档"),
    # Slack (the bare word is an everyday word: only longer forms).
    ("slack workspace", "slack workspaces", "slack channel", "slack channels", "slack bot", 
     "slack huddle", "slack connect", "slack 频道", "slack 群聊"),
    ("microsoft teams", "teams 会议", "teams 群聊", "微软 teams"),
    ("飞书", "feishu", "larksuite", "lark suite", "飞书群", "飞书机器人", "飞书 bot"),
    ("钉钉", "dingtalk", "钉钉群", "钉钉机器人", "钉钉 bot"),
    ("企业微信", "wecom", "wechat work", "企微", "企业微信群", "企业微信机器人"),

    # ---- translation ----------------------------------------------------------------------------
    ("machine translation", "machine-translation", "machine translated", "machine-translated",
     "auto-translation", "auto-translate", "automatic translation", "mtpe", "post-editing", "机器翻译", "机翻",
     "自动翻译", "译后编辑", "机翻稿"),
    ("deepl", "deepl api", "deepl pro", "deepl translator", "deepl 翻译"),
    ("google translate", "google translation api", "google cloud translation", "cloud translation api",
     "谷歌翻译", "google 翻译"),
    # Human translators (the option machine translation is weighed against).
    ("human translation", "professional translator", "professional translators", "human translator",
     "human translators", "translation agency", "localization vendor", "人工翻译", "专业译员", "翻译公司",
     "本地化公司", "人工译员"),

    # ---- labeling -------------------------------------------------------------------------------
    ("crowdsourcing", "crowdsourced", "crowd-sourced", "crowd workers", "crowdworkers", "众包", "众包平台",
     "众包标注", "众包数据"),
    ("mturk", "mechanical turk", "amazon mechanical turk", "turkers", "mturk workers"),
    # Prolific (the bare word is an everyday adjective: only longer forms).
    ("prolific.co", "prolific.com", "prolific academic"),
    # Scale AI and its crowd-work arm Remotasks.
    ("scale.ai", "scaleai", "remotasks", "scale rapid"),
    # Labeling handed to an outside vendor.
    ("外包标注", "标注外包", "数据标注外包", "标注公司", "数据标注公司", "标注供应商", "outsourced labeling",
     "outsourced labelling", "outsourced annotation", "labeling vendor", "labelling vendor",
     "annotation vendor", "labeling service", "annotation service"),
    # ==== Session 14: everyday life and business (written apart from every evaluation set) ====
    # ---------------------------------------------------------------- travel and transport
    # Renting a car, by the rental companies' names (extends the existing "renting a car" group).
    ("car rental", "rental car", "renting a car", "rent a car", "rent-a-car", "car hire", "hire car", "avis",
     "sixt", "europcar", "enterprise rent-a-car", "budget rent a car", "alamo rental", "national car rental",
     "dollar rent a car", "thrifty car rental", "turo", "租车", "自驾", "神州租车", "一嗨", "携程租车", "租一辆车"),
    # Taxis and ride-hailing apps (extends the existing taxi group).
    ("taxi", "taxis", "uber", "didi", "滴滴", "打车", "网约车", "ride-hailing", "ride hailing", "ride-hailing app",
     "taxi app", "hail a cab", "grabcar", "grab taxi", "cabify", "bolt taxi", "高德打车", "曹操出行", "花小猪", "叫车",
     "专车"),
    # Flying there, including the budget airlines that stand for a flight.
    ("book a flight", "take a flight", "plane ticket", "plane tickets", "airfare", "by plane",
     "direct flight", "nonstop flight", "budget airline", "low-cost carrier", "low-cost airline", "ryanair", "easyjet",
     "wizz air", "spirit airlines", "southwest airlines", "airasia", "飞机", "坐飞机", "机票", "航班", "直飞", "廉航",
     "廉价航空", "春秋航空", "亚航"),
    # Overnight sleeper train.
    ("night train", "sleeper train", "overnight train", "sleeper car", "nightjet", "caledonian sleeper", "卧铺", "夜卧",
     "过夜火车", "软卧", "硬卧"),
    # Long-distance bus / coach.
    ("long-distance bus", "intercity bus", "coach bus", "greyhound bus", "flixbus", "megabus", "长途大巴", 
     "长途汽车", "长途客车", "大巴车"),
    # Road trip: driving the whole way.
    ("road trip", "road-trip", "roadtrip", "driving trip", "drive the whole way", "自驾游", "自驾行", "一路开过去",
     "开车过去"),
    # Hotels, with the chains that stand for one.
    ("hotels", "hotel room", "boutique hotel", "hilton", "marriott", "hyatt", "holiday inn", "ihg", "accor",
     "酒店", "宾馆", "住酒店", "连锁酒店", "如家", "汉庭", "全季", "亚朵", "锦江之星", "希尔顿", "万豪"),
    # Hostels.
    ("hostel", "hostels", "youth hostel", "backpacker hostel", "hostelworld", "dorm bed", "青旅", "青年旅舍",
     "青年旅社", "床位房"),
    # Vacation-rental platforms (extends the existing airbnb group).
    ("airbnb", "vrbo", "holiday cottage", "民宿", "短租", "途家", "小猪短租", "木鸟民宿"),
    # Independent, self-planned travel (自由行).
    ("自由行", "自助游", "independent travel", "travel independently", "self-guided trip", "self-guided tour",
     "self-planned trip", "diy trip"),
    # Private or custom tour (a guide or itinerary just for you).
    ("private tour", "custom tour", "tailor-made tour", "tailor-made trip", "bespoke tour", "私家团",
     "定制游", "定制旅行", "私人导游", "一单一团"),
    # Visa on arrival.
    ("visa on arrival", "visa-on-arrival", "落地签", "落地签证"),
    # Electronic visa / travel authorisation.
    ("e-visa", "evisa", "electronic visa", "online visa", "eta visa", "k-eta", "电子签证"),
    # Visa agency / agent.
    ("visa agent", "visa agency", "visa service", "visa services", "visa consultant", "签证中介", "代办签证", "签证代办",
     "签证代理"),
    # ---------------------------------------------------------------- moving
    # Full-service movers (extends the existing movers group).
    ("movers", "moving company", "搬家公司", "professional movers", "full-service movers", "full-service move",
     "white-glove movers", "removal company", "removals company", "removalists", "two men and a truck", "蚂蚁搬家",
     "大众搬家", "日式搬家"),
    # Van-with-driver apps (货拉拉).
    ("货拉拉", "lalamove", "快狗打车", "滴滴货运", "man with a van", "man and van", "van with driver", "叫个货车"),
    # Labor-only crew: helpers who carry, no truck.
    ("moving labor", "labor-only movers", "loading crew", "moving helpers", "hourly movers",
     "taskrabbit", "hire helpers", "搬运工", "搬运工人"),
    # Portable moving container.
    ("moving container", "portable storage container", "pods container", "pods moving", "u-pack", "upack", "relocube",
     "集装箱搬家"),
    # Renting a moving truck.
    ("u-haul", "uhaul", "moving truck", "truck rental", "rental truck", "rent a truck", "penske", "budget truck",
     "box truck", "租货车", "租个货车", "租个面包车"),
    # Moving it yourself.
    ("自己搬", "自己搬家", "搬家自己来", "diy move", "move ourselves", "move it ourselves", 
     "moving ourselves", "self-move"),
    # ---------------------------------------------------------------- food and cooking
    # Lard.
    ("lard", "pork fat", "rendered pork fat", "leaf lard", "manteca", "猪油", "荤油", "猪板油", "熬猪油", "猪油渣"),
    # Butter, and clarified butter / ghee.
    ("unsalted butter", "salted butter", "ghee", "clarified butter", "brown butter", "kerrygold", "黄油",
     "无盐黄油", "有盐黄油", "酥油", "澄清黄油", "安佳黄油"),
    # Air fryer.
    ("air fryer", "airfryer", "air-fryer", "air frying", "air-fried", "air fry", "ninja foodi", "cosori", "空气炸锅",
     "空气炸"),
    # Sous vide.
    ("sous vide", "sous-vide", "immersion circulator", "water bath cooking", "anova cooker", "anova precision cooker",
     "breville joule", "低温慢煮", "舒肥", "慢煮棒", "真空低温"),
    # Meal kits: portioned ingredients delivered to cook.
    ("meal kit", "meal kits", "meal-kit", "meal kit delivery", "hellofresh", "blue apron", "gousto", "marley spoon",
     "半成品菜", "净菜", "菜谱包"),
    # Ready meals: heat and eat.
    ("ready meals", "ready meal", "ready-made meals", "frozen meals", "microwave meals", "tv dinners", "预制菜",
     "料理包", "速冻菜", "冷冻餐"),
    # Food-delivery apps (extends the existing takeout group).
    ("takeout", "take-out", "外卖", "点外卖", "叫外卖", "food delivery", "delivery app", "food delivery app",
     "doordash", "ubereats", "uber eats", "grubhub", "deliveroo", "postmates", "foodpanda", "美团外卖", "饿了么"),
    # Cutting carbs, from keto to a lighter low-carb (extends the existing keto group).
    ("keto", "生酮", "low-carb", "low carb", "lower-carb", "cutting carbs", "cut carbs", "carb cycling", "atkins",
     "south beach diet", "dukan diet", "低碳水", "低碳饮食", "低碳水饮食", "减碳水", "控碳", "断碳", "少吃碳水"),
    # Vegan / fully plant-based.
    ("vegan", "vegans", "veganism", "plant-based", "fully plant-based", "whole-food plant-based", "wfpb", "纯素",
     "纯素食", "植物基饮食"),
    # Vegetarian.
    ("vegetarian", "vegetarians", "lacto-ovo", "ovo-lacto", "meatless", "meat-free", "素食", "蛋奶素",
     "素食主义"),
    # Intermittent fasting by its schedules (extends the existing intermittent fasting group).
    ("intermittent fasting", "轻断食", "time-restricted eating", "time-restricted feeding", "eating window",
     "skip breakfast", "skipping breakfast", "16+8", "5:2 diet", "一日一餐", "过午不食"),
    # ---------------------------------------------------------------- health and fitness
    # Running / jogging.
    ("go running", "going running", "jogging", 
     "take up running", "couch to 5k", "c25k", "parkrun", "treadmill running", "running club", "慢跑", "跑步", "晨跑",
     "夜跑", "跑步机"),
    # Swimming.
    ("swimming", "lap swimming", "swim laps", "swimming laps", "laps in the pool", "go swimming", "游泳", "游个泳",
     "游泳馆", "泳池游泳"),
    # Personal trainer.
    ("personal trainer", "personal training", "私教", "私教课", "健身教练", "一对一教练"),
    # Yoga.
    ("yoga", "yoga class", "hot yoga", "bikram", "vinyasa", "hatha yoga", "yin yoga", "瑜伽", "瑜珈", "流瑜伽",
     "阴瑜伽", "热瑜伽"),
    # Strength training.
    ("strength training", "weight training", "weightlifting", "lifting weights", "resistance training",
     "free weights", "力量训练", "举铁", "撸铁", "无氧训练"),
    # Melatonin.
    ("melatonin", "melatonin gummy", "melatonin gummies", "褪黑素", "褪黑激素", "脑白金"),
    # Sleeping pills (prescription hypnotics).
    ("sleeping pills", "sleeping pill", "sleeping tablets", "sleep medication", "prescription sleep aid", "hypnotics",
     "ambien", "zolpidem", "zopiclone", "eszopiclone", "lunesta", "安眠药", "助眠药", "唑吡坦", "佐匹克隆", "右佐匹克隆",
     "思诺思"),
    # ---------------------------------------------------------------- personal finance
    # Crypto, by exchanges and coins (extends the existing crypto group).
    ("crypto", "bitcoin", "比特币", "加密货币", "coinbase", "binance", "币安", "okx", "欧易", "solana", "dogecoin",
     "狗狗币", "memecoin", "meme coin", "stablecoin", "稳定币", "usdt", "defi", "炒币"),
    # Index funds, by the funds and tickers that stand for them (extends the existing index fund group).
    ("index fund", "指数基金", "定投", "voo", "vti", "vtsax", "qqq", "ivv", "vwrl", "vwce", "fxaix",
     "total market fund", "total stock market fund", "all-world etf", "three-fund portfolio", "lazy portfolio",
     "boglehead", "bogleheads", "标普500", "标普 500", "纳指100", "纳斯达克100", "中证500", "宽基", "宽基指数"),
    # Government bonds.
    ("government bonds", "government bond", "treasury bonds", "treasury bills", "treasury bill",
     "t-bills", "t-bill", "t-notes", "gilts", "bunds", "series i bonds", "i-bonds", "savings bonds", "国债", "国库券",
     "储蓄国债", "凭证式国债", "电子式国债", "地方债"),
    # Bond funds.
    ("bond fund", "bond funds", "bond etf", "bond etfs", "bond index fund", "aggregate bond", "bnd", "债券基金", "债基",
     "纯债基金", "短债基金"),
    # Corporate bonds.
    ("corporate bonds", "corporate bond", "high-yield bonds", "junk bonds", "investment-grade bonds", "企业债", "公司债",
     "信用债", "城投债"),
    # Certificates of deposit / term deposits.
    ("certificate of deposit", "certificates of deposit", "cd ladder", "term deposit", "fixed deposit", "定期存款",
     "大额存单", "存定期", "整存整取"),
    # Money market funds.
    ("money market fund", "money market funds", "money market account", "货币基金", "余额宝", "零钱通", "现金管理类"),
    # Rental property: buying to let out.
    ("rental property", "rental properties", "buy-to-let", "investment property", "being a landlord",
     "become a landlord", "投资房", "买房出租", "买房收租", "收租"),
    # REITs.
    ("reit", "reits", "real estate investment trust", "real estate fund", "公募 reits", "不动产投资信托", "房地产信托"),
    # Personal / consumer loans.
    ("personal loan", "personal loans", "unsecured loan", "consumer loan", "信用贷", "信用贷款", "消费贷", "借呗",
     "微粒贷", "网贷", "个人贷款"),
    # Business loans.
    ("business loan", "small business loan", "sba loan", "sba 7(a)", "business line of credit", "经营贷",
     "企业贷款", "经营性贷款", "抵押经营贷", "信用经营贷"),
    # Paying in installments: card installments and buy-now-pay-later.
    ("credit card installments", "pay in installments", "installment plan", "installment payments",
     "buy now pay later", "bnpl", "klarna", "afterpay", "信用卡分期", "分期付款", "账单分期", "花呗", "花呗分期",
     "京东白条"),
    # Term life insurance.
    ("term life insurance", "term life policy", "term life cover", "定期寿险", "定寿"),
    # Whole / cash-value life insurance and savings-type policies.
    ("whole life insurance", "whole life policy", "universal life", "indexed universal life", "iul",
     "cash value life insurance", "终身寿险", "增额终身寿", "增额寿", "储蓄险", "分红险", "储蓄型保险"),
    # ---------------------------------------------------------------- education and careers
    # MBA.
    ("mba", "emba", "executive mba", "part-time mba", "online mba", "mba program", "工商管理硕士",
     "商学院"),
    # Bootcamps and short training courses.
    ("bootcamp", "bootcamps", "boot camp", "coding bootcamp", "le wagon", "app academy", "hack reactor",
     "lambda school", "训练营", "速成班", "编程培训", "培训班", "达内"),
    # Full-time hire.
    ("full-time hire", "full-time employee", "full-time staff", "full-time engineer", "permanent hire",
     "hire full-time", "全职员工", "招全职", "正式员工", "正式编制"),
    # Freelancer / independent contractor.
    ("freelancer", "freelancers", "freelance", "independent contractor", "1099 contractor", 
     "contract designer", "fiverr", "自由职业者", "接私活", "找自由职业者"),
    # Part-time hire.
    ("part-time hire", "part-timer", "part-time staff", "part-time employee", "兼职", "兼职人员", "兼职员工"),
    # Internship.
    ("internship", "internships", "summer intern", "co-op placement", "实习", "实习生", "暑期实习",
     "实习岗"),
    # Whiteboard / algorithm (LeetCode-style) coding interview.
    ("whiteboard coding", "whiteboard interview", "whiteboarding", "leetcode", "leetcode-style", 
     "algorithm interview", "algorithmic questions", "coding puzzles", "live-coding", "live coding interview",
     "算法题", "手撕代码", "白板编程", "力扣", "刷题", "写算法"),
    # Online coding assessment.
    ("online assessment", "hackerrank", "codility", "codesignal", "coding assessment", "在线笔试", "机考",
     "在线编程测试"),
    # Take-home assignment.
    ("take-home assignment", "take-home project", "take-home test", "take-home exercise", "take-home challenge",
     "笔试作业", "面试作业", "离线作业"),
    # Duolingo.
    ("duolingo", "多邻国", "duolingo streak"),
    # Anki and flashcards (spaced repetition).
    ("anki", "anki deck", "spaced repetition", "flashcards", "flashcard app", "quizlet", "闪卡", "记忆卡片", "间隔重复",
     "anki 卡组"),
    # Chinese vocabulary apps (背单词 app).
    ("背单词 app", "背单词软件", "百词斩", "不背单词", "扇贝单词", "墨墨背单词", "知米背单词", "单词 app"),
    # Online language tutor.
    ("italki", "preply", "cambly", "language tutor", "conversation tutor", "外教", "外教课", "一对一外教", "vipkid",
     "51talk"),
    # ---------------------------------------------------------------- events
    # Outdoor / garden wedding.
    ("outdoor wedding", "outdoor ceremony", "garden wedding", "garden ceremony", "lawn wedding", "backyard wedding",
     "open-air ceremony", "户外婚礼", "草坪婚礼", "户外草坪婚礼", "花园婚礼", "露天婚礼", "草坪仪式"),
    # Eloping / courthouse wedding / 旅行结婚.
    ("elope", "eloping", "elopement", "courthouse wedding", "city hall wedding", "registry office wedding",
     "旅行结婚", "只领证", "领证不办", "不办婚礼"),
    # Micro wedding.
    ("micro wedding", "micro-wedding", "microwedding", "intimate wedding", "小型婚礼", "小婚礼", "家宴式婚礼",
     "只请亲友"),
    # Wedding banquet (酒席).
    ("wedding banquet", "banquet", "banquet hall", "reception dinner", "酒席", "婚宴", "摆酒", "办酒席", "喜宴", "宴席"),
    # Wedding planner (婚庆).
    ("wedding planner", "wedding planning company", "day-of coordinator", "婚庆公司", "婚礼策划", "婚策", "婚庆"),
    # ---------------------------------------------------------------- home
    # Electric standing desk.
    ("standing desk", "electric standing desk", "sit-stand desk", "height-adjustable desk", "motorized desk",
     "adjustable-height desk", "uplift desk", "flexispot", "电动升降桌", "升降桌", "升降办公桌", "站立办公桌"),
    # Desktop converter (sits on an existing desk).
    ("desktop converter", "desk converter", "standing desk converter", "desk riser", "varidesk", "桌面升降台",
     "桌上升降台", "桌面升降支架"),
    # Full-package renovation (全包).
    ("全包装修", "装修全包", "全包模式", "找全包", "做全包", "整装公司", "整装套餐", "拎包入住", "turnkey renovation",
     "design-build", "design-build firm", "full-service renovation"),
    # Half-package renovation (半包: contractor supplies labor and basic materials).
    ("半包装修", "装修半包", "半包模式", "找半包", "做半包", "包工包辅料"),
    # Labor-only renovation (清包: owner buys all materials).
    ("清包装修", "清包工", "包清工", "纯清包", "找清包", "做清包", "labor-only contract", "labor only renovation",
     "自己买材料"),
    # Laminate flooring.
    ("laminate flooring", "laminate floor", "laminate floors", "laminate planks", "强化地板", "强化复合地板"),
    # Vinyl plank flooring.
    ("luxury vinyl plank", "luxury vinyl", "vinyl plank", "vinyl flooring", "lvp", "lvt", "spc flooring", "spc 地板",
     "石塑地板", "pvc 地板", "塑胶地板"),
    # Tile flooring.
    ("tile flooring", "porcelain tile", "ceramic tile", "floor tiles", "floor tile", "瓷砖", "地砖", "通体砖"),
    # IKEA and flat-pack furniture.
    ("ikea", "宜家", "ikea hack", "flat-pack", "flatpack", "flat-pack furniture"),
    # Second-hand marketplaces.
    ("闲鱼", "facebook marketplace", "craigslist", "gumtree", "offerup", "vinted", "buy secondhand",
     "buy second-hand", "second-hand furniture", "used furniture", "二手家具", "二手平台"),
    # ---------------------------------------------------------------- writing and media
    # First-person narration, including diary form.
    ("first-person", "first-person narration", "first-person narrator", "first person narrator",
     "first person narration", "first-person pov", "i-voice", "diary form", "diary entries", "diary format",
     "第一人称", "第一人称叙述", "第一人称视角", "日记体", "日记形式", "自述体"),
    # Open ending.
    ("open-ended ending", "unresolved ending", "open-ended finale", "开放式结局",
     "开放结局", "留白结局", "结局留白"),
    # Slides / presentation deck.
    ("slide deck", "presentation deck", "powerpoint", "ppt", "pptx", "google slides", "幻灯片",
     "演示文稿", "投影片"),
    # Video / vlog (long-form).
    ("vlog", "vlogs", "vlogging", "youtube video", "youtube videos", "youtube channel", "video essay",
     "explainer video", "拍视频", "做视频", "录视频", "视频教程"),
    # Short-form video.
    ("short-form video", "short video", "short videos", "youtube shorts", "instagram reels", "kuaishou",
     "短视频", "视频号"),
    # Podcast.
    ("podcast", "podcasts", "podcasting", "audio show", "播客", "音频节目", "电台节目"),
    # ---------------------------------------------------------------- marketing and business
    # Paid ads in general (投流).
    ("paid ads", "paid advertising", "paid acquisition", "paid media", "paid campaigns", "ad spend",
     "performance marketing", "facebook ads", "meta ads", "信息流广告", "信息流投放", "付费广告", "付费投放",
     "投广告", "打广告", "投放广告", "投流", "买量"),
    # In-feed / paid social ads (信息流广告).
    ("paid social", "投流", "facebook ads", "meta ads", "instagram ads", "linkedin ads", "tiktok ads", "reddit ads",
     "信息流广告", "信息流投放", "朋友圈广告", "广点通", "小红书聚光", "聚光平台"),
    # Influencer marketing (KOL, 达人带货).
    ("influencer marketing", "influencer", "influencers", "kols", "koc", "sponsored posts",
     "creator partnerships", "brand ambassador", "brand ambassadors", "网红", "达人带货", "网红带货",
     "达人合作", "博主合作", "找博主"),
    # Livestream selling.
    ("live commerce", "livestream selling", "livestream shopping", "直播带货", "直播卖货", "开直播",
     "店播", "直播间带货"),
    # Email marketing (EDM).
    ("email marketing", "email campaign", "email campaigns", "drip campaign", "drip campaigns", "email blast",
     "mailchimp", "klaviyo", "邮件营销", "邮件推送", "群发邮件", "营销邮件"),
    # SEO.
    ("seo", "search engine optimization", "search engine optimisation", "organic search", "organic traffic",
     "搜索引擎优化", "关键词排名"),
    # Discounts, sales and flash sales (extends the existing discount group).
    ("discount", "打折", "降价", "flash sale", "clearance sale", "percent off", "limited-time offer", "限时折扣", "特价",
     "打折促销", "清仓", "让利", "优惠价"),
    # Free trial.
    ("free trial", "free trials", "14-day trial", "30-day trial", "7-day trial", "trial account", "免费试用",
     "试用装", "免费体验", "体验课", "试听课", "免费试听"),
    # Franchising.
    ("franchising", "franchisee", "franchisees", "franchise model", "加盟", "加盟店", "开放加盟",
     "招商加盟", "连锁加盟", "加盟模式"),
    # ---------------------------------------------------------------- legal
    # Arbitration.
    ("arbitration", "arbitration clause", "binding arbitration", "arbitrator", "arbitral tribunal",
     "jams arbitration", "icc arbitration", "cietac", "仲裁", "仲裁条款", "仲裁庭", "劳动仲裁", "申请仲裁", "贸仲",
     "仲裁委"),
    # Mediation.
    ("mediation", "mediated settlement", "调解", "人民调解", "诉前调解", "调解员", "调停"),
    # Settling out of court.
    ("settle out of court", "out-of-court settlement", "settlement negotiation", "negotiate a settlement", "庭外和解",
     "私了", "协商解决"),
    # Demand letter / cease and desist.
    ("demand letter", "cease and desist", "cease-and-desist", "letter before action", "lawyer's letter", "律师函",
     "催告函", "发律师函"),
    # ---------------------------------------------------------------- research methods
    # Surveys / questionnaires.
    ("questionnaire", "questionnaires", "online survey", "survey study", "survey studies", "google forms", "typeform",
     "surveymonkey", "qualtrics", "问卷", "问卷调查", "调查问卷", "问卷星", "腾讯问卷", "发问卷"),
    # Eye tracking, with a lab tracker or a webcam.
    ("eye tracking", "eye-tracking", "eye tracker", "eye-tracker", "tobii", "gaze tracking", "gaze estimation",
     "webgazer", "眼动", "眼动仪", "眼动追踪"),
    # Focus groups.
    ("focus group", "focus groups", "焦点小组", "焦点小组访谈", "座谈会",
     "小组座谈"),
    # One-on-one user interviews.
    ("user interviews", "customer interviews", "in-depth interviews", "one-on-one interviews",
     "qualitative interviews", "semi-structured interviews", "interview customers", "深度访谈",
     "深访", "用户访谈", "一对一访谈", "访谈", "客户访谈"),
    # A/B test / randomized experiment ("show half the users the new version").
    ("a/b test", "a/b tests", "a/b testing", "ab test", "ab testing", "split-test",
     "randomized experiment", "randomised experiment", "randomized controlled trial", "rct", "controlled experiment",
     "treatment group", "show half the users", "half the users see", "half of the users see",
     "show half of users", "50/50 split", "随机对照", "随机对照试验", "随机实验", "分组实验", "对照实验", "ab 实验",
     "a/b 实验", "实验组", "对照组", "给一半用户", "一半用户看", "分流实验"),
    # Usability testing.
    ("usability test", "usability testing", "usability tests", "think-aloud", "think aloud",
     "moderated test", "可用性测试", "用户测试", "易用性测试"),
    # ---------------------------------------------------------------- pets
    # Cat.
    ("kitten", "kittens", "adopt a cat", "ragdoll", "maine coon", "british shorthair", "猫咪",
     "小猫", "养猫", "英短", "美短", "布偶猫", "橘猫"),
    # Pet sitter / home visits (instead of boarding).
    ("pet sitter", "pet sitting", "pet-sitter", "house sitter", "drop-in visits", "rover sitter",
     "trusted housesitters", "上门喂猫", "上门喂养", "上门遛狗", "宠物上门", "上门照看"),
    # ---------------------------------------------------------------- childcare
    # Daycare (extends the existing daycare group).
    ("daycare", "day care", "childcare center", "child care center", "nursery school", "creche", "托育", "托育机构",
     "托儿所", "托班"),
    # Grandparents looking after the child.
    ("grandparent care", "老人带娃", "老人帮忙带", "爷爷奶奶带", "外公外婆带", "姥姥带", "父母帮忙带",
     "让老人带"),
    # After-school program.
    ("after-school program", "after-school care", "afterschool program", "after school club", "晚托", "午托",
     "托管班", "课后托管", "放学托管"),
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
    # Two NAS brands are two options, each a NAS: a rejected 群晖 is not named by 威联通 or by "NAS".
    (("nas", "network storage", "网络存储"), ("synology", "群晖", "qnap", "威联通", "truenas", "unraid")),
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
# A user sentence that repeats a rejection already made ("不是说了 Redux 不要吗", "说了 gevent 不行",
# "we said no ES", "I already told you no redux"): it names the option to keep it out, not to bring
# it back. The words of saying, then a verdict within the clause; bounded gaps, linear.
REAFFIRMED_RE = re.compile(
    r"(?:说|讲|定)(?:过|了|好了|好的)[^,，。;；!！?？\n]{0,16}?(?:不要|不用|不行|不考虑|不上|否了|否掉|pass|算了|别用|别上|别碰|放弃)"
    r"|\b(?:we|i|you) (?:already |just |literally )?(?:said|agreed|decided|told you|ruled)\b[^,.;!?\n]{0,30}?"
    r"\b(?:no|not|never|don'?t|won'?t|out|against)\b",
    re.IGNORECASE,
)
# A verdict right after the user's own mention of an option ("FCM 不加", "redux 还是不要了", "kafka is
# out") or right before it ("no graphql", "别上 Redis", "skip the mocks"; not "why not redis?"): that
# sentence rejects the option again, it does not bring it back.
REJECTED_AFTER_RE = re.compile(
    r"\s{0,2}(?:那个|这个|的话)?\s{0,2}(?:就|也|还是|先|都|暂时)?\s{0,2}(?:不(?:加|要|用|考虑|上|做|搞|弄|碰|接|行)|免了|算了|pass|拉倒)"
    r"|\s(?:is|are) (?:out|off the table|a no|dead)\b",
    re.IGNORECASE,
)
REJECTED_BEFORE_RE = re.compile(
    rf"(?:{KEPT_OUT_ZH}|\b(?:{KEPT_OUT_EN})(?: the)?)\s{{0,2}}$",
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
    "alone rent renting own offer offering give giving first early late now later off up out "
    # The verb an option's summary opens with ("Move PDTs into dbt", "Consolidate the explores"):
    # capitalised, it had read as a name, and "move PDTs into dbt" re-proposed "Move to BigQuery".
    "move moving migrate migrating consolidate consolidating replace replacing convert converting upgrade "
    "upgrading downgrade downgrading raise raising lower lowering increase increasing reduce reducing remove "
    "removing drop dropping cut cutting split splitting merge merging write writing create creating enable "
    "enabling disable disabling start starting stop stopping ask asking pay paying book booking take taking "
    "pick picking".split()
)
# CJK character pairs that describe a kind of thing (缓存, 数据库) rather than name one.
WEAK_BIGRAMS = frozenset(
    "缓存 数据 据库 服务 系统 方案 集群 平台 框架 工具 模型 公司 团队 管理 状态 一个 使用 旅行 饮食 工作 广告 手机 认证 部署 本地 线上 线下 全部 所有 我们 这个 那个 可以 用户 "
    "功能 项目 页面 接口 前端 后端 技术 产品 东西 时候 迁到 迁移 换成 改成 改用 切换 引入 解决 全站 在家 自己 单独 直接 自建 "
    # The words of a diagnosis: every suspect is a "问题" ("埋点/数据管道问题" is not named by "推送出了问题").
    "问题 原因 "
    # What an assistant says of anything it suggests: "建议分两组" is not named by "建议先排查模型".
    "建议 优化 保留 模块 运营 "
    # Where, around a name: "大学城周边" is not named by "周边3公里入住率".
    "周边 附近 周围 旁边 一带 区域 地区 "
    # Units and amounts: "access token 15分钟" is not named by "锁定15分钟" or "缓存一分钟".
    "分钟 小时 个月 星期 礼拜 公里 左右 以上 以下 以内 每天 每周 每月 每年".split()
)
# Of those, the ones that are a whole option when nothing else names it: a user who turns down "手机"
# (phones in class) is relapsed on by "学生用手机秒表计时", while a bare "方案" or "问题" names no option
# at all. Only a few, the things a user turns down by that one word: a target cut down to "模型" or
# "平台" is more often a fragment of a longer name than the option, and then every reply names it;
# nor "广告" ("推荐处要标注'广告/合作'" brings back no ad-funded plan).
WHOLE_NAMES = frozenset("缓存 手机 线上 线下".split())
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
# A list's own numbering read as a part of an option's text ("一(按朝代编年)"): a numeral names no
# option, and every reply has "一个", "一点", "第一".
ZH_NUMERALS = frozenset("零一二两三四五六七八九十百千万")
# Words that name nothing even capitalised at the head of an option's text ("Where the displaced
# barrels go", "What you might want to study", "Whether you care about linking to a wine club"):
# question words, pronouns, modals and the prepositions of a question. Apart from STOP_WORDS, whose
# "Go" and "Next" may be names with a capital.
NEVER_NAMES = frozenset(
    "what where when which who whom whose why how whether if i you he she they we it me him her them us "
    "your yours my mine his hers their our ours might may must would could should shall will can want "
    "wants wanted need needs care about than".split()
)
ZH_PLACE_RE = re.compile("^在|[上里中内外旁边]$")
# One-character suffixes that only say what kind of thing a 3-character name is (版, 店, 卡).
ZH_SUFFIXES = frozenset("版店卡馆团班端")
# Kinds of place or thing that end a longer name after what tells it apart ("莫干山民宿", "千岛湖度假
# 酒店"): the kind alone is no end of that name, and "安吉山里的设计民宿" does not name "莫干山民宿".
ZH_KIND_ENDS = frozenset(
    "民宿 酒店 宾馆 客栈 公寓 餐厅 饭店 饭馆 景区 公园 古城 古镇 学校 大学 医院 银行 商场 超市 机构 课程 套餐 路线 专业 门诊 科室 号源".split()
)
KIND_END_RE = re.compile(rf"(?<={HAN}{HAN})(?:{'|'.join(sorted(ZH_KIND_ENDS))})(?!{HAN})")
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
    rf"^\s{{0,3}}(?P<label>{LABEL_WORD_ZH}\s?{LABEL_MARK}{{1,2}}"
    rf"|{LABEL_WORD_EN}\s?[A-Za-z\d]{{1,2}}\b)\s?[:：.)）(（-]?\s{{0,2}}",
    re.IGNORECASE,
)
PLACE_RE = re.compile(r"\s(?:in|at|on|inside|near)\s(?:the|a|an|my|our|your)\s", re.IGNORECASE)
NAME_END = frozenset(",，;；。")
PURPOSE_RE = re.compile(r"\s(?:for|to|so that|in order to)\s", re.IGNORECASE)
PART_SPLIT_RE = re.compile(r"[()（）:：,，/、;；+]|\s(?:or|或)\s")
# A Latin name as a reply spells it: the one spelling detector.text gives every layer.
LATIN_TOKEN_RE = LATIN_NAME_RE
LATIN_WORD_RE = re.compile(r"[a-z][a-z0-9+#.\-]{0,30}")
CJK_RUN_RE = re.compile(f"[{CJK_CHAR}]+")
# The words a product's own name is followed by in its full name ("Datadog Logs", "Zoho Books",
# "Mendeley Reference Manager"): the maker's name before them names the product alone.
PRODUCT_TAILS = frozenset(
    "logs log analytics monitoring insights studio hub workspace docs sheets books payments pay functions "
    "pipelines actions manager reference desk suite".split()
)
# Heads of compound product names that name something else alone ("Google Ads", "React Native").
COMPOUND_HEADS = frozenset(
    "google microsoft amazon aws azure apple docker react apache github gitlab visual oracle ibm meta adobe "
    "atlassian hashicorp elastic confluent cloudflare".split()
)
# "从 MySQL 迁到 Postgres", "把 Jedis 换成 Lettuce", "moving from Jenkins to Actions", "replace
# requests with httpx": the option is where it goes.
MIGRATION_FROM_RE = re.compile(
    r"(?<![主自服跟随盲])(?:从(?!而|来|不|未|小|前|此)|(?:把|将)(?!握|关|控|脉))\s?[^,，。;；]{1,40}?\s?"
    r"(?=迁(?:移)?到|迁往|换成|换到|切(?:换)?到|改成|改为|转到|转成|升级到|升级为|替换成|替换为)"
    r"|\bfrom\s[^,，。;；]{1,40}?\s(?=to\b)"
    r"|^\s?(?:switch|chang|mov|migrat|convert|upgrad)\w{0,4}\s[^,;]{1,40}?\s(?=to\s)"
    r"|^\s?replac\w{0,3}\s[^,;]{1,40}?\swith\s",
    re.IGNORECASE,
)
