"""The README's two set-up commands stay true: CI runs the test one verbatim."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```\n(.+?)\n```", section)


def test_readme_has_exactly_two_setup_commands() -> None:
    commands = _setup_commands()
    assert len(commands) == 2
    assert "pivot detect --file examples/conversation.jsonl" in commands[0]
    assert commands[1].endswith("pytest")


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _setup_commands()[1] in ci_lines


def test_example_conversation_exists_in_both_languages() -> None:
    text = (ROOT / "examples" / "conversation.jsonl").read_text(encoding="utf-8")
    assert '"lang": "zh"' in text and '"lang": "en"' in text
