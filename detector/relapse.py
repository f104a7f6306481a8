"""Does an assistant reply bring a rejected alternative back?

Naming a rejected option is not a relapse: "之前已否决 Redis（运维成本高），继续推进本地 LRU" is
exactly what a well-behaved agent writes. So the verdict is decided per sentence that mentions a
rejected alternative (by name, by a large part of its name, or by a known variant of it): the
sentence relapses when it *proposes* (也可以考虑 / 不妨 / how about / would solve / you could) and
does not frame the option as ruled out or as history (已否决 / 之前排除 / we dropped / instead
of). A concession that proposes anyway ("I know you ruled out Redis, but it would really help")
still relapses: what follows "but" decides.
"""

from __future__ import annotations

import re
from functools import lru_cache

from detector.alternatives import content_keys
from detector.schema import ConvergenceState, RelapseVerdict
from detector.text import normalize

_BUT_RE = re.compile(r"(?:但是|但|不过|可是|然而|\bbut\b|\bhowever\b|\bthat said\b|\bstill\b)", re.I)
# The option is framed as ruled out, as history, or as what the current choice replaced.
_RULED_OUT_RE = re.compile(
    r"已(?:经)?(?:被)?(?:否决|排除|放弃|否掉|弃用|淘汰|砍掉|pass)|(?:被|已)否|否决了|排除了|放弃了|不再(?:考虑|用|推荐|提)|不考虑|"
    r"不用|没有?选|不采用|不走|之前(?:说|定|决定|讨论|否|排除|放弃)|按你(?:说|的意思)|你(?:说|提到|已经)(?:过)?(?:不|了不)|"
    r"而不是|替代|取代|代替|相比|相较|比起|不同于|不如现在|除外|以外|之外|"
    r"\b(?:ruled out|rejected|dropped|decided against|set aside|won'?t use|not using|no longer|instead of|rather than|"
    r"not going with|is out|are out|off the table|passed on|said no|as you said|as agreed|since we|because we|unlike|"
    r"compared (?:to|with)|versus|vs\.?|we skipped|you didn'?t want|you vetoed|you ruled|scrapped|ditched|without)\b",
    re.I,
)
# The sentence puts the option forward.
_PROPOSES_RE = re.compile(
    r"也可以|还可以|可以考虑|可以试|可以用|可以换|不妨|建议|推荐|试试|试一下|或者用|或者上|或者换|或者|换成|改用|换回|要不|考虑一下|"
    r"也能|能解决|可以解决|会更好|更合适|值得|顺便|再加|加上|引入|上一个|搭一个|用一下|"
    r"不错|挺好|更好|更省|更快|更稳|更灵活|值|划算|性价比|"
    r"\b(?:would|could|might|maybe|perhaps|consider|suggest|recommend|how about|what about|try|alternatively|"
    r"another option|you could|we could|worth|solve|solves|help|fix|add|use|switch|go with|bring in|spin up|"
    r"gives? you|buy us|keeps?|fits?|better|easier|faster|cheaper|drop-in|nice|great|instead)\b",
    re.I,
)
# "I know you ruled out X, but …": a concession followed by a proposal brings X back.
_CONCESSION_RE = re.compile(
    r"(?:我知道|我理解|我明白|虽然|尽管|固然|\bI know\b|\bI understand\b|\bI get (?:it|that)\b|\bI reali[sz]e\b|"
    r"\bgranted\b|\balthough\b|\bthough\b|\beven though\b)",
    re.I,
)
# Well-known variants: a reply that says "ElastiCache" re-proposes a rejected "Redis".
_VARIANTS: dict[str, tuple[str, ...]] = {
    "redis": ("elasticache", "memorystore", "keydb", "valkey", "dragonfly", "redis cluster", "redis sentinel"),
    "kafka": ("msk", "confluent", "redpanda", "kafka connect"),
    "kubernetes": ("k8s", "eks", "gke", "aks", "openshift", "helm"),
    "k8s": ("kubernetes", "eks", "gke", "aks", "openshift"),
    "microservices": ("微服务", "service mesh", "服务拆分"),
    "微服务": ("microservices", "服务拆分", "拆服务"),
    "mongodb": ("documentdb", "atlas", "mongo"),
    "elasticsearch": ("opensearch", "es 集群", "elastic"),
    "graphql": ("apollo", "hasura"),
    "postgres": ("postgresql", "aurora", "rds", "pg"),
    "mysql": ("aurora", "mariadb", "rds"),
    "集中式缓存": ("redis", "memcached", "分布式缓存"),
    "消息队列": ("kafka", "rabbitmq", "rocketmq", "mq"),
}


def check_reply(state: ConvergenceState, reply: str) -> RelapseVerdict:
    """RELAPSE when a sentence of the reply re-proposes a currently rejected alternative."""
    text = normalize(reply)
    if not text or not state.rejected:
        return RelapseVerdict(verdict="OK", reason="no rejected alternative to relapse to" if text else "empty reply")
    for rejection in state.rejected:
        names = _names_of(rejection.alternative)
        for sentence in _sentences(text):
            mention = _mentions(sentence, names)
            if mention is None:
                continue
            stance = _stance(sentence)
            if stance == "proposes":
                return RelapseVerdict(
                    verdict="RELAPSE",
                    alternative=rejection.alternative,
                    rejected_at=rejection.rejected_at,
                    evidence=sentence.strip()[:300],
                    reason=f"re-proposes {mention!r}, rejected at turn {rejection.rejected_at}",
                )
    return RelapseVerdict(verdict="OK", reason="rejected alternatives are not proposed again (mentions, if any, frame them as ruled out)")


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[。!?！？;；\n])|(?<=[.!?])\s+", text) if s.strip()]


@lru_cache(maxsize=4096)
def _names_of(alternative: str) -> tuple[str, ...]:
    """The alternative's label, its name inside parentheses, and known variants, lower-cased."""
    lowered = alternative.lower()
    parts = [p.strip() for p in re.split(r"[()（）:：,，/]", lowered) if p.strip()]
    names = set(parts) | {lowered}
    for part in list(names):
        for key, variants in _VARIANTS.items():
            if key in part:
                names.update(variants)
    # A bare label ("方案a", "option 2") is too weak to count as a mention on its own in a reply.
    return tuple(sorted(n for n in names if not re.fullmatch(r"(?:方案|option|plan|选项)\s?\w", n)))


def _mentions(sentence: str, names: tuple[str, ...]) -> str | None:
    """The name (or shared words of a name) under which the sentence mentions the alternative."""
    lowered = sentence.lower()
    sentence_keys = content_keys(lowered)
    for name in names:
        if len(name) >= 2 and name in lowered:
            return name
        keys = content_keys(name)
        shared = keys & sentence_keys
        if keys and len(shared) >= max(1, (len(keys) + 1) // 2):
            return sorted(shared)[0]
    return None


def _stance(sentence: str) -> str:
    """"proposes" or "frames": what follows a "but" decides, else a ruled-out frame wins."""
    parts = _BUT_RE.split(sentence, maxsplit=1)
    if len(parts) == 2 and not _RULED_OUT_RE.search(parts[1]):
        if _PROPOSES_RE.search(parts[1]) or _CONCESSION_RE.search(parts[0]):
            return "proposes"
    if _RULED_OUT_RE.search(sentence):
        return "frames"
    return "proposes" if _PROPOSES_RE.search(sentence) else "frames"
