"""An order to undo the change a coding agent just reported ("revert that", "撤回吧") against the same
words as a question, a condition, a report, an operation under discussion or a quote."""

from __future__ import annotations

import pytest

from detector.cues.engine import default_engine
from detector.detect import FORBIDDING_CONFIDENCE
from detector.reverts import reported_change, reverted_change
from detector.schema import Label, Turn
from detector.text import normalize

_PYDANTIC = "I've updated `parse_config` to use pydantic models instead of raw dicts and migrated the three call sites."
_BUMP = "Done. I also bumped react-router to v7 since the old version had a deprecation warning."
_JWT = "我把登录接口改成了用 JWT，session 相关的代码都删掉了。"
_OPTIONS = "Two ways: 1) add a mutex around the cache writes, 2) use a sync.Map. I'd go with 2."


def _context(reply: str) -> list[Turn]:
    return [Turn(role="user", text="fix it"), Turn(role="assistant", text=reply)]


def _reverted(reply: str, text: str) -> str | None:
    return reverted_change(normalize(text), _context(reply), default_engine())


@pytest.mark.parametrize("reply, change", [
    (_PYDANTIC, "updated parse_config to use pydantic models instead of raw dicts"),
    (_BUMP, "bumped react-router to v7"),
    (_JWT, "登录接口改成了用 JWT"),
    # Agents report with an adverb or a place between 我 and 把, or with 已 alone.
    ("三个埋点都加好了。另外我顺手把 tracker 换成了 Segment 的 analytics.js。", "tracker 换成了 Segment 的 analytics.js"),
    ("已在 config.yaml 里把 recorder 设成 MariaDB 了。", "recorder 设成 MariaDB 了"),
    ("Done — 34 files. I also turned `userService.ts` into a `UserService` class, since the functions were hard to mock.",
     "turned userService.ts into a UserService class"),
    # What it says it will do, when it reports nothing done.
    ("I'll add a Redis cache in front of the user service.", "add a Redis cache in front of the user service"),
    # A change log's line, the verb first, when no report says "I" (session 48).
    ("Added a retry loop in the command:\n\n```\n+ for attempt in range(1, 11):\n```\nUp to 10 attempts.",
     "Added a retry loop in the command"),
    ("I've renamed the module. Added a changelog entry too.", "renamed the module"),
    # Two changes reported are no one change.
    ("I've renamed the module. I've also removed the old CLI flags.", None),
    ("Added a retry loop. Switched the pool to asyncio.", None),
    (_OPTIONS, None),
])
def test_the_change_a_reply_reports(reply: str, change: str | None) -> None:
    assert reported_change(normalize(reply)) == change


@pytest.mark.parametrize("reply, text", [
    (_PYDANTIC, "revert that. we can't add pydantic as a dependency to this package"),
    (_PYDANTIC, "undo the pydantic change, keep the dicts"),
    (_PYDANTIC, "no, put it back"),
    (_BUMP, "roll back the react-router bump, v7 breaks our loaders"),
    (_BUMP, "ugh. back out the bump, only fix what I asked"),
    (_JWT, "撤回吧，网关那边只认 session，JWT 现在接不了"),
    (_JWT, "不行，回滚，网关只认 session"),
    (_JWT, "把这个改动撤销掉"),
    (_JWT, "回滚 JWT 那部分，网关只认 session"),  # words of the change
    ("Done. I also replaced `github.com/pkg/errors` with the stdlib everywhere else in the repo (41 files).",
     "revert everything outside internal/store. scope creep"),  # a scope of the change
    # A polite request orders as an order does.
    (_PYDANTIC, "can you revert that? we can't add pydantic as a dependency"),
    (_PYDANTIC, "could you undo the pydantic change"),
    (_JWT, "能不能撤回一下，网关那边只认 session"),
])
def test_an_order_to_undo_the_reported_change_names_it(reply: str, text: str) -> None:
    assert _reverted(reply, text) == reported_change(normalize(reply))


@pytest.mark.parametrize("reply, text", [
    (_PYDANTIC, "should we revert that?"),  # a question
    (_PYDANTIC, "revert that? or is there a cleaner fix"),
    (_PYDANTIC, "if CI fails, revert"),
    (_JWT, "要是压测过不了，就回滚"),
    (_PYDANTIC, "my lead said: revert it all. I disagree, keep it"),
    (_JWT, "老板说，回滚吧。我觉得不用"),
    (_PYDANTIC, "```\ngit revert HEAD\n```\nwhat does this do"),
    (_PYDANTIC, "if the tests fail, revert it"),  # a condition
    (_PYDANTIC, "don't revert that, it's fine"),  # negated
    (_PYDANTIC, "my lead wants to revert it but I think it's fine"),  # reported, not adopted
    (_PYDANTIC, "the deploy log says `rollback complete`"),  # code
    (_PYDANTIC, "nice. can you also make it easy to undo later"),  # not an order opening a clause
    (_JWT, "要不要撤回？"),  # a deliberation, not a request
    (_PYDANTIC, "if the build breaks, can you revert it?"),  # a request for a case that may not come
    (_JWT, "这个任务中间失败要回滚前面的，补偿逻辑怎么写"),  # an operation under discussion
    (_JWT, "回滚到 session 那版要多久"),  # where to go back to: a reopening cue's business
    (_OPTIONS, "revert that"),  # the reply reports no change
    (_PYDANTIC, "ok. now undo the debug prints you added earlier"),  # another change than the one reported
    (_BUMP, "revert the lockfile churn in the docs folder"),
])
def test_the_same_words_elsewhere_order_nothing(reply: str, text: str) -> None:
    assert _reverted(reply, text) is None


def test_a_bare_pointer_undoes_only_the_last_reply() -> None:
    context = [*_context(_PYDANTIC), Turn(role="user", text="ok"), Turn(role="assistant", text=_OPTIONS)]
    assert reverted_change("revert that", context, default_engine()) is None
    assert reverted_change("revert that", [], default_engine()) is None


_LATER = [*_context(_PYDANTIC), Turn(role="user", text="ok, and the tests?"), Turn(role="assistant", text=_OPTIONS)]


@pytest.mark.parametrize("text, change", [
    # The order names what an earlier reply did; its words, without the when.
    ("before anything else, back out the pydantic models thing from earlier. no refactor in this PR", "pydantic models"),
    ("also revert the parse_config change, raw dicts are fine", "parse_config"),
    # The user recalls the change right before pointing at it.
    ("makes sense. separate thing: in your first pass you also wrapped fetchConfig in root.go with the retry. undo that.",
     "wrapped fetchConfig in root.go with the retry"),
])
def test_an_order_reaches_back_for_an_earlier_change(text: str, change: str) -> None:
    assert reverted_change(normalize(text), _LATER, default_engine()) == change


@pytest.mark.parametrize("text", [
    "revert my last commit, the pydantic bump",  # the user's own work
    "put pydantic back, the dict version is too loose",  # bringing an option back: a reopening
    "undo the lockfile churn in the docs folder",  # no reply did that
    "in your first pass I wrapped the loader myself. undo that",  # the user's own work, recalled
])
def test_an_order_reaches_back_for_nothing_else(text: str) -> None:
    assert reverted_change(normalize(text), _LATER, default_engine()) is None


def test_an_undone_change_is_rejected_and_its_return_is_a_relapse(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """The change is the assistant's, in its words: a later reply that puts it forward again
    relapses, one that names it as ruled out does not."""
    from detector.store import MemoryStore
    from detector.tracker import ConvergenceTracker

    tracker = ConvergenceTracker(shipped_detector, MemoryStore())
    tracker.observe_user("c", "fix the deprecation warning in the router setup")
    tracker.observe_assistant("c", Turn(role="assistant", text=_BUMP))
    suggestion = tracker.observe_user("c", "roll back the react-router bump, v7 breaks our loaders")
    assert suggestion is not None and suggestion.trigger == "rejection"
    state = tracker.state("c")
    assert [r.alternative for r in state.rejected] == ["bumped react-router to v7"]
    assert next(a for a in state.alternatives if a.summary == "bumped react-router to v7").proposed_by == "assistant"
    tracker.observe_user("c", "good. now the flaky login test")
    again = tracker.observe_assistant(
        "c", Turn(role="assistant", text="The cleanest fix is to upgrade react-router to v7, which removes the legacy API.")
    )
    assert again is not None and again.verdict == "RELAPSE"
    tracker.observe_user("c", "no")
    ruled_out = tracker.observe_assistant(
        "c", Turn(role="assistant", text="Since v7 was ruled out because it breaks the loaders, I'll pin the mock clock instead.")
    )
    assert ruled_out is not None and ruled_out.verdict == "OK"


_SWITCH = "I've switched the worker pool from threads to asyncio and batched the S3 uploads."
_HTTPX = "我把 HTTP 客户端从 requests 换成了 httpx，测试都过了。"


@pytest.mark.parametrize("reply, text, back", [
    (_SWITCH, "hmm go back to threads, the PIL calls block the event loop anyway", ("asyncio", "threads")),
    (_SWITCH, "switch it back to threads please", ("asyncio", "threads")),
    ("Done. I replaced requests with httpx in the API client and updated the tests.",
     "revert to requests please, httpx breaks our proxy setup", ("httpx", "requests")),
    (_HTTPX, "换回 requests 吧，httpx 在我们的代理下有问题", ("httpx", "requests")),
    ("我已经把状态管理从 Redux 迁移到了 Zustand。", "回到 Redux，团队都熟", ("Zustand", "Redux")),
])
def test_an_order_to_return_to_what_the_change_replaced(reply: str, text: str, back: tuple[str, str]) -> None:
    from detector.reverts import returned_to

    assert returned_to(normalize(text), _context(reply), default_engine()) == back


@pytest.mark.parametrize("reply, text", [
    (_SWITCH, "should we go back to threads?"),  # a question
    (_SWITCH, "if it's slower, go back to threads"),  # a condition
    (_SWITCH, "my lead says go back to threads, I disagree"),  # reported
    (_SWITCH, "ok back to the tests: why does test_resize fail?"),  # back to another topic
    (_SWITCH, "go back to asyncio's docs and check the executor section"),  # what the change brought in
    (_BUMP, "go back to v6"),  # the reply reports no "from X to Y"
])
def test_the_same_words_elsewhere_return_to_nothing(reply: str, text: str) -> None:
    from detector.reverts import returned_to

    assert returned_to(normalize(text), _context(reply), default_engine()) is None


def test_a_return_is_a_pivot_back_and_the_change_comes_back_as_a_relapse(shipped_detector) -> None:  # type: ignore[no-untyped-def]
    """"go back to threads" fires a reopening cue, but threads was never rejected: it is a PIVOT
    from what the change brought in to what it replaced."""
    from detector.store import MemoryStore
    from detector.tracker import ConvergenceTracker

    text = "hmm go back to threads, the PIL calls block the event loop anyway"
    detection = shipped_detector.detect(text, _context(_SWITCH))
    assert (detection.label, detection.target, detection.replacement) == (Label.PIVOT, "asyncio", "threads")
    assert detection.confidence >= FORBIDDING_CONFIDENCE
    tracker = ConvergenceTracker(shipped_detector, MemoryStore())
    tracker.observe_user("c", "the image resize worker is slow, can you speed it up?")
    tracker.observe_assistant("c", Turn(role="assistant", text=_SWITCH))
    suggestion = tracker.observe_user("c", text)
    assert suggestion is not None and suggestion.trigger == "pivot"
    state = tracker.state("c")
    assert state.current_decision is not None and state.current_decision.text == "threads"
    assert [r.alternative for r in state.rejected] == ["asyncio"]
    tracker.observe_user("c", "ok good")
    again = tracker.observe_assistant(
        "c", Turn(role="assistant", text="Another option would be to move the pool to asyncio with run_in_executor.")
    )
    assert again.verdict == "RELAPSE"


@pytest.mark.parametrize(
    "text, target",
    [
        ("delete the HPA you just made. it went to 8 and general-b is worse", "HPA"),
        ("remove the retry wrapper you added, the job's backoffLimit covers it", "retry wrapper"),
    ],
)
def test_removing_what_the_agent_made_rejects_it(shipped_detector, text: str, target: str) -> None:  # type: ignore[no-untyped-def]
    """"you just made" says the thing came from the agent's own work (no such turn was in train)."""
    context = _context("Scaled report-worker with an HPA (min 2, max 8) and wrapped the upload in a retry wrapper.")
    found = shipped_detector.detect(text, context)
    assert found.label.is_positive
    assert target.lower() in (found.target or "").lower()
