//! What a drug's own labels call it and say it is and is for: the words of its names and of
//! its self-describing sections (`self-description-sections.tsv`). A phrase of a question all
//! of whose words these hold describes the drug ("the ointment", "for my acne"), not a risk
//! asked about. Reads label text only; decides no verdict.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::label_floor::{labels_of, subjects};
use crate::error::EngineError;
use crate::graph::query::NamedCondition;
use crate::graph::wording::count;
use crate::graph::{GraphQuestion, Node};
use crate::index::Live;
use crate::search::lexical::labels_texts;
use crate::tables::graph as tables;
use crate::verify::{Verification, Verifier};
use drugcite_core::text::{key_contains, key_of};

/// The sections that say what a drug is and is for (`self-description-sections.tsv`).
static SELF_DESCRIBING: LazyLock<Vec<String>> = LazyLock::new(|| {
    let table = tables::SELF_DESCRIPTION_SECTIONS.rows();
    let section = table.column("section");
    table
        .rows()
        .iter()
        .map(|row| row.cell(section).to_owned())
        .collect()
});
/// Distinct texts read per drug and section (`thresholds.tsv`: `floor_texts_read`).
static TEXTS_READ: LazyLock<usize> = LazyLock::new(|| count("floor_texts_read"));

/// The words a drug's labels use for it.
pub(super) struct OwnWords {
    /// Of its names (generic, brands, substances), lowercase.
    pub names: BTreeSet<String>,
    /// Of its names and its self-describing sections, lowercase.
    pub description: BTreeSet<String>,
}

impl OwnWords {
    /// The own words of the drug named `name` (as the graph names it), read from its labels.
    pub fn of(live: &Live, verifier: &Verifier, name: &str) -> Result<Self, EngineError> {
        let labels = labels_of(live, name);
        let metas = live.snapshot.labels();
        let names: BTreeSet<String> = labels
            .iter()
            .flat_map(|&l| metas[l as usize].search_names.iter())
            .map(String::as_str)
            .chain([name])
            .flat_map(words)
            .collect();
        let mut description = names.clone();
        for section in SELF_DESCRIBING.iter() {
            for hit in labels_texts(live, &labels, Some(section), *TEXTS_READ)? {
                if let Verification::Verified(segment) = verifier.verify(hit.best)? {
                    description.extend(words(&segment.text));
                }
            }
        }
        Ok(Self { names, description })
    }

    /// Whether every content word of `phrase` is one of the drug's own description (a phrase
    /// without content words is not).
    pub fn describe(&self, phrase: &str) -> bool {
        let mut content = content_words(phrase).peekable();
        content.peek().is_some() && content.all(|w| self.description.contains(&w))
    }
}

/// The conditions a question about one drug names as what the drug is for ("His asthma doctor
/// wants him on Fasenra. Is that okay with his gout?"): those the drug's own description holds,
/// when the question also names a condition it does not. What the labels state of such a
/// condition is context, not the answer; empty when every condition is the drug's own or the
/// question names another drug.
pub(super) fn purposes(
    live: &Live,
    verifier: &Verifier,
    question: &GraphQuestion,
) -> Result<Vec<NamedCondition>, EngineError> {
    let one_drug = question.drugs.len() == 1 && !question.drugs[0].is_class;
    if !one_drug || question.conditions.len() < 2 {
        return Ok(Vec::new());
    }
    let owns = subjects(live, question)
        .iter()
        .map(|subject| OwnWords::of(live, verifier, &subject.name))
        .collect::<Result<Vec<_>, _>>()?;
    let (own, asked): (Vec<&NamedCondition>, Vec<&NamedCondition>) = question
        .conditions
        .iter()
        .partition(|c| owns.iter().any(|own| own.describe(&c.text)));
    Ok(if asked.is_empty() {
        Vec::new()
    } else {
        own.into_iter().cloned().collect()
    })
}

/// Whether `target` is the condition `condition` names (by id, or a key its name holds).
pub(super) fn names(condition: &NamedCondition, target: &Node) -> bool {
    let key = key_of(&target.name);
    condition.ids.contains(&target.id)
        || condition
            .keys
            .iter()
            .any(|k| !k.is_empty() && key_contains(&key, k))
        || key_contains(&key, &key_of(&condition.name))
}

/// The lowercase alphanumeric words of `text`.
pub(super) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// The words of three letters or more of `text` that are not numbers, lowercase.
pub(super) fn content_words(text: &str) -> impl Iterator<Item = String> + '_ {
    words(text).filter(|w| w.len() > 2 && !w.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The own words of a drug whose self-describing text is `text`.
    fn own(text: &str) -> OwnWords {
        OwnWords {
            names: BTreeSet::new(),
            description: words(text).collect(),
        }
    }

    #[test]
    fn a_phrase_describes_the_drug_when_its_description_holds_every_content_word() {
        let own = own("KLISYRI (tirbanibulin) ointment, 1%, is a microtubule inhibitor indicated for the topical treatment of actinic keratosis of the face or scalp.");
        assert!(own.describe("the ointment"));
        assert!(own.describe("Actinic keratosis"));
        assert!(!own.describe("congestive heart failure"));
        assert!(!own.describe("ointment and heart failure"));
        assert!(!own.describe("a 5"), "no content word describes nothing");
    }
}
