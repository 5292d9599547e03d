//! What a label tells the reader to do about an interaction, read from the evidence text:
//! contraindicated, avoid, withhold (stop or interrupt the drug around the other), adjust the
//! dose, monitor. Read from the sentences that name the partner (by any of its names), from the
//! "Intervention:" of the interaction-table row that names it, and from the sentences that name
//! the group a list puts it in ("other serotonergic drugs (including … tramadol …)"). Pure text
//! work; the wording is `instruction-cues.tsv` and `list-words.tsv`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use super::enzymes::{enzyme_classes, strip_strength};
use super::names::list_words;
use super::relations::sentences;
use super::wording::group;
use crate::tables::graph as tables;
use drugcite_core::text::{occurrences, WordEdge};

/// What a label tells the reader to do about an interaction, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Instruction {
    Contraindicated,
    Avoid,
    /// Stop, hold or interrupt one drug around the other ("stop metformin at the time of, or
    /// prior to, an iodinated contrast imaging procedure").
    Withhold,
    AdjustDose,
    Monitor,
}

/// Each instruction with its pattern (`instruction-cues.tsv`), strongest first.
static INSTRUCTIONS: LazyLock<Vec<(Regex, Instruction)>> = LazyLock::new(|| {
    [
        ("contraindicated", Instruction::Contraindicated),
        ("avoid", Instruction::Avoid),
        ("withhold", Instruction::Withhold),
        ("adjust_dose", Instruction::AdjustDose),
        ("monitor", Instruction::Monitor),
    ]
    .into_iter()
    .map(|(name, instruction)| {
        let pattern = format!(r"(?i)\b(?:{})", cues(name));
        (
            Regex::new(&pattern).expect("instruction pattern"),
            instruction,
        )
    })
    .collect()
});

/// A stop instruction that only applies when something happens ("discontinue … if serotonin
/// syndrome occurs"), or that is only to be weighed ("consider discontinuation"), is what to do
/// when monitoring finds it, not an instruction to withhold.
static CONDITIONAL: LazyLock<Regex> = LazyLock::new(|| {
    let (opener, event) = (cues("conditional-if"), cues("conditional-event"));
    let weigh = cues("conditional-weigh");
    let pattern = format!(r"(?i)\b(?:{opener})\b[^.;]*\b(?:{event})\b|\b(?:{weigh})\b");
    Regex::new(&pattern).expect("conditional pattern")
});

/// The words before a group's noun that are not part of its name ("other"), and the group
/// names too general to be one ("drugs"): `list-words.tsv`.
static GROUP_FILLERS: LazyLock<Vec<String>> = LazyLock::new(|| list_words("group-filler"));
static GENERIC_GROUPS: LazyLock<Vec<String>> = LazyLock::new(|| list_words("generic-group"));

/// The alternatives of a group of `instruction-cues.tsv`, as one regex alternation.
fn cues(name: &str) -> String {
    group(&tables::INSTRUCTION_CUES, "group", name, "pattern").join("|")
}

/// A bracketed pointer to another section: "[see Contraindications (4)]", "(see Warnings)".
static CROSS_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\[\s*see\b[^\]]*\]|\(\s*see\b[^()]*(?:\([^()]*\)[^()]*)*\)")
        .expect("cross-reference pattern")
});

/// A Highlights item's closing section reference followed by the next item's capital: "( 5.3 ) S".
static ITEM_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\(\s*\d+(?:\.\d+)*(?:\s*,\s*\d+(?:\.\d+)*)*\s*\)\s+[A-Z]")
        .expect("highlight item pattern")
});

/// The opening of an example list after a group's name: "(including", "(e.g.,", "such as".
static LIST_OPENING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)((?:[a-z-]+ ){0,1}[a-z-]+)\s*(?:\(\s*(?:including|e\.g\.,?|such as)|,?\s+(?:including|such as)\b)")
        .expect("list pattern")
});

/// The strongest instruction `text` gives (see `Instruction` for the order), if any; a
/// cross-reference ("[see Contraindications (4)]") is not an instruction.
pub fn instruction(text: &str) -> Option<Instruction> {
    let text = &*CROSS_REFERENCE.replace_all(text, " ");
    INSTRUCTIONS
        .iter()
        .filter(|(_, instruction)| {
            *instruction != Instruction::Withhold || !CONDITIONAL.is_match(text)
        })
        .find(|(pattern, _)| pattern.is_match(text))
        .map(|(_, instruction)| *instruction)
}

/// The strongest instruction `text` gives about a partner called by any of `names` (lowercase
/// phrases, matched as whole words with an optional plural "s"): of the sentences naming it, of
/// the "Intervention:" of an interaction-table row naming it, and of the sentences naming the
/// group an example list puts it in. "(e.g., rifampin)" stays in its sentence ("Avoid …
/// inducers (e.g., rifampin)").
pub fn instruction_about(text: &str, names: &[String]) -> Option<Instruction> {
    let sentences: Vec<&str> = sentences(text)
        .into_iter()
        .flat_map(|r| highlight_items(&text[r]))
        .collect();
    let lower: Vec<String> = sentences.iter().map(|s| s.to_lowercase()).collect();
    let naming: Vec<(usize, usize)> = (0..sentences.len())
        .filter_map(|i| first_naming(&lower[i], names).map(|at| (i, at)))
        .collect();
    let own = naming
        .iter()
        .filter_map(|&(i, _)| instruction(sentences[i]));
    let rows = table_rows(&sentences);
    let interventions = naming
        .iter()
        .filter_map(|&(i, _)| rows.iter().find(|row| row.contains(&i)))
        .flat_map(|row| row.clone())
        .filter(|&i| sentences[i].contains("Intervention"))
        .filter_map(|i| instruction(sentences[i]));
    let groups: Vec<String> = naming
        .iter()
        .filter_map(|&(i, at)| group_before(&lower[i][..at]))
        .collect();
    let about_group = (0..sentences.len())
        .filter(|&i| groups.iter().any(|g| lower[i].contains(g.as_str())))
        .filter_map(|i| instruction(sentences[i]));
    own.chain(interventions).chain(about_group).min()
}

/// A sentence cut after each section reference that ends a Highlights item ("… reduce dosage
/// gradually ( 5.3 ) Seizures: Use with caution …"): Highlights run their items together
/// without full stops, and an item's instruction is not the next item's.
fn highlight_items(sentence: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut start = 0;
    for reference in ITEM_END.find_iter(sentence) {
        let next_item = reference.end() - 1;
        items.push(&sentence[start..next_item]);
        start = next_item;
    }
    items.push(&sentence[start..]);
    items.retain(|item| !item.trim().is_empty());
    items
}

/// Where the first of `names` occurs in `sentence` (lowercase) as whole words, or as an enzyme
/// class however the label spells it ("strong CYP3A4 inhibitor" names `cyp3a inhibitors` and
/// `strong cyp3a inhibitors`).
fn first_naming(sentence: &str, names: &[String]) -> Option<usize> {
    let spelled = names
        .iter()
        .filter(|name| !name.is_empty())
        .filter_map(|name| {
            occurrences(sentence, name, WordEdge::WholeOrPlural)
                .next()
                .map(|r| r.start)
        });
    let enzymes = enzyme_classes(sentence)
        .into_iter()
        .filter(|class| {
            class.names.iter().any(|named| {
                names
                    .iter()
                    .any(|name| name == named || name == strip_strength(named))
            })
        })
        .map(|class| class.span.start);
    spelled.chain(enzymes).min()
}

/// Interaction-table rows as PLR labels write them ("Lithium Clinical Impact: … Intervention:
/// … Examples: …"): ranges of sentence indexes, each from the sentence holding "Clinical
/// Impact:" to the one before the next.
fn table_rows(sentences: &[&str]) -> Vec<std::ops::Range<usize>> {
    let starts: Vec<usize> = (0..sentences.len())
        .filter(|&i| sentences[i].contains("Clinical Impact"))
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(n, &start)| start..starts.get(n + 1).copied().unwrap_or(sentences.len()))
        .collect()
}

/// The group an example list ending in `before` (a sentence up to a partner's name) puts the
/// partner in: the words right before the list's opening ("other serotonergic drugs
/// (including … tramadol …)" → "serotonergic drugs").
fn group_before(before: &str) -> Option<String> {
    let opening = LIST_OPENING
        .captures_iter(before)
        .last()?
        .get(1)?
        .as_str()
        .trim()
        .to_owned();
    let words: Vec<&str> = opening
        .split(' ')
        .filter(|w| !GROUP_FILLERS.iter().any(|filler| filler == w))
        .collect();
    let generic = match words.as_slice() {
        [] => true,
        [word] => GENERIC_GROUPS.iter().any(|g| g == word),
        _ => false,
    };
    (!generic).then(|| words.join(" "))
}

#[cfg(test)]
mod tests;
