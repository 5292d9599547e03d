//! Severity and negation cues learned from the fit part of the brat annotations: the phrases
//! annotators marked as a reaction's Severity or Negation, kept when they also predict it in the
//! text around the fit part's reactions. The table (`severity-cues.json`) is compiled in and
//! rewritten only by `drugcite-lab severity-agreement --learn`, whose `source` it carries; the
//! held part is never read here.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::model::Severity;
use super::wording::count;
use drugcite_core::text::contains_any_word;

/// The learned table the graph uses.
const LEARNED: &str = include_str!("severity-cues.json");
/// Where the learned table comes from: the command that writes it (its `source`).
pub const LEARNED_SOURCE: &str = "learned: drugcite-lab severity-agreement --learn FILE, from the fit part of the TAC 2017 ADR brat annotations";
/// The source of the curated rules alone (`Cues::none`).
const CURATED_SOURCE: &str = "curated: the words of severity-words.tsv and negation-cues.tsv alone";

/// How many words before a condition the curated negations reach, before learning.
pub fn curated_reach() -> usize {
    count("curated_negation_reach")
}

/// How many bytes either side of a condition the curated severity words are read from.
pub fn curated_severity_reach() -> usize {
    count("curated_severity_reach")
}

/// One learned phrase, with the evidence it was kept on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cue {
    pub cue: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
    pub support: usize,
    pub precision: f64,
}

/// Learned cues on top of the curated words of `severity.rs`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cues {
    /// Where the table comes from (`kind: detail`): `LEARNED_SOURCE` for the learned one.
    pub source: String,
    /// How many words before a condition a negation reaches.
    pub negation_reach: usize,
    /// How many bytes either side of a condition its severity words are read from.
    pub severity_reach: usize,
    /// Phrases near a condition that state its severity.
    pub severity: Vec<Cue>,
    /// Phrases within reach before a condition that deny it.
    pub negation_before: Vec<Cue>,
    /// Phrases after a condition in its sentence that deny it.
    pub negation_after: Vec<Cue>,
}

impl Cues {
    /// The curated rules alone.
    pub fn none() -> Self {
        Self {
            source: CURATED_SOURCE.to_owned(),
            negation_reach: curated_reach(),
            severity_reach: curated_severity_reach(),
            severity: Vec::new(),
            negation_before: Vec::new(),
            negation_after: Vec::new(),
        }
    }

    /// The compiled-in table learned from the fit part; it must say it was learned by
    /// `drugcite-lab severity-agreement --learn` (its `source`).
    pub fn learned() -> &'static Cues {
        static CUES: LazyLock<Cues> = LazyLock::new(|| {
            let cues: Cues =
                serde_json::from_str(LEARNED).expect("severity-cues.json is a cue table");
            assert_eq!(
                cues.source, LEARNED_SOURCE,
                "severity-cues.json is not the table the lab's learner writes"
            );
            cues
        });
        &CUES
    }

    /// Whether `text` (lowercase) holds a learned cue of `grade`.
    pub fn states(&self, text: &str, grade: Severity) -> bool {
        self.severity
            .iter()
            .any(|c| c.severity == Some(grade) && contains_any_word(text, &[&c.cue]))
    }

    /// Whether the words within reach before a condition hold a learned negation.
    pub fn denies_before(&self, reach: &str) -> bool {
        any_cue(reach, &self.negation_before)
    }

    /// Whether the rest of the sentence after a condition holds a learned denial.
    pub fn denies_after(&self, after: &str) -> bool {
        any_cue(after, &self.negation_after)
    }
}

fn any_cue(text: &str, cues: &[Cue]) -> bool {
    cues.iter().any(|c| contains_any_word(text, &[&c.cue]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_table_parses_and_a_cue_states_its_grade() {
        let learned = Cues::learned();
        assert!(learned.negation_reach >= 1);
        let cues = Cues {
            severity: vec![Cue {
                cue: "grade 3".into(),
                severity: Some(Severity::Serious),
                support: 5,
                precision: 0.8,
            }],
            ..Cues::none()
        };
        assert!(cues.states("grade 3 neutropenia", Severity::Serious));
        assert!(!cues.states("grade 33 neutropenia", Severity::Serious));
        assert!(!cues.states("grade 3 neutropenia", Severity::Mild));
    }
}
