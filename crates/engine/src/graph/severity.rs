//! Severity and negation of one statement, read from the words of its sentence: the curated
//! words of `severity-words.tsv`, `negation-cues.tsv` and `label-cues.tsv` (group avoid) plus
//! the cues learned from the fit part of the brat annotations (`cues.rs`). Text rules only; the
//! brat agreement that measures them is the lab's.
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
use std::sync::LazyLock;

use super::cues::Cues;
use super::model::{RelationType, Severity};
use super::wording::{contains_any, group, label_cues};
use crate::tables::graph as tables;
use drugcite_core::text::hyphenated_words;

/// The severity words of each grade, most severe first (`severity-words.tsv`).
static GRADES: LazyLock<Vec<(Severity, Vec<String>)>> = LazyLock::new(|| {
    [
        (Severity::LifeThreatening, "life_threatening"),
        (Severity::Serious, "serious"),
        (Severity::Moderate, "moderate"),
        (Severity::Mild, "mild"),
    ]
    .into_iter()
    .map(|(grade, name)| (grade, group(&tables::SEVERITY_WORDS, "grade", name, "word")))
    .collect()
});
/// Words before a condition that deny it ("no", "without"); the negator ("not") counts unless
/// it is an instruction ("do not use") or a hedge ("not recommended"). `negation-cues.tsv`.
static NEGATIONS: LazyLock<Negations> = LazyLock::new(|| {
    let role = |name| group(&tables::NEGATION_CUES, "role", name, "cue");
    Negations {
        before: role("before"),
        not: role("not"),
        instructing: role("instructing"),
        hedged_by_not: role("hedged-by-not"),
        after: role("after"),
    }
});
/// An interaction the label says to avoid is serious.
static AVOID: LazyLock<Vec<String>> = LazyLock::new(|| label_cues("avoid", "phrase"));

/// The roles of `negation-cues.tsv`.
struct Negations {
    before: Vec<String>,
    not: Vec<String>,
    instructing: Vec<String>,
    hedged_by_not: Vec<String>,
    /// After a condition, these deny it ("… was not observed").
    after: Vec<String>,
}

/// The severity of a statement of relation `kind` (in a boxed warning or not) whose nearby
/// words are `words`: what the words state, raised by what the section implies.
pub fn severity(kind: RelationType, boxed: bool, words: &str) -> Option<Severity> {
    if kind == RelationType::Indication {
        return None;
    }
    let stated = stated(words, Cues::learned());
    let serious_by_kind = boxed
        || kind == RelationType::Contraindication
        || (kind == RelationType::Interaction && contains_any(words, &AVOID));
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
    GRADES.iter().find_map(|(grade, words)| {
        (contains_any(text, words) || learned.states(text, *grade)).then_some(*grade)
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
    let negations = &*NEGATIONS;
    let negated_before = (window..before.len()).any(|at| {
        let word = &before[at];
        if negations.before.contains(word) {
            return true;
        }
        let instruction = at > 0 && negations.instructing.contains(&before[at - 1]);
        let hedge = before
            .get(at + 1)
            .is_some_and(|next| negations.hedged_by_not.contains(next));
        negations.not.contains(word) && !instruction && !hedge
    });
    let reach = before[window..].join(" ");
    let after = sentence[span.end..].to_lowercase();
    negated_before
        || learned.denies_before(&reach)
        || contains_any(&after, &negations.after)
        || learned.denies_after(&after)
}
