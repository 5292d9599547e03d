#!/usr/bin/env python3
"""Mines the everyday glosses FDA labels give their clinical words: "breast enlargement
(gynecomastia)", "hypomagnesemia (low magnesium)". Writes `graph/label-glosses.tsv`
(lay phrase TAB clinical word TAB source), read by the search understanding like
`graph/lay-terms.tsv`.

A gloss is a parenthesis, in a patient section (Medication Guide, patient information: where
labels explain their words), of one word next to a phrase of one to four words (bounded by
punctuation or a stop word). Of the two sides, the clinical one is the single word used
relatively more in the professional sections than in the patient sections (Medication Guides,
patient information) of the same labels; the other side is the lay phrase. A pair is kept when
at least two labels write it and the lay phrase has two words or more (one-word glosses such
as "blood (hypokalemia)" are mostly cut-off phrases) and glosses fewer than three different
words (a phrase such as "go away" glossed as "chronic", "persistent" and "priapism" is no name). Python standard library only; deterministic.

Usage: crates/lab/scripts/mine-glosses.py LABELS.jsonl.gz > graph/label-glosses.tsv
"""
import collections
import gzip
import json
import os
import re
import sys

PATIENT = {"spl_medguide", "spl_patient_package_insert", "information_for_patients",
           "patient_medication_information", "instructions_for_use"}
PROFESSIONAL = {"adverse_reactions", "warnings_and_cautions", "warnings", "precautions",
                "boxed_warning", "contraindications", "drug_interactions", "overdosage",
                "use_in_specific_populations", "pregnancy", "dosage_and_administration"}
STOP = set("""a an and are as at be been by can could do does for from had has have he her his if
in into is it its may might more most much must no not of on or other our she should so some such
than that the their them then there these they this those to too very was were what when which
while who will with would you your also any each every both either""".split())
MIN_LABELS = 2
MAX_GLOSSES = 3
WORD = re.compile(r"[a-z][a-z-]*[a-z]")
INNER_WORD = re.compile(r"^[a-z][a-z-]{4,}[a-z]$")
GLOSS = re.compile(r"([a-z][a-z ,;:.-]{0,80}?)\s*\(([^()]{2,60})\)")


def section_texts(record):
    for key, value in record.items():
        if isinstance(value, list) and value and isinstance(value[0], str) and not key.endswith("_table"):
            yield key, " ".join(value).lower()


def phrase_before(text):
    """The words right before a parenthesis, back to punctuation or a stop word (at most 4)."""
    tail = re.split(r"[,;:.]", text)[-1]
    words = WORD.findall(tail)
    phrase = []
    for word in reversed(words):
        if word in STOP or len(phrase) == 4:
            break
        phrase.insert(0, word)
    return phrase


def inner_phrase(text):
    """The parenthesis's words when it is a plain phrase of one to four words, else None."""
    if re.search(r"[^a-z -]", text):
        return None
    words = text.split()
    while words and words[0] in STOP:
        words.pop(0)
    if not 1 <= len(words) <= 4 or any(w in STOP for w in words):
        return None
    return words


def main(path):
    source = f"mined: crates/lab/scripts/mine-glosses.py over {os.path.basename(path)}"
    professional, patient = collections.Counter(), collections.Counter()
    candidates = collections.defaultdict(set)
    with gzip.open(path, "rt") as lines:
        for line in lines:
            record = json.loads(line)
            label = record.get("set_id")
            for key, text in section_texts(record):
                counts = professional if key in PROFESSIONAL else patient if key in PATIENT else None
                if counts is not None:
                    counts.update(WORD.findall(text))
                for match in GLOSS.finditer(text) if key in PATIENT else ():
                    outer, inner = phrase_before(match.group(1)), inner_phrase(match.group(2))
                    if outer and inner:
                        candidates[(tuple(outer), tuple(inner))].add(label)
    total_pro, total_pat = sum(professional.values()), sum(patient.values())

    def clinical(word):
        return ((professional[word] + 1) / total_pro) / ((patient[word] + 1) / total_pat)

    pairs = collections.defaultdict(set)
    for (outer, inner), labels in candidates.items():
        for one, other in ((inner, outer), (outer, inner)):
            if len(one) == 1 and INNER_WORD.match(one[0]) and one != other:
                if clinical(one[0]) > max(clinical(w) for w in other):
                    pairs[(" ".join(other), one[0])] |= labels
    kept = {pair: labels for pair, labels in pairs.items() if len(labels) >= MIN_LABELS}
    glosses = collections.Counter(lay for lay, _ in kept)
    for (lay, word), labels in sorted(kept.items()):
        if " " in lay and glosses[lay] < MAX_GLOSSES:
            print(f"{lay}\t{word}\t{source}")
            print(f"{len(labels)}\t{lay}\t{word}", file=sys.stderr)


if __name__ == "__main__":
    print("# Everyday glosses FDA labels give their clinical words, mined from the openFDA labels by")
    print("# crates/lab/scripts/mine-glosses.py (see there for the rule); regenerate, do not edit by hand.")
    print("# Read by crates/engine/src/curated.rs after graph/lay-terms.tsv: the lay phrase is matched")
    print("# on whole words, ignoring case and a plural \"s\", by the readers of lay terms.")
    print("lay_phrase\tlabel_wording\tsource")
    main(sys.argv[1])
