//! What a label tells the reader to do about an interaction, read from the evidence text:
//! contraindicated, avoid, withhold (stop or interrupt the drug around the other), adjust the
//! dose, monitor. Read from the sentences that name the partner, from the "Intervention:" of
//! the interaction-table row that names it, and from the sentences that name the group a list
//! puts it in ("other serotonergic drugs (including … tramadol …)"). Pure text work.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use super::relations::sentences;

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
            r"avoid|do not (?:use|take|coadminister|administer|combine)|should not be (?:used|taken|given|coadministered|administered)|not recommended",
            Instruction::Avoid,
        ),
        rule(
            r"stop|discontinue\b|discontinued? (?:at|before|prior)|withh[oe]ld|temporarily (?:hold|interrupt|suspend)|interrupt",
            Instruction::Withhold,
        ),
        rule(
            r"(?:reduce|decrease|adjust|lower|increase|limit)\w* (?:the )?(?:\w+ )?dos|dose (?:reduction|adjustment|modification)|do not exceed|not to exceed",
            Instruction::AdjustDose,
        ),
        rule(
            r"monitor|observe|measure|check|inform patients|advise patients|counsel|be (?:made )?aware",
            Instruction::Monitor,
        ),
    ]
});

/// A stop instruction that only applies when something happens ("discontinue … if serotonin
/// syndrome occurs"), or that is only to be weighed ("consider discontinuation"), is what to do
/// when monitoring finds it, not an instruction to withhold.
static CONDITIONAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:if|should|when)\b[^.;]*\b(?:occurs?|develops?|appears?|suspected|experiences?)\b|\bconsider\b")
        .expect("conditional pattern")
});

/// The opening of an example list after a group's name: "(including", "(e.g.,", "such as".
static LIST_OPENING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)((?:[a-z-]+ ){0,1}[a-z-]+)\s*(?:\(\s*(?:including|e\.g\.,?|such as)|,?\s+(?:including|such as)\b)")
        .expect("list pattern")
});

/// The strongest instruction `text` gives (see `Instruction` for the order), if any.
pub fn instruction(text: &str) -> Option<Instruction> {
    INSTRUCTIONS
        .iter()
        .filter(|(_, instruction)| {
            *instruction != Instruction::Withhold || !CONDITIONAL.is_match(text)
        })
        .find(|(pattern, _)| pattern.is_match(text))
        .map(|(_, instruction)| *instruction)
}

/// The strongest instruction `text` gives about `name` (its first word, any case): of the
/// sentences naming it, of the "Intervention:" of an interaction-table row naming it, and of
/// the sentences naming the group an example list puts it in. "(e.g., rifampin)" stays in its
/// sentence ("Avoid … inducers (e.g., rifampin)").
pub fn instruction_about(text: &str, name: &str) -> Option<Instruction> {
    let name = name.split_whitespace().next()?.to_lowercase();
    let sentences: Vec<&str> = sentences(text).into_iter().map(|r| &text[r]).collect();
    let naming: Vec<usize> = (0..sentences.len())
        .filter(|&i| sentences[i].to_lowercase().contains(&name))
        .collect();
    let own = naming.iter().filter_map(|&i| instruction(sentences[i]));
    let rows = table_rows(&sentences);
    let interventions = naming
        .iter()
        .filter_map(|&i| rows.iter().find(|row| row.contains(&i)))
        .flat_map(|row| row.clone())
        .filter(|&i| sentences[i].contains("Intervention"))
        .filter_map(|i| instruction(sentences[i]));
    let groups: Vec<String> = naming
        .iter()
        .filter_map(|&i| group_before(sentences[i], &name))
        .collect();
    let about_group = sentences
        .iter()
        .filter(|s| groups.iter().any(|g| s.to_lowercase().contains(g.as_str())))
        .filter_map(|s| instruction(s));
    own.chain(interventions).chain(about_group).min()
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

/// The group a sentence's example list puts `name` in: the words right before the list's
/// opening ("other serotonergic drugs (including … tramadol …)" → "serotonergic drugs").
fn group_before(sentence: &str, name: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let at = lower.find(name)?;
    let opening = LIST_OPENING
        .captures_iter(&lower[..at])
        .last()?
        .get(1)?
        .as_str()
        .trim()
        .to_owned();
    let words: Vec<&str> = opening.split(' ').filter(|w| *w != "other").collect();
    let generic = matches!(
        words.as_slice(),
        [] | ["drugs" | "agents" | "medications" | "medicines" | "products"]
    );
    (!generic).then(|| words.join(" "))
}

#[cfg(test)]
mod tests;
