//! What one label segment states about its drug: the relation its section implies, the
//! conditions, drugs and classes it names, read sentence by sentence with negation ("no cases
//! of X were reported"), hedges ("not recommended" is a warning, not a contraindication) and
//! the severity rules of `severity.rs`. Also: populations and settings as targets, enzyme
//! classes and the members a label lists for them, drugs without a label of their own, and a
//! contraindication's target is what it is about, not the reason given for it ("taking
//! pimozide because of the risk of QT prolongation": pimozide, not QT prolongation). Pure text
//! work; the graph is assembled elsewhere.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::cues::Cues;
use super::enzymes::enzyme_classes;
use super::model::{RelationType, Severity};
use super::severity::{is_negated, severity, window};
use super::wording::{contains_any, label_cues};
use crate::conditions::{Matcher, Purpose, SectionGroup};
use crate::tables::graph as tables;
use crate::understand::populations::populations;
use drugcite_core::table::TableSource;
use drugcite_core::text::{occurrences, WordEdge};

mod drugs;
mod target;
#[cfg(test)]
mod tests;

use drugs::drug_targets;
pub use drugs::Drugs;
pub use target::Target;

/// In a contraindication, what follows one of these is the reason given, not a target.
static REASON: LazyLock<Regex> = LazyLock::new(|| {
    let alternatives = label_cues("reason", "regex").join("|");
    Regex::new(&format!(r"\b(?:{alternatives})\b")).expect("reason pattern")
});
/// A contraindications sentence with one of these states a caution, i.e. a warning.
static HEDGES: LazyLock<Vec<String>> = LazyLock::new(|| label_cues("hedge", "phrase"));
/// In an indications sentence, what follows one of these is a limitation of use, not an
/// indication ("Limitations of Use: Not recommended … in patients with type 1 diabetes"): the
/// statement PLR-format labels carry under that heading (21 CFR 201.57(c)(2)(i)).
static LIMITATIONS_OF_USE: LazyLock<Vec<String>> =
    LazyLock::new(|| label_cues("limitation-of-use", "phrase"));
/// An interactions sentence with one of these reports the absence of an interaction.
static NO_INTERACTION: LazyLock<Vec<String>> =
    LazyLock::new(|| label_cues("no-interaction", "phrase"));
/// A warnings sentence with one of these speaks of using the drug with others: the drugs it
/// names ("concomitant use of other serotonergic drugs (including … tramadol …)") are
/// interactions, stated at the warning's level.
static CONCOMITANT: LazyLock<Vec<String>> = LazyLock::new(|| label_cues("concomitant", "phrase"));
/// Words the vocabularies list as conditions that only qualify another ("fatal"); they set
/// severity, never a relationship's target.
static OUTCOME_WORDS: LazyLock<Vec<String>> = LazyLock::new(|| label_cues("outcome", "term"));
/// A sentence that says so states no contraindication.
static NOT_CONTRAINDICATED: LazyLock<Vec<String>> =
    LazyLock::new(|| label_cues("not-contraindicated", "substring"));
/// Section key → the relation its statements have (`section-relations.tsv`).
static SECTION_RELATIONS: LazyLock<HashMap<String, RelationType>> =
    LazyLock::new(|| section_relations(&tables::SECTION_RELATIONS).collect());

/// The rows of a table of (section, relation) — `section-relations.tsv` or one shaped like it —
/// in file order; a relation that names no type stops the program at its line.
pub fn section_relations(
    source: &'static TableSource,
) -> impl Iterator<Item = (String, RelationType)> {
    let table = source.rows();
    let (section, relation) = (table.column("section"), table.column("relation"));
    let rows: Vec<(String, RelationType)> = table
        .rows()
        .iter()
        .map(|row| {
            let kind = RelationType::ALL
                .into_iter()
                .find(|kind| kind.as_str() == row.cell(relation));
            let kind =
                kind.unwrap_or_else(|| panic!("{}:{}: no such relation", source.file, row.line()));
            (row.cell(section).to_owned(), kind)
        })
        .collect();
    rows.into_iter()
}

/// Words whose full stop does not end a sentence (`sentence-abbreviations.tsv`).
static ABBREVIATIONS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let table = tables::SENTENCE_ABBREVIATIONS.rows();
    table.values("abbreviation").map(str::to_owned).collect()
});

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub target: Target,
    pub kind: RelationType,
    pub severity: Option<Severity>,
    /// Which sentence of the text states it (0-based): statements of one sentence go together.
    pub sentence: usize,
}

/// The relation a section states, if any.
pub fn relation_of_section(section_key: &str) -> Option<RelationType> {
    SECTION_RELATIONS.get(section_key).copied()
}

/// The relation one sentence (lowercase) of a section of relation `section_kind` states: a
/// contraindication that hedges ("use with caution") is a warning; `None` when the sentence
/// denies a contraindication ("is not contraindicated").
pub fn sentence_relation(section_kind: RelationType, lower: &str) -> Option<RelationType> {
    if NOT_CONTRAINDICATED
        .iter()
        .any(|cue| lower.contains(cue.as_str()))
    {
        return None;
    }
    Some(match section_kind {
        RelationType::Contraindication if contains_any(lower, &HEDGES) => RelationType::Warning,
        other => other,
    })
}

/// Everything `text` (a segment of section `section_key`) states, in text order.
pub fn statements(
    text: &str,
    section_key: &str,
    matcher: &Matcher,
    drugs: &Drugs,
) -> Vec<Statement> {
    let Some(section_kind) = relation_of_section(section_key) else {
        return Vec::new();
    };
    let boxed = section_key == "boxed_warning";
    let mut out = Vec::new();
    for (index, sentence) in sentences(text).into_iter().enumerate() {
        let first = out.len();
        let sentence_text = &text[sentence];
        let lower = sentence_text.to_lowercase();
        let Some(kind) = sentence_relation(section_kind, &lower) else {
            continue;
        };
        let reason_at = match kind {
            RelationType::Contraindication => REASON.find(&lower).map(|m| m.start()),
            RelationType::Indication => limitation_at(&lower),
            _ => None,
        }
        .unwrap_or(lower.len());
        let severity_of = |cues: &str| severity(kind, boxed, cues);
        if kind != RelationType::Interaction {
            for (target, around, at) in conditions(sentence_text, section_kind, matcher) {
                if at < reason_at {
                    let cues = sentence_text[around].to_lowercase();
                    out.push(Statement::new(target, kind, severity_of(&cues)));
                }
            }
        }
        let severity = severity_of(&lower);
        if matches!(kind, RelationType::Contraindication | RelationType::Warning) {
            for population in populations(&lower)
                .into_iter()
                .filter(|p| p.span.start < reason_at)
            {
                out.push(Statement::new(
                    Target::Population(population.name),
                    kind,
                    severity,
                ));
            }
        }
        let concomitant =
            section_kind == RelationType::Warning && contains_any(&lower, &CONCOMITANT);
        let names_drugs = concomitant
            || matches!(
                section_kind,
                RelationType::Interaction | RelationType::Contraindication
            );
        if names_drugs && !contains_any(&lower, &NO_INTERACTION) {
            let drug_kind = if concomitant {
                RelationType::Interaction
            } else {
                kind
            };
            for target in drug_targets(&lower, drugs) {
                out.push(Statement::new(target, drug_kind, severity));
            }
        }
        out.extend(enzyme_members(&lower, drugs));
        out[first..].iter_mut().for_each(|s| s.sentence = index);
    }
    out
}

impl Statement {
    fn new(target: Target, kind: RelationType, severity: Option<Severity>) -> Self {
        Self {
            target,
            kind,
            severity,
            sentence: 0,
        }
    }
}

/// The members a sentence lists for the enzyme classes it names, as `member_of` statements.
fn enzyme_members(lower: &str, drugs: &Drugs) -> Vec<Statement> {
    let mut out = Vec::new();
    for class in enzyme_classes(lower) {
        for member in &class.members {
            let Some(target) = drugs.by_name(member) else {
                continue;
            };
            for name in &class.names {
                let target = Target::Member {
                    member: Box::new(target.clone()),
                    class: name.clone(),
                };
                out.push(Statement::new(target, RelationType::MemberOf, None));
            }
        }
    }
    out
}

/// Where an indications sentence starts to state a limitation of use, if it does.
fn limitation_at(lower: &str) -> Option<usize> {
    LIMITATIONS_OF_USE
        .iter()
        .filter_map(|cue| occurrences(lower, cue, WordEdge::Whole).next())
        .map(|r| r.start)
        .min()
}

/// The conditions a sentence states for the section's relation, negated ones and outcome
/// words left out, each with the part of the sentence its severity is read from.
fn conditions(
    sentence: &str,
    section_kind: RelationType,
    matcher: &Matcher,
) -> Vec<(Target, Range<usize>, usize)> {
    let purpose = match section_kind {
        RelationType::AdverseReaction => Purpose::AdverseReactions(SectionGroup::AdverseReactions),
        RelationType::Warning => Purpose::Outcomes,
        _ => Purpose::Conditions,
    };
    matcher
        .find(sentence, purpose)
        .into_iter()
        .filter(|m| !is_negated(sentence, m.span.clone(), Cues::learned()))
        .filter(|m| !OUTCOME_WORDS.contains(&m.key))
        .map(|m| {
            let around = window(sentence, m.span.clone(), Cues::learned().severity_reach);
            let target = Target::Condition {
                id: m.condition_id,
                name: m.condition_name,
            };
            (target, around, m.span.start)
        })
        .collect()
}

/// Byte ranges of the sentences of `text`: split after `.`, `;`, `?`, `!` followed by white
/// space, and at line breaks — but not after an abbreviation's full stop ("St. John's Wort",
/// "e.g. rifampin").
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (at, &b) in bytes.iter().enumerate() {
        let stop = matches!(b, b'.' | b';' | b'?' | b'!')
            && bytes.get(at + 1).is_none_or(|n| n.is_ascii_whitespace())
            && !(b == b'.' && abbreviation_before(&text[..at]));
        if stop || b == b'\n' {
            if text[start..=at].trim().len() > 1 {
                out.push(start..at + 1);
            }
            start = at + 1;
        }
    }
    if text[start..].trim().len() > 1 {
        out.push(start..text.len());
    }
    out
}

/// Whether `before` (a text up to a full stop) ends in an abbreviation that does not end a
/// sentence: "St" (Saint), "e.g", "i.e", "vs", "approx".
fn abbreviation_before(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or_default();
    ABBREVIATIONS
        .iter()
        .any(|abbreviation| abbreviation == word)
}
