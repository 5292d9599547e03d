#!/usr/bin/env python3
"""Mines the acronyms FDA labels define for themselves: "international normalized ratio (INR)",
"nonsteroidal anti-inflammatory drugs (NSAIDs)". Writes `graph/label-acronyms.tsv` (acronym
TAB long form TAB labels TAB source), read by the question reader, which spells out an acronym a
question writes in capitals ("INR", "ACE" of "ACEi") as the labels' long form.

A definition is a parenthesis, in a section other than Description, How Supplied, Clinical
Studies and the animal studies (where "PO" is polyolefin, "CI" a confidence interval), holding
a short form (two to eight characters, beginning with a letter, at least two capitals, no spaces)
after the words it abbreviates. The long form is the fewest words before the parenthesis whose
initials (hyphenated parts each count) spell the short form; else, as Schwartz and Hearst (Pac
Symp Biocomput 2003) find it, the short form's letters and digits matched right to left in the
last min(|short| + 5, 2 |short|) words, the first at the start of a word (at most one word more
than the short form has characters). A long form that begins or ends with a function word or
holds the short form is no definition. A plural short form ("NSAIDs") is the singular of its
long form. Variants differing only in hyphens or case are one long form.

An acronym is kept when at least MIN_LABELS labels define it (MIN_LABELS_TWO_LETTERS for two
letters: "PM", "ER", "PI" mean other things in questions) and one long form holds at least
MIN_SHARE of the labels that define it ("CR" is "complete response" and "controlled release"),
unless it ends a brand name of the corpus ("XR", "ODT": a product, not a concept), its letters
are a word the labels write in lowercase in more than MAX_WORD_SHARE of labels ("NO", "OR"), or
the labels write it by itself: at least SELF_WRITTEN times as many labels hold the short form as
a word as hold its long form ("CYP3A4", "HIV", "AUC": a question's acronym already meets the
labels' own word, and spelled out it would only part "strong" from "CYP3A4 inhibitors").

With --vocab DIR, the condition vocabularies' own acronyms are added where the labels define
none: a Disease Ontology or Symptom Ontology EXACT synonym marked as an acronym (OMO:0003012;
"HTN" of hypertension, which clinicians write and no label defines) of one term only, of at
least three characters, kept when at least MIN_LABELS labels write its long form (the term's
name) and the same filters above pass (brand endings, lowercase words, written by itself).
Their `labels` column counts the labels writing the long form. Then the initials clinicians
write for a term of three or more words ("SSS" of sick sinus syndrome, "T1DM" of type 1 diabetes
mellitus: each word's first letter, a number as written, function words skipped), of at least
three characters, kept when exactly one term with those initials has its name written by any
label, in at least MIN_LABELS labels, and the same filters pass (initials the labels write by
themselves more than SELF_WRITTEN times as often mean something else to them).
Python standard library only; deterministic.

Usage: crates/lab/scripts/mine-acronyms.py [--vocab DIR] LABELS.jsonl.gz > graph/label-acronyms.tsv
"""
import collections
import gzip
import json
import os
import re
import sys

MIN_LABELS = 3
MIN_SHARE = 0.6
MIN_LABELS_TWO_LETTERS = 20
MAX_WORD_SHARE = 0.02
SELF_WRITTEN = 2
FILLERS = ("the", "a", "an", "and", "or", "of", "with", "in", "to", "for", "by", "are", "is")
NOT_CLINICAL = ("description", "how_supplied", "storage_and_handling", "package_label_principal_display_panel",
                "spl_unclassified_section", "clinical_studies", "nonclinical_toxicology", "references",
                "carcinogenesis_and_mutagenesis_and_impairment_of_fertility", "animal_pharmacology_and_or_toxicology")
SHORT = re.compile(r"\(([A-Za-z][A-Za-z0-9-]{1,7})\)")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
SHORT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]{1,7}")


def section_texts(record):
    for key, value in record.items():
        if key not in NOT_CLINICAL and not key.endswith("_table") and isinstance(value, list):
            yield " ".join(v for v in value if isinstance(v, str))


def all_text(record):
    for key, value in record.items():
        if isinstance(value, list) and value and isinstance(value[0], str):
            yield " ".join(value)


def brand_endings(record):
    """The last words of the record's brand names when short ("XR" of "Seroquel XR"), capitals."""
    for brand in record.get("openfda", {}).get("brand_name", []):
        words = brand.split()
        if len(words) > 1 and len(words[-1]) <= 4:
            yield words[-1].upper()


def singular_short(short):
    """The short form without a plural "s" ("NSAIDs" -> "NSAID"), and whether it had one."""
    if len(short) > 2 and short.endswith("s") and short[:-1].upper() == short[:-1]:
        return short[:-1], True
    return short, False


def is_short_form(short):
    return sum(c.isupper() for c in short) >= 2 and not short.isdigit()


def long_form(words, short):
    """The long form of `short` in the last `words`: the fewest words whose initials spell it,
    else the fewest whose letters spell it as Schwartz-Hearst match them; None when none do."""
    chars = [c.lower() for c in short if c.isalnum()]
    words = words[-min(len(chars) + 5, 2 * len(chars)):]
    found = by_initials(words, chars)
    if found is None:
        found = by_letters(words, chars)
        if found is None or len(found.split()) > len(chars) + 1:
            return None
    first, last = found.split()[0].lower(), found.split()[-1].lower()
    if first in FILLERS or last in FILLERS or short in found:
        return None
    return found


def by_initials(words, chars):
    """The last words whose initials (hyphenated parts each count) are `chars` exactly."""
    parts = [(i, part) for i, word in enumerate(words) for part in word.split("-") if part]
    if len(parts) < len(chars):
        return None
    tail = parts[-len(chars):]
    if [part[0].lower() for _, part in tail] != chars:
        return None
    return " ".join(words[tail[0][0]:])


def by_letters(words, chars):
    """Schwartz-Hearst: each char right to left in the text, the first at a word's start."""
    text = " ".join(words)
    lower = text.lower()
    s, t = len(chars) - 1, len(lower) - 1
    while s >= 0:
        c = chars[s]
        while t >= 0 and (lower[t] != c or (s == 0 and t > 0 and lower[t - 1].isalnum())):
            t -= 1
        if t < 0:
            return None
        s, t = s - 1, t - 1
    return text[text.rfind(" ", 0, t + 1) + 1:]


def singular_long(text):
    return text[:-1] if text.endswith("s") and not text.endswith("ss") else text


def definitions(text):
    for match in SHORT.finditer(text):
        short, plural = singular_short(match.group(1))
        if not is_short_form(short):
            continue
        before = re.split(r"[.;:()\[\]]", text[: match.start()])[-1]
        found = long_form(WORD.findall(before), short)
        if found is None or len(found.split()) < 2 and len(found) <= len(short) + 2:
            continue
        yield short, singular_long(found) if plural else found


def phrase_key(text):
    return re.sub(r"[-\s]+", " ", text.lower())


def self_written(paths, kept):
    """The acronyms of `kept` (short form -> long form) that at least SELF_WRITTEN times as many
    labels write as a word (or its plural) as write their long form."""
    short_in, long_in = written_counts(paths, kept)
    return {short for short in kept if short_in[short] >= SELF_WRITTEN * long_in[short]}


def written_counts(paths, kept):
    """For each acronym of `kept` (short form -> long form), how many labels write it as a word
    (or its plural) and how many write its long form."""
    longs = {short: phrase_key(found) for short, found in kept.items()}
    short_in, long_in = collections.Counter(), collections.Counter()
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                text = " ".join(all_text(record))
                words, key = set(WORD.findall(text)), phrase_key(text)
                for short, found in longs.items():
                    short_in[short] += short in words or short + "s" in words
                    long_in[short] += found in key
    return short_in, long_in


def vocabulary_acronyms(directory):
    """The acronyms the ontologies in `directory` mark (OMO:0003012) as EXACT synonyms of one
    term only: short form -> (term id, term name)."""
    found = collections.defaultdict(set)
    for ident, term, name, stanza in ontology_terms(directory):
        for short in re.findall(r'^synonym: "([^"]+)" EXACT OMO:0003012', stanza, re.M):
            found[short].add((ident, term, name))
    return {short: next(iter(terms)) for short, terms in found.items() if len(terms) == 1}


def ontology_terms(directory):
    """Every live term of the ontologies in `directory`: (id, name, file name, its stanza)."""
    for name in sorted(os.listdir(directory)):
        if not name.endswith((".obo", ".obo.gz")):
            continue
        path = os.path.join(directory, name)
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for stanza in handle.read().split("\n[Term]")[1:]:
                ident = re.search(r"^id: (\S+)", stanza, re.M)
                term = re.search(r"^name: (.+)$", stanza, re.M)
                if ident and term and "is_obsolete: true" not in stanza:
                    yield ident.group(1), term.group(1).strip(), name, stanza


def initials(name):
    """The initials of a term name of three or more words ("T1DM"), or None."""
    words = [w for w in re.split(r"[ -]+", name) if w and w.lower() not in FILLERS]
    if len(words) < 3 or not all(re.fullmatch(r"[A-Za-z]+|[0-9]+", w) for w in words):
        return None
    return "".join(w if w.isdigit() else w[0].upper() for w in words)


def vocabulary_initialisms(directory):
    """Initials -> every term (id, name, file) of the ontologies in `directory` they spell."""
    found = collections.defaultdict(set)
    for ident, name, ontology, _ in ontology_terms(directory):
        short = initials(name)
        if short:
            found[short].add((ident, name, ontology))
    return found


def initialism_rows(paths, vocab, taken, endings, lowercase_in, records, names):
    """Rows for the initials of one term the labels name (see the module's doc)."""
    candidates = {
        short: terms for short, terms in vocabulary_initialisms(vocab).items()
        if short not in taken and lowercase_in[short.lower()] <= MAX_WORD_SHARE * records
        and short.upper() not in endings
    }
    longs = {(short, term): term[1] for short, terms in candidates.items() for term in terms}
    long_in = collections.Counter()
    short_in = collections.Counter()
    keys = {key: phrase_key(name) for key, name in longs.items()}
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                text = " ".join(all_text(json.loads(line)))
                words, key = set(WORD.findall(text)), phrase_key(text)
                for short in candidates:
                    short_in[short] += short in words or short + "s" in words
                for term_key, found in keys.items():
                    long_in[term_key] += found in key
    rows = {}
    for short, terms in sorted(candidates.items()):
        named = [term for term in terms if long_in[(short, term)] > 0]
        if len(named) != 1:
            continue
        ident, name, ontology = named[0]
        labels = long_in[(short, named[0])]
        if labels < MIN_LABELS or short_in[short] >= SELF_WRITTEN * labels:
            continue
        source = (f"vocabulary: initials of {ident} in {ontology}, the one term of these initials "
                  f"the labels name; long form in {labels} labels of {names}")
        rows[short] = (name, labels, source)
    return rows


def main(paths, vocab=None):
    labels_of = collections.defaultdict(lambda: collections.defaultdict(set))
    surface = collections.defaultdict(collections.Counter)
    lowercase_in = collections.Counter()
    endings = set()
    records = 0
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                records += 1
                label = record.get("set_id") or record.get("id")
                endings.update(brand_endings(record))
                words = set()
                for text in all_text(record):
                    words.update(w for w in WORD.findall(text) if w.islower() and len(w) <= 8)
                lowercase_in.update(words)
                for text in section_texts(record):
                    for short, found in definitions(text):
                        key = found.replace("-", " ").lower()
                        labels_of[short][key].add(label)
                        surface[(short, key)][found] += 1
    names = " ".join(os.path.basename(p) for p in paths)
    print("# Acronyms FDA labels define, with the long form most of the labels defining each give,")
    print("# mined from the openFDA labels by crates/lab/scripts/mine-acronyms.py (see there for the")
    print("# rule); regenerate, do not edit by hand. Read by crates/engine/src/understand/acronyms.rs:")
    print("# a question's word written exactly as the acronym (or its plural) is read as the long form.")
    if vocab:
        print("# Rows whose source is `vocabulary:` are the condition vocabulary's own acronyms (--vocab).")
    kept = {}
    for short in sorted(labels_of):
        forms = labels_of[short]
        defining = set().union(*forms.values())
        key, labels = max(forms.items(), key=lambda kv: (len(kv[1]), kv[0]))
        least = MIN_LABELS if len(short) > 2 else MIN_LABELS_TWO_LETTERS
        if len(labels) < least or len(labels) < MIN_SHARE * len(defining):
            continue
        if short.upper() in endings or lowercase_in[short.lower()] > MAX_WORD_SHARE * records:
            continue
        kept[short] = (surface[(short, key)].most_common(1)[0][0], len(labels), len(defining))
    written_alone = self_written(paths, {short: found for short, (found, _, _) in kept.items()})
    rows = {}
    for short, (written, labels, defining) in kept.items():
        if short in written_alone:
            continue
        source = f"mined: crates/lab/scripts/mine-acronyms.py over {names}; {labels} of {defining} defining labels"
        rows[short] = (written, labels, source)
    if vocab:
        candidates = {
            short: term
            for short, term in vocabulary_acronyms(vocab).items()
            if short not in kept and len(short) >= 3 and is_short_form(short) and SHORT_WORD.fullmatch(short)
            and short.upper() not in endings and lowercase_in[short.lower()] <= MAX_WORD_SHARE * records
        }
        short_in, long_in = written_counts(paths, {short: name for short, (_, name, _) in candidates.items()})
        for short, (ident, name, ontology) in sorted(candidates.items()):
            if long_in[short] < MIN_LABELS or short_in[short] >= SELF_WRITTEN * long_in[short]:
                continue
            source = (f"vocabulary: EXACT acronym synonym (OMO:0003012) of {ident} in {ontology}; "
                      f"long form in {long_in[short]} labels of {names}")
            rows[short] = (name, long_in[short], source)
        rows.update(initialism_rows(paths, vocab, set(rows) | set(kept), endings, lowercase_in, records, names))
    print("acronym\tlong_form\tlabels\tsource")
    for short in sorted(rows):
        written, labels, source = rows[short]
        print(f"{short}\t{written}\t{labels}\t{source}")


if __name__ == "__main__":
    args = sys.argv[1:]
    vocab_dir = None
    if args[:1] == ["--vocab"] and len(args) > 1:
        vocab_dir, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    main(args, vocab_dir)
