"""The words around a mention that say how it is framed: ruled out, history, compared, proposed.

Small, explicit, bilingual lexicons, read by `stance` (is a mention framed?), `rebuttal` (is the
rejection's reason argued away?) and `verdict` (is something put forward?). Stdlib `re` with
literal alternations and bounded windows only, so no repeat nests inside another and every match is
linear in the sentence.
"""

from __future__ import annotations

import re

from detector.relapse.vocabulary import HAN

_ZH_BOUNDARY = "但是|但|不过|可是|然而|只是|话说回来"
# "X, but Y": what follows a contrast decides.
CONTRAST_RE = re.compile(rf"(?:{_ZH_BOUNDARY}|\bbut\b|\bhowever\b|\bthat said\b|\bthough\b|\byet\b)", re.IGNORECASE)
# "对，那国债也不太合适" / "Good catch — shared mailboxes break magic links": the reply agrees with
# the rejection; what follows in that sentence explains it ("对于", "对了" are not agreement).
AGREEMENT_RE = re.compile(
    r"^\W{0,3}(?:(?:对的?|是的|没错|同意|确实|有道理|合理|理解|明白了?)(?=[,，。!！;；\s—])|"
    # The user told they are right, by title or not: "沈老师说得极是，", "您说得对。", "You're right, …".
    r"(?:[\w·]{0,6}?(?:说|讲)得(?:极是|是|对|很对|在理|有道理)|所言极是)(?=[,，。!！;；\s—])|"
    r"(?:you'?re|you are) (?:(?:absolutely|quite|totally|completely) )?(?:right|correct)(?=\s?[,.!;:—–-])|"
    r"(?:right|agreed|true|good (?:catch|point|call)|fair(?: point| enough)?|makes sense|exactly|yes|yeah|"
    r"yep|"
    r"indeed|understood)(?=\s?[,.!;:—–-]))",
    re.IGNORECASE,
)
CLAUSE_RE = re.compile(r"[,;:，；：、()（）—]")
# A sentence that introduces a list of options: "墙面有几个方向：", "Three options:", "You could:".
OFFERS_RE = re.compile(
    r"(?:(?:几|两|三|四|五)(?:个|种|条)|以下|下面这些?)(?:方向|方案|选择|选项|思路|办法|做法|路子|选法)[^。!?！？\n]{0,12}[:：]\s*$"
    r"|\b(?:options|alternatives|approaches|choices|directions|paths)\b[^.!?\n]{0,20}:\s*$|\byou could\b[^.!?\n]{0,20}:\s*$",
    re.IGNORECASE,
)
# Marks that open a name: a code span or a quote stands between a verb and the name it governs
# ("Deleted `migrations/0188…`", "added `redis` to …").
OPENING_MARKS = "`'\"“‘「"
# A list item's mark: "- ", "2. ", "b) ", "C. ", "三、", "②".
LIST_ITEM_RE = re.compile(r"^\s{0,4}(?:[-*+•]\s|\d{1,2}[.)、]\s?|[a-zA-Z][.)]\s|[一二三四五六七八九十][、.]|[①-⑨])")
# A slot of a schedule the reply lays out: "Sun: 25-min italki chat", "Day 3 – …", "周六：…",
# "19:00 …". What opens the slot is put in the plan, as an option opens an item of a list of options.
SLOT_RE = re.compile(
    r"^\s{0,4}(?:[-*+•]\s)?\**(?:(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)(?:day|nesday|urday)?s?|day \d{1,2}|week \d{1,2}|"
    r"\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2}|(?:周|星期|礼拜)[一二三四五六日天]|第[一二三四五六七八九十\d]{1,2}(?:天|周)|"
    r"上午|下午|晚上|早上|中午)\**\s?[:：–—-]\s?",
    re.IGNORECASE,
)
# What may stand in a slot before what it holds: an amount, a length, an article ("25-min").
SLOT_LEAD_RE = re.compile(
    r"(?:a |an |the |one |two )?[\d\s一二三四五六七八九十半-]{0,8}(?:min|mins|minute|minutes|hour|hours|hr|hrs|h|小时|分钟)?[\s-]?"
    r"(?:quick |short |long )?的?",
    re.IGNORECASE,
)
INNER_NEGATION_RE = re.compile(r"不|没|别|\b(?:no|not|without)\b", re.IGNORECASE)
# What the user did to an option ("the GEE route you dropped", "you had already excluded an
# appendix"): read in `RULED_OUT_RE`, right after a mention (`FRAMED_AFTER_RE`) and to hold its frame
# (`SAID_DROPPED_RE`).
_USER_DROPPED = "dropped|rejected|ruled out|turned down|vetoed|scrapped|passed on|excluded"
# Explicit: the option is ruled out, historical, or the user's own rejection is being reported.
RULED_OUT_RE = re.compile(
    # A decision log's entry, the verdict after the name: "- **Keycloak (self-hosted):** too much ops
    # burden for a 3-dev team" (here, not inside the English words' group below, whose \b cannot
    # stand before a list's dash).
    r"^\s{0,3}[-*]\s\**[\w ()/.'-]{1,40}?[:：]\**\s{0,2}(?:too (?:much|many|expensive|slow|heavy|risky|complex|costly)|not worth|overkill|ruled out|rejected|dropped)\b|"
    # The agent reporting an undoing, the verb first: "Reverted the gateway bits: dropped grpc-gateway
    # from go.mod, removed … its http annotation", "Switched off Celery beat; it's a CronJob now".
    r"^\s{0,3}(?:[-*]\s)?(?:reverted|removed|dropped|deleted|undid|rolled back|backed out|took out|ripped out|stripped out|switched off|turned off|disabled)\b|"
    # What would have had to be done with it ("…run on Auth0's infrastructure, so you'd have had to
    # …"; outside the group too: the "you" may be blanked as another option's name).
    r"(?:would|'d) have had to|would'?ve had to|"
    r"已(?:经)?(?:被)?(?:否决|排除|放弃|否掉|否了|否|弃用|淘汰|砍掉|去掉|pass)|被否|否决|否了|否掉|排除|放弃|不再(?:考虑|用|推荐|提|展开)|"
    # A summary's list of what was weighed and left: "不采用：multiprocessing（…）、per-chunk dedupe".
    r"(?:不|未|没有?)(?:采用|采纳)|"
    # The reply withdrawing its own suggestion or slip: "收回上一条里 raw vault 的建议", "误把…列进了杭州",
    # "I take back the …"; left out of the plan ("就不放进方案了"), or decided against ("已经决定不用").
    r"(?:收回|撤回)[^,，。;；]{0,16}?(?:建议|提议|推荐|说法)|误把|错把|误列|列错|决定不(?:用|要|做|上|办|考虑|请)|不(?:再)?(?:放进|放入|列入|纳入|加进|写进)|"
    r"\b(?:I take back|I'?m taking back|I retract|I shouldn'?t have (?:suggested|added|slipped|put))\b|"
    # Earlier work in a field, cited as the contrast: "以往研究（包括横断面问卷调查）只能看到相关".
    r"以往(?:的)?(?:研究|文献|做法)|已有(?:的)?研究|前人(?:的)?研究|\b(?:prior|previous|existing) (?:work|studies|research|literature)\b|"
    rf"(?<={HAN})再说(?=[,，。!！]|$)|就算了|划掉|搁置|就此放下|放一放|先放着|(?:先|暂时)?放(?:在|到)?一边|迁出|迁离|你(?:刚才)?问(?:的|到|过)?|关于你(?:问|提)的|回答你|先不(?:做|"
    rf"用|上|考虑)|不在(?:考虑|计划|预算)?(?:范围|之列|计划)|不(?:包)?含|不包括|没选|当初没|当时没|的原因|被(?:取代|替换|替代)|暂时不|不考虑|不予考虑|去掉了|回顾|之前(?:说过|定了|讨论|否|排除|放弃|在)|讨论(?:过|了)|花了(?:不少|很多|好些)?时间|"
    rf"你(?:之前|前面|刚才|上次)?说(?:过|了)?(?:不|别)|你(?:之前|前面|刚才|上次)?说过|没(?:排|安排|放|加|列|算|写)(?:进|上|入)|"
    r"按你的意思|如你所说|你不(?:想|太|喜欢|要|放心|愿意)|(?<!如果)(?<!要是)(?<!假如)(?<!万一)(?<!若是)你担心|既然你(?:想|要|提|问)|你(?:想|要)重新|你刚(?:才)?(?:问|提)|"
    r"\b(?:ruled out|rejected|(?:we|I|I've|we've|have|has|was|were|been|got) dropped|dropped (?:it|that|"
    r"this|them)|(?:let'?s|so we'?ll|so I'?ll) (?:drop|skip|scrap|ditch|shelve|park|forget|rule out) (?:it|that|this|them)(?! (?:if|unless|when|once|until)\b)|"
    # The agent taking back its own suggestion or slip: "ignore my gateway idea above", "that was
    # effectively the Keycloak route under another name", "我不该再塞回来".
    r"\b(?:ignore|disregard|forget|scratch) my [\w/. -]{0,60}?\b(?:idea|suggestion|proposal|note|point)s?\b|"
    r"\b(?:under|by) another name\b|换了个(?:名字|说法|叫法)|我不该(?:再)?(?:塞|加|放|提|推荐|写)|"
    # Owning the slip: "那就是保加利亚分腿蹲的变体，是我的错", "that's the rooflight idea again, my mistake".
    r"是我的错|是我疏忽|我搞混了|\bmy (?:mistake|bad|error)\b|"

    # Given a year off: "we're resting the gala this year", "sitting it out", "taking a season off".
    r"resting (?:the|it|this|that)|sitt?(?:ing)? (?:it|this|that|them) out|tak(?:e|ing) a (?:year|season|break) off|"
    r"crossed (?:off|out)|decided against|set aside|no longer|off the table|off the list|is out|are out|"
    r"are both out|is ruled|passed on|said no|as you (?:said|asked|decided|wanted)|as agreed|we agreed|"
    r"we decided|"
    r"you mentioned (?:not|that you don't|you didn't)|you (?:said|decided|didn't want|don't want|disliked|"
    r"rejected|vetoed|ruled|asked|"
    rf"weren't comfortable)|you(?:'d| had| have|'ve)?(?: already)? (?:{_USER_DROPPED})|"
    # A change log's "Not done on purpose: reruns (…)".
    r"(?:not done|left out|skipped) (?:on purpose|deliberately|intentionally)|(?:deliberately|intentionally) (?:not done|left out|skipped)|"
    # "Considered and not pursued: livestreaming (…), a mall pop-up (…)".
    r"not pursued|not adopted|not taken forward|considered and (?:rejected|dropped|set aside)|"
    r"per your|left out|skipp(?:ed|ing)|ditched|scrapped|holding off|"
    r"hold off|recap|you want to (?:revisit|reconsider)|why we (?:passed|dropped|skipped|"
    r"didn't)|"
    r"which is why|that's why we|(?:the|whole) reason (?:we|you|I)|set [\w' -]{1,30}? aside|"
    r"made (?:you|us) (?:drop|reject|rule|skip|abandon|give up)|out of the picture|keeps? (?:us|it|them) out|keeping [\w' -]{1,30}? out|stays? out|leav(?:e|ing) (?:it|that|this|them) out|"
    r"superseded|replaced by|to your question|your question about|you asked (?:about|whether|how|if|what|"
    r"why)|"
    r"as for your question|waits? until|can wait|on hold|parked|shelved|mov(?:e|ed|ing) (?:off|away from)|"
    r"migrat(?:e|ed|ing) (?:off|away from)|(?:is|are|was|were|been) cancel(?:l)?ed|"
    # Written down as excluded: "Layered source files are not included", "不含源文件".
    r"(?:is|are|was|were|stays?) (?:not included|excluded)|"
    r"you'll decide|you decide|"
    r"your call|up to you)\b|由你(?:到时候)?(?:来)?决定|你来定|"
    r"到时候再定|你再定|在(?:那|此)之前|\buntil then\b|"
    # Put off until something holds, as the user asked: "等收入上来再做", "等月入过万后再启动", and in
    # Cantonese's order "studio 等有收入先考虑".
    r"(?<![等平对相])等(?!下|一下|会)[^,，。;；!！?？]{1,15}?(?:后|之后|以后)?(?:再(?:做|说|上|搞|开|启动|考虑|加|推|写|弄)|先考虑)",
    re.IGNORECASE,
)
# A negation or comparison right before the mention: 不上 K8s / 比 Electron / 用 RocketMQ 替换 Kafka / the
# crunch of deep frying.
NEGATED_BEFORE_RE = re.compile(
    r"(?:(?<![要是能会好行可])不(?!妨|错|如|过|少|但|仅|光|会|难)|没有?|别|无需|免得|而非|而不是|代替|取代|相比|"
    rf"相较|比起|比(?!如|方|较)|不同于|除了|避开|跳过|去掉|放弃|砍掉|停掉|停用|关掉|撤掉|下掉|拒绝|拒了|换掉|替换(?!成|为|到))(?:{HAN}|[「“《\"']){{0,7}}\s?$"
    r"|(?:之前|原来|原先|当初|以前|上次|上回|去年|残留|遗留|旧)的?\s?$"
    # What was weighed once and set aside, told as history: "曾考虑校园一卡通消费数据，…未采用";
    # and a thing of old by a few words more: "和之前的全量 RAG 方案比" (not "之前说的 Redis").
    # What the user replaced or cut: "前面被你换成直播的年终答谢晚宴".
    rf"|被(?:你|您|我们|咱们)?(?:换成|换掉|替换成?|砍掉|否掉|去掉|拿掉|划掉){HAN}{{0,6}}的\s?$"
    # What would have been: "the piece that would have been more awkward with Auth0".
    r"|\bwould(?: have|'ve)(?: been)? [\w' -]{0,30}?\b(?:with|on|using|via|under|in) (?:the )?$"
    rf"|曾经?(?:考虑|想|打算|尝试|评估|试)过?{HAN}{{0,4}}\s?$|(?:之前|原来|原先|当初|以前)的{HAN}{{1,4}}\s?$"
    r"|\b(?:crunch|warmth|feel|look|taste|flavou?r|benefits?|advantages?|upside|flexibility|perks?|"
    r"convenience|"
    r"charm|vibe|power|speed) of (?:a |an |the )?$",
    re.IGNORECASE,
)
# An English negation or comparison up to two words before the mention ("avoid paying a …"):
# checked word by word from the end, so no pattern repeats a group.
NEGATING_WORD_RE = re.compile(
    r"\b(?:no|not|never|without|unlike|than|versus|vs\.?|instead of|rather than|in place of|avoid(?:s|ing)?|"
    r"skip(?:s|ped|ping)?|drop(?:s|ped|ping)?|ditch(?:ed)?|scratch(?:ed)?|scrap(?:ped)?|replac(?:e|es|ed|ing)|compared (?:to|with)|"
    r"need for|don't need|no need for|to avoid|away from|moved from|wanted from|you had with|you had about|"
    r"apart from|aside from|other than|besides|except(?: for)?|excluding|"
    r"(?:had|have|has) (?:used|tried|run)|the way|previous|earlier|original|old|former|(?:a )?(?:third|half|quarter|fraction) of|problems? with|"
    r"issues? with|"
    r"downsides? of|drawbacks? of|risks? of|overhead of|burden of|complexity of|over(?! to)|alternative to|"
    r"replacement for|substitute for|take on(?: what)?|clone of|similar to|leftover|remaining|remove|delete|"
    r"rip out|tear down|decommission|retire|clean up|removed|deleted|reverted|rolled back|ripped out|tore down|took out|taken out|pulled out|"
    r"switched off|turned off|disabled|"
    r"decommissioned|retired|cleaned up|your|existing|(?:most|all|much|part) of what(?: a| an| the)?)\s$",
    re.IGNORECASE,
)
LAST_WORD_RE = re.compile(r"[\w'-]{1,15}\s$")
# History right before the mention ("旧的 Jenkins", "the old Jenkins box"), part of the negations
# above: it frames the mention unless the sentence brings the old thing back (REVIVES_*).
HISTORY_BEFORE_RE = re.compile(
    r"(?:之前|原来|原先|当初|以前|上次|上回|去年|残留|遗留|旧)的?\s?$|\b(?:previous|earlier|original|old|former)\s$",
    re.IGNORECASE,
)
# Bringing the old thing back: after the mention, in its clause ("把旧的 Jenkins 机器重新开起来",
# "bring the old Jenkins box back online"), or right before it ("恢复之前的 Jenkins", "revive the
# previous setup").
REVIVES_AFTER_RE = re.compile(
    r"[^,，。;；!！?？]{0,24}?(?:重新(?:开|启|用|上|装|搭|跑|拿|捡|考虑|引入|接入|部署|利用)|捡回|拿回|加回|找回|用回|换回|切回|恢复|"
    r"再(?:开|启用|用|跑|搭)起来|复活|复用)"
    r"|[^,.;!?]{0,40}?\b(?:back (?:online|up|in|into|on)|(?:up|online|running|in service) again)\b",
    re.IGNORECASE,
)
REVIVES_BEFORE_RE = re.compile(
    r"(?:重新(?:启用|用|上|开|装|部署|引入|接入|考虑|拿出)|恢复|捡回|用回|换回|切回|回到|复用|再用)[^,，。;；]{0,8}$"
    r"|\b(?:revive|resurrect|reinstate|re-?enable|restore|bring back|switch back to|go back to|return to|reuse|spin up|"
    r"fire up|dust off)\b[^,.;]{0,20}$",
    re.IGNORECASE,
)
# A revival reported as done is news, not a proposal: "Kafka 集群已经恢复正常了", "the old cluster came
# back online after the restart".
REVIVAL_REPORTED_RE = re.compile(
    r"恢复(?:了|正常|过来)|已经?(?:恢复|重新)|又(?:恢复|好)了"
    r"|\b(?:came|comes|went|is|was|are|were|got|gets|has been|have been|had been)\s(?:[\w'-]{1,15}\s|)(?:back|up again|online again|running again)\b",
    re.IGNORECASE,
)
# A negation before the revival keeps the mention history: "之前的 Jenkins 不会再重新开起来".
REVIVAL_NEGATED_RE = re.compile(
    r"不(?!妨|错)|别|没|无需|\b(?:not|never|no longer|won't|don't|shouldn't|can't|cannot|wouldn't|without)\b|n't\b",
    re.IGNORECASE,
)
# The reply taking its own suggestion back ("…也收回"), read as `_USER_DROPPED` is.
_TAKEN_BACK_ZH = "收回|撤回"
# Right after the mention: a comparison, a verdict against it, its past tense, or its being
# said not needed or removed ("keto isn't necessary", "Redis 用不着", "EQ cuts removed").
FRAMED_AFTER_RE = re.compile(
    # "和之前的 RAG 方案比，…": the mention is what the plan is measured against; "referral 原来占的那部分
    # 配额": what it used to hold.
    # "跟 agency 定制的报价比,…": the clause ends on the comparison.
    # "好，微水泥不做，卫生间用B", "电窑这条彻底不碰。": the agent restating the verdict, a bare verb ending the clause.
    rf"^[^,，。;；]{{0,12}}?比(?:起来|一下)?\s?$|^\s?(?:(?:方案|那套|那版|版本|那个)?比[,，]|原来(?:占|用|的|那)|之前(?:占|用)的|不同|不一样|的?[都也就]?(?:没有?|不)(?:放|列|写|算|包含|包括|考虑|纳入)|(?:那边|这边|那块|这块)?(?:今年|这次|这回|暂时|目前)?(?:就|也|都|先)?不{HAN}{{1,2}}了|(?:既然)?(?:今年|这次|这回|暂时|目前)(?:就|也|都|先)?不{HAN}{{1,2}}(?=[,，。;；!！]|$)|(?:这条|这个|这块|这项|那条|那个|那块)?(?:路)?(?:就|也|都|先|彻底|完全)?不(?:做|碰|搞|弄|用|要|上|考虑|接|走)(?=[,，。;；!！]|$)|{HAN}{{0,4}}的(?:[一二三四五六七八九十几]分之[一二三四五六七八九十几]|一半|[一二两三四五六七八九十几]倍)|相比|相较|那种|那样|一样|类似(?![的地])|般|"
    rf"就算了|不动|不碰|不改|不是必须|不必|用不着|{HAN}{{0,4}}(?:取消了|停掉了|砍掉了|撤掉了)|"
    # The agent confirming the removal: "好，婚纱照这项去掉，1.2 万并入机动", "可以，broad 关掉。".
    rf"(?:这项|这一项|这个|这块|这部分|那项)?(?:就|也|先|相应)?\s?(?:去掉|删掉|拿掉|砍掉|取消|关掉|停掉|撤掉|撤出|撤下|下掉)(?!的)|就不(?!用(?!了)|需要|必)|不再|已经(?:被)?(?:否|排除|放弃|去掉|砍掉|划掉)|已被|被(?:否|排除|"
    rf"放弃|砍|去掉|pass)|先不|太重|太贵|太复杂|太麻烦|扛不住|不适合|不划算|没必要|"
    r"的(?:问题|缺点|成本太|运维太|口感|感觉|效果|优点|好处|味道|灵活性|风格)|那条路|的方案因为|方案因为|对我们)"
    r"|^,?[\w\s'-]{0,30}?\b(?:would have|would've|(?:was|were)(?! (?:better|the better|right|fine|good|worth|"
    r"smarter|simpler))|"
    r"had been|is out|are out|is off|are off|(?:is|are|was)(?:n't| not) (?:necessary|needed|required|essential|a must)|"
    r"(?:is|are) unnecessary|"
    rf"would be overkill|is overkill|is too|are too|you (?:disliked|had|didn't|wanted|{_USER_DROPPED})|(?<!to )quote|did|"
    r"used to)\b"
    r"|^-?(?:like|style|esque)\b|^\s(?:flavou?rs?|taste|feel|vibes?|style|experience)\b"
    # What it would be, judged: "deep learning would be a big risk", "WhatsApp 最大的问题就是对话会吃掉时间".
    r"|^\s(?:would|'d) (?:be|have been) (?:a |an )?(?:big |huge |real |serious )?(?:risk|gamble|stretch|mistake|headache)\b"
    r"|^\s?(?:最大|主要|根本|唯一)的?(?:问题|毛病|缺点|短板|坑)"
    # Held up as the yardstick: "和 LightGBM baseline 对比 AUC", "against the LightGBM baseline".
    r"|^\s?(?:baseline|基线)\b|^\s?(?:做|作)?(?:对比|比较)"
    # "With Redux out, I'd go with Zustand", "Setting Amazon aside, …": out of the running, not "out of
    # the box" or "out there".
    r"|^\s(?:out|gone|off the table|aside)(?=\s?[,;.—–]|\s?$|\s(?:now|then|of the (?:picture|running|question))\b)"
    # Out with another: "With the twin and the faked death both out, …".
    r"|^[\w\s'-]{0,30}?\b(?:both|all) (?:out|gone|off the table)\b"
    r"|^[\w\s'-]{0,30}?\b(?:can|should|will|could) be (?:deleted|removed|dropped|retired|cleaned up)\b"
    r"|^[\w\s'-]{0,20}?\b(?:removed|taken out|taken off|ripped out)\b"
    # The formal negation of what is done with it, after the rest of its name: "potato osmosis 不作示范".
    rf"|^[^,，;；]{{0,20}}?(?:删掉|删除|移除|下线|清理掉|的{HAN}{{0,4}}替代|不作|不予)"
    # The reply taking its own suggestion back after naming it: "我上面提的让外婆帮忙看半天也收回".
    rf"|^[^,，。;；]{{0,12}}?(?:也|都|就|先)?(?:{_TAKEN_BACK_ZH})"
    # Set apart from what comes next: "Shopping 和 TikTok 达人之外，可以试：…".
    r"|^[^,，。;；]{0,16}?(?:之外|以外)",
    re.IGNORECASE,
)
# After a name, that it was what the user dropped or the reply takes back ("the GEE route you
# dropped", "我上面提的让外婆帮忙看半天也收回"): later mentions in the same segment stand in that frame.
SAID_DROPPED_RE = re.compile(rf"\byou(?:'ve| have)? (?:{_USER_DROPPED})\b|{_TAKEN_BACK_ZH}", re.IGNORECASE)
# A short verdict clause after the option's: "开屏广告影响体验，不做了".
VERDICT_CLAUSE_RE = re.compile(rf"[,，]\s?(?:就|也|先|都|暂时)?(?:不{HAN}{{1,2}}了|算了|作罢|放弃了|排除了|否了)")
# "X 容易卡住，所以选了 <current>": a reason that leads to the current decision.
CAUSAL_RE = re.compile(r"所以|因此|于是|因而|\b(?:so|which is why|that's why|hence|therefore)\b", re.IGNORECASE)
# Words that join another verb phrase, beside a contrast (`CONTRAST_RE`) or a consequence
# (`CAUSAL_RE`): "I kept the LRU and left Redis out" reports two pieces of work.
JOINS_ANOTHER_RE = re.compile(r"\b(?:and|then|while|because|since|instead)\b|而|然后", re.IGNORECASE)
# A verdict against the option anywhere in its clause.
AGAINST_RE = re.compile(
    r"太重|太贵|太复杂|太麻烦|扛不住|不适合|不划算|没必要|杀鸡用牛刀|成本太高|代价太大|没有足够|不现实|超(?:出)?预算|"
    r"我们没有|没有条件|不具备|受不了|吃不消|不太(?:合适|适合|行|现实|可行|方便)|不符合|不满足|不支持|不兼容|会降低|"
    r"清零|暴雷|踩坑|有坑|走不通|行不通|不可行|过不了|批不了|不允许|不喜欢|讨厌|反感|"
    r"(?:撑|扛|顶|吃|受|管|搞|做|跑|推|用|养|买|付|承担)不(?:起来|住|起|动|了|消|定|过来|到)|"
    rf"(?<![不没])(?<![不没]{HAN})(?<![不没]{HAN}{{2}})太(?!好|棒|香|爽|赞|值|方便|划算|合适|舒服|美|漂亮|实惠|省心|省事|好用|"
    rf"稳){HAN}|"
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
    re.IGNORECASE,
)
# A Chinese negation right before a word that proposes ("不安排", "不引入") turns it around.
NEGATED_RIGHT_BEFORE_RE = re.compile(r"(?:不|没|别|无需|不用|不必)$")
# The sentence puts something forward.
PROPOSES_RE = re.compile(
    r"未尝不可|倒是可以|(?<!不)适合|觉得|认为|个人|不贵|不算贵|就行|就好|即可|(?<!不)可以(?!说)|也可|还可|不妨|"
    r"不如|(?<!不)建议|(?<!不)推荐|试试|试一下|试投|或者|换成|换到|改用|换回|退回|回到|要不|何不|考虑(?!到)|影响不大|"
    r"问题不大|投一下|也能|能解决|"
    r"更好|更合适|更自由|更方便|更省|更快|更稳|更灵活|更强|强很多|好很多|高很多|值得|顺便|顺路|顺带|另外|再加|加一层|加上|引入|上一个|"
    r"搭一个|搭一层|来一个|也行|也不错|不错|挺好|划算|性价比|省心|省事|办法|选择|备选|兜底|二期|下个迭代|以后再|后面再|躲不过|"
    r"还是得|最好用|可以看看|留作|体验|安排|不会贵|只贵|平稳|比较好|稳妥|(?<!不)方便|保住|想想|用起来|起一个|预留|会更|再配|其实|就够|"
    r"收益|搞定|能让|可以让|第[一二三四五六七八九十\d]步|下一步|装好|安装|部署|接入|迁到|迁移到|帮助|长期|最大|最快|最好|"
    r"最(?:灵活|方便|省心|省事|简单|稳妥|合适|划算|实惠|便宜|自在|舒服|适合|直接)|更(?:稳妥|自在|舒服|便宜|实惠|简单|省心|可靠)|退路|保底|备用|plan ?b|"
    r"(?<!不)合适|改回|换回来|加一条|加一个|加个|做一个|做个|搞一个|同步做|顺手|会(?:低|高|快|好|省|少)|有意思|也很|再比较|再对比|优惠|效率|翻倍|没关系|无妨|"
    # "Or a managed Kafka, Confluent Cloud runs it for you.": a sentence that opens with "Or" offers
    # (capitalised: "; or schema-per-tenant" after a semicolon goes on with a list).
    r"(?-i:^\s{0,3}Or\s)|"
    r"\b(?:could|might|may|would|'d|should|consider|suggest|recommend|how about|what about|why not|try|"
    r"alternatively|another option|an option|also|as well|too|by the way|btw|in parallel|meanwhile|"
    r"in the meantime|"
    r"worth|go with|switch|moving to|move to|fall(?:ing)? back|go back|bring in|bringing in|add|adding|"
    r"layering|"
    r"spin up|pick up|picking up|adopt|next step|down the road|long term|eventually|later|phase two|saves?|"
    r"gives?|fits?|better|best|easier|cheaper|faster|calmer|safer|quieter|less crowded|move (?:it|them|this|that) to|bet|steal|great|good|fine|makes? sense|"
    r"pays? off|just saying|have you (?:looked at|considered|thought about|tried)|join(?:ing)?|book(?:ing)?|"
    r"shipping|carve|swing by|fun|flexibility|handles?|solves?|fix|help|only \$\d+ more|pick a|open to|"
    r"takes? care of|lets? (?:you|us|all|every)|if (?:you|we|they|the team|the \w+ team) (?:want|need)s?|"
    r"step (?:\d|one|two|three|four|five)|install|provision|deploy|set up|migrat(?:e|ing)|one (?:thought|idea|option)|valuable|worthwhile|useful|"
    r"discount|compare (?:again|once more)|doubles?|boost|fastest|quickest|simplest|easiest|no problem|"
    r"personally|I (?:still )?(?:think|feel)|in my view|perfect|ideal|keep an eye on|beats?|isn't that|"
    r"not that (?:expensive|pricey|hard|bad)|let's|let us|standard choice|industry standard|go-to|easy to|"
    r"effortless(?:ly)?|(?:is|are|would be) enough|nicer|cleaner|simpler|smoother|"
    r"more (?:flexible|robust|reliable|scalable|natural|mature|convenient|powerful)|natural (?:move|choice|fit|next step)|"
    r"middle ground|sweet spot|fallback|plan b|backup (?:option|plan)|safety net|maybe|perhaps|"
    r"I'd (?:start|go|use|pick|keep|add|put|move|reach|lean)|worth a (?:look|try|shot)|check out|look at|"
    r"give (?:it|them|\w{1,12}) a (?:try|shot|go)|bring (?:it|them|that|those) back)\b|够用|足够|首选|标配|成熟",
    re.IGNORECASE,
)
# Explicit suggestion: what a mention by part of a description needs before it counts.
SUGGESTS_RE = re.compile(
    r"(?<!不)建议|(?<!不)推荐|不妨|可以考虑|也可以|还可以|可以再|可以试|可以换|可以用|可以加|可以上|(?<!不)可以(?:接|引入|搭|起|装|配|买|报|找|请)|未尝不可|倒是可以|要不|何不|不如|或者|顺便|顺带|顺路|另外|也行|也不错|"
    r"值得|兜底|备选|备用|退路|保底|会更|其实|改回|换回|没问题|不迟|迟早|早晚|躲不过|"
    r"更(?:好|合适|自在|方便|划算|省|快|稳|强|灵活|自由|热闹|舒服|便宜|高|有)|"
    r"\b(?:how about|what about|why not|consider|suggest|recommend|could|might|you may want|alternatively|"
    r"have you (?:considered|thought about|looked at|tried)|"
    r"also|"
    r"as well|worth|instead|if you want|is fine|would(?! have|n't)|'d (?:suggest|go|recommend|put|add)|"
    r"open to|"
    r"better|in parallel|switch(?:ing)? to|move (?:it|them|this|that) to|go(?:ing)? back to|moving to|valuable|useful|worthwhile|helpful|"
    r"pays? off|good (?:fit|choice|option|idea|move)|hard to avoid|inevitable|sooner or later|eventually|"
    r"is an option|fallback|plan b|backup (?:option|plan)|safety net|worth a (?:look|try|shot)|check out|"
    r"no problem)\b",
    re.IGNORECASE,
)
# Arguing a rejection's reason away: "would solve the ops cost", "运维可以交给云厂商".
REBUTS_RE = re.compile(
    r"解决|搞定|不是问题|不成问题|不用担心|无需担心|不必担心|不用操心|不再是|交给|省掉|省去|免去|免运维|不需要自己|"
    r"\b(?:solve[sd]?|fix(?:es|ed)?|removes?|eliminates?|takes? care of|no longer|(?:isn't|is not|wouldn't be|won't be|"
    r"not) (?:an issue|a problem)|"
    r"offload|goes away|mitigates?|burden off|off (?:your|our|their|the) (?:plate|hands|team|shoulders)|relieves?|"
    r"cuts? (?:down )?(?:most|much|all)?|reduces?|lowers?|shrinks?|absorbs?|handles? (?:the|that|all)|"
    r"makes? (?:it|that|this) (?:easy|trivial|painless|cheap|cheaper|simple))\b|降低|减少|减轻|省下|抵消|抵回来",
    re.IGNORECASE,
)
# "I know you ruled it out, but …": a concession whose "but" proposes brings the option back.
CONCESSION_RE = re.compile(
    r"我知道|我理解|我明白|虽然|尽管|固然|不是说|不是劝|\b(?:I know|I understand|I get (?:it|that)|"
    r"I reali[sz]e|granted|although|even though|not saying|not pushing|not suggesting)\b",
    re.IGNORECASE,
)
# "Although X was ruled out, …": the comma closing such an opening clause turns the sentence.
CONCESSIVE_OPENER_RE = re.compile(
    r"^\W{0,3}(?:虽然|尽管|固然|由于|因为|既然|考虑到|\b(?:although|even though|though|while|whilst|granted|since|because|"
    r"given that|as)\b)",
    re.IGNORECASE,
)
COMMA_RE = re.compile(r"[,，]")
# After a leading reason clause, the main clause brings the option back only through "it": "Since
# Redis handles sessions natively, it would be the better fit".
REFERS_BACK_RE = re.compile(r"^\s?(?:it\b|it'[sd]\b|they\b|它|这个|那个)", re.IGNORECASE)
# The agent reporting work of its own, the subject and the verb ("I also added", "we've wired in",
# "我顺手加了"): read right before a name (`DIRECTIVE_BEFORE_RE`) and before a code block it opens
# (`REPORTS_WORK_RE`).
_AGENT_EN = r"\b(?:I|we)(?:'ve| have)?(?: also| just| now| then| went ahead and| quietly)? "
_AGENT_DID_EN = (
    r"added|installed|set up|enabled|created|spun up|introduced|reintroduced|re-added|restored|wired (?:in|up)|"
    r"configured|deployed|brought in|pulled in"
)
_AGENT_DID_ZH = r"加了|加上了|装了|装好了|引入了|接入了|配了|配好了|配置了|设置了|设好了|补上了|恢复了"
# A verb that puts forward what it governs, right before a mention: "create a Notion workspace",
# "Put AWS ElastiCache in front", "直接去法院打官司", "建一个 Notion 工作区". English verbs count at the
# start of a clause or after a modal; Chinese ones with a measure word or "直接", so "找到了 Redis 的问题"
# and "之前用 Redis" do not.
DIRECTIVE_BEFORE_RE = re.compile(
    r"(?:^\s?|[,;:(—]\s?|[-*]\s|\d[.)]\s|\b(?:and|then|just|simply|also|could|should|can|might|'d|please)\s)"
    r"(?:put|create|spin up|set up|use|pick up|book|sign up for|try|add|rent|hire|keep|file|enroll \w{1,6} in|"
    r"buy|get|grab|go with|bring in|switch to|move to|contact|invite|reach out to|get in touch with)\s"
    r"(?:a |an |the |some |your |our |another )?"
    r"(?:[\w'-]{1,20}\s)?$"
    # An agent that reports doing it: "I also added redis to the compose file", "I've switched the
    # sessions to Redis", "我顺手加了 Redis".
    rf"|{_AGENT_EN}(?:{_AGENT_DID_EN}|switched (?:[\w'-]{{1,20}} )?to|moved (?:[\w'-]{{1,20}} )?to)"
    r"\s(?:a |an |the |some |another )?(?:[\w'-]{1,20}\s)?$"
    rf"|我(?:也|还|顺便|顺手|另外|已经)?(?:{_AGENT_DID_ZH}|上了|开了|部署了|换成了|切到了){HAN}{{0,4}}\s?$"
    rf"|(?:(?:建|搭|开|买|租|叫|请|找|报|加|上|用)(?:一个|个|一台|台|两台|一家|家|一场|场|一套|套|一层|层|一辆|辆|一块|块|一款|款|一份|份|一张|张|一门|门|一节|节|一组|组|一支|支|一些|些|点)|直接[买用上找叫报去]?|改用|换成|换用|试试|试一下)"
    rf"{HAN}{{0,8}}\s?$"
    # A place put on the way: "体力好的话再往上走到牛奶海看看", "顺路去色达" (not "回去", "过去", "出去").
    r"|(?:(?<![回出过进上下失抹删除来])去|走到|爬到|开到|逛逛)\s?$"
    # "用 X" opening a clause, the name right after the verb: "…，用 Redux Toolkit 的 slice 管理最清晰";
    # a change list's "加 X" ("pubspec.yaml：加 flutter_riverpod 2.4.9", the name the package's tail).
    r"|(?:^|[,，;；:：。]\s?)(?:那就|就|直接|先|再|也|还是|可以)?(?:用|加|加上|新增|添加|引入|接入)\s?(?:[A-Za-z0-9.@/-]{1,24}[_-])?$"
    # The agent's report on one part of the work: "只有全局 auth 这块用了 Riverpod".
    r"|(?:这块|这里|这边|这部分|这一块|那块)(?:也|就|只|都)?用了\s?$",
    re.IGNORECASE,
)
# The agent saying it did some work, then showing it: "I also set up the prod backend so the three
# nodes share counts:" before a code block. What the block names is what was done.
REPORTS_WORK_RE = re.compile(
    rf"{_AGENT_EN}(?:{_AGENT_DID_EN}|put|brought back|switched|pinned|included|hooked up|wrapped|kept)\b"
    rf"|我[^,，。:：\n]{{0,12}}?(?:{_AGENT_DID_ZH})",
    re.IGNORECASE,
)
# A clause that opens with a bare verb is an instruction: a name inside it is being put forward
# ("If write volume explodes, park the event log in DynamoDB", "- Ship a Swift app", "租一辆车自己开").
# Matched at the clause's start (`match` at a position, no anchor).
IMPERATIVE_CLAUSE_RE = re.compile(
    r"\s{0,2}(?:[-*]\s|\d[.)]\s)?(?:then |just |also |simply |maybe |perhaps |please )?"
    r"(?:add|use|try|put|ship|park|wrap|mirror|submit|offer|keep|run|host|deploy|launch|introduce|install|"
    r"schedule|spin up|set up|stand up|swap in|switch to|move|migrate|bring in|plug in|layer|route|pick|buy|get|"
    r"rent|book|hire|sign up|grab|throw|stick|pair|consider|evaluate|start|go with|opt for|invest in|allocate)\b"
    r"|\s{0,2}(?:[-*]\s|\d[.)、]\s?)?(?:直接|先|再|就|也)?(?:用|上|加|换|接|起|搭|买|租|报|装|配|订|办|养|投|签|试|请|找)"
    r"(?:一个|个|一台|台|一家|家|一套|套|一层|层|一辆|辆|一块|块|一款|款|一份|份|一张|张|一门|门|一节|节|一组|组|一些|些|点)",
    re.IGNORECASE,
)
# Words that turn a repeated rejection reason into an argument against it ("其实很快", "actually
# cheap", "not stressful"): the reason is then rebutted, not restated.
REASON_TURNED_RE = re.compile(
    r"其实|实际上|反而|并不|未必|不一定|不再|\b(?:actually|honestly|in fact|no longer|not really|isn't really|anymore)\b",
    re.IGNORECASE,
)
# A negation just before a repeated reason word ("not stressful", "不贵").
NEGATION_BEFORE_KEY_RE = re.compile(r"(?:不|没|无|\b(?:not|no|never|hardly|n't)\b)\W{0,2}$", re.IGNORECASE)
# A sentence that points back at what the one before named ("Maybe bring them back?", "可以再试试这个").
# What a sentence that points back tells as history, not as a proposal ("It would have given …").
HISTORY_RE = re.compile(r"\b(?:would have|would've|had|was|were|used to)\b|当时|当初|之前|原来|曾经", re.IGNORECASE)
POINTS_BACK_RE = re.compile(r"\b(?:it|its|it's|them|they|that one|this one|there)\b|它|这个|那个|这种|那种|这样", re.IGNORECASE)
# Just before a rebuttal word, what says it is only the option's purpose: "想解决", "designed to solve".
PURPOSE_BEFORE_RE = re.compile(r"(?:想|要|为了|旨在|\b(?:meant|designed|built|trying|tries|aims?|supposed) to)\s?$", re.IGNORECASE)
