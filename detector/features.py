"""Features of one user turn in context, as plain functions.

Training wraps them in scikit-learn transformers (pipeline.py); the runtime model calls them
directly (inference.py), so detecting never imports scikit-learn. Both sides compute each
feature with the same function, so they cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import get_args

from detector.alternatives import Proposal, extract_proposals, resolve_reference
from detector.cues.engine import CueMatch, default_engine
from detector.openings import first_clause, opened_by
from detector.schema import POSITIVE_LABELS, SuppressionReason, Turn
from detector.text import CJK_CHAR, ends_as_question, in_mandarin, normalize, tokenize

SUPPRESSION_REASONS: tuple[str, ...] = get_args(SuppressionReason)

_OFFER_RE = re.compile(
    r"要不要我|需要我|我可以帮你|要我帮你|我帮你|我来帮你|帮你(?:订|预约|安排|写|改|生成)|would you like me to|want me to|shall I|"
    r"should I|I can (?:also )?(?:book|set up|draft|write|create|add|order|schedule)|do you want me",
    re.IGNORECASE,
)
_ANYTHING_ELSE_RE = re.compile(r"还有(?:什么|别的|其他|其它)|还需要(?:什么|别的)|anything else|something else I can|other questions", re.IGNORECASE)
# Words that suggest an earlier user turn rejected something; cheap on purpose (it runs over the
# context of every turn), the classifier learns how much to trust it.
_REJECT_HINT_RE = re.compile(
    r"不行|不要|算了|放弃|作废|否了|不考虑|不用了|别再|pass|换成|改用|不对|太贵|"
    r"\b(?:drop|scrap|ditch|forget|no|nah|nope|instead|rule out|kill|skip|not)\b",
    re.IGNORECASE,
)
_CONTENT_WORD_RE = re.compile(rf"[A-Za-z][A-Za-z0-9+#.\-]{{2,30}}|[{CJK_CHAR}]{{2}}")


# How much of the last assistant turn is read: its end, where options and questions are.
PREVIOUS_ASSISTANT_CHARS = 2000


@dataclass(slots=True)
class TurnExample:
    """One user turn with what the features need of its context."""

    text: str
    previous_assistant: str = ""
    earlier_user: list[str] = field(default_factory=list)
    cue_match: CueMatch | None = None


def make_example(text: str, context: Sequence[Turn], cue_match: CueMatch | None = None) -> TurnExample:
    """Build the classifier's view of a turn: its text, the last assistant turn, earlier user turns."""
    previous_assistant = last_assistant_text(context)
    earlier_user = [t.text for t in context if t.role == "user" and t.text][-12:]
    return TurnExample(
        text=normalize(text),
        previous_assistant=normalize(previous_assistant)[-PREVIOUS_ASSISTANT_CHARS:],
        earlier_user=[normalize(t)[:500] for t in earlier_user],
        cue_match=cue_match,
    )


def assistant_texts_latest_first(context: Sequence[Turn]) -> Iterator[str]:
    """The assistant's turns that have words, the latest first (tool-call-only turns skipped), in
    simplified Mandarin (`in_mandarin`): the rules that read them are written in it."""
    return (in_mandarin(t.text) for t in reversed(context) if t.role == "assistant" and t.text)


def reply_options(reply: str) -> tuple[Proposal, ...]:
    """The options a reply offers, read from its end (where options and questions are), as the
    context columns, the prohibition rule and the fusion read them."""
    return extract_proposals(normalize(reply)[-PREVIOUS_ASSISTANT_CHARS:])


def recent_assistant_texts(context: Sequence[Turn], count: int) -> list[str]:
    """The last `count` assistant turns' texts, oldest first: where an earlier offer or change may
    stand (a tool-call-only turn counts, with no words), in simplified Mandarin (`in_mandarin`)."""
    replies = [turn.text for turn in context if turn.role == "assistant"][-count:]
    return [in_mandarin(reply) for reply in replies]


def last_assistant_text(context: Sequence[Turn]) -> str:
    """The assistant's last words before the turn: what a user's "别用这个" or "no" answers."""
    return next(assistant_texts_latest_first(context), "")


def turn_text(example: TurnExample) -> str:
    """The user's words, lower-cased: what the n-gram vectorizers read."""
    return example.text.lower()


def word_tokens(text: str) -> list[str]:
    """Word tokens for the word n-gram vectorizer: jieba for CJK runs, spaCy for the rest."""
    return tokenize(text)


def cue_feature_names(cue_ids: Sequence[str]) -> list[str]:
    """Names of the cue columns: one per cue id (its weight when it fired), one per label (the
    rules score), one per suppression reason (how many cues that guard vetoed). Cue columns
    follow lexicon order; new cues append columns, so names stay stable across additions."""
    return (
        [f"cue={cue_id}" for cue_id in cue_ids]
        + [f"rules_score={label.value}" for label in POSITIVE_LABELS]
        + [f"suppressed={reason}" for reason in SUPPRESSION_REASONS]
    )


def cue_match_of(example: TurnExample) -> CueMatch:
    """The example's cue match: the one detection already made, else matched now."""
    return example.cue_match if example.cue_match is not None else default_engine().match(example.text)


def cue_row(example: TurnExample, column_of: dict[str, int]) -> list[tuple[int, float]]:
    """The non-zero (column, value) pairs of the cue columns, for `cue_feature_names` order."""
    from detector.detect import rules_scores

    match = cue_match_of(example)
    n_cues = len(column_of)
    pairs = [(column_of[hit.cue_id], hit.weight) for hit in match.fired if hit.cue_id in column_of]
    scores = rules_scores(match)
    pairs += [(n_cues + i, scores[label]) for i, label in enumerate(POSITIVE_LABELS) if scores[label]]
    base = n_cues + len(POSITIVE_LABELS)
    pairs += [(base + SUPPRESSION_REASONS.index(s.reason), 1.0) for s in match.suppressed]
    return pairs


CONTEXT_FEATURES = (
    "assistant_lists_options",
    "assistant_single_proposal",
    "assistant_offers_help",
    "assistant_asks_anything_else",
    "assistant_asks_question",
    "user_names_option_label",
    "user_points_at_proposal",
    "user_opens_with_option",
    "earlier_user_rejected",
    "overlap_with_earlier_rejection",
    "user_turn_is_question",
    "user_turn_long",
    "user_turn_very_long",
)
# A message of several paragraphs (status, numbered questions, one point that drops an option):
# its n-grams are many and mixed, and their weights were learned on one-line turns.
LONG_TURN_CHARS = 300
VERY_LONG_TURN_CHARS = 700


def context_row(example: TurnExample) -> list[float]:
    """Does the previous assistant turn propose options, and does this turn point at them?

    These decide what keywords cannot: "不用了" declines an offer but answers "anything else?";
    "回到A" only reopens when A was turned down earlier. Values in CONTEXT_FEATURES order.
    """
    proposals = extract_proposals(example.previous_assistant) if example.previous_assistant else ()
    points_at = bool(proposals) and resolve_reference(None, example.text, proposals) is not None
    names_label = any(
        proposal.label.lower() in example.text.lower() or proposal.name.lower()[:12] in example.text.lower()
        for proposal in proposals
        if len(proposal.name) >= 2
    )
    rejecting_turns = [text for text in example.earlier_user if _REJECT_HINT_RE.search(text)]
    return [
        float(len(proposals) >= 2),
        float(len(proposals) == 1),
        float(bool(_OFFER_RE.search(example.previous_assistant[-300:]))),
        float(bool(_ANYTHING_ELSE_RE.search(example.previous_assistant[-200:]))),
        float(ends_as_question(example.previous_assistant)),
        float(names_label),
        float(points_at and names_label),
        float(_opens_with_option(example.text, proposals)),
        float(bool(rejecting_turns)),
        _overlap(example.text, rejecting_turns),
        # No turn-position feature: conversations open with a request, so it would teach a
        # shortcut that drops a rejection checked on its own or after the history was trimmed.
        float(ends_as_question(example.text)),
        float(len(example.text) >= LONG_TURN_CHARS),
        float(len(example.text) >= VERY_LONG_TURN_CHARS),
    ]


def _opens_with_option(text: str, proposals: Sequence[Proposal]) -> bool:
    """Does a short turn open with the words of an option just listed ("泡馍得单独一口大锅熬汤", "8
    endings. I am one person")? Then what follows is said of that option; the n-grams see the
    complaint, and only this column sees what it is about. Not in a message of several points,
    whose first clause is often a recap of the option before the news on another."""
    if not proposals or len(text) >= LONG_TURN_CHARS:
        return False
    return opened_by(first_clause(text), proposals) is not None


def _overlap(text: str, others: Sequence[str]) -> float:
    """Share of this turn's content words that an earlier rejecting turn also used."""
    words = set(_CONTENT_WORD_RE.findall(text.lower()))
    if not words or not others:
        return 0.0
    return max(len(words & set(_CONTENT_WORD_RE.findall(other.lower()))) / len(words) for other in others)
