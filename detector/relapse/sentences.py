"""A reply cut into the sentences whose mentions are read, minus a checkpoint's list of rejected
options and a diff's removed lines.

A sentence is the unit a mention's stance is read in. Sentences that never end (a pasted log, a list
without stops) are read in bounded windows, so the work per reply stays linear in its length.
"""

from __future__ import annotations

import re

# A checkpoint section that lists rejected options: everything in it is history.
_REJECTED_SECTION_RE = re.compile(
    r"(?:^|\n)[#>*\-\s]{0,6}(?:已否决|否决的?方案|rejected(?: alternatives| options)?|"
    r"ruled out)\s?[:：]?\s{0,2}(?=\n|$)",
    re.IGNORECASE,
)
# A sentence ends at CJK or Latin end punctuation; a Latin full stop only before a space ("2.3%"),
# and not after a list item's number or letter at the start of a line ("2. Move search…", "C. 卫生间
# 墙面做微水泥…": the item is one sentence with its mark, which says it is one of the things offered).
# Sentences longer than this are read in windows.
_MAX_SENTENCE = 400
_SENTENCE_RE = re.compile(
    r"[^。!?！？;；\n]+?(?:[。!?！？;；\n]+|\.(?=\s)(?<!^[0-9A-Za-z]\.)(?<!^\d\d\.)|$)", re.MULTILINE
)


def sentences_of(text: str) -> list[str]:
    """Sentences, minus those inside a checkpoint's "Rejected:" section and a diff's removed lines
    (both say what is gone). A sentence that never ends (a pasted log, a list without stops) is
    read in windows of at most `_MAX_SENTENCE` characters, so the work per reply stays linear in
    its length."""
    sections = [(m.end(), _section_end(text, m.end())) for m in _REJECTED_SECTION_RE.finditer(text)]
    sentences = []
    for match in _SENTENCE_RE.finditer(text):
        if match.group().strip() and not any(start <= match.start() < end for start, end in sections):
            sentences += _windows(match.group())
    removed = _removed_lines(sentences)
    return [sentence for index, sentence in enumerate(sentences) if index not in removed] if removed else sentences


_FENCE = "```"


def located(sentences: list[str]) -> list[tuple[int, str, bool]]:
    """Each sentence with its index and whether it sits inside a fenced code block."""
    found, inside = [], False
    for index, sentence in enumerate(sentences):
        fences = sentence.count(_FENCE)
        found.append((index, sentence, inside or fences > 0))
        inside = inside != (fences % 2 == 1)
    return found


def _removed_lines(sentences: list[str]) -> frozenset[int]:
    """The indexes of a diff's removed lines: "- deploy/k8s/celery-beat.yaml" in a block that also
    adds lines ("+ deploy/k8s/cronjob.yaml") removes the file, where "- redis" in a compose file
    with no added line is a list item of what the block holds."""
    if not any(_FENCE in sentence for sentence in sentences):
        return frozenset()  # most replies hold no code block: one look at each sentence
    removed: set[int] = set()
    block: list[tuple[int, str]] = []
    for index, sentence, in_code in [*located(sentences), (len(sentences), "", False)]:
        if in_code and _FENCE not in sentence:
            block.append((index, sentence.lstrip()))
            continue
        if any(line.startswith("+") and not line.startswith("++") for _, line in block):
            removed.update(i for i, line in block if line.startswith("-") and not line.startswith("--"))
        block = []
    return frozenset(removed)


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
