#!/usr/bin/env python3
"""Fits the ranking weights (crates/engine/src/search/ranking-weights.json) on the fit part of the dev questions.

Input: the JSON Lines of `drugcite-lab ranking-features` (every candidate text of every question with
its copies' features and relevance, and whether the question is held out). Model: a copy scores
(lexical + w_semantic * semantic) * exp(sum of w_k * feature_k), a text by its best copy, the top
ten texts by score — exactly `Weights::score` and `rank`. Fitting: coordinate ascent on the mean
of nDCG@10 + 0.5 * MRR@10 over the questions that are NOT held out, from the current weights,
over a fixed grid per weight (deterministic). Held-out questions are only scored, in aggregate.

    target/release/drugcite-lab ranking-features --data-dir D \
        ../shared/data/eval/dev-questions.jsonl ../shared/data/eval/dev-questions-2.jsonl > rows.jsonl
    python3 crates/lab/scripts/fit-ranking.py rows.jsonl crates/engine/src/search/ranking-weights.json \\
        [--score-only] [--only=W,W] [--cv=4]

`--only=semantic,off_section` fits just the named weights and keeps the others (fewer free
weights, less overfitting). `--cv=4` writes nothing: it asks whether refitting would generalise,
by fitting on three quarters of the fit part (every kind split alike) and scoring the quarter
left out, four times (see README "How the ranking was fitted").

The file's `provenance` lists the fits its weights come from, oldest first: the date (UTC), this
script, the weights fitted and the dataset (the rows' question files, in order, and how many fit
questions). A full fit starts the list again; `--only` adds its fit to it. The engine refuses
weights no fit names (`search/provenance.rs`).
"""

import datetime
import json
import math
import sys
from collections import defaultdict

SCRIPT = "crates/lab/scripts/fit-ranking.py"

FLAGS = ["combination", "other_drug", "unnamed_drug", "off_section", "peripheral", "patient_voice",
         "names_partner", "partner_names_subject", "names_effect", "other_form"]
SCALARS = ["section_similarity", "section_rank"]
GRIDS = {
    "semantic": [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0],
    "section_similarity": [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 15.0, 20.0, 30.0],
    "section_rank": [0.0, -0.01, -0.03, -0.06, -0.1, -0.2],
    "meaning_margin": [0.03, 0.05, 0.08, 0.12, 0.2],
    "meaning_asked": [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5],
    "names_partner": [0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 1.0, 1.5, 2.0],
    "partner_names_subject": [0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 1.0, 1.5, 2.0],
    "names_effect": [0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 1.0, 1.5, 2.0],
}
FLAG_GRID = [0.0, -0.1, -0.2, -0.35, -0.5, -0.7, -1.0, -1.5, -2.0, -3.0]
PRIOR_GRID = [-1.0, -0.6, -0.3, -0.15, 0.0, 0.15, 0.3]
# A section gets a learned prior when it holds a candidate of at least this many fit questions.
PRIOR_MIN_QUESTIONS = 80
# A change is kept only when it raises the objective by more than this (fewer, surer steps).
MIN_GAIN = 1e-3
PASSES = 2
# Texts kept per question for fitting: the best this many by BM25 and by embedding, and every
# text with a copy of the question's subject (the others do not reach the top ten).
KEEP_PER_RETRIEVER = 150


def copy_terms(copy):
    f = copy["features"]
    return (f["lexical"], f["semantic"], [f[k] for k in SCALARS], [float(f.get(k, 0)) for k in FLAGS],
            copy["section"], f["section_margin"])


def load(path):
    questions = []
    with open(path) as rows:
        for line in rows:
            row = json.loads(line)
            texts = []
            for text in row["texts"]:
                copies = [(copy_terms(c), 1.0 if c["relevant"] else 0.0) for c in text["copies"]]
                if copies:
                    texts.append(copies)
            questions.append((row["kind"], row["held"], row["file"], prune(texts)))
    return questions


def prune(texts):
    keep = set()
    for position in (0, 1):
        ranked = sorted(range(len(texts)), key=lambda i: -max(c[0][position] for c in texts[i]))
        keep.update(ranked[:KEEP_PER_RETRIEVER])
    subject = [i for i, t in enumerate(texts) if any(not any(c[0][3][:3]) for c in t)]
    keep.update(subject if len(subject) < len(texts) else [])
    return [texts[i] for i in sorted(keep)]


def text_score(weights, copies):
    """Best copy's score and the relevance of the best copies (a share when tied)."""
    best, gains = -1.0, []
    scalar_w = [weights[k] for k in SCALARS]
    flag_w = [weights.get(k, 0.0) for k in FLAGS]
    priors = weights.get("section_prior", {})
    for (lexical, semantic, scalars, flags, section, margin), relevant in copies:
        exponent = priors.get(section, 0.0) + sum(w * x for w, x in zip(scalar_w, scalars))
        if scalars[0] >= 0.0 and margin >= weights.get("meaning_margin", 1.0):
            exponent += weights.get("meaning_asked", 0.0)
        exponent += sum(w * x for w, x in zip(flag_w, flags))
        score = (lexical + weights["semantic"] * semantic) * math.exp(exponent)
        if score > best + 1e-9:
            best, gains = score, [relevant]
        elif abs(score - best) <= 1e-9:
            gains.append(relevant)
    return best, sum(gains) / len(gains)


def metrics(weights, texts):
    scored = sorted((text_score(weights, copies) for copies in texts), key=lambda s: -s[0])[:10]
    gains = [g for _, g in scored]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    hits = sum(gains)
    ideal = sum(min(1.0, hits - i) / math.log2(i + 2) for i in range(math.ceil(hits)))
    ndcg = dcg / ideal if ideal > 0 else 0.0
    mrr = next((g / (i + 1) for i, g in enumerate(gains) if g > 0), 0.0)
    s1 = gains[0] if gains else 0.0
    return ndcg, mrr, s1


def objective(weights, questions):
    total = 0.0
    for _, _, _, texts in questions:
        ndcg, mrr, _ = metrics(weights, texts)
        total += ndcg + 0.5 * mrr
    return total / max(1, len(questions))


def prior_sections(questions):
    """Sections holding a candidate of at least PRIOR_MIN_QUESTIONS questions, sorted."""
    count = defaultdict(int)
    for _, _, _, texts in questions:
        for section in {c[0][4] for copies in texts for c in copies}:
            count[section] += 1
    return sorted(s for s, n in count.items() if n >= PRIOR_MIN_QUESTIONS)


def with_value(weights, name, value):
    if name == "meaning":
        return dict(weights, meaning_margin=value[0], meaning_asked=value[1])
    if name.startswith("prior:"):
        priors = dict(weights.get("section_prior", {}), **{name[6:]: value})
        return dict(weights, section_prior={k: v for k, v in sorted(priors.items()) if v != 0.0})
    return dict(weights, **{name: value})


def fit_names(questions, only=None):
    """What a fit tries, in order: every weight, or those of `only`."""
    names = ["semantic", "meaning"] + SCALARS + FLAGS + ["prior:" + s for s in prior_sections(questions)]
    return [n for n in names if only is None or n in only]


def fitted_weights(names):
    """The weights of the file that fitting `names` sets (a section's prior is `section_prior`)."""
    fitted = []
    for name in names:
        keys = (["meaning_margin", "meaning_asked"] if name == "meaning"
                else ["section_prior"] if name.startswith("prior:") else [name])
        fitted += [k for k in keys if k not in fitted]
    return fitted


def provenance_entry(date, fitted, files, questions):
    """One fit of the file's `provenance`."""
    return {"date": date, "script": SCRIPT, "fitted": fitted,
            "dataset": {"part": "fit", "files": files, "questions": questions}}


def fit(weights, questions, only=None):
    best = objective(weights, questions)
    names = fit_names(questions, only)
    for _ in range(PASSES):
        improved = False
        for name in names:
            grid = PRIOR_GRID if name.startswith("prior:") else GRIDS.get(name, FLAG_GRID)
            if name == "meaning":  # the margin and the weight only act together
                grid = [(m, a) for m in GRIDS["meaning_margin"] for a in GRIDS["meaning_asked"]]
            for value in grid:
                trial = with_value(weights, name, value)
                score = objective(trial, questions)
                if score > best + MIN_GAIN:
                    best, weights, improved = score, trial, True
        if not improved:
            break
    return weights


def report(title, weights, questions):
    per_kind = defaultdict(list)
    for kind, _, _, texts in questions:
        m = metrics(weights, texts)
        per_kind[kind].append(m)
        per_kind["ALL"].append(m)
    print(f"{title}: " + "  ".join(
        f"{k} {sum(m[0] for m in v) / len(v):.3f}/{sum(m[2] for m in v) / len(v):.2f} (n={len(v)})"
        for k, v in sorted(per_kind.items())))


def cross_validate(weights, fit_part, folds, only):
    """Mean nDCG@10 / S@1 of the left-out folds, with the weights as they are and refitted."""
    by_kind = defaultdict(list)
    for question in fit_part:
        by_kind[question[0]].append(question)
    fold_of = {id(q): i % folds for qs in by_kind.values() for i, q in enumerate(qs)}
    kept, refitted = [], []
    for fold in range(folds):
        train = [q for q in fit_part if fold_of[id(q)] != fold]
        test = [q for q in fit_part if fold_of[id(q)] == fold]
        trial = fit(weights, train, only)
        kept += [metrics(weights, q[3]) for q in test]
        refitted += [metrics(trial, q[3]) for q in test]
    for title, scores in (("as they are", kept), ("refitted", refitted)):
        n = len(scores)
        print(f"cross-validated, {title}: {sum(s[0] for s in scores) / n:.3f}"
              f"/{sum(s[2] for s in scores) / n:.2f} (n={n})")


def main():
    rows_path, weights_path = sys.argv[1], sys.argv[2]
    questions = load(rows_path)
    with open(weights_path) as f:
        weights = json.load(f)
    history = weights.pop("provenance", [])
    fit_part = [q for q in questions if not q[1]]
    held_part = [q for q in questions if q[1]]
    report("fit before (nDCG@10/S@1)", weights, fit_part)
    report("held before", weights, held_part)
    if "--score-only" in sys.argv:
        return
    only = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--only=")), None)
    folds = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--cv=")), None)
    if folds:
        cross_validate(weights, fit_part, folds, only)
        return
    weights = fit(weights, fit_part, only)
    report("fit after", weights, fit_part)
    report("held after", weights, held_part)
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    files = list(dict.fromkeys(q[2] for q in questions))
    entry = provenance_entry(today, fitted_weights(fit_names(fit_part, only)), files, len(fit_part))
    weights["provenance"] = (history if only else []) + [entry]
    with open(weights_path, "w") as f:
        json.dump(weights, f, indent=2)
        f.write("\n")
    print(json.dumps(weights))


if __name__ == "__main__":
    main()
