//! The answer to a yes/no question about two named things, and the instruction an interaction
//! carries, both read from the evidence the graph found — never guessed. Verdicts: see
//! `Verdict`; the README lists them. Pure: relation types and evidence text in, labels out.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use super::model::RelationType;
use super::relations::sentences;

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

/// What a label tells the reader to do about an interaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Instruction {
    Contraindicated,
    Avoid,
    AdjustDose,
    Monitor,
}

static INSTRUCTIONS: LazyLock<Vec<(Regex, Instruction)>> = LazyLock::new(|| {
    let rule = |pattern: &str, instruction| {
        (
            Regex::new(&format!(r"(?i)\b(?:{pattern})")).expect("instruction pattern"),
            instruction,
        )
    };
    vec![
        rule(r"contraindicat", Instruction::Contraindicated),
        rule(
            r"avoid|do not (?:use|take|coadminister|administer|combine)|should not be (?:used|taken|coadministered|administered)|not recommended",
            Instruction::Avoid,
        ),
        rule(
            r"(?:reduce|decrease|adjust|lower|increase|limit)\w* (?:the )?(?:\w+ )?dos|dose (?:reduction|adjustment|modification)|do not exceed|not to exceed",
            Instruction::AdjustDose,
        ),
        rule(r"monitor|observe|measure|check", Instruction::Monitor),
    ]
});

/// The strongest instruction `text` gives (contraindicated before avoid before dose before
/// monitor), if any.
pub fn instruction(text: &str) -> Option<Instruction> {
    INSTRUCTIONS
        .iter()
        .find(|(pattern, _)| pattern.is_match(text))
        .map(|(_, instruction)| *instruction)
}

/// The instruction of the sentences of `text` that name `name` (any case), if one gives one;
/// "(e.g., rifampin)" stays in its sentence ("Avoid … inducers (e.g., rifampin)").
pub fn instruction_about(text: &str, name: &str) -> Option<Instruction> {
    let name = name.split_whitespace().next()?.to_lowercase();
    sentences(text)
        .into_iter()
        .map(|range| &text[range])
        .filter(|sentence| sentence.to_lowercase().contains(&name))
        .filter_map(instruction)
        .min()
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
                Some(Instruction::Avoid) => Verdict::Avoid,
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
    fn instructions_are_read_strongest_first() {
        assert_eq!(
            instruction("Coadministration with pimozide is contraindicated; monitor ECG."),
            Some(Instruction::Contraindicated)
        );
        assert_eq!(
            instruction("Avoid concomitant use with strong CYP3A4 inhibitors."),
            Some(Instruction::Avoid)
        );
        assert_eq!(
            instruction("Reduce the dose of digoxin by half."),
            Some(Instruction::AdjustDose)
        );
        assert_eq!(
            instruction("Monitor INR when starting celecoxib."),
            Some(Instruction::Monitor)
        );
        assert_eq!(instruction("Levels increase."), None);
    }

    #[test]
    fn an_example_list_keeps_its_sentence_instruction() {
        let text = "Avoid concomitant use of ELIQUIS with combined P-gp and strong CYP3A4 \
                    inducers (e.g., rifampin, carbamazepine). Other text.";
        assert_eq!(
            instruction_about(text, "rifampin"),
            Some(Instruction::Avoid)
        );
    }

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
