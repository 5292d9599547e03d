//! The answer to a yes/no question about two named things, and the instruction an interaction
//! carries, both read from the evidence the graph found — never guessed. Verdicts: see
//! `Verdict`; the README lists them. Pure: relation types and evidence text in, labels out.

use serde::Serialize;

use std::sync::LazyLock;

use crate::graph::instruction::instruction;
pub use crate::graph::instruction::{instruction_about, Instruction};
use crate::graph::model::RelationType;
use crate::graph::wording::{contains_any, label_cues};

/// What the labels state between the two things a yes/no question names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A label says the combination or condition is contraindicated.
    Contraindicated,
    /// A label says to avoid the combination (or not to use them together).
    Avoid,
    /// A label's boxed warning states it.
    BoxedWarning,
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
    /// Nothing is stated and no label of the named drugs is indexed: nothing could be read.
    NoLabelIndexed,
}

/// Wording that names what a drug is used to treat (`label-cues.tsv`, `treatment-purpose`).
static PURPOSE: LazyLock<Vec<String>> = LazyLock::new(|| label_cues("treatment-purpose", "phrase"));

/// What a floor sentence of relation `kind` tells the reader to do about what it names, when
/// that is more than a warning: a Warnings sentence that says to avoid it ("should be avoided in
/// patients with known QT prolongation") or calls it contraindicated — not one that limits what
/// the drug treats ("should not be used to treat acute asthma"; `label-cues.tsv`,
/// `treatment-purpose`). `sentence` is lowercase.
pub fn warning_instruction(kind: RelationType, sentence: &str) -> Option<Instruction> {
    (kind == RelationType::Warning && !contains_any(sentence, &PURPOSE))
        .then(|| instruction(sentence))
        .flatten()
        .filter(|i| matches!(i, Instruction::Contraindicated | Instruction::Avoid))
}

/// What one relationship says, as a verdict: its type, the instruction of its evidence, and
/// whether a boxed warning states it. `None` for class membership.
pub fn stated_verdict(
    kind: RelationType,
    instruction: Option<Instruction>,
    boxed: bool,
) -> Option<Verdict> {
    let stated = match kind {
        RelationType::Contraindication => Verdict::Contraindicated,
        RelationType::Interaction => match instruction {
            Some(Instruction::Contraindicated) => Verdict::Contraindicated,
            Some(Instruction::Avoid | Instruction::Withhold) => Verdict::Avoid,
            Some(_) => Verdict::UseWithCaution,
            None => Verdict::InteractionStated,
        },
        RelationType::Warning => match instruction {
            Some(Instruction::Contraindicated) => Verdict::Contraindicated,
            Some(Instruction::Avoid) => Verdict::Avoid,
            _ => Verdict::Warning,
        },
        RelationType::AdverseReaction => Verdict::AdverseReaction,
        RelationType::Indication => Verdict::Indicated,
        RelationType::MemberOf => return None,
    };
    let boxed_raises = boxed && stated > Verdict::BoxedWarning && kind != RelationType::Indication;
    Some(if boxed_raises {
        Verdict::BoxedWarning
    } else {
        stated
    })
}

/// The verdict from the relationships found between the two things (type, the instruction of
/// its evidence, boxed or not): the most cautious; `two_drugs` tells which "nothing" applies.
pub fn verdict(
    found: impl IntoIterator<Item = (RelationType, Option<Instruction>, bool)>,
    two_drugs: bool,
) -> Verdict {
    found
        .into_iter()
        .filter_map(|(kind, instruction, boxed)| stated_verdict(kind, instruction, boxed))
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
    fn a_warning_that_says_to_avoid_it_is_avoid() {
        let sentence = "wakix should be avoided in patients with known qt prolongation.";
        let told = warning_instruction(RelationType::Warning, sentence);
        assert_eq!(told, Some(Instruction::Avoid));
        assert_eq!(
            stated_verdict(RelationType::Warning, told, false),
            Some(Verdict::Avoid)
        );
        let receive =
            "in general, patients with bronchospastic diseases should not receive β-blockers.";
        assert_eq!(
            warning_instruction(RelationType::Warning, receive),
            Some(Instruction::Avoid),
            "the patient as the subject"
        );
        let purpose = "fasenra should not be used to treat acute asthma symptoms.";
        assert_eq!(warning_instruction(RelationType::Warning, purpose), None);
        let monitor = "Monitor ECG in patients with QT prolongation.";
        assert_eq!(warning_instruction(RelationType::Warning, monitor), None);
        assert_eq!(
            warning_instruction(RelationType::Indication, sentence),
            None,
            "only a warning is raised by what it says to do"
        );
    }

    #[test]
    fn the_strongest_statement_decides_and_nothing_says_so() {
        let found = [
            (RelationType::Interaction, Some(Instruction::Monitor), false),
            (RelationType::Contraindication, None, false),
        ];
        assert_eq!(verdict(found, true), Verdict::Contraindicated);
        assert_eq!(
            verdict([(RelationType::Warning, None, false)], false),
            Verdict::Warning
        );
        assert_eq!(verdict([], true), Verdict::NoInteractionStated);
        assert_eq!(verdict([], false), Verdict::NotStated);
    }

    #[test]
    fn a_boxed_statement_is_at_least_a_boxed_warning_and_never_lowers_one_above_it() {
        let boxed_reaction = [(RelationType::AdverseReaction, None, true)];
        assert_eq!(verdict(boxed_reaction, false), Verdict::BoxedWarning);
        let boxed_avoid = [(RelationType::Interaction, Some(Instruction::Avoid), true)];
        assert_eq!(verdict(boxed_avoid, true), Verdict::Avoid);
        let order = [
            Verdict::Contraindicated,
            Verdict::Avoid,
            Verdict::BoxedWarning,
            Verdict::UseWithCaution,
            Verdict::InteractionStated,
            Verdict::Warning,
        ];
        assert!(order.windows(2).all(|pair| pair[0] < pair[1]));
    }
}
