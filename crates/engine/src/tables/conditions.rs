//! The knowledge tables `conditions` reads, compiled in from `crates/engine/tables/conditions/`
//! (the curated terms of `graph/adverse-reaction-terms.tsv` are read by the lexicon itself): one
//! `TableSource` per file, parsed where it is used.

use drugcite_core::table::{TableSource, THRESHOLD_COLUMNS};

/// Named numbers of the lexicon and the matcher.
pub const THRESHOLDS: TableSource = TableSource {
    file: "crates/engine/tables/conditions/thresholds.tsv",
    text: include_str!("../../tables/conditions/thresholds.tsv"),
    columns: THRESHOLD_COLUMNS,
};

/// Vocabulary names too general to stand for a condition.
pub const GENERIC_CONDITION_WORDS: TableSource = TableSource {
    file: "crates/engine/tables/conditions/generic-condition-words.tsv",
    text: include_str!("../../tables/conditions/generic-condition-words.tsv"),
    columns: &["word", "source"],
};

/// Words that make a laboratory analyte a finding, by where they stand.
pub const CHANGE_WORDS: TableSource = TableSource {
    file: "crates/engine/tables/conditions/change-words.tsv",
    text: include_str!("../../tables/conditions/change-words.tsv"),
    columns: &["word", "position", "source"],
};

/// Places of administration before "site" and a local reaction.
pub const SITE_WORDS: TableSource = TableSource {
    file: "crates/engine/tables/conditions/site-words.tsv",
    text: include_str!("../../tables/conditions/site-words.tsv"),
    columns: &["word", "source"],
};

/// Endings of single clinical words that name a finding.
pub const FINDING_ENDINGS: TableSource = TableSource {
    file: "crates/engine/tables/conditions/finding-endings.tsv",
    text: include_str!("../../tables/conditions/finding-endings.tsv"),
    columns: &["ending", "source"],
};

/// Words never part of a reaction's name to its left.
pub const NOT_MODIFIERS: TableSource = TableSource {
    file: "crates/engine/tables/conditions/not-modifiers.tsv",
    text: include_str!("../../tables/conditions/not-modifiers.tsv"),
    columns: &["word", "source"],
};

/// Adjective-looking words that are not part of a reaction's name.
pub const NOT_ADJECTIVES: TableSource = TableSource {
    file: "crates/engine/tables/conditions/not-adjectives.tsv",
    text: include_str!("../../tables/conditions/not-adjectives.tsv"),
    columns: &["word", "source"],
};

/// Endings of words taken for adjectives of a reaction's name.
pub const ADJECTIVE_ENDINGS: TableSource = TableSource {
    file: "crates/engine/tables/conditions/adjective-endings.tsv",
    text: include_str!("../../tables/conditions/adjective-endings.tsv"),
    columns: &["ending", "source"],
};

/// Body-system headings of adverse-reaction tables.
pub const BODY_SYSTEM_HEADINGS: TableSource = TableSource {
    file: "crates/engine/tables/conditions/body-system-headings.tsv",
    text: include_str!("../../tables/conditions/body-system-headings.tsv"),
    columns: &["heading", "source"],
};

/// Phrases after which a condition describes who was treated.
pub const POPULATION_PHRASES: TableSource = TableSource {
    file: "crates/engine/tables/conditions/population-phrases.tsv",
    text: include_str!("../../tables/conditions/population-phrases.tsv"),
    columns: &["phrase", "source"],
};

/// Every table of this area, for `check_all`.
pub const ALL: &[&TableSource] = &[
    &THRESHOLDS,
    &GENERIC_CONDITION_WORDS,
    &CHANGE_WORDS,
    &SITE_WORDS,
    &FINDING_ENDINGS,
    &NOT_MODIFIERS,
    &NOT_ADJECTIVES,
    &ADJECTIVE_ENDINGS,
    &BODY_SYSTEM_HEADINGS,
    &POPULATION_PHRASES,
];
