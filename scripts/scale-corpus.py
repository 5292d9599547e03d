#!/usr/bin/env python3
"""Deterministic scale corpus for drugcite's benchmarks, generated from the real shared files.

Writes openFDA drug-label records (JSON Lines, gzip) at FACTOR times the 1,130-label corpus, in the
shapes the real openFDA bulk download has and the shared sample lacks: repackager copies with
identical text under new set ids, NDCs and labelers; labeler generics with small text edits; later
versions with a changed sentence; records with an empty `openfda` block. The real records come
first, unchanged: the 1,130 main labels and the 1,797 real label versions. Same inputs, same
FACTOR and SEED: byte-identical output. Standard library only; streams, never holds the output.

Proportions of the derived records (see README "Scale"), chosen so that at the DailyMed sample's
shape (about 20 labels per generic) segments per distinct text come out near the 2.85 measured on
the 2,521-label DailyMed archive: 45 % repackager copies, 40 % labeler generics (each section
edited with probability 0.8), 10 % revised versions of an earlier derived set id, 5 % copies with an
empty `openfda` block.

Usage: scripts/scale-corpus.py --factor 10 --out /tmp/scale-10x.jsonl.gz [--seed 1] [--shared DIR]
"""

import argparse
import gzip
import io
import json
import random
import re
import sys
import uuid

NAMESPACE = uuid.UUID("6f1c8a52-5d1e-4b8e-9f57-1f0c2c8d7a10")
KINDS = [("repackager", 45), ("labeler_generic", 40), ("revision", 10), ("empty_openfda", 5)]
EDIT_PROBABILITY = 0.8
MAX_REVISABLE = 2000
NOT_SECTIONS = {"set_id", "id", "version", "effective_time", "openfda"}


def read_records(path):
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def new_id(*parts):
    return str(uuid.uuid5(NAMESPACE, "/".join(str(p) for p in parts)))


def sections(record):
    return [k for k, v in record.items() if k not in NOT_SECTIONS and isinstance(v, list)]


def first(openfda, key):
    values = openfda.get(key) or []
    return values[0] if values else None


def relabel(record, set_id, labeler, labeler_code, rng):
    """A copy of `record` under a new set id, SPL id, labeler and NDCs."""
    copy = json.loads(json.dumps(record))
    copy["set_id"] = set_id
    copy["id"] = new_id(set_id, "spl", 1)
    copy["version"] = "1"
    openfda = copy.get("openfda") or {}
    product = f"{labeler_code:05d}-{rng.randrange(1000):03d}"
    openfda.update(
        {
            "manufacturer_name": [labeler],
            "product_ndc": [product],
            "package_ndc": [f"{product}-{rng.randrange(100):02d}"],
            "spl_id": [copy["id"]],
            "spl_set_id": [set_id],
            "is_original_packager": [False],
        }
    )
    copy["openfda"] = openfda
    return copy


def edit_text(text, brand, generic):
    """The small edit a labeler generic makes: the generic name for the brand, else marks and
    casing of the name differ. Returns the text unchanged when none applies."""
    if brand and generic and brand.lower() != generic.lower():
        edited = re.sub(rf"\b{re.escape(brand)}\b", generic, text, flags=re.IGNORECASE)
        if edited != text:
            return edited
    if "®" in text or "™" in text:
        return text.replace("®", "").replace("™", "")
    if generic and generic.title() in text:
        return text.replace(generic.title(), generic.upper(), 1)
    return text


def labeler_generic(record, rng):
    openfda = record.get("openfda") or {}
    brand, generic = first(openfda, "brand_name"), first(openfda, "generic_name")
    edited = 0
    for key in sections(record):
        if key.endswith("_table") or rng.random() >= EDIT_PROBABILITY:
            continue
        new = [edit_text(t, brand, generic) if isinstance(t, str) else t for t in record[key]]
        edited += new != record[key]
        record[key] = new
    if generic:
        openfda["brand_name"] = [generic]
    return edited


def revise(record, rng):
    """The next version of `record` with one sentence removed from one section."""
    revised = json.loads(json.dumps(record))
    revised["version"] = str(int(revised.get("version", "1")) + 1)
    revised["id"] = new_id(revised["set_id"], "spl", revised["version"])
    revised["effective_time"] = str(int(revised.get("effective_time", "20200101")) + 10000)
    if revised.get("openfda"):
        revised["openfda"]["spl_id"] = [revised["id"]]
    candidates = [k for k in sections(revised) if not k.endswith("_table")]
    rng.shuffle(candidates)
    for key in candidates:
        for i, text in enumerate(revised[key]):
            sentences = re.split(r"(?<=\.)\s+", text) if isinstance(text, str) else []
            if len(sentences) >= 3:
                del sentences[rng.randrange(1, len(sentences))]
                revised[key][i] = " ".join(sentences)
                return revised, True
    return revised, False


class Writer:
    def __init__(self, out):
        self.out = out
        self.counts = {}

    def write(self, record, kind):
        self.out.write(json.dumps(record, ensure_ascii=False, sort_keys=True))
        self.out.write("\n")
        self.counts[kind] = self.counts.get(kind, 0) + 1


def derive(seeds, total, labelers, rng, writer):
    weights = [w for _, w in KINDS]
    derived = []  # (record, set id) of derived labels a revision may revise
    edited_sections = 0
    for n in range(total):
        seed = seeds[n % len(seeds)]
        kind = rng.choices([k for k, _ in KINDS], weights)[0]
        if kind == "revision" and derived:
            at = rng.randrange(len(derived))
            record, changed = revise(derived[at], rng)
            derived[at] = record
            writer.write(record, "revision" if changed else "revision_unchanged")
            continue
        if kind == "revision":
            kind = "repackager"
        labeler_code = 10000 + n % 89999
        set_id = new_id(seed["set_id"], kind, n)
        record = relabel(seed, set_id, labelers[n % len(labelers)], labeler_code, rng)
        if kind == "labeler_generic":
            edited_sections += labeler_generic(record, rng)
        if kind == "empty_openfda":
            record["openfda"] = {}
        writer.write(record, kind)
        if len(derived) < MAX_REVISABLE:
            derived.append(record)
    return edited_sections


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--factor", type=int, required=True, help="times the 1,130-label corpus")
    parser.add_argument("--out", required=True, help="output .jsonl.gz")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shared", default="../shared/data", help="the shared data directory")
    args = parser.parse_args()
    if args.factor < 1:
        parser.error("--factor must be at least 1")
    main_corpus = list(read_records(f"{args.shared}/labels/openfda-labels.jsonl.gz"))
    versions = f"{args.shared}/labels/openfda-label-versions.jsonl.gz"
    rng = random.Random(args.seed)
    labelers = sorted(
        {m for r in main_corpus for m in (r.get("openfda") or {}).get("manufacturer_name", [])}
    )
    total = args.factor * len(main_corpus)
    with open(args.out, "wb") as file, gzip.GzipFile(
        filename="", mode="wb", fileobj=file, compresslevel=3, mtime=0
    ) as raw:
        with io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as out:
            writer = Writer(out)
            for record in main_corpus:
                writer.write(record, "real")
            if args.factor > 1:
                for record in read_records(versions):
                    writer.write(record, "real_version")
            remaining = max(0, total - sum(writer.counts.values()))
            seeds = sorted(main_corpus, key=lambda r: r["set_id"])
            rng.shuffle(seeds)
            edited = derive(seeds, remaining, labelers, rng, writer)
    summary = ", ".join(f"{k} {v}" for k, v in sorted(writer.counts.items()))
    print(f"{sum(writer.counts.values())} records → {args.out}: {summary}; {edited} sections edited")


if __name__ == "__main__":
    sys.exit(main())
