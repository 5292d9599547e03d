//! Severity and negation of one statement, read from the words of its sentence: the curated
//! words below plus the cues learned from the fit part of the brat annotations (`cues.rs`).
//! Text rules only; the brat agreement that measures them is `agreement.rs`.
//!
//! The rules, most severe first (a relationship's severity is the highest of its statements):
//! - life_threatening: the sentence says fatal, death(s), died, lethal, mortality or
//!   life-threatening;
//! - serious: a boxed warning; a contraindication; an interaction the label says to avoid or
//!   calls contraindicated; or the sentence says serious, severe, hospitalization, permanent,
//!   irreversible, disabling or emergency;
//! - moderate: a warning or precaution; any other interaction; or the sentence says moderate;
//! - mild: an adverse reaction whose sentence says mild, transient or minor;
//! - none (null): other adverse reactions and every indication.
//!
//! A learned cue (e.g. "grade 3" → serious) counts like the curated words of its grade.

use std::ops::Range;

use super::cues::Cues;
use super::model::{RelationType, Severity};
use drugcite_core::text::{contains_any_word, hyphenated_words};

const LIFE_THREATENING: &[&str] = &[
    "fatal",
    "fatalities",
    "death",
    "deaths",
    "died",
    "lethal",
    "mortality",
    "life-threatening",
    "life threatening",
];
const SERIOUS: &[&str] = &[
    "serious",
    "severe",
    "hospitalization",
    "hospitalisation",
    "hospitalized",
    "permanent",
    "irreversible",
    "disabling",
    "emergency",
];
const MILD: &[&str] = &["mild", "transient", "minor"];
/// Words before a condition that deny it ("no", "without"); "not" counts unless it is an
/// instruction ("do not use") or a hedge ("not recommended").
const NEGATIONS: &[&str] = &[
    "no", "without", "absence", "neither", "nor", "denied", "never",
];
const INSTRUCTING: &[&str] = &["do", "does", "should", "must", "may", "can", "could", "did"];
const HEDGED_BY_NOT: &[&str] = &["recommended", "advised", "established", "known"];
/// After a condition, these deny it ("… was not observed").
const DENIED_AFTER: &[&str] = &[
    "not been reported",
    "not reported",
    "not observed",
    "not been observed",
    "not seen",
    "not occur",
    "no evidence",
];
const AVOID: &[&str] = &["avoid", "contraindicated", "do not"];

/// The severity of a statement of relation `kind` (in a boxed warning or not) whose nearby
/// words are `words`: what the words state, raised by what the section implies.
pub fn severity(kind: RelationType, boxed: bool, words: &str) -> Option<Severity> {
    if kind == RelationType::Indication {
        return None;
    }
    let stated = stated(words, Cues::learned());
    let serious_by_kind = boxed
        || kind == RelationType::Contraindication
        || (kind == RelationType::Interaction && contains_any_word(words, AVOID));
    match stated {
        Some(Severity::LifeThreatening) => stated,
        _ if serious_by_kind => Some(Severity::Serious),
        Some(Severity::Serious) => stated,
        _ if matches!(kind, RelationType::Warning | RelationType::Interaction) => {
            Some(Severity::Moderate)
        }
        _ => stated,
    }
}

/// The severity the words of `text` (lowercase) state, by the curated words and `learned`.
pub fn stated(text: &str, learned: &Cues) -> Option<Severity> {
    let grades = [
        (Severity::LifeThreatening, LIFE_THREATENING),
        (Severity::Serious, SERIOUS),
        (Severity::Moderate, &["moderate"][..]),
        (Severity::Mild, MILD),
    ];
    grades.into_iter().find_map(|(grade, words)| {
        (contains_any_word(text, words) || learned.states(text, grade)).then_some(grade)
    })
}

/// The part of `sentence` the severity of the condition at `span` is read from: `span`
/// widened by `reach` bytes each side (the learned `Cues::severity_reach`; table rows run
/// together into one long "sentence"), on character boundaries, but not past a colon
/// (which ends a list heading: "Hepatobiliary: fatal hepatic failure. Musculoskeletal:
/// arthralgia").
pub fn window(sentence: &str, span: Range<usize>, reach: usize) -> Range<usize> {
    let mut start = span.start.saturating_sub(reach);
    while !sentence.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (span.end + reach).min(sentence.len());
    while !sentence.is_char_boundary(end) {
        end += 1;
    }
    let start = sentence[start..span.start]
        .rfind(':')
        .map_or(start, |at| start + at + 1);
    let end = sentence[span.end..end]
        .find(':')
        .map_or(end, |at| span.end + at);
    start..end
}

/// Whether the condition at `span` of `sentence` is denied by a negation before it (within
/// the learned reach) or a denial after it, by the curated words and `learned`.
pub fn is_negated(sentence: &str, span: Range<usize>, learned: &Cues) -> bool {
    let before: Vec<String> = hyphenated_words(&sentence[..span.start])
        .map(str::to_lowercase)
        .collect();
    let window = before.len().saturating_sub(learned.negation_reach);
    let negated_before = (window..before.len()).any(|at| {
        let word = before[at].as_str();
        if NEGATIONS.contains(&word) {
            return true;
        }
        let instruction = at > 0 && INSTRUCTING.contains(&before[at - 1].as_str());
        let hedge = before
            .get(at + 1)
            .is_some_and(|next| HEDGED_BY_NOT.contains(&next.as_str()));
        word == "not" && !instruction && !hedge
    });
    let reach = before[window..].join(" ");
    let after = sentence[span.end..].to_lowercase();
    negated_before
        || learned.denies_before(&reach)
        || contains_any_word(&after, DENIED_AFTER)
        || learned.denies_after(&after)
}
