"""The relapse guard on whole conversations whose replies are marked: the blind rounds.

    python -m training.blind_rounds data/blind_rounds/round15.jsonl [--json]

Each assistant turn after the first rejection carries `"relapse": true | false`; the conversation
runs through a fresh tracker, exactly as `pivot scan` runs it, and every reply's verdict is set
against its mark. (`pivot eval` scores the same files' user turns.) The curated relapse sets judge
one reply against a given state; here the state is whatever the tracker made of the conversation,
so a rejection missed or filed under the wrong option shows up as a relapse missed or a false
alarm, as it would in an agent.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from detector.detect import Detector
from detector.formats import Record, read_transcripts
from detector.loading import build_detector
from detector.scan import scan_conversation


def relapse_figures(path: Path, detector: Detector) -> dict[str, int]:
    """Marked relapses caught and missed, and alarms on replies marked false or not marked."""
    counts: Counter[str] = Counter()
    for line, transcript in enumerate(read_transcripts(path), start=1):
        result = scan_conversation(detector, Record(str(path), line, transcript))
        alarmed = {record["turn"] for record in result.records if record["type"] == "relapse"}
        for index, turn in enumerate(transcript.turns):
            if turn.role != "assistant":
                continue
            marked = (turn.model_extra or {}).get("relapse") is True
            if marked:
                counts["caught" if index in alarmed else "missed"] += 1
            elif index in alarmed:
                counts["false_alarms"] += 1
    return {key: counts[key] for key in ("caught", "missed", "false_alarms")}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.blind_rounds", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="conversations with marked replies (JSONL)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    detector = build_detector()
    figures = {str(path): relapse_figures(path, detector) for path in args.files}
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    else:
        for name, row in figures.items():
            marked = row["caught"] + row["missed"]
            print(f"{name}: relapses caught {row['caught']} of {marked}, false alarms {row['false_alarms']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
