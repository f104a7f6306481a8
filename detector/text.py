"""Text plumbing shared by every layer: normalisation, scripts, language, quoted regions, tokens.

Everything downstream (cues, classifier features, span extraction) sees the *normalised* text, so
offsets reported in explanations are offsets into `normalize(text)`. Normalisation only maps
characters one to one, except for dropping zero-width characters, collapsing whitespace runs and
putting back the apostrophe people leave out of contractions ("dont" → "don't"). Traditional
Chinese is read in simplified characters, one for one (`simplified`), and written Cantonese in
Mandarin's function words, as many characters for as many (`cantonese.as_mandarin`).
"""

from __future__ import annotations

import bisect
import logging
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import opencc

from detector.cantonese import as_mandarin
from detector.english_tokens import english_rules, english_specials

# Full-width ASCII (U+FF01..U+FF5E) maps to half-width by a fixed offset; the ideographic space
# becomes a plain space. Chinese punctuation outside that block (。、「」) is kept as is.
_FULLWIDTH_TABLE = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_FULLWIDTH_TABLE[0x3000] = 0x20
_ZERO_WIDTH = {code: None for code in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD)}
# Northern dialects' "俺" (I, we: "俺们自己报", "俺可不这么想") is Mandarin's "我": the cues, guards and
# stands are written with 我.
_DIALECT_PRONOUNS = {ord("俺"): ord("我")}
# Northwestern "嫑" and Wu "覅" are one character for "不要" (don't): "开网店这事嫑弄了" is "别弄了"; northern
# "甭" is "不用" (no need to): "那 Sqoop 就甭用了", "这条甭提了".
_DIALECT_NEGATIONS = {ord("嫑"): ord("别"), ord("覅"): ord("别"), ord("甭"): ord("别")}
_TRANSLATION = {**_FULLWIDTH_TABLE, **_ZERO_WIDTH, **_DIALECT_PRONOUNS, **_DIALECT_NEGATIONS}
_HORIZONTAL_SPACE = re.compile(r"[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")

# CJK: unified ideographs (incl. extension A), compatibility ideographs, and CJK punctuation.
CJK_CHAR = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RE = re.compile(f"[{CJK_CHAR}]")
# The words that make a letter or number an option's label: 方案A, 思路二, Option 2, Route C. One list
# for every reader of labels: the option lists, the references to them, a bare choice, a mention.
LABEL_WORD_ZH = "(?:方案|思路|选项|路线|办法|做法|方法|策略|模式|框架|版本)"
# A Latin name as a turn spells it: "Next.js", "C++", "k8s", "GitLab-CI", "es".
LATIN_NAME = r"[A-Za-z][A-Za-z0-9.+#\-]{0,29}"
LATIN_NAME_RE = re.compile(LATIN_NAME)
# A letter, a digit or a Chinese character: text without one ("??", "！！", "...") says nothing.
WORD_CHAR_RE = re.compile(r"\w")
LABEL_WORD_EN = "(?:option|plan|approach|choice|alternative|path|route|strategy|idea|proposal|scenario|variant)"
# What follows a label word: a letter or digit, or a Chinese numeral ("方案A", "思路二", "Option 2").
LABEL_MARK = r"[A-Za-z\d一二三四五六七八九十]"
# Words that keep the name right after them out ("不要 Kafka", "别上 K8s", "not redis", "without the
# ORM"): the tracker reads them in a reopening, the relapse guard in a user's sentence that names a
# rejected option. The English ones are whole words, "the" after them optional.
KEPT_OUT_ZH = "不要|不用|别用|别加|别上|别碰|不加|不上"
KEPT_OUT_EN = r"no|(?<!\bwhy )not|without|minus|skip|drop|don'?t (?:use|add)"
# Units of time, singular: what measures an option ("$99 a year", "the 2-3 week timeline") and
# never names one. Target resolution and the group reader take their plurals as well.
TIME_UNITS_EN = ("day", "night", "week", "month", "year", "hour", "minute")
_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_SCRIPT_RUN_RE = re.compile(f"(?P<cjk>[{CJK_CHAR}]+)|(?P<latin>[A-Za-z0-9][A-Za-z0-9'\\-_.]*)")

Script = Literal["cjk", "latin"]
Lang = Literal["zh", "en", "mixed"]


_SURROGATES = re.compile("[\ud800-\udfff]")

# Phones and word processors type U+2019 for the apostrophe ("don’t", "let’s"); between two letters
# it is one, and the cues and the model learned the ASCII one.
_CURLY_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\u2019(?=[A-Za-z])")
# Contractions typed without their apostrophe, and where it goes. Only forms that are no other
# common word: "its", "ill", "well", "id", "were" and "shell" are words of their own. "lets" is
# a verb too ("it lets you"), so it is read as "let's" only where a suggestion starts.
_APOSTROPHE_AT = {
    **{word: len(word) - 1 for word in (
        "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "wont", "cant", "couldnt",
        "shouldnt", "wouldnt", "havent", "hasnt", "hadnt", "aint", "mustnt", "neednt",
    )},
    **{word: len(word) - 2 for word in ("wouldve", "couldve", "shouldve", "youve", "theyve", "weve")},
    **{word: len(word) - 1 for word in ("thats", "whats", "theres", "heres")},
    "im": 1, "ive": 1, "youre": 3, "theyre": 4,
}
_MISSING_APOSTROPHE = re.compile(
    # Not inside a longer token: "dont_cache", "src/im/handler.py", "做一个IM系统" stay as they are.
    r"(?<![\w'/.\-])(?:(" + "|".join(sorted(_APOSTROPHE_AT, key=len, reverse=True)) + r")"
    r"|(?:(?<=^)|(?<=[.!?,;:\n(]\s)|(?<=[.!?,;:\n(]))(lets)(?= (?:not|just|go|do|use|try|stick|switch|keep|drop|skip|"
    r"forget|revisit|move|stay|pick|look|ditch|scrap|get|start|table|park|come|put|think|consider|stop|see)\b))"
    r"(?![\w'/\-]|\.\w)",
    re.IGNORECASE,
)


def _with_apostrophe(match: re.Match[str]) -> str:
    word = match.group()
    if word == "IM":
        return word  # instant messaging, not "I'M"
    at = _APOSTROPHE_AT.get(word.lower(), 3)  # 3: "lets" → "let's"
    return word[:at] + "'" + word[at:]


_QUESTION_END_RE = re.compile(r"[?？吗]\s*$")
_NOISE_RE = re.compile(r"[\s\W_]+")


def stem_of(word: str) -> str:
    """Plural, -ing/-ed and a final -e folded away, so "hiking" meets "hike", "retries" "retry" and
    "movers" "mover": two mentions of one thing rarely share a word's exact form."""
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


def squeeze(text: str) -> str:
    """The text lower-cased, without spaces, punctuation or underscores: how two spans are
    compared when "Redis-cache" and "redis cache" must be the same words."""
    return _NOISE_RE.sub("", text.lower())


# Clause marks: a full stop or question mark only before a space and a comma not inside a
# number, so "3.5", "node.js" and "$2,500" stay whole; between Chinese words a space also ends a
# clause (people type spaces for commas), and so does an ellipsis ("鸭子超市卖完了……换个鱼吧").
CLAUSE_MARK_RE = re.compile(rf"(?<!\d),|,(?!\d)|[，。!！;；:：\n]|…+|[.?？](?=\s)|(?<=[{CJK_CHAR}])\s(?=[{CJK_CHAR}])")


def clause_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of a turn, in order, without the marks and spaces around them."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end, next_start in [(m.start(), m.end()) for m in CLAUSE_MARK_RE.finditer(text)] + [(len(text), len(text))]:
        piece = text[start:end]
        lead, trail = len(piece) - len(piece.lstrip()), len(piece) - len(piece.rstrip())
        if end - trail > start + lead:
            spans.append((start + lead, end - trail))
        start = next_start
    return spans


def ends_as_question(text: str) -> bool:
    """Does the text end as a question ("?", "？", or a final 吗)?"""
    return _QUESTION_END_RE.search(text) is not None


def normalize(text: str) -> str:
    """Full-width ASCII to half-width, drop zero-width characters, tidy whitespace; lone
    surrogates (possible in JSON, never valid text) become U+FFFD, one for one.

    Turns up to 4,000 characters are cached: every user turn re-reads the turns before it, so
    a conversation would normalise its early turns again at each new turn. Longer ones are not,
    so the cache stays a few megabytes whatever the input."""
    return _normalize_cached(text) if len(text) <= 4_000 else _normalize(text)


def simplified(text: str) -> str:
    """The text with traditional Chinese characters in their simplified forms ("上個方案作廢" →
    "上个方案作废"), every other character as it was.

    The cues, the lexicons and the training data are written in simplified characters, so a user in
    Taiwan or Hong Kong typing "這個方向不對" went unread by every cue ("上個方案作廢" was NONE). OpenCC's
    Taiwan-to-simplified table converts whole phrases, which can touch simplified text too ("打坏" →
    "打坯") and can give characters beyond the BMP no pattern here reads ("嗰" → U+20B36): so a text
    it leaves alone is returned at once (nearly every simplified one), and any other is converted
    character by character, each to a single CJK character or left as it was. A character that is
    also a simplified one stays (`_ALSO_SIMPLIFIED`). A text without Chinese is not looked up at all
    (every English turn, on the hot path of `normalize`)."""
    if not _CJK_RE.search(text) or _converter().convert(text) == text:
        return text
    return "".join(map(_simplified_char, text))


def _simplified_mandarin(text: str) -> str:
    """Simplified characters and Mandarin's function words, one character for one: the part of
    `normalize` that `in_mandarin` applies alone."""
    return as_mandarin(simplified(text))


@lru_cache(maxsize=256)
def in_mandarin(text: str) -> str:
    """The text in simplified characters and Mandarin's function words, one character for one
    (`simplified`, `cantonese.as_mandarin`): how a rule reads an assistant's reply, whose words it
    may copy into a span as written (`normalize` also tidies spaces and punctuation). A reply in
    simplified Mandarin is returned as it is; one in Hong Kong's "要唔要我幫你起草…" is read as
    "要不要我帮你起草…", as the user's turn is. Its own cache, not `normalize`'s: it keeps replies of
    any length, the few a turn's rules read."""
    return _simplified_mandarin(text)


# Characters the table converts on their own that simplified text uses too: 么 of 什么 (to 幺), 著 of
# 显著 (to 着), 乾 of 乾隆. Of the 3,315 characters in this project's data, only 么 and 著 are such.
_ALSO_SIMPLIFIED = frozenset("么著乾")


@lru_cache(maxsize=1)
def _converter() -> opencc.OpenCC:
    return opencc.OpenCC("tw2s")


@lru_cache(maxsize=8192)
def _simplified_char(char: str) -> str:
    converted = _converter().convert(char) if _CJK_RE.match(char) and char not in _ALSO_SIMPLIFIED else char
    return converted if len(converted) == 1 and _CJK_RE.match(converted) else char


@lru_cache(maxsize=2048)
def _normalize_cached(text: str) -> str:
    return _normalize(text)


def _normalize(text: str) -> str:
    text = _simplified_mandarin(_SURROGATES.sub("\ufffd", text).translate(_TRANSLATION)).replace("\r\n", "\n").replace("\r", "\n")
    text = _HORIZONTAL_SPACE.sub(" ", text)
    text = _BLANK_LINES.sub("\n\n", text)
    text = _MISSING_APOSTROPHE.sub(_with_apostrophe, _CURLY_APOSTROPHE.sub("'", text))
    return text.strip()


@dataclass(frozen=True, slots=True)
class ScriptRun:
    """A maximal run of one script inside a text."""

    script: Script
    start: int
    end: int
    text: str


def script_runs(text: str) -> list[ScriptRun]:
    """Split text into CJK and Latin runs; punctuation and spaces belong to neither."""
    runs = []
    for match in _SCRIPT_RUN_RE.finditer(text):
        script: Script = "cjk" if match.lastgroup == "cjk" else "latin"
        runs.append(ScriptRun(script, match.start(), match.end(), match.group()))
    return runs


def detect_language(text: str) -> Lang:
    """zh, en or mixed, from how much of the text each script carries.

    A Chinese sentence naming a product (`Redis 缓存太贵了`) is still zh: code-switching means
    several English words carrying meaning, so mixed needs at least three Latin words and a real
    share of both scripts. Text with neither script counts as en.
    """
    cjk = count_cjk(text)
    latin_words = _LATIN_WORD_RE.findall(text)
    if cjk == 0:
        return "en"
    if not latin_words:
        return "zh"
    latin_chars = sum(len(word) for word in latin_words)
    # One CJK character carries roughly as much as a short English word (~2.5 letters).
    latin_share = latin_chars / (latin_chars + 2.5 * cjk)
    if len(latin_words) >= 3 and 0.2 <= latin_share <= 0.85:
        return "mixed"
    return "en" if latin_share > 0.85 else "zh"


def count_cjk(text: str) -> int:
    """How many CJK ideographs the text holds (each carries about as much as a short word)."""
    return len(_CJK_RE.findall(text))


def has_cjk(text: str) -> bool:
    """True when any CJK ideograph occurs (decides which lexicons run)."""
    return _CJK_RE.search(text) is not None


def has_latin(text: str) -> bool:
    """True when any Latin word occurs."""
    return _LATIN_WORD_RE.search(text) is not None


# ---------------------------------------------------------------------------------------------
# Protected regions: text the user quotes, pastes or puts in code is not the user's own speech
# act, so cues inside it do not count (DESIGN §2, last sentence of the hard negatives).

RegionKind = Literal["quote", "code", "log"]


@dataclass(frozen=True, slots=True)
class Region:
    """A span of the text that is quoted, code, or a pasted log line."""

    kind: RegionKind
    start: int
    end: int


# Each alternative is bounded, so these scan linearly: no nested quantifiers.
_FENCE_RE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_INLINE_CODE_RE = re.compile(r"`[^`\n]{1,500}`")
# A title in 《》 names a thing, not someone's words: "提高题改用沈晨的《更高更妙的物理》吧" switches to it.
_QUOTE_RE = re.compile(
    r"“[^”\n]{1,300}”|‘[^’\n]{1,300}’|「[^」\n]{1,300}」|『[^』\n]{1,300}』"
    r"|\"[^\"\n]{1,300}\"|(?<![A-Za-z])'[^'\n]{1,300}'(?![A-Za-z])"
)
# A pasted log line: starts with a timestamp, a level, a traceback marker or a shell prompt.
_LOG_LINE_RE = re.compile(
    r"^[ \t]*(?:\d{4}-\d\d-\d\d[T ][\d:.,]{5,}|\[?(?:ERROR|WARN(?:ING)?|INFO|DEBUG|FATAL|TRACE)\]?[: ]"
    r"|Traceback \(most recent call last\)|File \"|\s{0,4}at [\w.$]+\(|\$ |> |>>> |E\s{2,}).*$",
    re.MULTILINE,
)


def protected_regions(text: str) -> list[Region]:
    """Quoted, fenced or inline code, and pasted log lines, in order of position."""
    regions: list[Region] = []
    for match in _FENCE_RE.finditer(text):
        regions.append(Region("code", match.start(), match.end()))
    for match in _INLINE_CODE_RE.finditer(text):
        regions.append(Region("code", match.start(), match.end()))
    for match in _LOG_LINE_RE.finditer(text):
        regions.append(Region("log", match.start(), match.end()))
    for match in _QUOTE_RE.finditer(text):
        regions.append(Region("quote", match.start(), match.end()))
    return sorted(regions, key=lambda region: (region.start, region.end))


def region_covering(regions: list[Region], start: int, end: int) -> Region | None:
    """The protected region that contains most of [start, end), or its start: a cue whose verb
    is quoted is quoted, however far its object runs past the closing mark ("the log had 'drop
    stale cart' right before each failure")."""
    for region in regions:
        overlap = min(end, region.end) - max(start, region.start)
        if overlap > 0 and (overlap * 2 >= end - start or region.start < start < region.end):
            return region
    return None


def mask_regions(text: str, regions: list[Region]) -> str:
    """Blank out protected regions (same length, so offsets stay valid)."""
    chars = list(text)
    for region in regions:
        for i in range(region.start, region.end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


# ---------------------------------------------------------------------------------------------
# Sentences and clauses, used by the guards to find the scope of a cue.

SENTENCE_END_RE = re.compile(r"[。!?！？;；\n]+|\.(?=\s|$)")


def sentences(text: str) -> list[str]:
    """The text's sentences in order, each with its closing punctuation, blank ones left out."""
    pieces, start = [], 0
    for match in SENTENCE_END_RE.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    pieces.append(text[start:])
    return [piece.strip() for piece in pieces if piece.strip()]


class SentenceIndex:
    """Sentence boundaries of a text, found once, so each lookup is a bisection, not a scan."""

    def __init__(self, text: str) -> None:
        self._length = len(text)
        self._ends = [match.end() for match in SENTENCE_END_RE.finditer(text)]
        self._starts = [match.start() for match in SENTENCE_END_RE.finditer(text)]

    def bounds(self, position: int) -> tuple[int, int]:
        """Start and end (exclusive, closing punctuation included) of the sentence at position."""
        index = bisect.bisect_right(self._ends, position)
        start = self._ends[index - 1] if index else 0
        end = self._ends[index] if index < len(self._ends) else self._length
        return start, end


# ---------------------------------------------------------------------------------------------
# Tokenisers. jieba is heavy to import and load, so it loads once per process, on first use,
# under a lock (the HTTP server tokenises from several threads). English is spaCy's tokenizer
# run from its rules (english_tokens.py), without importing spaCy.

_TOKENIZER_LOCK = threading.Lock()


# jieba's dictionary has 349k words; loading it takes most of a second, which every `pivot hook`
# process would pay. Words seen fewer than 10 times in jieba's corpus are left to its HMM for
# unknown words: 105k words load four times faster, and 84% of user turns segment exactly as
# before (the rest split some rare words differently). Training and detection use the same
# dictionary, so the model's word features match the text it reads.
JIEBA_MIN_FREQUENCY = 10


def _trimmed_jieba_dictionary(jieba_module) -> Path:  # type: ignore[no-untyped-def]
    """jieba's own dictionary without its rarest words, written once to the user cache."""
    from detector.paths import cache_dir, write_atomically

    source = Path(jieba_module.__file__).parent / "dict.txt"
    version = getattr(jieba_module, "__version__", "unknown")
    target = cache_dir() / f"jieba-{version}-min{JIEBA_MIN_FREQUENCY}.dict.txt"
    if not target.exists():
        with source.open(encoding="utf-8") as lines:
            kept = [line for line in lines if int(line.split()[1]) >= JIEBA_MIN_FREQUENCY]
        write_atomically(target, "".join(kept))
    return target


def _import_jieba():  # type: ignore[no-untyped-def]
    """Import jieba without letting it import pkg_resources.

    jieba imports pkg_resources (most of a tenth of a second) only to open files in its own
    package, and falls back to plain `open` when the import fails. A `None` entry in
    `sys.modules` makes that import fail; it is removed again unless pkg_resources was already
    loaded, so nothing else in the process notices. A hook answering one Chinese turn per process
    start saves that time on every turn.
    """
    blocked = "pkg_resources" not in sys.modules
    if blocked:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]
    try:
        import jieba
    finally:
        if blocked:
            del sys.modules["pkg_resources"]
    return jieba


@lru_cache(maxsize=1)
def _chinese_segmenter():  # type: ignore[no-untyped-def]
    with _TOKENIZER_LOCK:
        jieba = _import_jieba()

        # Our own Tokenizer, not jieba's process-wide one: a host program's jieba settings
        # stay its own. Its parsed-dictionary cache goes to the user cache folder, not the
        # current directory.
        jieba.setLogLevel(logging.WARNING)
        dictionary = _trimmed_jieba_dictionary(jieba)
        segmenter = jieba.Tokenizer(dictionary=str(dictionary))
        segmenter.FREQ, segmenter.total = _prefix_dictionary(segmenter, dictionary)
        segmenter.initialized = True
        return segmenter


def _prefix_dictionary(segmenter, dictionary: Path) -> tuple[dict[str, int], int]:  # type: ignore[no-untyped-def]
    """jieba's prefix dictionary (every word and word prefix with its frequency, and the total),
    from our cache beside the dictionary, built and cached when missing, older than the
    dictionary, or unreadable.

    jieba's own `initialize` does the same, but reads its cache with `marshal.load` on an open
    file, which calls back into Python for every one of the 135k keys: a quarter of a second of
    every Chinese `pivot hook` process. `marshal.loads` on the file's bytes takes a fifth of that.
    """
    import marshal

    from detector.paths import write_atomically

    cache = dictionary.with_suffix(".prefix.marshal")
    try:
        if cache.stat().st_mtime >= dictionary.stat().st_mtime:
            freq, total = marshal.loads(cache.read_bytes())
            if isinstance(freq, dict) and isinstance(total, int):
                return freq, total
    except (OSError, EOFError, ValueError, TypeError):
        pass  # missing or damaged: build it again
    freq, total = segmenter.gen_pfdict(segmenter.get_dict_file())
    write_atomically(cache, marshal.dumps((freq, total)))
    return freq, total


# spaCy's tokenizer works on one whitespace-delimited chunk at a time (prefixes, suffixes,
# infixes and special cases never cross a space), so a chunk's tokens can be remembered: real
# text repeats its words, and a dict lookup is far cheaper than the affix rules.
# A chunk of ASCII letters has no prefix, suffix or infix to split off, so spaCy returns it whole
# (a trailing comma or question mark split off) unless it is one of its special cases ("cannot" →
# "can", "not"; "gonna"): such chunks skip the rules' regular expressions.
# tests/test_text.py checks the result against whole-text spaCy on the corpus.
_EN_CHUNK_TOKENS: dict[str, tuple[str, ...]] = {}
_EN_CHUNK_LIMIT = 200_000
# ASCII letters, optionally followed by one of , ; : ! ? (which spaCy always splits off such a
# word; a full stop is left to spaCy, since "e.g." and "U.S." are special cases).
_PLAIN_WORD_RE = re.compile(r"(?P<word>[A-Za-z]+)(?P<mark>[,;:!?]?)")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # each one spaCy token on its own


def _spacy_chunk_tokens(chunk: str) -> tuple[str, ...]:
    if len(chunk) == 1 and chunk in _ASCII_PUNCTUATION:
        return (chunk,)  # "，" between two CJK runs arrives here as "," after normalisation
    specials = english_specials()
    plain = _PLAIN_WORD_RE.fullmatch(chunk)
    if plain and chunk not in specials and plain["word"] not in specials:
        return (plain["word"].lower(), plain["mark"]) if plain["mark"] else (plain["word"].lower(),)
    return tuple(token.lower() for token in english_rules().tokens(chunk))


# The longest whitespace-free chunk read at once. spaCy strips a chunk's prefixes and suffixes
# one at a time, each time copying what is left: 64,000 characters of "(" took 0.8 s. A word, a
# path or a URL is far shorter; only a pasted blob (minified code, base64) is cut.
EN_CHUNK_CHARS = 1000


def tokenize_en(text: str) -> list[str]:
    """spaCy tokens of a Latin-script run, lower-cased."""
    tokens: list[str] = []
    chunks = text.split()
    if len(text) > EN_CHUNK_CHARS and any(len(chunk) > EN_CHUNK_CHARS for chunk in chunks):
        chunks = [chunk[i : i + EN_CHUNK_CHARS] for chunk in chunks for i in range(0, len(chunk), EN_CHUNK_CHARS)]
    for chunk in chunks:
        found = _EN_CHUNK_TOKENS.get(chunk)
        if found is None:
            found = _spacy_chunk_tokens(chunk)
            if len(_EN_CHUNK_TOKENS) >= _EN_CHUNK_LIMIT:
                _EN_CHUNK_TOKENS.clear()  # a bound, not an LRU: refilling costs less than tracking use
            _EN_CHUNK_TOKENS[chunk] = found
        tokens.extend(found)
    return tokens


# The longest piece of a CJK run jieba reads at once. jieba's HMM keeps a path per character of a
# run of unseen words and copies it at each step, so its cost grows with the square of the run:
# 40,000 characters of one unseen character took 4 s. A run of the data is at most 35 characters
# (punctuation ends one), so cutting longer runs changes no real turn's words.
JIEBA_RUN_CHARS = 200


@lru_cache(maxsize=8192)
def tokenize_zh(text: str) -> tuple[str, ...]:
    """jieba words of a CJK run (precise mode, HMM on for unseen words), read `JIEBA_RUN_CHARS` at
    a time.

    Cached: the classifier's word n-grams and target resolution (`zh_words_at`) read the same
    runs of a turn, and jieba is the costliest part of reading one."""
    segmenter = _chinese_segmenter()
    pieces = (text[start : start + JIEBA_RUN_CHARS] for start in range(0, len(text), JIEBA_RUN_CHARS))
    return tuple(word for piece in pieces for word in segmenter.lcut(piece) if word.strip())


_CJK_SPLIT_RE = re.compile(f"([{CJK_CHAR}]+)")


def zh_words_at(text: str) -> Iterator[tuple[int, str]]:
    """The jieba words of every CJK run of the text, each with the offset it starts at."""
    for run in _CJK_SPLIT_RE.finditer(text):
        offset = run.start()
        for word in tokenize_zh(run.group()):
            yield offset, word
            offset += len(word)


def tokenize(text: str) -> list[str]:
    """Word tokens of mixed text: jieba on CJK runs, spaCy on everything between them, in order."""
    tokens: list[str] = []
    for index, piece in enumerate(_CJK_SPLIT_RE.split(text)):
        if not piece.strip():
            continue
        # re.split with one capture group alternates: even pieces are non-CJK, odd ones CJK.
        tokens.extend(tokenize_zh(piece) if index % 2 else tokenize_en(piece))
    return tokens
