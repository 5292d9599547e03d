//! The word tables the matcher reads compositional reaction names with: change words around
//! laboratory analytes, administration sites, clinical word endings, words that never modify a
//! reaction, body-system headings and population phrases, each loaded once from
//! `crates/engine/tables/conditions/` with the matcher's thresholds. Data only; no matching here.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::tables::conditions as tables;
use drugcite_core::table::{Table, TableSource};

/// Words before a laboratory analyte that make it a finding ("elevated ALT").
pub(super) static CHANGE_BEFORE: LazyLock<HashSet<String>> =
    LazyLock::new(|| change_words("before"));
/// Words after an analyte that make it a finding ("ALT increased", "QT prolongation").
pub(super) static CHANGE_AFTER: LazyLock<HashSet<String>> = LazyLock::new(|| change_words("after"));
/// "elevations in", "increases of", "decrease in" + [serum] analyte.
pub(super) static CHANGE_OF: LazyLock<HashSet<String>> = LazyLock::new(|| change_words("of"));
/// Places of administration that prefix a local reaction ("infusion site erythema").
pub(super) static SITES: LazyLock<HashSet<String>> =
    LazyLock::new(|| column(&tables::SITE_WORDS, "word").collect());
/// Endings of single clinical words that name a finding (…emia, …itis, …algia); a word of
/// Adverse Reactions text with one of them is read as a reaction even if no vocabulary has it.
pub(super) static FINDING_ENDINGS: LazyLock<Vec<String>> =
    LazyLock::new(|| column(&tables::FINDING_ENDINGS, "ending").collect());
/// Words never taken as part of a reaction's name when extending it to the left.
pub(super) static NOT_MODIFIERS: LazyLock<HashSet<String>> =
    LazyLock::new(|| column(&tables::NOT_MODIFIERS, "word").collect());
/// Adjective-looking words that are not part of a reaction's name.
pub(super) static NOT_ADJECTIVES: LazyLock<HashSet<String>> =
    LazyLock::new(|| column(&tables::NOT_ADJECTIVES, "word").collect());
/// Endings of the words taken for adjectives that may belong to a reaction's name.
pub(super) static ADJECTIVE_ENDINGS: LazyLock<Vec<String>> =
    LazyLock::new(|| column(&tables::ADJECTIVE_ENDINGS, "ending").collect());
/// Body-system headings of adverse-reaction tables ("Nervous system disorders"): their words
/// ("infections", "disorders") are not reactions there.
pub(super) static HEADINGS: LazyLock<Vec<String>> =
    LazyLock::new(|| column(&tables::BODY_SYSTEM_HEADINGS, "heading").collect());
/// A condition right after these words describes who was treated, not what the drug did: one
/// of the phrases, then at most `population_gap_words` words, before the condition.
pub(super) static POPULATION: LazyLock<Regex> = LazyLock::new(|| {
    let phrases: Vec<String> = column(&tables::POPULATION_PHRASES, "phrase")
        .map(|phrase| regex::escape(&phrase))
        .collect();
    let gap = threshold("population_gap_words");
    Regex::new(&format!(
        r"(?i)({})\s*(?:\S+\s+){{0,{gap}}}$",
        phrases.join("|")
    ))
    .expect("population pattern")
});

/// A threshold of `tables/conditions/thresholds.tsv` that counts something.
pub(super) fn threshold(name: &str) -> usize {
    static THRESHOLDS: LazyLock<Table> = LazyLock::new(|| tables::THRESHOLDS.rows());
    THRESHOLDS.number(name) as usize
}

/// Shortest word read as a finding by its ending alone.
pub(super) static FINDING_MIN_CHARS: LazyLock<usize> =
    LazyLock::new(|| threshold("finding_min_chars"));
/// How far back a population phrase is looked for.
pub(super) static CONTEXT_BYTES: LazyLock<usize> =
    LazyLock::new(|| threshold("population_context_bytes"));
/// Shortest word a lone head takes in front of it, and shortest adjective-like word.
pub(super) static CONTENT_WORD_MIN_CHARS: LazyLock<usize> =
    LazyLock::new(|| threshold("content_word_min_chars"));
pub(super) static ADJECTIVE_MIN_CHARS: LazyLock<usize> =
    LazyLock::new(|| threshold("adjective_min_chars"));

fn column(table: &TableSource, name: &str) -> impl Iterator<Item = String> {
    let table = table.rows();
    let values: Vec<String> = table.values(name).map(str::to_owned).collect();
    values.into_iter()
}

/// The change words of one position (`before`, `after` or `of`); another position is a bad row.
fn change_words(position: &str) -> HashSet<String> {
    let table = tables::CHANGE_WORDS.rows();
    let (word, at) = (table.column("word"), table.column("position"));
    if let Some(row) = table
        .rows()
        .iter()
        .find(|row| !["before", "after", "of"].contains(&row.cell(at)))
    {
        let file = tables::CHANGE_WORDS.file;
        panic!(
            "{file}:{}: position must be before, after or of",
            row.line()
        );
    }
    let rows = table.rows().iter().filter(|row| row.cell(at) == position);
    rows.map(|row| row.cell(word).to_owned()).collect()
}
