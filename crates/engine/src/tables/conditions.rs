//! The knowledge tables `conditions` reads, compiled in from `crates/engine/tables/conditions/`
//! (the curated terms of `graph/adverse-reaction-terms.tsv` are read by the lexicon itself): one
//! `TableSource` per file, parsed where it is used.

use drugcite_core::table::{TableSource, THRESHOLD_COLUMNS};

/// Named numbers of the lexicon and the matcher.
pub const THRESHOLDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/thresholds.tsv",
    THRESHOLD_COLUMNS
);

/// Vocabulary names too general to stand for a condition.
pub const GENERIC_CONDITION_WORDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/generic-condition-words.tsv",
    &["word", "source"]
);

/// Words that make a laboratory analyte a finding, by where they stand.
pub const CHANGE_WORDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/change-words.tsv",
    &["word", "position", "source"]
);

/// Places of administration before "site" and a local reaction.
pub const SITE_WORDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/site-words.tsv",
    &["word", "source"]
);

/// Endings of single clinical words that name a finding.
pub const FINDING_ENDINGS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/finding-endings.tsv",
    &["ending", "source"]
);

/// Words never part of a reaction's name to its left.
pub const NOT_MODIFIERS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/not-modifiers.tsv",
    &["word", "source"]
);

/// Adjective-looking words that are not part of a reaction's name.
pub const NOT_ADJECTIVES: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/not-adjectives.tsv",
    &["word", "source"]
);

/// Endings of words taken for adjectives of a reaction's name.
pub const ADJECTIVE_ENDINGS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/adjective-endings.tsv",
    &["ending", "source"]
);

/// Body-system headings of adverse-reaction tables.
pub const BODY_SYSTEM_HEADINGS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/body-system-headings.tsv",
    &["heading", "source"]
);

/// Phrases after which a condition describes who was treated.
pub const POPULATION_PHRASES: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/conditions/population-phrases.tsv",
    &["phrase", "source"]
);

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
