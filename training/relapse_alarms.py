"""How many of the relapse guard's alarms on ordinary conversations are true, from judged alarms.

    pivot scan data/dev.jsonl data/test.jsonl --out /tmp/alarms.jsonl
    python -m training.relapse_alarms /tmp/alarms.jsonl [--judged data/relapse_alarms_judged.jsonl]

The curated relapse sets are about half relapses, and their OK replies mostly name the rejected
option; ordinary replies after a rejection mostly do neither, so precision there is what a user of
the guard feels. `data/relapse_alarms_judged.jsonl` holds alarms raised on the dev and test
conversations, each judged blind (TRUE_RELAPSE, FALSE_ALARM or UNCLEAR). A changed guard raises
some alarms nobody judged yet: they are counted apart, to be judged and added.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

JUDGED = Path(__file__).resolve().parent.parent / "data" / "relapse_alarms_judged.jsonl"


def alarm_figures(scan_output: Path, judged: Path = JUDGED) -> dict[str, object]:
    """Verdicts of the judged alarms among a scan's relapse records, and the unjudged count."""
    verdicts = {
        (row["conversation_id"], row["flagged_turn"]): row["verdict"]
        for row in map(json.loads, judged.read_text(encoding="utf-8").splitlines())
    }
    with scan_output.open(encoding="utf-8") as lines:
        alarms = [(r["conversation_id"], r["turn"]) for r in map(json.loads, lines) if r.get("type") == "relapse"]
    counts = Counter(verdicts.get(alarm, "UNJUDGED") for alarm in alarms)
    decided = counts["TRUE_RELAPSE"] + counts["FALSE_ALARM"]
    return {
        "alarms": len(alarms),
        "verdicts": dict(counts),
        "precision_of_judged": round(counts["TRUE_RELAPSE"] / decided, 3) if decided else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.relapse_alarms", description=__doc__.splitlines()[0])
    parser.add_argument("scan_output", type=Path, help="the JSONL that `pivot scan --out` wrote")
    parser.add_argument("--judged", type=Path, default=JUDGED)
    args = parser.parse_args(argv)
    print(json.dumps(alarm_figures(args.scan_output, args.judged), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
