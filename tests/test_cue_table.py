"""Table-driven tests of the cue layer (rules mode) against the label guide in DESIGN §2.

Every row is one user turn as people actually type it: terse, colloquial, sometimes long with the
rejection buried in the middle. Positives check the label and the spans the text states;
hard negatives check that the turn stays NONE and, where a cue does match, that the guard which
suppressed it gives the right reason.
"""

from __future__ import annotations

import unicodedata

import pytest

from detector import Detector
from detector.schema import Detection, Label

REJECT, PIVOT, REOPEN, NONE = Label.REJECT, Label.PIVOT, Label.REOPEN, Label.NONE


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector("rules")


def _squash(text: str) -> str:
    """Lower-case, drop whitespace and punctuation: what is left names the thing."""
    text = unicodedata.normalize("NFKC", text).lower()
    return "".join(ch for ch in text if not (ch.isspace() or unicodedata.category(ch)[0] in "PS"))


def same_thing(predicted: str | None, expected: str) -> bool:
    """Does the predicted span denote the same thing as the expected one?

    Equal after lower-casing and removing whitespace and punctuation, or one contains the other.
    """
    if not predicted:
        return False
    a, b = _squash(predicted), _squash(expected)
    return bool(a and b) and (a == b or a in b or b in a)


def test_same_thing_helper() -> None:
    assert same_thing("方案B", "方案 B")
    assert same_thing("the Redis idea", "redis")
    assert same_thing("Redis", "the Redis idea.")
    assert not same_thing(None, "Redis")
    assert not same_thing("Kafka", "Redis")
    assert not same_thing("", "Redis")


def case(
    lang: str,
    text: str,
    label: Label,
    *,
    target: str | None = None,
    replacement: str | None = None,
    reason: str | None = None,
    revisit_if: str | None = None,
    suppressed: str | None = None,
    xfail: str | None = None,
) -> object:
    """One row of a table: the turn, its label, the spans it states, the expected veto reason."""
    spans = {
        name: value
        for name, value in (
            ("target", target),
            ("replacement", replacement),
            ("reason", reason),
            ("revisit_if", revisit_if),
        )
        if value is not None
    }
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    return pytest.param(lang, text, label, spans, suppressed, marks=marks)


def _check(
    detection: Detection, text: str, label: Label, spans: dict[str, str], suppressed: str | None
) -> None:
    fired = [(hit.cue_id, hit.span) for hit in detection.explanation.fired]
    vetoed = [(s.hit.cue_id, s.reason, s.evidence) for s in detection.explanation.suppressed]
    assert detection.label is label, (
        f"{text!r}: got {detection.label.value}; fired={fired} suppressed={vetoed}"
    )
    for name, expected in spans.items():
        predicted = getattr(detection, name)
        assert same_thing(predicted, expected), (
            f"{text!r}: {name}={predicted!r}, expected {expected!r}; fired={fired}"
        )
    if suppressed is not None:
        reasons = {s.reason for s in detection.explanation.suppressed}
        assert suppressed in reasons, f"{text!r}: suppressed reasons {vetoed}, expected {suppressed!r}"


# ---------------------------------------------------------------------------------------------
# Chinese

# fmt: off
ZH_CASES = [
    # -- REJECT ---------------------------------------------------------------------------------
    case("zh", "这个方向不对", REJECT),
    case("zh", "上个方案作废，需求我重新捋一遍", REJECT),
    case("zh", "算了，这条路别走了", REJECT),
    # "X 就别看了/别寻思了" drops X, also typed with no punctuation before the pivot.
    case("zh", "公有云那个就别看了弄个本地部署的", REJECT, target="公有云"),
    case("zh", "热泵这道儿就别寻思了", REJECT, target="热泵"),
    case("zh", "而且报的是 couldn't find plugin，别在 gres.conf 上绕了", REJECT, target="gres.conf"),
    # A space after "kill 掉" ends the clause: what follows is why, not what goes.
    case("zh", "整柜 kill 掉 东西真没那么多 太浪费了", REJECT, target="整柜"),
    # Asking for another way out, put as a question: the request is the verdict.
    case("zh", "我们这边确实不太方便再提了 有没有别的兜底办法呢？", PIVOT),
    case("zh", "Redis 那套就别折腾了，运维成本太高", REJECT, target="Redis", reason="运维成本太高"),
    # Session 49: "先别放进来".
    case("zh", "MQ 先别放进来，没人会运维", REJECT, target="MQ"),
    case("zh", "要求不停服 mysqldump 那种一把导的不行", REJECT, target="mysqldump"),
    case("zh", "不是网络的问题，别再抓包了", REJECT, target="网络"),
    case("zh", "法务那边肯定过不了", REJECT),
    case("zh", "先不做，等预算下来再说", REJECT, revisit_if="等预算下来"),
    case("zh", "官网先不挂 设计还在改 品牌那边还没定稿 等定稿了在说吧", REJECT, revisit_if="等定稿了"),
    # Session 69: official Chinese: 拟不予采用; 暂不设立 with 待…再议 for 等…再说.
    case("zh", "该方式与经费统一采购的规定不符，审计风险较大，拟不予采用。", REJECT),
    case("zh", "公共试剂库暂不设立，待新实验楼启用、场地落实后再议。", REJECT, target="公共试剂库", revisit_if="待新实验楼启用、场地落实后再议"),
    case("zh", "要不干脆不在那个平台上架了，转免费平台吃广告分成？？", NONE, suppressed="question"),
    case("zh", "第3种方式不能采用。其余几种方式请进一步展开。", REJECT, target="第3种方式"),
    case("zh", "经处务会讨论，课题组自行脱敏的模式将不再作为可选方案。", REJECT, target="课题组自行脱敏的模式"),
    case("zh", "关于设备租赁一项，本人认为不宜采用。", REJECT),
    case("zh", "付费服务包那个，我想再议一议。县里说可以先试点。", REOPEN, target="付费服务包"),
    # Session 70: dialect verdicts ("嫑" and "覅" for 别, "算咧", "莫讲咯"); a modal before 排除 holds it
    # back; an option named as once dropped is taken up again; "不是说了…吗" reminds, it does not deny;
    # a title in 《》 is a name, not a quote.
    case("zh", "直播那个嫑搞了，额不会弄。", REJECT, target="直播"),
    case("zh", "县上那个中心就算咧，不跟他弄。", REJECT),
    case("zh", "租车就莫讲咯，押金三个月都退不回来。", REJECT, target="租车"),
    case("zh", "但本人认为，数字人作为一种手段，不宜轻易排除。", NONE),
    case("zh", "对了，之前砍掉的 DoRA，今天正好空出两张卡，我想跑个 ablation 对比一下。", REOPEN, target="DoRA"),
    case("zh", "《难题集萃》不是说了不用吗，基础题也不要，学生一看书名就发怵。", REJECT),
    case("zh", "舒幼生那本太难了。提高题改用沈晨的《更高更妙的物理》吧，梯度好一点。", PIVOT),
    case("zh", "DoRA 这次就不试了，排期太紧。", REJECT, target="DoRA"),
    # Session 71: northern "甭" for 别; demonstrative subjects of an official verdict; "not feasible" in
    # an official register; a slip warned against is no verdict.
    case("zh", "外包那条就甭走了，回款太慢。", REJECT),
    case("zh", "经测算，该两项方案均不予采用，请另拟。", REJECT),
    case("zh", "烟花燃放一项，经了解现阶段不具备实施条件。", REJECT),
    case("zh", "社团名字叫书法社，不叫书画社，您方案里别写错了。", NONE),
    case("en", "That sounds fine. The thing I keep coming back to is the ferry timing, we can't miss the last one.", NONE),
    case("en", "Pocket Casts yes, I actually use it myself. OK, back to the budget.", NONE),
    case("zh", "另有一个新情况。此前否掉的自研规则引擎，可否作为第二阶段考虑？", REOPEN, target="自研规则引擎"),
    case("zh", "不用了", REJECT),
    case("zh", "说了别动它", REJECT),
    case("zh", "那就换自命题 就考本省的大学", PIVOT, replacement="自命题"),
    case("zh", "curl 了一下 /metrics 0.2 秒就回来了", NONE),  # a reply comes back, no option does
    case("zh", "嗯，不需要了，谢谢", REJECT),
    case("zh", "微服务就不考虑了，我们团队才五个人", REJECT, target="微服务"),
    case("zh", "方案A行不通，因为数据量太大了", REJECT, target="方案A", reason="数据量太大了"),
    case("zh", "我看了一下，Kafka 对我们来说太重了，放弃吧", REJECT, target="Kafka"),
    case("zh", "东京就算了，人太多", REJECT, target="东京"),
    case("zh", "这个思路从根上就错了", REJECT),
    case("zh", "GraphQL 不上了，前端没人会", REJECT, target="GraphQL"),
    case("zh", "嗯……那个重构方案我想了一晚上，还是觉得不靠谱，先不往下推了", REJECT, target="重构方案"),
    case("zh", "排除掉DNS，解析是正常的", REJECT, target="DNS"),
    case("zh", "别搞分库分表了，数据量根本没到那个级别", REJECT, target="分库分表"),
    case("zh", "这个方案老板肯定不会批的", REJECT),
    case("zh", "自建机房这事到此为止", REJECT, target="自建机房"),
    case("zh", "这三个酒店都不行，太偏了", REJECT, reason="太偏了"),
    case("zh", "不去迪士尼了，孩子太小玩不了", REJECT, target="迪士尼"),
    case("zh", "学Rust这个计划我放弃了", REJECT, target="学Rust"),
    case("zh", "咱们别用正则硬解析HTML了", REJECT, target="正则硬解析HTML"),
    case("zh", "内存泄漏那个猜测可以排除了，堆快照很干净", REJECT, target="内存泄漏"),
    case("zh", "这个方案成本太高，不考虑了", REJECT, reason="成本太高"),
    case("zh", "那套权限模型我否了", REJECT, target="权限模型"),
    case("zh", "你提的那个分片方案我不太认可，风险太大", REJECT, target="分片方案", reason="风险太大"),
    # A conclusion after a supposition is the user's own decision (所以 ends the supposition's reach).
    case("zh", "他爸算了一下，万一签证下不来就白忙活一场，所以美国就先不考虑了", REJECT, target="美国"),
    case("zh", "说实话我觉得上区块链这个想法挺扯的，别往下做了", REJECT),
    case("zh", "这条路线到这儿就打住吧", REJECT),
    case("zh", "换数据库这事不搞了，迁移风险太大", REJECT, target="换数据库", reason="迁移风险太大"),
    case("zh", "这期不上推荐功能，除非运营那边能给到数据", REJECT, revisit_if="运营那边能给到数据"),
    case("zh", "昨天定的那个排期作废", REJECT),
    case("zh", "缓存穿透这个方向查了两天没结果，不查了", REJECT),
    case("zh", "Electron 太吃内存，不要了", REJECT, target="Electron"),
    case("zh", "这事儿没戏，财务不会买单的", REJECT),
    case("zh", "海岛游就免了吧，晕船", REJECT, target="海岛游"),
    # -- PIVOT ----------------------------------------------------------------------------------
    case("zh", "这个方向不对，我们换成方案B吧", PIVOT, replacement="方案B"),
    case("zh", "A 不行，运维扛不住，换 B", PIVOT, replacement="B", reason="运维扛不住"),
    # A verdict, then a bare 改 and where to go.
    case("zh", "等额本金就别了 改等额本息 拉满30年", PIVOT, target="等额本金", replacement="等额本息"),
    case("zh", "圆不要了,改字母 logo", PIVOT, replacement="字母 logo"),
    case("zh", "改成另一个思路：用事件溯源", PIVOT, replacement="事件溯源"),
    case("zh", "自建 ES 一年光机器就十几万，太费钱了。换 Loki 吧", PIVOT, replacement="Loki"),
    case("zh", "不用Redis了，改用本地LRU缓存", PIVOT, target="Redis", replacement="本地LRU缓存"),
    case("zh", "这些都不想去，换个别的", PIVOT),
    case("zh", "与其自己搭ES，不如直接买阿里云的搜索服务", PIVOT, target="自己搭ES", replacement="阿里云的搜索服务"),
    case("zh", "放弃小程序，全力做App", PIVOT, target="小程序", replacement="App"),
    case("zh", "去大阪吧，东京算了", PIVOT, target="东京", replacement="大阪"),
    case("zh", "换个思路，先把数据清洗做好再谈模型", PIVOT),
    case("zh", "别纠结前端框架了，直接用 HTMX 吧", PIVOT, replacement="HTMX"),
    case("zh", "推倒重来，这次用 Go 写", PIVOT),
    case("zh", "我不想用 MongoDB，换个关系型数据库吧", PIVOT, target="MongoDB", replacement="关系型数据库"),
    case("zh", "不学吉他了，改学钢琴", PIVOT, target="吉他", replacement="钢琴"),
    case("zh", "数据库别用MySQL了，上PostgreSQL", PIVOT, target="MySQL", replacement="PostgreSQL"),
    case("zh", "不做To C了，转做企业客户", PIVOT, target="To C", replacement="企业客户"),
    case("zh", "这个架构太复杂，咱们换个简单点的方案", PIVOT, reason="太复杂"),
    case("zh", "我改主意了，不买特斯拉，买比亚迪", PIVOT, target="特斯拉", replacement="比亚迪"),
    case("zh", "爬虫这条路风险太大，改成直接调官方API", PIVOT, replacement="官方API"),
    case("zh", "行了，别用轮询了，改成WebSocket推送", PIVOT, target="轮询", replacement="WebSocket推送"),
    case("zh", "方案一放弃，走方案三", PIVOT, replacement="方案三"),
    case("zh", "还是别自己训练模型了，直接调用现成的API吧", PIVOT, replacement="现成的API"),
    case("zh", "旅行改去云南吧，日本签证来不及", PIVOT, replacement="云南"),
    case("zh", "这个模型效果不行，换成XGBoost试试", PIVOT, replacement="XGBoost"),
    case("zh", "你给的几个方案都不满意，再给我几个别的选项", PIVOT),
    case("zh", "不走融资这条路了，先靠接外包把现金流做起来", PIVOT, replacement="接外包"),
    case("zh", "单体别拆了，我们把精力放到性能优化上", PIVOT, replacement="性能优化"),
    case("zh", "周末不爬山了，改成去看展", PIVOT, target="爬山", replacement="看展"),
    # -- REOPEN ---------------------------------------------------------------------------------
    case("zh", "回头再看看方案A", REOPEN, target="方案A"),
    case("zh", "之前否掉的 Kafka 可以重新考虑", REOPEN, target="Kafka"),
    case("zh", "我收回刚才的话，Redis 其实也能用", REOPEN, target="Redis"),
    case("zh", "既然预算批下来了，那个多活方案可以再评估一下", REOPEN, target="多活方案"),
    case("zh", "想了想，还是用回 Redis 吧，本地缓存一致性太难搞", REOPEN, target="Redis"),
    case("zh", "上次被砍掉的那个会员积分功能，这次可以加回来了", REOPEN, target="会员积分功能"),
    case("zh", "要不还是回到最开始的那个方向", REOPEN),
    case("zh", "东京其实也不是不行，再考虑一下东京吧", REOPEN, target="东京"),
    case("zh", "把之前放弃的 SSR 方案重新拿出来讨论", REOPEN, target="SSR"),
    case("zh", "算了，还是换回原来的 Nginx 配置", REOPEN, target="Nginx"),
    case("zh", "刚才说 Flutter 不合适，不过仔细想想它跨端确实省事", REOPEN, target="Flutter"),
    case("zh", "再给 MongoDB 一次机会", REOPEN, target="MongoDB"),
    case("zh", "昨天排除的那家民宿，其实位置挺好的，重新考虑一下吧", REOPEN, target="那家民宿"),
    case("zh", "原来那个单体方案又可以拿出来了，现在团队人手够", REOPEN, target="单体方案"),
    case("zh", "被我毙掉的消息队列方案，现在看来还是得上", REOPEN, target="消息队列方案"),
    # -- NONE: corrections of facts, numbers, bugs -----------------------------------------------
    case("zh", "这个数字不对，应该是42", NONE),
    # "淘汰策略" is the eviction policy, a noun: no verb of dropping.
    case("zh", "不对 我们没改过淘汰策略 默认是noeviction 顶满了是直接写报错", NONE),
    case("zh", "不对，端口是8080不是80", NONE),
    case("zh", "你算错了，总价是3200", NONE),
    case("zh", "这行代码有bug，循环条件写反了", NONE),
    case("zh", "日期错了，会议是周四不是周三", NONE),
    case("zh", "这个配置不对，超时应该设30秒", NONE),
    case("zh", "你的方案里第三步不对，应该先建索引再导数据", NONE),
    # -- NONE: standing constraints and preferences ----------------------------------------------
    case("zh", "不要用 tab 缩进", NONE),
    case("zh", "我们公司不允许用 GPL 的库", NONE),
    case("zh", "变量名不要用拼音", NONE),
    case("zh", "以后别在回复里加表情", NONE),
    # -- NONE: questions and hypotheticals -------------------------------------------------------
    case("zh", "要不要放弃A？", NONE, suppressed="question"),
    case("zh", "方案B是不是更好一点？", NONE),
    case("zh", "Kafka 真的不行吗", NONE),
    case("zh", "我们是不是该换成 PostgreSQL？", NONE, suppressed="question"),
    case("zh", "为什么说微服务不适合我们？", NONE, suppressed="question"),
    # "是不是要" asks (A-not-A); its 不是要 denies nothing.
    case("zh", "之前划掉的 coupon 是不是要重新考虑下？", NONE, suppressed="question"),
    case("zh", "如果放弃Redis，缓存层会怎样？", NONE, suppressed="hypothetical"),
    case("zh", "假设我们不用K8s了，部署怎么搞", NONE, suppressed="hypothetical"),
    case("zh", "万一方案A行不通，我们有备选吗", NONE),
    case("zh", "万一签证下不来，所以美国就先不考虑了吗？", NONE, suppressed="question"),
    # -- NONE: negated and reported rejections ---------------------------------------------------
    case("zh", "我不是说A不行，只是想多了解一下", NONE, suppressed="negation"),
    case("zh", "我没说要放弃这个方向", NONE, suppressed="negation"),
    case("zh", "并不是说这个方案不靠谱，我只是想确认一下边界", NONE, suppressed="negation"),
    # The denial's reach ends where its clause closes on a particle and a space.
    case("zh", "emm 我没说要加美国啊 80 万也就勉强够一年半 签证也麻烦 美国就别加了 多出来的钱就是 buffer", REJECT,
         target="美国"),
    # "不是要不" takes back the user's own hedge, and "就这么定了" takes the reported view as theirs.
    case("zh", "她说印卷子加看店她一个人根本顾不过来 要不……不是要不 就这么定了 速印机不买了", REJECT, target="速印机"),
    case("zh", "老板说这个方案不行，但我觉得还能再争取", NONE, suppressed="reported"),
    case("zh", "同事建议把MySQL换成TiDB，我还没想好", NONE, suppressed="reported"),
    case("zh", "客户觉得这个设计不合适，我不太同意", NONE, suppressed="reported"),
    # A verdict that is a condition's consequence waits on the condition; one in a clause of its
    # own after the condition stands.
    case("zh", "场地费大概多少? 如果超过 30 万就算了", NONE, suppressed="hypothetical"),
    case("zh", "要是 IRB 卡了就换方案，Redis 就算了", REJECT, target="Redis"),
    # -- NONE: pauses ----------------------------------------------------------------------------
    case("zh", "先不讨论这个", NONE),
    case("zh", "这个先放着，不是不要", NONE),
    case("zh", "部署的事回头再说，先把接口写完", NONE),
    case("zh", "这个话题暂停一下，我们先聊预算", NONE),
    # -- NONE: acknowledgements, acceptances -----------------------------------------------------
    case("zh", "继续", NONE),
    case("zh", "好的", NONE),
    case("zh", "嗯嗯，明白了", NONE),
    case("zh", "好，就按B来", NONE),
    case("zh", "可以，方案二挺好，就这么定了", NONE),
    case("zh", "行，那就用 PostgreSQL", NONE),
    # -- NONE: formatting instructions -----------------------------------------------------------
    case("zh", "别用表格", NONE),
    case("zh", "换成英文回答", NONE),
    case("zh", "改成列表形式", NONE),
    case("zh", "不要用markdown，纯文本就行", NONE),
    # -- NONE: parameter changes inside the same plan --------------------------------------------
    case("zh", "改成3个人", NONE),
    case("zh", "时间改成晚上7点", NONE),
    case("zh", "预算改为五千", NONE),
    case("zh", "把超时从3秒改成10秒", NONE),
    case("zh", "颜色换成蓝色的", NONE),
    # -- NONE: cue words inside quotes, code, pasted logs ----------------------------------------
    case("zh", "他在群里发了一句“这个方案作废”，我没看懂什么意思", NONE, suppressed="quote"),
    case("zh", "报错信息是 `放弃连接`，怎么回事", NONE, suppressed="code"),
    case("zh", "ERROR: 方案B不可用，回滚到方案A\n这条日志是什么意思", NONE, suppressed="log"),
    # -- NONE: plain "no" ------------------------------------------------------------------------
    case("zh", "没有了", NONE),
    case("zh", "没了，谢谢", NONE),
    # -- more, written after the first round: colloquial, long, the verdict mid-sentence ----------
    case("zh", "我跟运维聊了下，他们说K8s维护不过来——行吧，那K8s就先不上了", REJECT, target="K8s"),
    case("zh", "这个库三年没更新了，别依赖它了", REJECT),
    case("zh", "你说的那个用 Lambda 做定时任务的方案，我觉得坑太多，还是不要了", REJECT),
    case("zh", "租房还是算了，通勤两个小时受不了", REJECT, target="租房"),
    case("zh", "分布式事务那块我看就别碰了", REJECT, target="分布式事务"),
    case("zh", "不是前端的锅，后端接口返回就是空的", REJECT, target="前端"),
    case("zh", "这个需求砍了吧，ROI太低", REJECT),
    case("zh", "方案二我不同意，太激进了", REJECT, target="方案二"),
    case("zh", "嗯…还是别去长城了，人太多", REJECT, target="长城"),
    case("zh", "这条技术路线我们放弃", REJECT),
    case("zh", "那就不自己部署了，直接买云厂商的托管版", PIVOT, replacement="云厂商的托管版"),
    case("zh", "咱们别纠结 Vue 还是 React 了，用 Svelte 得了", PIVOT, replacement="Svelte"),
    case("zh", "这个思路pass，换成基于规则的做法", PIVOT, replacement="基于规则的做法"),
    case("zh", "我改主意了，从 Java 换到 Kotlin", PIVOT, target="Java", replacement="Kotlin"),
    case("zh", "别写爬虫了，人家有开放接口，直接调接口", PIVOT),
    case("zh", "上周否掉的那个按地区分片的思路，我觉得可以再聊聊", REOPEN, target="按地区分片的思路"),
    case("zh", "还是回到单体吧，微服务折腾不起", REOPEN, target="单体"),
    case("zh", "之前说太贵的那个酒店，现在打折了，可以再看看", REOPEN),
    case("zh", "先不急着定，等我问问老板", NONE),
    case("zh", "这个方案挺好的，但是第三步的 SQL 写错了", NONE),
    case("zh", "文档里说'该接口已废弃'，那我们还能用吗", NONE),
    case("zh", "能不能不用 Redis？", NONE),
    case("zh", "不用Redis的话，延迟会高多少？", NONE),
    case("zh", "他们团队之前放弃了 Kafka，原因是运维成本", NONE, suppressed="reported"),
    case("zh", "字体改成14号", NONE),
    case("zh", "把标题改成《季度复盘》", NONE),
    case("zh", "不要再道歉了，直接回答问题", NONE),
    case("zh", "这个 bug 不是网络的问题吗？", NONE),
    case("zh", "先别管部署，把单测补上", NONE),
    case("zh", "好吧，听你的，用方案B", NONE),
    case("zh", "那这样吧，方案A和B都保留，下周再定", NONE),
    case("zh", "不是不行，只是我得先问问财务", NONE),
    # -- a third round, written before looking at what the lexicon covers -------------------------
    case("zh", "说真的，自研 RPC 框架这个坑咱们别跳了", REJECT, target="自研 RPC 框架"),
    case("zh", "日本线路我再想想……还是不去了吧，假期太短", REJECT),
    case("zh", "这个办法治标不治本，不采用", REJECT),
    case("zh", "二手车那个选项直接划掉", REJECT, target="二手车"),
    case("zh", "别再往 Redis 里塞东西了，这条路我们不走", REJECT),
    case("zh", "老实说，换框架这个提议我投反对票", REJECT, target="换框架"),
    case("zh", "不搞私有化部署了，改做 SaaS 订阅", PIVOT, target="私有化部署", replacement="SaaS 订阅"),
    case("zh", "MySQL 撑不住了就上 TiDB 吧", PIVOT, replacement="TiDB"),
    case("zh", "考研这条路不走了，毕业直接工作", PIVOT, replacement="工作"),
    case("zh", "预算砍半了，原来的方案做不了，改走轻量版", PIVOT, replacement="轻量版"),
    case("zh", "与其花钱投广告，不如把产品体验打磨好", PIVOT, replacement="把产品体验打磨好"),
    case("zh", "之前嫌贵没选的那家健身房，现在有优惠，可以重新考虑", REOPEN),
    case("zh", "我再想了想，方案A也不是完全不行", REOPEN, target="方案A"),
    case("zh", "前面被我否了的 GraphQL，我收回", REOPEN, target="GraphQL"),
    case("zh", "Kafka 还是重新拿回来讨论吧", REOPEN, target="Kafka"),
    case("zh", "这个方案我需要再想想，明天给你答复", NONE),
    case("zh", "你刚才说的第二点不对，Redis 是单线程处理命令的", NONE),
    case("zh", "不要每次都重复我的问题", NONE),
    case("zh", "数字保留两位小数", NONE),
    case("zh", "如果 Kafka 真的扛不住，我们是不是得换方案？", NONE),
    case("zh", "我同事说这个方向走不通，你怎么看？", NONE, suppressed="reported"),
    case("zh", "方案B挺好，就它了", NONE),
    case("zh", "人数改成十二个", NONE),
    case("zh", "「不行就换」是他的口头禅", NONE),
    case("zh", "嗯", NONE),
    case("zh", "先这样吧，别的以后再说", NONE),
    case("zh", "不是，我问的是部署的事", NONE),
    case("zh", "我不是说这条路走不通，就是得多花点时间", NONE),
    case("zh", "是不是别做小程序比较好", NONE),
    case("zh", "不用表格，直接给我一段话", NONE),
    case("zh", "我在纠结是考公还是去外企", NONE),
    case("zh", "超时改成最多 30 秒吧", NONE),
    case("zh", "先不上这个功能，等下个版本再说，不是砍掉哈", NONE),
    case("zh", "整个项目都不要用 jQuery", NONE),
    case("zh", "这个周末的长跑我真撑不住了", NONE),
    # -- a fourth round ------------------------------------------------------------------------------
    case("zh", "行吧，这家店不订了，太远", REJECT, reason="太远"),
    case("zh", "这个 idea 我看没什么戏，先放弃", REJECT),
    case("zh", "冷启动那套推荐逻辑删了吧，用户量太少根本跑不起来", REJECT, target="冷启动那套推荐逻辑"),
    case("zh", "别搞自建邮件服务器了，直接用 SendGrid 省心", PIVOT, replacement="SendGrid"),
    case("zh", "不考虑二手房了，我们看新房", PIVOT, target="二手房", replacement="新房"),
    case("zh", "回头想想，一开始那个按月订阅的模式其实最适合我们", REOPEN),
    case("zh", "被你劝退的那个 Rust 方案，我又想试试了", REOPEN, target="Rust 方案"),
    case("zh", "还是第一个吧", REOPEN, xfail="needs context: only the conversation says the first option was rejected"),
    case("zh", "我们先聊需求，技术选型的事待会儿再说", NONE),
    case("zh", "这个方案的风险点你再列一下", NONE),
    case("zh", "客户昨天说方案B太贵了，让我们再压一压价格", NONE, suppressed="reported"),
    case("zh", "缓存这块不行，把 Redis 换成本地 LRU", PIVOT, target="Redis", replacement="本地 LRU"),
    case("zh", "把这段代码改成异步的", NONE),
    case("zh", "把变量名改成驼峰", NONE),
    # -- a fifth round ---------------------------------------------------------------------------------
    case("zh", "这版文案的调性整个不对，推翻重写", PIVOT),
    case("zh", "我们别卷价格了，转去拼服务", PIVOT, replacement="拼服务"),
    case("zh", "Figma 插件这个方向我觉得没必要继续投入了", REJECT, target="Figma 插件"),
    case("zh", "去三亚的计划取消，机票太贵", REJECT, target="去三亚的计划", reason="太贵"),
    case("zh", "早上说不要的那个暗色主题，现在想想还是加上吧", REOPEN, target="暗色主题"),
    case("zh", "还是用回原来的 Webpack 吧，Vite 插件不全", REOPEN, target="Webpack"),
    case("zh", "Webpack 的配置文件在哪个目录？", NONE),
    case("zh", "你别误会，我没说要放弃 Webpack", NONE, suppressed="negation"),
    case("zh", "加了索引之后 P99 回到 90ms 了", NONE),
    case("zh", "我回头再想想怎么安排人手", NONE),
    # -- session 68: read from blind rounds twenty-six and twenty-seven --------------------------------
    case("zh", "本质上还是并行运行，护士的负担并没有减轻。这一条删除，应急回退请另想办法。", REJECT),
    case("zh", "此前已明确本年度不予纳入，此项请删除", REJECT),
    case("zh", "问题是有 hard delete，增量抓不到删除", NONE),
    case("zh", "公估这块我想就不请了。公估费最低也要几千元", REJECT, target="公估"),
    case("zh", "location 不是。onStop 里已经 removeLocationUpdates，log 确认过。别查这个", REJECT),
    case("zh", "套票那个我睇返 contract，佢哋 commission 要 25%，冇得傾。轉去做大灣區 staycation 啦", PIVOT, replacement="大湾区 staycation"),
    case("zh", "金蝶同用友实施商好鬼烂。呢两个都唔想要，有冇其他选择？", PIVOT),
    case("zh", "既如此，数字藏品一事便不必再议。", REJECT),
    case("zh", "直播一节，恕难从命。本馆讲解员多属编制内人员。此路不通。", REJECT),
    case("zh", "联名一事，细思之下，宜婉拒。彼品牌去年曾因食品安全问题涉讼。", REJECT),
    case("zh", "如此，则人手与费用两难俱解，前议之天猫旗舰店不妨重提。", REOPEN),
    case("zh", "在一年只开三家的情况下，我们不打算把名额给B点。", REJECT),
    case("zh", "A 不可能。我们 platform team 有 policy，所有 pod 必须有 CPU limit", REJECT, target="A"),
    case("zh", "风扇电流正常，转向没问题，混合阀上礼拜换的新的", NONE),
    case("zh", "科二8台，科三也是8台。哦不对，科三是6台，有两台上个月报废了。", NONE),
    case("zh", "precedent txns 先唔放入 deck 啦，sample 太少又 stale", REJECT),
    case("zh", "68？太高了吧哈哈，我这种体量国区同类一般三十多，改成38吧", NONE),
    # Round twenty-nine: official register.
    case("zh", "我局若再行推开，恐有不妥。此节拟予删除。", REJECT),
    case("zh", "同样涉及将涉税信息交由非税务人员经手，请一并删去。其余部分尚可。", REJECT),
    case("zh", "局领导表示可从本年度办公经费中调剂解决。请将此项重新纳入，置于保障措施部分。", REOPEN),
]
# fmt: on


# ---------------------------------------------------------------------------------------------
# English

# fmt: off
EN_CASES = [
    # -- REJECT ---------------------------------------------------------------------------------
    case("en", "drop the microservices idea", REJECT, target="microservices idea"),
    # Session 70: suspects cleared in the plural, time no longer spent on a line, "probably out".
    case("en", "Non-condensables aren't it. Lab pulled a vapour sample on Tuesday.", REJECT, target="Non-condensables"),
    case("en", "it's the same on the old build, so let's not waste any more time on the driver", REJECT, target="the driver"),
    case("en", "I think Google Forms is probably out, on reflection.", REJECT, target="Google Forms"),
    case("en", "I know we set Google Forms aside earlier, but could we revisit it for one narrow purpose – the exit survey?", REOPEN),
    # "it isn't going anywhere" keeps it.
    case("en", "Let us leave the rota to one side for the present – it isn't going anywhere, but it is a separate conversation.", NONE),
    # Session 69: "'em" keeps what it drops; nowhere to go.
    case("en", "The windmills can go. Forget trying to keep 'em, parts are hen's teeth.", REJECT),
    case("en", "Let's not go with Kafka, the ops burden is too much for a two-person team", REJECT, target="Kafka"),
    case("en", "Nah, Kubernetes is overkill for this", REJECT, target="Kubernetes"),
    # Terse: a name and a verdict, "pass on" after an interjection.
    case("en", "s-pedelec nope", REJECT, target="s-pedelec"),
    case("en", "meh. pass on hub", REJECT, target="hub"),
    case("en", "ok nope", NONE),
    case("en", "ok. pass on the savings to customers", NONE),
    case("en", "i don't want to babysit a react app to render markdown", REJECT, target="react app"),
    case("en", "This one we can leave for now, if later they have some small plan then we can see", REJECT),
    case("en", "It's not the network, stop running tcpdump", REJECT, target="network"),
    case("en", "legal will never sign off on that", REJECT),
    case("en", "I already print at 210, going higher makes it string like crazy so no", REJECT),
    case("en", "so no one uses the staging cluster anymore", NONE),
    case("en", "in person lessons around here are 60 bucks for 30 min. ill pass", REJECT),
    case("en", "thanks, ill pass it along to the team", NONE),
    case("en", "if the retake goes fine I will pass.", NONE),
    case("en", "no, don't patch around it in the manifest, fix the entrypoint default", PIVOT,
         target="patch around it in the manifest", replacement="fix the entrypoint default"),
    case("en", "don't forget the tests, add them to CI", NONE),
    case("en", "good. and don't touch the old background_task tables yet, we drop those after a week of clean runs", NONE),
    case("en", "took the hotend apart, there was a gap under the ptfe. cut it square, reseated it", NONE),
    case("en", "Let's hold off on the mobile app until we have paying users", REJECT,
         target="mobile app", revisit_if="we have paying users"),
    case("en", "No, don't book it", REJECT),
    case("en", "I looked at the numbers again and honestly the whole sharding plan is dead, we don't have the traffic for it",
         REJECT, target="sharding plan"),
    case("en", "Scrap the Redis cache, it's too expensive to run", REJECT, target="Redis cache", reason="too expensive"),
    case("en", "We're giving up on the rewrite.", REJECT, target="rewrite"),
    case("en", "Option 2 is off the table.", REJECT, target="Option 2"),
    case("en", "That's a dead end, we already tried it last year", REJECT),
    case("en", "I don't think the blockchain angle makes sense for us, let's drop it", REJECT),
    case("en", "Kyoto is out, too crowded in April", REJECT, target="Kyoto", reason="too crowded"),
    case("en", "Rule out the firewall, I disabled it and it still fails", REJECT, target="firewall"),
    case("en", "No, I don't want the cruise", REJECT, target="cruise"),
    case("en", "Honestly I'm not sold on GraphQL here, the caching story is weak", REJECT, target="GraphQL"),
    case("en", "We can't afford the enterprise tier", REJECT),
    case("en", "Not this quarter. Maybe once the migration is done.", REJECT, revisit_if="the migration is done"),
    case("en", "Let's shelve the plugin system unless a customer asks for it", REJECT,
         target="plugin system", revisit_if="a customer asks for it"),
    case("en", "Don't bother with the VPN theory, it happens on the office network too", REJECT, target="VPN theory"),
    case("en", "Skip the museum, the kids will be bored", REJECT, target="museum"),
    case("en", "that idea's a non-starter because of GDPR", REJECT, reason="GDPR"),
    case("en", "No to the open-plan layout.", REJECT, target="open-plan layout"),
    case("en", "Pass on the timeshare presentation.", REJECT, target="timeshare presentation"),
    case("en", "Hmm, I'd rather not do the microservices split at all", REJECT, target="microservices split"),
    case("en", "We decided against Terraform, too much ceremony for three servers", REJECT, target="Terraform"),
    case("en", "Yeah no, that vendor is a hard no from procurement", REJECT),
    case("en", "ugh, this whole approach is wrong", REJECT),
    case("en", "the GC tuning path isn't going anywhere, let's stop there", REJECT),
    case("en", "Forget the serverless thing, cold starts kill us", REJECT, target="serverless thing"),
    case("en", "I'm done with the Lisbon plan, flights are insane", REJECT, target="Lisbon plan"),
    case("en", "Nope, no more Vue experiments for now", REJECT),
    case("en", "Let's kill the referral program, it never converted", REJECT, target="referral program"),
    case("en", "Plan A is rejected.", REJECT, target="Plan A"),
    # -- PIVOT ----------------------------------------------------------------------------------
    case("en", "scrap plan A, go with B", PIVOT, target="plan A", replacement="B"),
    case("en", "actually, use Postgres instead", PIVOT, replacement="Postgres"),
    case("en", "no, show me other options", PIVOT),
    case("en", "Drop Redis and use an in-process LRU cache", PIVOT, target="Redis", replacement="in-process LRU cache"),
    case("en", "Instead of Kafka, let's just use SQS", PIVOT, target="Kafka", replacement="SQS"),
    case("en", "Forget Kyoto, let's do Osaka", PIVOT, target="Kyoto", replacement="Osaka"),
    case("en", "Let's switch to event sourcing, the CRUD model keeps fighting us", PIVOT, replacement="event sourcing"),
    case("en", "We're moving away from React Native and going fully native", PIVOT, target="React Native",
         replacement="fully native"),
    case("en", "none of these work for me, suggest something different", PIVOT),
    case("en", "Not Rome, let's do Florence and Bologna", PIVOT, target="Rome", replacement="Florence and Bologna"),
    case("en", "Change of plans: we're building a CLI instead of a web app", PIVOT, replacement="CLI"),
    case("en", "Let's pivot to B2B, consumers won't pay", PIVOT, replacement="B2B"),
    case("en", "I'd rather go with a managed database than run our own cluster", PIVOT, replacement="managed database"),
    case("en", "ditch the ORM, write raw SQL", PIVOT, target="ORM", replacement="raw SQL"),
    case("en", "OK that won't work. Let's try a bloom filter instead", PIVOT, replacement="bloom filter"),
    case("en", "Replace the cron job with a proper queue worker", PIVOT, target="cron job", replacement="queue worker"),
    case("en", "Let's go in a different direction entirely: a static site with a headless CMS", PIVOT),
    case("en", "Back to the drawing board.", PIVOT),
    case("en", "Nope. Use SQLite, we don't need a server", PIVOT, replacement="SQLite"),
    case("en", "I don't want to learn Java anymore, I'm switching to Python", PIVOT, replacement="Python"),
    case("en", "how about a static site instead", PIVOT, replacement="static site"),
    case("en", "Let's not build it in-house; we'll buy Auth0", PIVOT, replacement="Auth0"),
    case("en", "We need a different approach entirely", PIVOT),
    case("en", "Instead of the monolith split, let's focus on fixing the slow queries", PIVOT,
         target="monolith split", replacement="fixing the slow queries"),
    case("en", "Kill the referral program and put that budget into SEO", PIVOT, target="referral program",
         replacement="SEO"),
    case("en", "the REST thing is dead, we're going with gRPC", PIVOT, replacement="gRPC"),
    case("en", "these hotels are all too far out, find me something closer to the center", PIVOT),
    # -- REOPEN ---------------------------------------------------------------------------------
    case("en", "let's revisit the Redis idea", REOPEN, target="Redis idea"),
    case("en", "Actually, I take it back, option A might be fine after all", REOPEN),
    case("en", "Now that we have an SRE, maybe we should revisit Kubernetes", REOPEN, target="Kubernetes"),
    case("en", "The Kafka option we rejected earlier might actually be the right call", REOPEN, target="Kafka option"),
    case("en", "Let's go back to the original plan", REOPEN, target="original plan"),
    case("en", "Redis wasn't so bad after all", REOPEN, target="Redis"),
    case("en", "I was wrong about SQLite, it handles our load fine", REOPEN, target="SQLite"),
    case("en", "Give Lisbon another look, the flights got cheaper", REOPEN, target="Lisbon"),
    case("en", "on second thought, the cruise might be fine", REOPEN, target="cruise"),
    case("en", "The first venue is back on the table", REOPEN, target="first venue"),
    case("en", "scrap the new stack and switch back to Django", REOPEN, target="Django"),
    case("en", "Maybe we shouldn't have dropped GraphQL. Let's look at it again.", REOPEN, target="GraphQL"),
    case("en", "Let's un-park the search feature", REOPEN, target="search feature"),
    case("en", "what about going back to the Airbnb in Lisbon", REOPEN, target="Airbnb in Lisbon"),
    case("en", "Circle back to the event-driven design, it fits the new requirements better", REOPEN,
         target="event-driven design"),
    # -- NONE: corrections ----------------------------------------------------------------------
    case("en", "That's wrong, the port is 8080", NONE),
    case("en", "No, the deadline is Friday, not Thursday", NONE),
    case("en", "the number is off, it should be 42", NONE),
    case("en", "There's a bug: the loop should start at 1", NONE),
    case("en", "you got the name wrong, it's Postgres not Postgre", NONE),
    # -- NONE: standing constraints --------------------------------------------------------------
    case("en", "Don't use tabs for indentation", NONE),
    case("en", "Never use global variables in this codebase", NONE),
    case("en", "We can't use GPL libraries at work", NONE),
    case("en", "Avoid anything that needs root", NONE),
    # -- NONE: questions and hypotheticals -------------------------------------------------------
    case("en", "Should we drop Redis?", NONE, suppressed="question"),
    case("en", "Is it worth switching to Rust for this?", NONE, suppressed="question"),
    case("en", "Why would we scrap the cache?", NONE, suppressed="question"),
    # Why pay for it when something already there does the job: a rejection put as a question.
    case("en", "Why would we pay for an auction platform when we already have Givebutter for donations?", REJECT),
    case("en", "Do you think Kafka is overkill here?", NONE, suppressed="question"),
    case("en", "How bad would it be to drop the ORM?", NONE, suppressed="question"),
    case("en", "what if we dropped Redis?", NONE, suppressed="hypothetical"),
    case("en", "Suppose we ditch Kubernetes, how would deploys work", NONE, suppressed="hypothetical"),
    case("en", "If we switched to Go, would the team cope?", NONE),
    case("en", "Just thinking out loud: scrapping the app would free up two engineers", NONE, suppressed="hypothetical"),
    case("en", "Suppose the vendor folds, so what then?", NONE),
    # A conclusion after the supposition is the user's own decision; a cue before it stays supposed.
    case("en", "if the vendor goes under we are stuck with their format, so let's not go with them", REJECT),
    case("en", "what if we dropped Redis, so the cache lives in-process?", NONE, suppressed="hypothetical"),
    # -- NONE: negated and reported --------------------------------------------------------------
    case("en", "I'm not saying we should drop Redis, just asking", NONE, suppressed="negation"),
    case("en", "I never said we should abandon the plan", NONE, suppressed="negation"),
    case("en", "That doesn't mean we scrap the whole thing", NONE, suppressed="negation"),
    case("en", "I'm not suggesting we switch to Go", NONE, suppressed="negation"),
    case("en", "my manager wants to scrap it, but I disagree", NONE, suppressed="reported"),
    case("en", "The client keeps saying we should drop the dashboard; I think they're wrong", NONE, suppressed="reported"),
    case("en", "Someone on Reddit said Kubernetes is overkill for small teams", NONE, suppressed="reported"),
    # -- NONE: pauses ----------------------------------------------------------------------------
    case("en", "Let's table that for now and come back to it", NONE),
    case("en", "Let's not discuss pricing yet", NONE),
    case("en", "Hold that thought, I need to grab lunch", NONE),
    case("en", "Park that for a minute, not saying no, just not today's topic", NONE),
    # -- NONE: acknowledgements and acceptances --------------------------------------------------
    case("en", "ok", NONE),
    case("en", "continue", NONE),
    case("en", "sounds good, keep going", NONE),
    case("en", "got it, thanks", NONE),
    case("en", "ok, let's go with B", NONE),
    case("en", "Great, option 2 it is", NONE),
    case("en", "Sounds good, use Postgres then", NONE),
    # -- NONE: formatting instructions -----------------------------------------------------------
    case("en", "Don't use a table", NONE),
    case("en", "switch to bullet points", NONE),
    case("en", "Use markdown headers instead", NONE),
    case("en", "Make it shorter please", NONE),
    case("en", "Answer in English instead", NONE),
    # -- NONE: parameter changes -----------------------------------------------------------------
    case("en", "make it 7 pm", NONE),
    case("en", "instead of age, ask year of birth", NONE),
    case("en", "change the timeout to 30 seconds", NONE),
    case("en", "switch to four people", NONE),
    case("en", "Use 3 replicas instead of 5", NONE),
    case("en", "Let's do Tuesday instead of Monday", NONE),
    # -- NONE: cue words inside quotes, code, pasted logs ----------------------------------------
    case("en", 'The commit message says "drop the legacy API" and I want to know what it touched', NONE,
         suppressed="quote"),
    case("en", "Why does `git stash drop the changes` lose my work", NONE, suppressed="code"),
    case("en", "2024-05-01 12:00:01 ERROR plan scrapped: quota exceeded\nwhat does this mean", NONE, suppressed="log"),
    case("en", "> drop the users table\nthat line in the runbook scared me", NONE, suppressed="log"),
    # -- NONE: plain "no" ------------------------------------------------------------------------
    case("en", "no", NONE),
    case("en", "nope.", NONE),
    case("en", "nothing else, thanks", NONE),
    # -- more, written after the first round ------------------------------------------------------
    case("en", "yeah let's not bother with the CDN stuff, our users are all in one region", REJECT, target="CDN stuff"),
    case("en", "after thinking about it overnight I'm pretty sure the event bus is overengineering, so I'm dropping it",
         REJECT),
    case("en", "The plugin marketplace? Not worth it.", REJECT),
    case("en", "I'm going to pass on the Vegas trip", REJECT, target="Vegas trip"),
    case("en", "Kafka's a no from me.", REJECT, target="Kafka"),
    case("en", "that's not gonna fly with security", REJECT),
    case("en", "We tried the sidecar approach for two weeks and it's a mess, abandoning it", REJECT),
    case("en", "Nah, that neighborhood is way too sketchy", REJECT, reason="too sketchy"),
    case("en", "Drop the whole localization effort for v1.", REJECT, target="localization effort"),
    case("en", "I don't love the idea of running our own mail server", REJECT, target="running our own mail server"),
    case("en", "Hmm, that's too heavy. What about a plain cron job instead?", PIVOT, replacement="plain cron job"),
    case("en", "ok scratch that, let's do a simple Flask app", PIVOT, replacement="simple Flask app"),
    case("en", "Let's ditch Mongo for Postgres", PIVOT, target="Mongo", replacement="Postgres"),
    case("en", "I'm thinking we go with Svelte rather than keep fighting React", PIVOT, replacement="Svelte"),
    case("en", "We're not doing the native app. PWA it is.", PIVOT, replacement="PWA"),
    case("en", "Honestly, forget microservices, a modular monolith is plenty for us", PIVOT, target="microservices",
         replacement="modular monolith"),
    case("en", "ok I caved, let's use the Redis option after all", REOPEN, target="Redis option"),
    case("en", "Could we put the Lisbon option back on the list?", REOPEN, target="Lisbon option"),
    case("en", "I keep coming back to the Rust rewrite, maybe it wasn't crazy", REOPEN, target="Rust rewrite"),
    case("en", "Let's give the cruise idea a second chance", REOPEN, target="cruise idea"),
    case("en", "Turns out the first quote was the cheapest, let's reconsider that vendor", REOPEN),
    case("en", "Thanks, that's wrong though: Python 3.8 is EOL, not 3.9", NONE),
    case("en", "Don't ever suggest jQuery in this project", NONE),
    case("en", "drop the last paragraph", NONE),
    case("en", "Let's say we drop Redis, what breaks?", NONE, suppressed="hypothetical"),
    case("en", "If Kafka doesn't work out, we'll fall back to RabbitMQ", NONE),
    case("en", "My cofounder is convinced we should pivot to enterprise. I'm not sure.", NONE, suppressed="reported"),
    case("en", "The docs say 'this approach is deprecated, use the v2 API instead'", NONE, suppressed="quote"),
    # The verb is quoted, though its object runs past the closing mark.
    case("en", "fixed. the CI log had 'drop stale cart' right before each failure, that was the cleanup helper",
         NONE, suppressed="quote"),
    case("en", "nope, that's all for today", NONE),
    case("en", "not now, I'm in a meeting", NONE),
    case("en", "Stop. Let me think.", NONE),
    case("en", "Use tabs instead of spaces", NONE),
    # -- a third round, written before looking at what the lexicon covers -------------------------
    case("en", "Yeah, the whole blockchain angle is a hard pass for me", REJECT),
    case("en", "Scratch Denver off the list, flights are a nightmare", REJECT, target="Denver"),
    case("en", "I've gone off the idea of a standing desk", REJECT, target="standing desk"),
    case("en", "We're shelving the mobile app until we hit 10k users", REJECT, target="mobile app",
         revisit_if="we hit 10k users"),
    case("en", "That plan is toast.", REJECT),
    case("en", "Let's just not do the team offsite this year", REJECT, target="team offsite"),
    case("en", "Let's swap the hotel for an Airbnb near the beach", PIVOT, target="hotel", replacement="Airbnb near the beach"),
    case("en", "Okay, new plan: we launch on Product Hunt first and skip the waitlist", PIVOT),
    case("en", "The Java rewrite is off the table, we're doing it in Go", PIVOT, replacement="Go"),
    case("en", "forget the gym membership, I'll just run outside", PIVOT, target="gym membership", replacement="run outside"),
    case("en", "rather than another microservice, let's add a module to the monolith", PIVOT,
         replacement="a module to the monolith"),
    case("en", "You know what, the Kafka idea deserves another look", REOPEN, target="Kafka idea"),
    case("en", "Let's put Lisbon back in the running", REOPEN, target="Lisbon"),
    case("en", "I dismissed Tailwind too quickly, let's try it again", REOPEN, target="Tailwind"),
    case("en", "go back to what you suggested first", REOPEN),
    case("en", "Wait, that's not right, the API returns 404 not 500", NONE),
    case("en", "Always use UTC timestamps", NONE),
    case("en", "Would dropping the cache actually speed things up?", NONE, suppressed="question"),
    case("en", "ok cool, moving on to the budget section", NONE),
    case("en", "Change 'cancel' to 'abort' in the button label", NONE),
    case("en", "no, I meant the other file", NONE),
    case("en", "Let's not rush the decision on Kafka", NONE),
    case("en", "Put it in a code block please", NONE),
    case("en", "Signups dropped to 200 a week after the redesign", NONE),
    case("en", "Tacos or something else for the party?", NONE),
    case("en", "Everyone online says to use Bun, should I reconsider?", NONE),
    # -- a fourth round ------------------------------------------------------------------------------
    case("en", "Honestly the podcast idea is dead in the water, nobody on the team has time", REJECT, target="podcast idea"),
    case("en", "we're not renewing the Datadog contract", REJECT, target="Datadog contract"),
    case("en", "Swap out the carousel for a static hero image", PIVOT, target="carousel", replacement="static hero image"),
    case("en", "Let's go with the boring option instead: a plain Postgres queue table", PIVOT),
    case("en", "after all that, I think the very first layout you showed me was the best", REOPEN),
    case("en", "Fine, un-reject the Lisbon option", REOPEN),
    case("en", "No.", REJECT, xfail="needs context: a bare no declines an offered option only when one was offered"),
    case("en", "Can you explain why the event bus was rejected?", NONE),
    case("en", "The word 'abandon' is misspelled in the README", NONE),
    case("en", "He scrapped the whole thing last year and regretted it", NONE),
    # a third-person "stop" describes what others do; the imperative is the verdict
    case("en", "with that many flakes people stop looking at failures, that is the real cost", NONE),
    # A step of the plan moved to another day: a parameter, not a new direction.
    case("en", "cool. can we move the long run to sunday instead of saturday? saturdays are swimming lessons now", NONE),
    case("en", "we killed it at the demo yesterday!", NONE),
    case("en", "Let's move on to the next question", NONE),
    # -- a fifth round ---------------------------------------------------------------------------------
    case("en", "We're pulling the plug on the beta program", REJECT, target="beta program"),
    case("en", "Let's not go down the GraphQL road", REJECT, target="GraphQL road"),
    case("en", "I'm leaning away from the condo, the HOA fees are brutal", REJECT, target="condo"),
    case("en", "Skip the bundler, just ship ES modules", PIVOT, target="bundler", replacement="ES modules"),
    case("en", "OK, we're switching from Jira to Linear", PIVOT, target="Jira", replacement="Linear"),
    case("en", "Let's take another look at the Kafka route", REOPEN, target="Kafka route"),
    case("en", "Can we revive the old onboarding flow?", REOPEN, target="old onboarding flow"),
    case("en", "Jira tickets need a component field", NONE),
    case("en", "Switch the chart colors to something colorblind-safe", NONE),
    case("en", "Parking the search rewrite, we'll revisit it once the new index ships", REJECT,
         revisit_if="the new index ships"),
    case("en", "Restore the backup from Friday", NONE),
    # -- decisions taken by someone whose say decides (session 30) --------------------------------------
    case("en", "security team vetoed circleci", REJECT, target="circleci"),
    case("en", "the CTO said no to github actions, no third-party runners near prod", REJECT, target="github actions"),
    case("en", "my boss shot down jenkins", REJECT, target="jenkins"),
    # An option named, then a bare no: how second-language and terse writers give a verdict.
    case("en", "So the Corolla no, sorry. Three child seats will not fit in the back", REJECT, target="the Corolla"),
    case("en", "I did the DNA kit once and learned nothing. I don't think I'll bother with another", REJECT),
    case("en", "Oh, I'd better not drive, my night vision isn't what it was", REJECT),
    case("en", "my boss wants to kill jenkins but I disagree", NONE),
    case("en", "security vetoed circleci but I think they're wrong, I'll push back", NONE),
    case("en", "zoom still drops on the 3rd floor, 12mbps up there", NONE),
    case("en", "we just finished migrating to Snowflake last year", NONE),
    # Session 49: "that's X dead".
    case("en", "Right, that's the grant dead then. Back to the bake sale", REJECT, target="grant"),
    case("en", "that is not for me to decide, ask the board", NONE),
    case("en", "that's my laptop dead again, give me ten minutes", NONE),
    # Session 68: the formal passive, "not a viable pathway", and a suspect cleared as "X isn't it".
    case("en", "The capital outlay would exceed any amount the Board has authorized. Option 3 is therefore removed from further consideration.", REJECT, target="Option 3"),
    case("en", "I must inform you that the cooperative agreement with Millbrook USD is not a viable pathway; their board voted against it.", REJECT),
    case("en", "~512MB each, compacted nightly. Listing 11s. Small files isn't it. Next.", REJECT, target="Small files"),
    case("en", "3.4 dispersion is bad isn't it", NONE),
    case("en", "I basically quote every wedding from scratch and undercharge constantly", NONE),
    case("en", "the schema is a mess, ok we rewrite it from scratch", PIVOT),
]
# fmt: on


# ---------------------------------------------------------------------------------------------
# Mixed Chinese / English

# fmt: off
MIXED_CASES = [
    # Written Cantonese reads as Mandarin (cantonese.py): "唔得" is "不行", "唔好" is "不要", "唔係唔要"
    # keeps the option.
    case("mixed", "native app 呢個 approach 唔得, 啲熟客唔識 download", REJECT),
    case("mixed", "POS 嗰條路都係唔好行住, 轉做 WhatsApp 啦", PIVOT, replacement="WhatsApp"),
    case("mixed", "算數啦 唔好再搞 firmware 嗰樣嘢", REJECT),
    # "唔好住" is "not yet" (住 an aspect particle), "返轉頭" is "回过头".
    case("mixed", "租 studio 暫時唔好住啦，等第一批 course 有返啲收入先算。", REJECT, target="租 studio"),
    case("mixed", "佢話 churn 冇咁勁。不如返轉頭再睇下月費 subscription 啦", REOPEN),
    # -- REJECT ---------------------------------------------------------------------------------
    case("mixed", "Redis 这个方案不行，ops cost 太高", REJECT, target="Redis"),
    case("mixed", "microservices 这条路别走了", REJECT, target="microservices"),
    case("mixed", "不是 DNS 的问题, stop checking resolv.conf", REJECT, target="DNS"),
    case("mixed", "这个 feature 先不做，等 Q3 budget 下来再说", REJECT, revisit_if="等 Q3 budget 下来"),
    case("mixed", "Kubernetes 对我们来说太重了，drop it", REJECT, target="Kubernetes"),
    case("mixed", "GraphQL 就算了", REJECT, target="GraphQL"),
    case("mixed", "那个 serverless 的 idea 作废", REJECT, target="serverless"),
    case("mixed", "I think 这个方向是错的", REJECT),
    case("mixed", "算了吧，the rewrite isn't worth it", REJECT),
    case("mixed", "放弃 Terraform 吧，too much overhead", REJECT, target="Terraform"),
    case("mixed", "这个 PR 的思路不对，别 merge 了", REJECT),
    case("mixed", "MongoDB pass，schema 太乱", REJECT, target="MongoDB"),
    case("mixed", "No，不用了，谢谢", REJECT),
    case("mixed", "legal 那边 never 会 approve 的，这个 plan 放弃吧", REJECT),
    # -- PIVOT ----------------------------------------------------------------------------------
    case("mixed", "不用 Redis 了，改用 in-memory LRU", PIVOT, target="Redis", replacement="in-memory LRU"),
    case("mixed", "scrap plan A, 换成方案B", PIVOT, replacement="方案B"),
    case("mixed", "这个 approach 不对，switch to event sourcing", PIVOT, replacement="event sourcing"),
    case("mixed", "Kafka 不行，运维扛不住，换 RabbitMQ", PIVOT, replacement="RabbitMQ", reason="运维扛不住"),
    case("mixed", "与其 self-host GitLab，不如直接用 GitHub", PIVOT, target="self-host GitLab", replacement="GitHub"),
    case("mixed", "forget 京都, let's do 大阪", PIVOT, target="京都", replacement="大阪"),
    case("mixed", "换个思路: use a bloom filter", PIVOT),
    case("mixed", "这几个 option 都不想要，give me something different", PIVOT),
    case("mixed", "别用 polling 了, 上 WebSocket", PIVOT, target="polling", replacement="WebSocket"),
    case("mixed", "actually 还是用 Postgres 吧", PIVOT, replacement="Postgres"),
    case("mixed", "放弃 React Native，改成 Flutter", PIVOT, target="React Native", replacement="Flutter"),
    case("mixed", "Let's pivot 到 B2B 市场", PIVOT),
    # -- REOPEN ---------------------------------------------------------------------------------
    case("mixed", "let's revisit 之前那个 Redis 方案", REOPEN, target="Redis 方案"),
    case("mixed", "回到 plan A 吧", REOPEN, target="plan A"),
    case("mixed", "Redis 其实也不是不行, 我们 reconsider 一下", REOPEN, target="Redis"),
    case("mixed", "我收回刚才的话, option B might be fine after all", REOPEN),
    case("mixed", "用回 Nginx 吧，Caddy 的配置太玄学了", REOPEN, target="Nginx"),
    case("mixed", "now that 预算批了, let's reconsider Redis", REOPEN, target="Redis"),
    case("mixed", "give 方案A another shot", REOPEN, target="方案A"),
    # -- NONE -----------------------------------------------------------------------------------
    case("mixed", "这个 port 不对，应该是 8080", NONE),
    case("mixed", "不要用 tab，用 4 spaces", NONE),
    case("mixed", "要不要 drop 掉 Redis？", NONE, suppressed="question"),
    case("mixed", "what if 我们不用 K8s 了?", NONE),
    case("mixed", "我不是说 Redis 不行, just curious about alternatives", NONE, suppressed="negation"),
    case("mixed", "my manager 说这个方案不行，but I disagree", NONE, suppressed="reported"),
    case("mixed", "我先生说 Penn ED 不行 因为 binding 了没法比较 aid package, 但我其实 don't really agree", NONE),
    case("mixed", "原来 Princeton 不是 ED, 是我搞错了 sorry", NONE),
    case("en", "my dad say machine minced pork no taste, but he didn't say no to the mincer", NONE),
    case("zh", "我哥的原话是“第四条想都别想，爸知道了会气出病来”。我倒没他那么绝对。", NONE),
    case("en", "Linda says forget towing a car at all, we'll just take Ubers. I love her but she's nuts, there's no Uber at Old Faithful.", NONE),
    case("en", "Linda couldn't turn around in the bathroom, so by her rule she says cross it off. I'm not quite there yet.", NONE),
    # Session 60: a no said courteously, and what was said no to recalled to bring it back.
    case("en", "I'd prefer we didn't use Kafka.", REJECT, target="Kafka"),
    case("en", "I would rather we left Kafka aside.", REJECT, target="Kafka"),
    case("en", "Remember Kafka that we ruled out? I want to bring it back", REOPEN, target="Kafka"),
    case("mixed", "之前说的 SB 视频 现在可以搞起来了吧", REOPEN, target="SB 视频"),
    case("mixed", "先不讨论 deployment，focus on the API first", NONE),
    case("mixed", "ok, 继续", NONE),
    case("mixed", "别用 table, 用 bullet points", NONE),
    case("mixed", "好, 就按 option B 来", NONE),
    case("mixed", "把 timeout 改成 30s", NONE),
    case("mixed", "改成 3 个 workers", NONE),
    case("mixed", "README 里写着 “方案A已作废”，这是过时的吗", NONE, suppressed="quote"),
    case("mixed", "日志里写着 'plan rejected'", NONE, suppressed="quote"),
    case("mixed", "no, 没有别的问题了", NONE),
    case("mixed", "sounds good, 就这么办", NONE),
    case("mixed", "这个 function 的返回值写错了, should be a list", NONE),
    case("mixed", "同事 suggested 换成 TiDB, 我还没决定", NONE, suppressed="reported"),
    # -- more, written after the first round ------------------------------------------------------
    case("mixed", "这个 refactor 先 hold 住，等 release 之后再说", REJECT, revisit_if="等 release 之后"),
    case("mixed", "Mongo 不适合我们的场景，let's stick with Postgres", REJECT, target="Mongo"),
    case("mixed", "scrap 掉这个 feature flag 方案，直接 hardcode", PIVOT, replacement="hardcode"),
    case("mixed", "先别上 K8s 了，docker compose 够用", PIVOT, replacement="docker compose"),
    case("mixed", "I think 方案A is a dead end，换 B 吧", PIVOT, replacement="B"),
    case("mixed", "let's go back to 最开始那个 monolith 方案", REOPEN, target="monolith 方案"),
    case("mixed", "what about 回到 Redis？", REOPEN, target="Redis"),
    case("mixed", "我们 team 之前 drop 掉的 GraphQL，其实 could work", REOPEN, target="GraphQL"),
    case("mixed", "不是说 Kafka 不好, 我只是 worried about ops", NONE, suppressed="negation"),
    case("mixed", "老板 wants to 换成 Go, 我觉得没必要", NONE, suppressed="reported"),
    case("mixed", "table 换成 list 吧", NONE),
    case("mixed", "OK 就这样, ship it", NONE),
    case("mixed", "把 retry 次数改成 5", NONE),
    case("mixed", "please don't 用 emoji", NONE),
    # -- a third round, written before looking at what the lexicon covers -------------------------
    case("mixed", "这个 design 太复杂了，我们 drop 掉吧", REJECT),
    case("mixed", "Kafka 这条路 definitely 不走了", REJECT, target="Kafka"),
    case("mixed", "forget Notion 吧，直接用 Obsidian", PIVOT, replacement="Obsidian"),
    case("mixed", "switch back 到 Postgres 吧，Mongo 的 schema 太乱", REOPEN, target="Postgres"),
    case("mixed", "先 pause 一下 hiring plan，等 Q2 revenue 出来再说", REJECT, revisit_if="等 Q2 revenue 出来"),
    case("mixed", "如果 budget 不够，那就 skip Kyoto?", NONE),
    case("mixed", "好的 let's go with 方案B", NONE),
    case("mixed", "把 font size 改成 14px", NONE),
    case("mixed", "这段 log 里有 `fallback rejected`，啥意思", NONE),
    # -- a fourth round ------------------------------------------------------------------------------
    case("mixed", "这个 onboarding flow 我看 overkill 了，先砍掉", REJECT),
    case("mixed", "别折腾 Kubernetes 了, just use Fly.io", PIVOT, replacement="Fly.io"),
    case("mixed", "我 take back 之前说 Vue 不行的话", REOPEN),
    case("mixed", "先 focus 在 checkout 上，search 的事 later", NONE),
    # -- a fifth round ---------------------------------------------------------------------------------
    case("mixed", "这个 sprint 不做 SSO 了, focus on billing", PIVOT, replacement="billing"),
    case("mixed", "Redis cluster 先 shelve，等 traffic 翻倍再说", REJECT, revisit_if="等 traffic 翻倍"),
    case("mixed", "回头 revisit 一下 Kafka 那个 option", REOPEN, target="Kafka"),
    case("mixed", "如果 Redis 真的 down 了怎么办？", NONE),
]
# fmt: on


ALL_CASES = ZH_CASES + EN_CASES + MIXED_CASES


def _ids(cases: list) -> list[str]:
    counters: dict[str, int] = {}
    ids = []
    for param in cases:
        lang, _text, label, _spans, _suppressed = param.values
        counters[lang] = counters.get(lang, 0) + 1
        ids.append(f"{lang}-{counters[lang]:03d}-{label.value}")
    return ids


@pytest.mark.parametrize(("lang", "text", "label", "spans", "suppressed"), ALL_CASES, ids=_ids(ALL_CASES))
def test_cue_table(
    detector: Detector, lang: str, text: str, label: Label, spans: dict, suppressed: str | None
) -> None:
    _check(detector.detect(text), text, label, spans, suppressed)


def test_table_size_and_coverage() -> None:
    def count(cases: list, label: Label | None = None) -> int:
        return sum(1 for p in cases if label is None or p.values[2] is label)

    assert count(ZH_CASES) >= 80 and count(EN_CASES) >= 80 and count(MIXED_CASES) >= 40
    assert len(ALL_CASES) >= 240
    for cases in (ZH_CASES, EN_CASES, MIXED_CASES):
        for label in Label:
            assert count(cases, label) > 0, label
    xfails = sum(1 for p in ALL_CASES if p.marks)
    assert xfails <= len(ALL_CASES) // 10


# ---------------------------------------------------------------------------------------------
# The examples the issue names, and suppression reasons, spelled out.


def test_issue_example_pivot_to_plan_b(detector: Detector) -> None:
    detection = detector.detect("这个方向不对，我们换成方案B吧")
    assert detection.label is PIVOT
    assert same_thing(detection.replacement, "方案B")


def test_issue_example_negated_redis(detector: Detector) -> None:
    detection = detector.detect("I'm not saying we should drop Redis, just asking")
    assert detection.label is NONE
    assert detection.explanation.suppressed, "the drop cue should be recorded as suppressed"
    assert {s.reason for s in detection.explanation.suppressed} == {"negation"}
    assert any("drop" in s.hit.span.lower() for s in detection.explanation.suppressed)


def test_issue_example_fact_correction(detector: Detector) -> None:
    detection = detector.detect("这个数字不对，应该是42")
    assert detection.label is NONE
    assert not detection.explanation.fired


# fmt: off
SUPPRESSION_CASES = [
    ("I'm not saying we should drop Redis, just asking", "negation"),
    ("要不要放弃A？", "question"),
    ("my manager wants to scrap it, but I disagree", "reported"),
    ("日志里写着 'plan rejected'", "quote"),
    ("我不是说这个方向不对，只是想再确认一下", "negation"),
    ("what if we dropped Redis?", "hypothetical"),
    ("如果放弃Redis，缓存层会怎样？", "hypothetical"),
    ("Should we scrap the Redis cache?", "question"),
    ("老板觉得微服务就不考虑了，我不这么看", "reported"),
    ("```\n# drop the legacy table\n```\n这段代码安全吗", "code"),
    ("他原话是「Kafka 不行，换成 RabbitMQ」", "quote"),
    ("[ERROR] option rejected by policy engine\n这是什么意思", "log"),
    # What cannot be ruled out, with how surely in between; a drop the user does not want (session 71).
    ("电源纹波我觉得不太像，但也没法 100% 排除", "negation"),
    ("Keep the newsletter going alongside it, I don't want to drop it now that people read it", "negation"),
]
# fmt: on


@pytest.mark.parametrize(("text", "reason"), SUPPRESSION_CASES)
def test_suppressed_cue_records_reason(detector: Detector, text: str, reason: str) -> None:
    detection = detector.detect(text)
    vetoed = [(s.hit.cue_id, s.reason, s.evidence) for s in detection.explanation.suppressed]
    assert detection.label is NONE, f"{text!r}: {detection.label.value}, fired={detection.explanation.fired}"
    assert not detection.explanation.fired
    assert detection.explanation.suppressed, f"{text!r}: no cue matched at all"
    assert {s.reason for s in detection.explanation.suppressed} == {reason}, vetoed


def test_what_someone_told_the_user_is_reported(detector: Detector) -> None:
    """A party named or not, when it told the user ("跟我说"): its verdict is reported; an order to
    the user not to ("让我别考虑") is no verdict of the user's either."""
    told = detector.engine.match("Kevin 又跑来跟我说 金蝶那套就别折腾了")
    assert not told.fired
    assert {s.reason for s in told.suppressed} == {"reported"}
    assert not detector.engine.match("金蝶在我们集团没人会用 让我别考虑").fired
    assert detector.engine.match("让我看看别的解决思路").fired


def test_adopted_reported_view_counts(detector: Detector) -> None:
    # The user takes the reported view as their own: the cue stands.
    assert detector.detect("老板说这个方案不行，有道理，那就不做了").label is REJECT
    assert (
        detector.detect("my manager wants to scrap the dashboard and I agree, let's drop it").label is REJECT
    )


def test_a_view_adopted_before_the_verdict_lets_the_cue_stand(detector: Detector) -> None:
    """"朋友说…好卖 我也觉得是 抖音先不弄了": the user agrees in a clause of their own, then decides; an
    adoption word right after the report is still the reported words ("老板说那就不做了")."""
    adopted = detector.engine.match("我朋友说手工皂在小红书比抖音好卖 我也觉得是 抖音先不弄了 转小红书")
    assert {hit.cue_id for hit in adopted.fired} >= {"zh.reject.topic_not_verb"}
    reported = detector.engine.match("老板说那就不做了")
    assert not reported.fired and {s.reason for s in reported.suppressed} == {"reported"}


# ---------------------------------------------------------------------------------------------
# Edge inputs


@pytest.mark.parametrize("text", ["", " ", "\n\t  \n", "\u3000\u3000", "\u200b"])
def test_empty_or_blank_text_is_none(detector: Detector, text: str) -> None:
    detection = detector.detect(text)
    assert detection.label is NONE
    assert not detection.explanation.fired


def test_one_megabyte_turn_finishes(detector: Detector) -> None:
    # A 1 MB turn is a paste: a sentence of the user's, a long log, a closing sentence.
    log = "".join(
        f"2026-01-0{i % 9 + 1} 12:00:{i % 60:02d} INFO worker-{i % 7} job {i} done in {i % 97} ms\n"
        for i in range(20_000)
    )
    text = "这个方向不对，我们换成方案B吧。日志如下：\n" + log
    text = (text * (1_048_576 // len(text) + 1))[: 1_048_576 - 40] + "\nanyway, drop the Redis idea."
    assert len(text) >= 1_000_000
    detection = detector.detect(text)
    assert detection.label in set(Label)
