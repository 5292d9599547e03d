//! Severity and negation of one statement, read from the words of its sentence.
//!
//! of its statements):
//! - life_threatening: the sentence says fatal, death(s), died, lethal, mortality or
//!   life-threatening;
//! - serious: a boxed warning; a contraindication; an interaction the label says to avoid or
//!   calls contraindicated; or the sentence says serious, severe, hospitalization, permanent,
//!   irreversible, disabling or emergency;
//! - moderate: a warning or precaution; any other interaction; or the sentence says moderate;
//! - mild: an adverse reaction whose sentence says mild, transient or minor;
//! - none (null): other adverse reactions and every indication.

use std::ops::Range;

use super::model::{RelationType, Severity};
use crate::text::{contains_any_word, hyphenated_words};

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
/// How many words before a condition a negation reaches.
const NEGATION_REACH: usize = 6;
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

pub fn severity(kind: RelationType, boxed: bool, sentence: &str) -> Option<Severity> {
    if kind == RelationType::Indication {
        return None;
    }
    if contains_any_word(sentence, LIFE_THREATENING) {
        return Some(Severity::LifeThreatening);
    }
    let serious_by_kind = boxed
        || kind == RelationType::Contraindication
        || (kind == RelationType::Interaction && contains_any_word(sentence, AVOID));
    if serious_by_kind || contains_any_word(sentence, SERIOUS) {
        return Some(Severity::Serious);
    }
    if matches!(kind, RelationType::Warning | RelationType::Interaction)
        || contains_any_word(sentence, &["moderate"])
    {
        return Some(Severity::Moderate);
    }
    contains_any_word(sentence, MILD).then_some(Severity::Mild)
}

/// Whether the condition at `span` of `sentence` is denied by a negation before it (within
/// reach) or a denial after it.
pub fn is_negated(sentence: &str, span: Range<usize>) -> bool {
    let before: Vec<String> = hyphenated_words(&sentence[..span.start])
        .map(str::to_lowercase)
        .collect();
    let window = before.len().saturating_sub(NEGATION_REACH);
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
    let after = sentence[span.end..].to_lowercase();
    negated_before || contains_any_word(&after, DENIED_AFTER)
}
