"""Quick checker for a raw data file written by a helper: schema, labels, counts.

Usage: python3 data/tools/check_raw.py data/raw/FILE.jsonl
"""
import collections
import json
import sys

LABELS = {"REJECT", "PIVOT", "REOPEN", "NONE"}
KINDS = {
    "fact_correction", "standing_constraint", "question", "hypothetical", "negated",
    "reported", "pause", "acknowledgement", "formatting", "acceptance",
    "parameter_change", "quoted", "plain_no",
}


def main(path: str) -> None:
    labels = collections.Counter()
    kinds = collections.Counter()
    domains = collections.Counter()
    n_conv = 0
    errors = 0
    ids = set()
    for lineno, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip():
            continue
        try:
            conv = json.loads(line)
        except json.JSONDecodeError as exc:
            print(f"{path}:{lineno}: bad JSON: {exc}")
            errors += 1
            continue
        n_conv += 1
        cid = conv.get("id")
        if cid in ids:
            print(f"{path}:{lineno}: duplicate id {cid}")
            errors += 1
        ids.add(cid)
        for key in ("id", "lang", "domain", "turns"):
            if key not in conv:
                print(f"{path}:{lineno}: missing {key}")
                errors += 1
        if conv.get("lang") not in {"zh", "en", "mixed"}:
            print(f"{path}:{lineno}: lang must be zh/en/mixed")
            errors += 1
        domains[conv.get("domain")] += 1
        turns = conv.get("turns", [])
        if not 4 <= len(turns) <= 40:
            print(f"{path}:{lineno}: {len(turns)} turns, need 4..40")
            errors += 1
        rejected_seen = False
        for i, t in enumerate(turns):
            if t.get("role") not in {"user", "assistant"} or not t.get("text", "").strip():
                print(f"{path}:{lineno}: turn {i}: bad role or empty text")
                errors += 1
                continue
            if t["role"] != "user":
                continue
            lab = t.get("label")
            if lab not in LABELS:
                print(f"{path}:{lineno}: turn {i}: label {lab!r} not in {sorted(LABELS)}")
                errors += 1
                continue
            labels[lab] += 1
            if lab in {"REJECT", "PIVOT"}:
                rejected_seen = True
            if lab == "REOPEN" and not rejected_seen:
                print(f"{path}:{lineno}: turn {i}: REOPEN before any REJECT/PIVOT in this conversation")
                errors += 1
            if lab != "NONE" and not t.get("target"):
                print(f"{path}:{lineno}: turn {i}: positive without target")
                errors += 1
            for span in ("reason", "revisit_if"):
                v = t.get(span)
                if v and v not in t["text"]:
                    print(f"{path}:{lineno}: turn {i}: {span} {v!r} is not a verbatim substring of the text")
                    errors += 1
            kind = t.get("hard_negative")
            if kind is not None:
                if lab != "NONE" or kind not in KINDS:
                    print(f"{path}:{lineno}: turn {i}: hard_negative {kind!r} invalid (must be on NONE, one of {sorted(KINDS)})")
                    errors += 1
                kinds[kind] += 1
    total = sum(labels.values())
    pos = total - labels["NONE"]
    print(f"conversations={n_conv} labeled_user_turns={total} positives={pos} ({pos / max(total, 1):.0%})")
    print("labels:", dict(labels))
    print("hard negatives:", sum(kinds.values()), dict(kinds))
    print("domains:", dict(domains))
    print("errors:", errors)


if __name__ == "__main__":
    main(sys.argv[1])
