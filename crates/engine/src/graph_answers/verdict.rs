//! The answer to a yes/no question about two named things, and the instruction an interaction
//! carries, both read from the evidence the graph found — never guessed. Verdicts: see
//! `Verdict`; the README lists them. Pure: relation types and evidence text in, labels out.

use serde::Serialize;

pub use crate::graph::instruction::{instruction_about, Instruction};
use crate::graph::model::RelationType;

/// What the labels state between the two things a yes/no question names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A label says the combination or condition is contraindicated.
    Contraindicated,
    /// A label says to avoid the combination (or not to use them together).
    Avoid,
    /// A label states an interaction with a dose change or monitoring to do.
    UseWithCaution,
    /// A label states an interaction without an instruction.
    InteractionStated,
    /// The term is a warning or precaution of the drug, not a contraindication.
    Warning,
    /// The term is an adverse reaction of the drug.
    AdverseReaction,
    /// The drug is indicated for it.
    Indicated,
    /// Two drugs: no label of either states an interaction between them.
    NoInteractionStated,
    /// A drug and a condition: the labels state nothing between them.
    NotStated,
}

/// The verdict from the relationships found between the two things (type and the instruction
/// of its evidence), the strongest first; `two_drugs` tells which "nothing" applies.
pub fn verdict(
    found: impl IntoIterator<Item = (RelationType, Option<Instruction>)>,
    two_drugs: bool,
) -> Verdict {
    found
        .into_iter()
        .filter_map(|(kind, instruction)| match kind {
            RelationType::Contraindication => Some(Verdict::Contraindicated),
            RelationType::Interaction => Some(match instruction {
                Some(Instruction::Contraindicated) => Verdict::Contraindicated,
                Some(Instruction::Avoid | Instruction::Withhold) => Verdict::Avoid,
                Some(_) => Verdict::UseWithCaution,
                None => Verdict::InteractionStated,
            }),
            RelationType::Warning => Some(Verdict::Warning),
            RelationType::AdverseReaction => Some(Verdict::AdverseReaction),
            RelationType::Indication => Some(Verdict::Indicated),
            RelationType::MemberOf => None,
        })
        .min()
        .unwrap_or(if two_drugs {
            Verdict::NoInteractionStated
        } else {
            Verdict::NotStated
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strongest_statement_decides_and_nothing_says_so() {
        let found = [
            (RelationType::Interaction, Some(Instruction::Monitor)),
            (RelationType::Contraindication, None),
        ];
        assert_eq!(verdict(found, true), Verdict::Contraindicated);
        assert_eq!(
            verdict([(RelationType::Warning, None)], false),
            Verdict::Warning
        );
        assert_eq!(verdict([], true), Verdict::NoInteractionStated);
        assert_eq!(verdict([], false), Verdict::NotStated);
    }
}
