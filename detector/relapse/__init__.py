"""Does an assistant reply bring a rejected alternative back?

Naming a rejected option is not a relapse: "之前已否决 Redis（运维成本高），继续推进本地 LRU" is
exactly what a well-behaved agent writes. Each sentence of the reply is searched for *mentions* of
each rejected alternative, and each mention is read for its *stance*.

1. Mentions. Strong: a name of the alternative (its proper names, "Redis" of "Redis 集中式缓存",
   "Swarm" of "Docker Swarm" but never "React" of "React Native"; all the distinctive words of a
   description; three characters in a row of a CJK name), its label ("方案A"), or a kin form
   (variants, managed or lite editions: "ElastiCache", "k3s"; data in `vocabulary.KIN_GROUPS`).
   Weak: part of a description ("tutoring" of "in-person tutoring center", "起诉" of "走法律途径起诉"),
   a category ("a message broker" for Kafka) or a sibling product ("Dagster" for Airflow), a pointer
   back ("回到之前那个方案", "the option we dropped"). What the current decision shares with it ("缓存" when "本地 LRU 缓存" is current)
   names neither.
2. Stance. A mention is framed when the words around it rule it out, tell its history, compare
   against it, negate it, agree with the user's rejection, restate why it was rejected, or give it
   as the reason for the current decision (已否决 / 不上 K8s / unlike Redis / 对，那国债也不太合适 /
   Kyoto would have been packed / hardwood would show scratches). An unframed mention relapses when its sentence puts something forward: a strong one
   with any proposal or praise (也可以 / would solve / the standard choice) or a verb right before
   it that governs it ("create a Notion workspace", "直接去法院打官司"), in an instruction ("park
   the log in DynamoDB"), or said to make a problem go away; a weak one only with an explicit
   suggestion (建议 / 不妨 / worth); a name alone is as often logistics as a relapse. Praise inside
   a clause about the current decision proposes nothing else; a next sentence that points back and
   proposes ("Maybe bring them back?") puts an unframed mention forward.
   "I know you ruled it out, but …" relapses when what follows the "but" proposes without going
   back to the current decision, and so does arguing the rejection's reason away ("a managed
   service would solve the ops cost"). A sentence that puts the option off to the user's own
   revisit condition ("等下季度流量稳定了再说" → "下季度看 … Savings Plans 推荐") brings nothing back.

3. The learned scorer. The rules' gains came from vocabulary seen in each development set; on an
   unseen set most misses named the option by a paraphrase or a sibling product, not a mention.
   When the rules find nothing, a logistic regression over general features (is something other
   than the current decision suggested, does it share words with the option, is a mention framed)
   calls a relapse at the threshold stored with its weights, but only about a reply that touches
   the option (a mention, or words shared with it or with the rejection reason): on ordinary
   conversations, where most replies suggest something and few name the rejected option, it
   otherwise flagged compliant replies by the dozen. The README gives the figures.

Precision comes first in the rules (a false alarm on a reply that names the option as rejected is
the worst error): when a rule is unsure it leans to OK, and the lexicons are small, explicit data.
The scorer trades some precision for recall. Everything is stdlib `re` with literal alternations
and bounded windows, an alternative's names are compiled once and cached: a check takes about
0.1 ms (0.3 ms when the scorer reads the reply too), the first one in a fresh process 2 ms.

Modules, one job each:

- `vocabulary`: kin groups, categories, word lists and the patterns names are read with (data).
- `stance_cues`: the words around a mention that frame it or put it forward (data).
- `words`: stems and CJK character pairs, the units texts are compared in.
- `kin`: which kin groups and categories an alternative belongs to.
- `names`: how an alternative can be named, compiled once per alternative and current decision.
- `mentions`: where a sentence names an alternative, strongly or weakly.
- `sentences`: the reply cut into sentences, a checkpoint's "Rejected:" section left out.
- `stance`: whether a mention is framed where it stands.
- `rebuttal`: arguing the rejection's reason away, which brings the option back unnamed.
- `rules`: the hand-set decision, the first mention read as put forward.
- `features`: general features of a reply against one alternative, for the learned scorer.
- `scorer`: the learned scorer's weights (`scorer_weights.json`, from training/relapse_scorer.py).
- `verdict`: `judge_reply`: the rules decide, a rejection named outright before one named by kind;
  without either, the scorer may.
"""

from detector.schema import ConvergenceState, RelapseVerdict
from detector.text import normalize

__all__ = ["check_reply"]


def check_reply(state: ConvergenceState, reply: str) -> RelapseVerdict:
    """RELAPSE when a reply puts a currently rejected alternative forward again.

    With nothing rejected, or nothing said, there is nothing to read, and the guard's modules are
    not loaded: they compile their lexicons and patterns on import, about 70 ms of a fresh hook
    process, which most assistant turns of a conversation (those before any rejection) never need."""
    text = normalize(reply)
    if not text or not state.rejected:
        return RelapseVerdict(verdict="OK", reason="no rejected alternative to relapse to" if text else "empty reply")
    from detector.relapse.verdict import judge_reply

    return judge_reply(state, text)
