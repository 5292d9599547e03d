//! Learning the severity and negation cue table (`drugcite-engine`'s `graph/severity-cues.json`)
//! from the fit part of the brat annotations. The graph reads the table; only this writes it,
//! with `LEARNED_SOURCE` as its source.

use drugcite_core::text::contains_any_word;
use drugcite_engine::graph::cues::{
    curated_reach, curated_severity_reach, Cue, Cues, LEARNED_SOURCE,
};
use drugcite_engine::graph::model::Severity;
use drugcite_engine::graph::severity::{is_negated, stated};

use crate::agreement::{annotated_severity, Case, Grade};

/// A cue is kept when it occurs near at least this many fit reactions …
const MIN_SUPPORT: usize = 3;
/// … and at least this share of those carry its grade (or negation).
const MIN_PRECISION: f64 = 0.5;
/// The negation reaches learning chooses from.
const REACHES: std::ops::RangeInclusive<usize> = 1..=10;
/// The severity reaches (bytes) learning chooses from.
const SEVERITY_REACHES: &[usize] = &[20, 30, 40, 60, 80, 120, 160];

/// Learns the cue table from `fit` (cases of the fit part only). Severity: candidate phrases
/// are the annotated Severity texts the curated words do not already cover, each kept when it
/// passes `MIN_SUPPORT` and `MIN_PRECISION` near the fit reactions, then the window with the
/// best mean grade F1. Negation: the same for the annotated Negation texts before and after a
/// reaction, then the reach with the best F1. Each of the two is kept only when, learned on one
/// half of the fit labels, it beats the curated rules on the other half, both ways round
/// (otherwise the curated rule stays); learned negation must also keep the curated rules'
/// precision there, since a false negation deletes a true warning from the graph, which is
/// worse for a prescriber than a negated one kept. Deterministic: candidates are sorted.
pub fn learn(fit: &[Case]) -> Cues {
    let (a, b): (Vec<Case>, Vec<Case>) = fit.iter().cloned().partition(|c| inner_half(&c.label));
    let none = Cues::none();
    let generalises = |learner: fn(&[Case], Cues) -> Cues, better: Better| {
        [(&a, &b), (&b, &a)]
            .into_iter()
            .all(|(train, test)| better(test, &learner(train, Cues::none()), &none))
    };
    let mut cues = Cues::none();
    if generalises(learn_severity, severity_better) {
        cues = learn_severity(fit, cues);
    }
    if generalises(learn_negation, negation_better) {
        cues = learn_negation(fit, cues);
    }
    Cues {
        source: LEARNED_SOURCE.to_owned(),
        ..cues
    }
}

/// Which inner half of the fit part a label is in: the parity of the second byte of the
/// SHA-256 of its name (the first decides fit or held).
fn inner_half(label: &str) -> bool {
    use sha2::{Digest, Sha256};
    Sha256::digest(label.as_bytes())[1] % 2 == 0
}

/// `cues` with severity cues and window learned from `fit`.
fn learn_severity(fit: &[Case], cues: Cues) -> Cues {
    let none = Cues::none();
    let mut candidates: Vec<(String, Severity)> = fit
        .iter()
        .flat_map(|c| &c.severities)
        .filter_map(|text| Some((normalise(text), annotated_severity(text)?)))
        .filter(|(text, grade)| stated(text, &none) != Some(*grade))
        .collect();
    candidates.sort();
    candidates.dedup();
    let severity = candidates
        .into_iter()
        .filter_map(|(cue, grade)| {
            keep(cue, Some(grade), fit, |case, cue| {
                let hit = contains_any_word(&case.window(curated_severity_reach()), &[cue]);
                hit.then(|| case.grade() == Some(Grade::from(grade)))
            })
        })
        .collect();
    let cues = Cues { severity, ..cues };
    let severity_reach = best(SEVERITY_REACHES.iter().copied(), |reach| {
        let trial = Cues {
            severity_reach: reach,
            ..cues.clone()
        };
        grade_f1_permille(fit, &trial)
    })
    .unwrap_or(curated_severity_reach());
    Cues {
        severity_reach,
        ..cues
    }
}

/// `cues` with negation cues and reach learned from `fit`.
fn learn_negation(fit: &[Case], cues: Cues) -> Cues {
    let none = Cues::none();
    let mut candidates: Vec<String> = fit
        .iter()
        .flat_map(|c| &c.negations)
        .map(|text| normalise(text))
        .collect();
    candidates.sort();
    candidates.dedup();
    let negation = |place: fn(&Case, usize) -> String| -> Vec<Cue> {
        candidates
            .iter()
            .filter_map(|cue| {
                keep(cue.clone(), None, fit, |case, cue| {
                    let curated = is_negated(&case.sentence, case.span.clone(), &none);
                    let hit = !curated && contains_any_word(&place(case, curated_reach()), &[cue]);
                    hit.then_some(case.is_negated())
                })
            })
            .collect()
    };
    let cues = Cues {
        negation_before: negation(Case::reach),
        negation_after: negation(|case, _| case.after()),
        ..cues
    };
    let negation_reach = best(REACHES, |reach| {
        let trial = Cues {
            negation_reach: reach,
            ..cues.clone()
        };
        negation_f1_permille(fit, &trial)
    })
    .unwrap_or(curated_reach());
    Cues {
        negation_reach,
        ..cues
    }
}

/// The setting with the highest score; ties go to the smallest.
fn best(settings: impl Iterator<Item = usize>, score: impl Fn(usize) -> u64) -> Option<usize> {
    settings.max_by_key(|&setting| (score(setting), std::cmp::Reverse(setting)))
}

/// The mean F1 of the three grades, in thousandths.
fn grade_f1_permille(cases: &[Case], cues: &Cues) -> u64 {
    let agreement = crate::agreement::measure(cases, cues);
    let sum: f64 = agreement.grades.iter().map(|g| g.f1()).sum();
    (sum / 3.0 * 1000.0).round() as u64
}

/// Whether learned cues do better than the curated ones on held-apart cases.
type Better = fn(&[Case], &Cues, &Cues) -> bool;

fn severity_better(cases: &[Case], learned: &Cues, curated: &Cues) -> bool {
    grade_f1_permille(cases, learned) > grade_f1_permille(cases, curated)
}

/// A higher negation F1 without a lower precision.
fn negation_better(cases: &[Case], learned: &Cues, curated: &Cues) -> bool {
    let precision = |cues| crate::agreement::measure(cases, cues).negation.precision();
    negation_f1_permille(cases, learned) > negation_f1_permille(cases, curated)
        && precision(learned) >= precision(curated)
}

fn negation_f1_permille(cases: &[Case], cues: &Cues) -> u64 {
    let agreement = crate::agreement::measure(cases, cues);
    (agreement.negation.f1() * 1000.0).round() as u64
}

/// `cue` with its support and precision when it passes the bars: `judge` says, per case,
/// whether the cue occurs there (`Some`) and whether the annotation agrees (`true`).
fn keep(
    cue: String,
    severity: Option<Severity>,
    fit: &[Case],
    judge: impl Fn(&Case, &str) -> Option<bool>,
) -> Option<Cue> {
    let judged: Vec<bool> = fit.iter().filter_map(|case| judge(case, &cue)).collect();
    let support = judged.len();
    let right = judged.iter().filter(|&&r| r).count();
    let precision = right as f64 / support.max(1) as f64;
    (support >= MIN_SUPPORT && precision >= MIN_PRECISION).then(|| Cue {
        cue,
        severity,
        support,
        precision: (precision * 1000.0).round() / 1000.0,
    })
}

/// Lowercase with single spaces.
fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
