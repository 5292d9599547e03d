#!/usr/bin/env python3
"""Prints the Contraindications and Boxed Warning text of labels picked at random (fixed seed)
from an openFDA label corpus, for a person to read and annotate by hand into
`eval/verdict-questions.jsonl` (issue 54). The script only chooses and prints; the annotations
are human judgement. With --warnings it also prints the Warnings and Precautions headings (for
warning-level pairs), with --grep it tells whether a word occurs anywhere in one label (for
negative controls). With --check it verifies an annotation file against the corpus: every
`why.text` occurs in its label's section, each negative control's target word occurs in no label of
that generic, at most three contraindication items per label, hypersensitivity at most ~10%.
Python standard library only; deterministic for a seed.

Usage: crates/lab/scripts/sample-contraindications.py LABELS.jsonl.gz [--seed 54] [--n 90]
           [--skip 0] [--chars 2500] [--warnings] [--grep SET_ID WORD...] [--check FILE]
"""
import argparse
import gzip
import json
import random
import re
import textwrap

SECTIONS = ("contraindications", "boxed_warning")
FIELDS = {"Contraindications": ("contraindications",), "Boxed Warning": ("boxed_warning",),
          "Warnings and Precautions": ("warnings_and_cautions", "warnings", "precautions"),
          "Drug Interactions": ("drug_interactions",)}


def labels(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def name(label):
    fda = label.get("openfda", {})
    generic = ", ".join(fda.get("generic_name", [])) or "?"
    brand = ", ".join(fda.get("brand_name", [])) or "?"
    return generic, brand


def text_of(label, field, limit):
    text = " ".join(label.get(field, []))
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[:limit] + " […]"


def headings(label):
    """Numbered subsection headings of Warnings and Precautions ("5.3 Hypotension")."""
    text = " ".join(label.get("warnings_and_cautions", []) or label.get("warnings", []))
    return sorted(set(re.findall(r"\b5\.\d+ [A-Z][A-Za-z ,/-]{3,60}?(?= [A-Z][a-z]| \()", text)))


def flat(text):
    return re.sub(r"\s+", " ", text).strip().lower()


def check(corpus, path):
    """Problems of an annotation file (see the module docstring), one line each."""
    by_id = {l["set_id"]: l for l in corpus}
    items = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    problems, per_label = [], {}
    for item in items:
        why, label = item["why"], by_id.get(item["why"]["set_id"])
        if label is None:
            problems.append(f"{item['id']}: no label {why['set_id']}")
            continue
        if item["shape"] == "negative":
            generic = item["drug"].split(",")[0].split(" ")[0]
            for other in corpus:
                names = " ".join(other.get("openfda", {}).get("generic_name", [])).lower()
                if generic in names and item["target"].lower() in json.dumps(other).lower():
                    problems.append(f"{item['id']}: '{item['target']}' occurs in {other['set_id']}")
            continue
        text = " ".join(" ".join(label.get(f, [])) for f in FIELDS[why["section"]])
        if flat(why["text"]) not in flat(text):
            problems.append(f"{item['id']}: quote not in {why['section']}: {why['text'][:60]}")
        if item["shape"] not in ("warning_pair", "negative"):
            per_label[why["set_id"]] = per_label.get(why["set_id"], 0) + 1
    problems += [f"{sid}: {n} contraindication items" for sid, n in per_label.items() if n > 3]
    contra = [i for i in items if i["shape"] not in ("warning_pair", "negative")]
    hyper = sum(i["shape"] == "hypersensitivity" for i in contra)
    if hyper > 0.1 * len(contra):
        problems.append(f"hypersensitivity items {hyper} of {len(contra)}")
    print(f"{len(items)} items, {len(contra)} contraindication statements from {len(per_label)} "
          f"labels, {hyper} hypersensitivity; {len(problems)} problems")
    for problem in problems:
        print(problem)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("labels")
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--n", type=int, default=90)
    parser.add_argument("--skip", type=int, default=0, help="start at this position of the draw")
    parser.add_argument("--chars", type=int, default=2500, help="print at most this much a section")
    parser.add_argument("--warnings", action="store_true")
    parser.add_argument("--grep", nargs="+", metavar=("SET_ID", "WORD"))
    parser.add_argument("--check", metavar="FILE")
    args = parser.parse_args()
    corpus = list(labels(args.labels))
    if args.check:
        check(corpus, args.check)
        return
    if args.grep:
        set_id, words = args.grep[0], args.grep[1:]
        label = next(l for l in corpus if l.get("set_id") == set_id)
        whole = json.dumps(label).lower()
        for word in words:
            print(f"{word}\t{whole.count(word.lower())}")
        return
    corpus = [l for l in corpus if "HUMAN PRESCRIPTION DRUG" in l.get("openfda", {}).get(
        "product_type", [])]
    draw = random.Random(args.seed).sample(range(len(corpus)), len(corpus))
    for rank, index in enumerate(draw[args.skip:args.skip + args.n], start=args.skip):
        label = corpus[index]
        generic, brand = name(label)
        print(f"=== #{rank} {generic} ({brand}) set_id={label.get('set_id')}")
        for field in SECTIONS:
            if label.get(field):
                print(f"--- {field}")
                limit = args.chars if field == "contraindications" else args.chars // 3
                print(textwrap.fill(text_of(label, field, limit), 110))
        if args.warnings:
            print("--- warnings headings: " + " | ".join(headings(label)))
        print()


if __name__ == "__main__":
    main()
