"""A copy of the package with the current relapse code and the lexicons of an older commit.

`python -m training.relapse_frozen COMMIT DEST` writes DEST/detector: today's code, with
`detector/relapse/vocabulary.py` and `stance_cues.py` (the word lists, kin groups, categories and
cue patterns) as they were at COMMIT. A name the old lexicons lack is filled with what matches
nothing (a never-matching pattern, an empty collection), so no later vocabulary leaks in.

Why: every development round tuned those lexicons on its own dev set, so a leave-one-set-out
figure computed with today's lexicons has seen the held-out set. With the lexicons from the commit
that added a set (before any tuning on it), `PYTHONPATH=DEST python -m training.relapse_scorer`
measures the rules and the scorer the way the first looks measured the rules. Today's code was
tuned on those sets too, so even this figure is somewhat optimistic.
"""

from __future__ import annotations

import argparse
import importlib
import re
import shutil
import subprocess
from pathlib import Path

LEXICONS = ("vocabulary", "stance_cues")
_NEVER = 're.compile(r"(?!)")'


def filler(value: object) -> str | None:
    """Source for a value of the same kind as `value` that adds no vocabulary (None: keep as is)."""
    if isinstance(value, re.Pattern):
        return _NEVER
    for kind in (frozenset, set, tuple, list, dict):
        if isinstance(value, kind):
            return f"{kind.__name__}()"
    return None


def build(commit: str, dest: Path, source: Path = Path(".")) -> None:
    """Write DEST/detector: today's code, the lexicons at `commit`, gaps filled with nothing."""
    target = dest / "detector"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source / "detector", target, ignore=shutil.ignore_patterns("__pycache__"))
    for name in LEXICONS:
        relative = f"detector/relapse/{name}.py"
        old = subprocess.run(["git", "show", f"{commit}:{relative}"], capture_output=True, text=True, check=True).stdout
        current = importlib.import_module(f"detector.relapse.{name}")
        defined = set(re.findall(r"^([A-Z_][A-Z0-9_]*)\s*[:=]", old, re.MULTILINE))
        additions = []
        for attribute in dir(current):
            if attribute.isupper() and attribute not in defined:
                value = getattr(current, attribute)
                source_text = filler(value)
                additions.append(f"{attribute} = {source_text if source_text else repr(value)}")
        header = "import re\n" if additions else ""
        (dest / relative).write_text(old + f"\n\n# Filled by training/relapse_frozen.py\n{header}" + "\n".join(additions) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit")
    parser.add_argument("dest", type=Path)
    args = parser.parse_args(argv)
    build(args.commit, args.dest)
    print(args.dest / "detector")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
