"""The text an agent puts in its checkpoint: [SEMANTIC CONVERGENCE], [SOLIDIFIED], key_info.

Deterministic (same state, same text) and bounded: the ten most recent rejections are shown in
full, older ones are folded into a count, long fields are cut. The language follows the
conversation: Chinese headings for zh, English for en and mixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from detector.schema import ConvergenceState, Turn

MAX_REJECTIONS_SHOWN = 10
MAX_FIELD_CHARS = 160


@dataclass(frozen=True, slots=True)
class _Words:
    current: str
    rejected: str
    constraints: str
    open: str
    next: str
    since: str
    why: str
    rejected_at: str
    reason: str
    revisit: str
    none: str
    older: str
    default_revisit: str
    key_line: str
    which_one: str
    reconsidering: str


_ZH = _Words(
    current="当前结论",
    rejected="已否决",
    constraints="稳定约束",
    open="仍待决策",
    next="下一步",
    since="（自第{turn}轮）",
    why="。理由：{why}",
    rejected_at="否决于：第{turn}轮",
    reason="原因：{reason}",
    revisit="重新考虑的条件：{revisit}",
    none="（暂无）",
    older="另有 {count} 个更早被否决的方案（见历史）",
    default_revisit="用户重新提出，或出现新的约束或证据",
    key_line="{alt}：第{turn}轮用户否决，原因是{reason}；除非{revisit}，否则不再回溯",
    which_one="选哪个：{names}",
    reconsidering="重新考虑：{name}",
)
_EN = _Words(
    current="Current decision",
    rejected="Rejected alternatives",
    constraints="Stable constraints",
    open="Open questions",
    next="Next action",
    since=" (since turn {turn})",
    why=". Why: {why}",
    rejected_at="Rejected at: turn {turn}",
    reason="Reason: {reason}",
    revisit="Revisit only if: {revisit}",
    none="(none yet)",
    older="{count} older rejected alternatives (see history)",
    default_revisit="the user brings it back, or new constraints or evidence appear",
    key_line="{alt}: rejected by the user at turn {turn} because {reason}; do not revisit unless {revisit}",
    which_one="Which one: {names}",
    reconsidering="Reconsidering: {name}",
)


def _words(lang: str) -> _Words:
    return _ZH if _in_chinese(lang) else _EN


def _in_chinese(lang: str) -> bool:
    """Chinese for zh and for mixed: mixed text is Chinese sentences carrying English terms ("这个
    microservices 的方案 pass 吧"), written by people who read Chinese; English speakers seldom
    write Chinese characters."""
    return lang in ("zh", "mixed")


def which_one(lang: str, names: str) -> str:
    """The open question of undecided options, in the conversation's language."""
    return _words(lang).which_one.format(names=names)


def reconsidering(lang: str, name: str) -> str:
    """The open question of a reopened option, in the conversation's language."""
    return _words(lang).reconsidering.format(name=name)


def default_revisit_if(lang: str) -> str:
    """The revisit condition when the user gave none."""
    return _words(lang).default_revisit


def _cut(text: str | None, limit: int = MAX_FIELD_CHARS) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _body(state: ConvergenceState) -> list[str]:
    w = _words(state.lang)
    lines = [f"{w.current}:"]
    decision = state.current_decision
    if decision is None:
        lines.append(f"- {w.none}")
    else:
        line = f"- {_cut(decision.text)}{w.since.format(turn=decision.since_turn)}"
        if decision.rationale:
            line += w.why.format(why=_cut(decision.rationale))
        lines.append(line)
    lines.append(f"{w.rejected}:")
    shown = state.rejected[-MAX_REJECTIONS_SHOWN:]
    if not shown:
        lines.append(f"- {w.none}")
    for rejection in shown:
        lines.append(f"- {_cut(rejection.alternative)}")
        lines.append(f"  - {w.rejected_at.format(turn=rejection.rejected_at)}")
        if rejection.reason:
            lines.append(f"  - {w.reason.format(reason=_cut(rejection.reason))}")
        lines.append(f"  - {w.revisit.format(revisit=_cut(rejection.revisit_if))}")
    older = len(state.rejected) - len(shown)
    if older:
        lines.append(f"- {w.older.format(count=older)}")
    for heading, items in (
        (w.constraints, state.constraints[-8:]),
        (w.open, state.open_questions[-5:]),
        (w.next, [state.next_action] if state.next_action else []),
    ):
        lines.append(f"{heading}:")
        lines += [f"- {_cut(item)}" for item in items] or [f"- {w.none}"]
    return lines


def render_convergence(state: ConvergenceState) -> str:
    """The [SEMANTIC CONVERGENCE] block of DESIGN §4."""
    return "\n".join(["### [SEMANTIC CONVERGENCE]", *_body(state)])


def render_solidified(state: ConvergenceState) -> str:
    """The [SOLIDIFIED] block, answering the user's /converge or /solidify."""
    return "\n".join(["### [SOLIDIFIED]", *_body(state)])


def render_key_info(state: ConvergenceState) -> str:
    """The short form: one line per rejected alternative, to merge into an agent's notes."""
    w = _words(state.lang)
    unknown = "未说明" if _in_chinese(state.lang) else "no reason given"
    return "\n".join(
        w.key_line.format(
            alt=_cut(r.alternative, 60), turn=r.rejected_at, reason=_cut(r.reason or unknown, 80), revisit=_cut(r.revisit_if, 80)
        )
        for r in state.rejected[-MAX_REJECTIONS_SHOWN:]
    )


BlockForm = Literal["full", "short", "solidified"]


def render_block(state: ConvergenceState, form: BlockForm = "full") -> str:
    """The state as one of the three forms an agent can ask for (CLI `pivot state show`, HTTP)."""
    renderers = {"full": render_convergence, "short": render_key_info, "solidified": render_solidified}
    return renderers[form](state)


_INSTRUCTIONS = {
    "zh": {
        "rejection": "用户否决了一个方向。请立即用下面的块更新你的工作检查点（checkpoint），之后不要再提出已否决的方案。",
        "pivot": "用户放弃了一个方向并改用另一个。请立即用下面的块更新你的工作检查点，按新的当前结论继续，不要回到已否决的方案。",
        "reopen": "用户重新提出了一个此前否决的方向。请用下面的块更新你的工作检查点，它已移出否决列表。",
        "turn_reminder": "距上次更新检查点已有多轮探索。请用下面的块核对并更新你的工作检查点。",
        "solidify_command": "用户要求固化当前结论。请把下面的块写入你的工作检查点，并简要复述给用户确认。",
    },
    "en": {
        "rejection": "The user rejected a direction. Update your working checkpoint with the block below now, and do not propose a rejected alternative again.",
        "pivot": "The user abandoned a direction for another. Update your working checkpoint with the block below now and continue from the current decision; do not go back to a rejected alternative.",
        "reopen": "The user brought back a direction rejected earlier. Update your working checkpoint with the block below; it is no longer on the rejected list.",
        "turn_reminder": "Several exploratory turns have passed since your last checkpoint. Check and update your working checkpoint with the block below.",
        "solidify_command": "The user asked to solidify the current state. Write the block below into your working checkpoint and summarise it back to the user.",
    },
}


def instruction_for(trigger: str, lang: str) -> str:
    """One or two sentences telling the agent what to do with the block."""
    return _INSTRUCTIONS["zh" if _in_chinese(lang) else "en"][trigger]


def render_history(turns: Sequence[Turn], limit: int = 30) -> str:
    """The dialogue as the user and the assistant said it, for agents that squeeze their history.

    User turns and the assistant's natural-language turns, in order; tool calls, tool results and
    system turns are left out; the most recent `limit` are kept and older ones folded into one
    archive line that gives their count.
    """
    spoken = [t for t in turns if t.role in ("user", "assistant") and t.text.strip()]
    kept = spoken[-limit:] if limit > 0 else []
    lines = []
    folded = len(spoken) - len(kept)
    if folded:
        lines.append(f"[archive: {folded} earlier turns folded]")
    lines += [f"{turn.role}: {' '.join(turn.text.split())}" for turn in kept]
    return "\n".join(lines)
