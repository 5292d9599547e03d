//! The question cues of `question-cues.tsv`, loaded once for both readers of a question: the
//! section cues and the sections each group asks (read by `intent.rs`), the relation words
//! and the relation types each asks, and the cues that set a flag (read by `reading.rs`).
//! Loading and checking only; the matching is the readers'.

use std::sync::LazyLock;

use regex::Regex;

use super::word_tables::{bad_row, items, parsed};
use crate::tables::understand as tables;
use drugcite_core::domain::RelationType;
use drugcite_core::label::section_keys;
use drugcite_core::table::{Row, TableSource};
use drugcite_core::text::WordEdge;

/// The phrases of the curated list `name` a `listed` cue names.
fn listed(name: &str) -> Option<Vec<String>> {
    match name {
        "graph/organ-harms.tsv" => Some(crate::curated::organ_harm_phrases()),
        _ => None,
    }
}

/// A section cue: a prefix of lowercase words, the group (entry) whose sections it asks and
/// its flags.
pub(super) struct SectionCue {
    pub(super) cue: String,
    pub(super) entry: usize,
    /// A phrase of a curated list (an organ harm): its words are what the answer's text says,
    /// and none leaves the query.
    pub(super) listed: bool,
    /// Its words leave the subject's text query (a purpose cue: "uses", "who takes").
    pub(super) leaves_query: bool,
    /// Where its match may end: at a word end (`whole`), or anywhere (`prefix`, `listed`).
    pub(super) edge: WordEdge,
}

/// The cue table as the readers match it.
pub(super) struct Cues {
    /// The sections each group asks, by entry (groups in order of first appearance).
    pub(super) sections: Vec<Vec<&'static str>>,
    /// The group names, by entry.
    names: Vec<String>,
    pub(super) section_cues: Vec<SectionCue>,
    /// Each distinct set of relation types with its cues as one leftmost-first alternation,
    /// in order of first appearance.
    pub(super) relations: Vec<(Regex, Vec<RelationType>)>,
    pub(super) boxed_only: Regex,
    pub(super) shared: Regex,
}

impl Cues {
    /// The sections the group `name` asks for.
    pub(super) fn group_sections(&self, name: &str) -> &[&'static str] {
        let entry = self.names.iter().position(|n| n == name);
        let entry = entry.unwrap_or_else(|| panic!("no cue group {name} in question-cues.tsv"));
        &self.sections[entry]
    }
}

/// The cue table.
pub(super) fn cues() -> &'static Cues {
    static CUES: LazyLock<Cues> = LazyLock::new(load);
    &CUES
}

/// The relation types of `case` of `default-relations.tsv`.
pub(super) fn default_relations(case: &str) -> &'static [RelationType] {
    static CASES: LazyLock<Vec<(&'static str, Vec<RelationType>)>> = LazyLock::new(|| {
        let source = &tables::DEFAULT_RELATIONS;
        let table = parsed(source);
        let (case, relations) = (table.column("case"), table.column("relations"));
        let cases = table.rows().iter().map(|row| {
            let kinds = relation_types(source, row, row.cell(relations));
            (row.cell(case), kinds)
        });
        cases.collect()
    });
    let found = CASES.iter().find(|(name, _)| *name == case);
    let (_, kinds) = found.unwrap_or_else(|| panic!("no case {case} in default-relations.tsv"));
    kinds
}

fn load() -> Cues {
    let source = &tables::QUESTION_CUES;
    let table = parsed(source);
    let at = |name: &str| table.column(name);
    let (group, cue, matched) = (at("group"), at("cue"), at("match"));
    let (sections_at, relations_at, flags_at) = (at("sections"), at("relations"), at("flags"));
    let mut names: Vec<String> = Vec::new();
    let mut sections: Vec<Option<Vec<&'static str>>> = Vec::new();
    let mut section_cues = Vec::new();
    let mut relations: Vec<(Vec<String>, Vec<RelationType>)> = Vec::new();
    let (mut boxed_only, mut shared) = (Vec::new(), Vec::new());
    for row in table.rows() {
        let name = row.cell(group);
        let entry = names.iter().position(|n| n == name).unwrap_or_else(|| {
            names.push(name.to_owned());
            sections.push(None);
            names.len() - 1
        });
        let flags: Vec<&str> = items(row.cell(flags_at)).collect();
        if let Some(flag) = flags.iter().find(|f| !FLAGS.contains(f)) {
            bad_row(source, row, format!("no flag {flag:?}"));
        }
        let (text, how) = (row.cell(cue), row.cell(matched));
        let asked = section_keys_of(source, row, row.cell(sections_at));
        let claims = flags.contains(&"claims");
        if claims && !asked.is_empty() {
            bad_row(source, row, "a `claims` cue asks for no section");
        }
        if claims || !asked.is_empty() {
            match &sections[entry] {
                Some(group) if *group != asked => {
                    bad_row(source, row, "a group's section cues ask the same sections")
                }
                _ => sections[entry] = Some(asked),
            }
            let edge = match how {
                "whole" => WordEdge::Whole,
                _ => WordEdge::Start,
            };
            let leaves_query = flags.contains(&"leaves-query");
            for cue in section_cue_texts(source, row, text, how) {
                section_cues.push(SectionCue {
                    cue,
                    entry,
                    listed: how == "listed",
                    leaves_query,
                    edge,
                });
            }
        } else if how == "listed" || flags.iter().any(|f| SECTION_FLAGS.contains(f)) {
            bad_row(
                source,
                row,
                "only a section cue is listed or sets this flag",
            );
        }
        let kinds = relation_types(source, row, row.cell(relations_at));
        let needed = !kinds.is_empty() || flags.iter().any(|f| PATTERN_FLAGS.contains(f));
        let pattern = needed.then(|| cue_pattern(source, row, text, how));
        if let Some(pattern) = &pattern {
            if !kinds.is_empty() {
                match relations.iter_mut().find(|(_, k)| *k == kinds) {
                    Some((patterns, _)) => patterns.push(pattern.clone()),
                    None => relations.push((vec![pattern.clone()], kinds)),
                }
            }
            if flags.contains(&"boxed-only") {
                boxed_only.push(pattern.clone());
            }
            if flags.contains(&"shared") {
                shared.push(pattern.clone());
            }
        }
    }
    Cues {
        sections: sections
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect(),
        names,
        section_cues,
        relations: relations
            .into_iter()
            .map(|(patterns, kinds)| (alternation(&patterns), kinds))
            .collect(),
        boxed_only: alternation(&boxed_only),
        shared: alternation(&shared),
    }
}

/// Every flag a cue may set.
const FLAGS: &[&str] = &["claims", "leaves-query", "boxed-only", "shared"];
/// The flags only a section cue sets.
const SECTION_FLAGS: &[&str] = &["leaves-query"];
/// The flags a cue sets wherever it occurs (a pattern of its own).
const PATTERN_FLAGS: &[&str] = &["boxed-only", "shared"];

/// The texts a section cue matches: itself (a prefix or whole words, no `*`), or the phrases
/// of its list.
fn section_cue_texts(source: &TableSource, row: &Row, text: &str, how: &str) -> Vec<String> {
    match how {
        "prefix" | "whole" if !text.contains('*') => vec![text.to_owned()],
        "listed" => {
            listed(text).unwrap_or_else(|| bad_row(source, row, format!("no phrase list {text:?}")))
        }
        _ => bad_row(
            source,
            row,
            "a section cue is a prefix or whole words without `*`, or listed",
        ),
    }
}

/// The regex of a cue found from a word start: its text, `*` the rest of a word (`\w*`), and
/// for `whole` a word end after it.
fn cue_pattern(source: &TableSource, row: &Row, text: &str, how: &str) -> String {
    let pattern = phrase_pattern(text);
    match how {
        "prefix" => pattern,
        "whole" => format!(r"{pattern}\b"),
        _ => bad_row(
            source,
            row,
            format!("a pattern cue matches prefix or whole, not {how:?}"),
        ),
    }
}

/// A phrase written with `*` for the rest of a word, as a regex (the phrase's text escaped).
pub(super) fn phrase_pattern(phrase: &str) -> String {
    let parts: Vec<String> = phrase.split('*').map(regex::escape).collect();
    parts.join(r"\w*")
}

/// One regex trying `patterns` in order at each word start, leftmost first.
fn alternation(patterns: &[String]) -> Regex {
    Regex::new(&format!(r"\b(?:{})", patterns.join("|"))).expect("escaped cue patterns")
}

/// The section keys of a cell, each a key of the label schema.
pub(super) fn section_keys_of(source: &TableSource, row: &Row, cell: &str) -> Vec<&'static str> {
    items(cell)
        .map(|name| match section_keys().find(|key| *key == name) {
            Some(key) => key,
            None => bad_row(source, row, format!("no section {name:?}")),
        })
        .collect()
}

/// The relation types of a cell, each written as the graph writes it ("adverse_reaction").
pub(super) fn relation_types(source: &TableSource, row: &Row, cell: &str) -> Vec<RelationType> {
    items(cell)
        .map(
            |name| match RelationType::ALL.into_iter().find(|k| k.as_str() == name) {
                Some(kind) => kind,
                None => bad_row(source, row, format!("no relation type {name:?}")),
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cue_table_loads_with_the_groups_the_readers_name() {
        let cues = cues();
        assert_eq!(cues.group_sections("dosing"), ["dosage_and_administration"]);
        assert_eq!(cues.group_sections("interaction")[0], "drug_interactions");
        assert_eq!(cues.group_sections("general-warning").len(), 4);
        assert_eq!(cues.relations.len(), 5, "five sets of relation types");
        assert!(cues.boxed_only.is_match("a black-box warning"));
        assert!(cues.shared.is_match("what do they have in common"));
        assert!(!cues.shared.is_match("commonly"));
        assert_eq!(
            default_relations("no-relation-word"),
            [RelationType::AdverseReaction, RelationType::Warning]
        );
    }

    #[test]
    fn a_star_stands_for_the_rest_of_a_word() {
        let pattern = Regex::new(&phrase_pattern("graft* (cabg)")).unwrap();
        assert_eq!(
            pattern.find("grafting (cabg)").map(|m| m.as_str()),
            Some("grafting (cabg)")
        );
    }
}
