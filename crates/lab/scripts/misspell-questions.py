#!/usr/bin/env python3
"""Misspelled twins of search questions, to measure how search holds up when people mistype.

For each question with a word of 7+ letters that no label name uses (drug names have their own
spelling tolerance), one such word gets one random edit after its first letter (a letter
dropped, doubled, swapped with the next, or replaced by another vowel or consonant), seeded so
the output never varies. Writes two JSONL files with the same ids and judgments: the misspelled
questions and their originals (only questions that got an edit), for `drugcite-lab eval --part all`.

Usage: crates/lab/scripts/misspell-questions.py OUT_MISSPELLED OUT_ORIGINAL QUESTIONS.jsonl...
(the label names are read from ../shared/data/labels/openfda-labels.jsonl.gz, or
$DRUGCITE_SHARED_DATA/labels/…, and graph/brands.tsv)
"""
import csv
import gzip
import json
import os
import random
import re
import sys

SEED = 18
VOWELS, CONSONANTS = "aeiou", "bcdfghklmnprstvz"


def label_name_words():
    shared = os.environ.get("DRUGCITE_SHARED_DATA", "../shared/data")
    names = set()
    with gzip.open(os.path.join(shared, "labels/openfda-labels.jsonl.gz"), "rt") as labels:
        for line in labels:
            openfda = json.loads(line).get("openfda", {})
            for key in ("generic_name", "brand_name", "substance_name"):
                for name in openfda.get(key, []):
                    names.update(re.findall(r"[a-z]+", name.lower()))
    with open("graph/brands.tsv") as brands:
        rows = csv.DictReader((line for line in brands if not line.startswith("#")), delimiter="\t",
                              quoting=csv.QUOTE_NONE)
        for row in rows:
            names.update(re.findall(r"[a-z]+", f"{row['brand']} {row['generic']}".lower()))
    return names


def one_edit(word, rng):
    at = rng.randrange(1, len(word) - 1)
    kind = rng.choice(["drop", "swap", "replace", "double"])
    if kind == "drop":
        return word[:at] + word[at + 1:]
    if kind == "swap":
        return word[:at] + word[at + 1] + word[at] + word[at + 2:]
    if kind == "double":
        return word[:at] + word[at] + word[at:]
    letters = VOWELS if word[at] in VOWELS else CONSONANTS
    return word[:at] + rng.choice(letters) + word[at + 1:]


def main(out_misspelled, out_original, question_files):
    names = label_name_words()
    rng = random.Random(SEED)
    written = 0
    with open(out_misspelled, "w") as misspelled, open(out_original, "w") as original:
        for path in question_files:
            for line in open(path):
                if not line.strip():
                    continue
                question = json.loads(line)
                words = [w for w in re.findall(r"[A-Za-z]+", question["question"])
                         if len(w) >= 7 and w.lower() not in names]
                if not words:
                    continue
                word = rng.choice(words)
                edited = one_edit(word, rng)
                if edited.lower() == word.lower():
                    continue
                question["id"] = f"t{written}-{question['id']}"
                original.write(json.dumps(question) + "\n")
                question["question"] = re.sub(rf"\b{word}\b", edited, question["question"], count=1)
                misspelled.write(json.dumps(question) + "\n")
                written += 1
    print(f"{written} questions misspelled", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
