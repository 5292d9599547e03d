#!/usr/bin/env python3
"""Learns the section prototypes (crates/engine/src/search/section-prototypes.json) from the fit part of the
eval questions: for each group of label sections, the normalised mean of the topic vectors of
the questions whose relevant passages lie in it (a question with relevant passages in several
groups counts a share in each). A question's similarity to each prototype is the
`section_similarity` ranking feature — section intent as learned from how questions are asked,
not from hand-written descriptions. Held-out questions (`held` in the rows) are never used.

    target/release/drugcite-lab --data-dir D ranking-features FILES... > rows.jsonl
    python3 crates/lab/scripts/fit-section-prototypes.py rows.jsonl > crates/engine/src/search/section-prototypes.json

The file's `provenance` says where the prototypes come from: the date (UTC), this script and the
dataset (the rows' question files, in order, and how many fit questions the prototypes average);
the engine checks it (`search/provenance.rs`).

Python standard library only; deterministic (rows in file order, sums in float64).
"""

import datetime
import json
import math
import sys

SCRIPT = "crates/lab/scripts/fit-section-prototypes.py"

# Section keys that answer alike share a prototype (openFDA keys; old- and new-format labels).
GROUPS = [
    ["boxed_warning"],
    ["indications_and_usage"],
    ["dosage_and_administration"],
    ["contraindications"],
    ["warnings_and_cautions", "warnings", "precautions"],
    ["adverse_reactions"],
    ["drug_interactions"],
    ["use_in_specific_populations"],
    ["pregnancy", "teratogenic_effects", "pregnancy_or_breast_feeding"],
    ["nursing_mothers", "lactation"],
    ["pediatric_use"],
    ["geriatric_use"],
    ["overdosage"],
    ["clinical_pharmacology", "mechanism_of_action", "pharmacodynamics"],
    ["pharmacokinetics"],
]
# A group needs at least this many fit questions for a prototype; with fewer it is left out
# and its sections score as sections without one (the lowest similarity).
MIN_QUESTIONS = 5


def provenance(date, files, questions):
    """The file's `provenance`."""
    return {"date": date, "script": SCRIPT,
            "dataset": {"part": "fit", "files": files, "questions": questions}}


def write(model_id, provenance_, prototypes, out):
    json.dump({"model_id": model_id, "provenance": provenance_, "prototypes": prototypes}, out)
    out.write("\n")


def main():
    group_of = {key: i for i, keys in enumerate(GROUPS) for key in keys}
    sums = [None] * len(GROUPS)
    counts = [0] * len(GROUPS)
    used = 0
    model_id = None
    files = []
    with open(sys.argv[1]) as rows:
        for line in rows:
            row = json.loads(line)
            if row["file"] not in files:
                files.append(row["file"])
            vector = row.get("topic_vector")
            if row["held"] or not vector:
                continue
            if model_id not in (None, row["model_id"]):
                sys.exit("rows of two models")
            model_id = row["model_id"]
            targets = sorted({group_of[c["section"]] for t in row["texts"] for c in t["copies"]
                              if c["relevant"] and c["section"] in group_of})
            if not targets:
                continue
            used += 1
            for group in targets:
                counts[group] += 1
                share = [x / len(targets) for x in vector]
                sums[group] = share if sums[group] is None else [a + b for a, b in zip(sums[group], share)]
    prototypes = []
    for keys, total, count in zip(GROUPS, sums, counts):
        if count < MIN_QUESTIONS:
            print(f"left out {keys}: {count} questions", file=sys.stderr)
            continue
        norm = math.sqrt(sum(x * x for x in total))
        prototypes.append({"sections": keys, "questions": count,
                           "vector": [round(x / norm, 6) for x in total]})
    print(f"{used} fit questions", file=sys.stderr)
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    write(model_id, provenance(today, files, used), prototypes, sys.stdout)


if __name__ == "__main__":
    main()
