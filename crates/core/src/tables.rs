//! The knowledge tables the core reads (label section names and codes, sentence abbreviations,
//! English plural endings and contractions, patient-voice words), compiled in from
//! `crates/core/tables/`. Each is parsed where it is used; `ALL` lets the engine check every
//! table at start and the test below parse them all.

use crate::table::{TableSource, THRESHOLD_COLUMNS};

/// Named numbers of the core.
pub const THRESHOLDS: TableSource =
    crate::table_source!("crates/core/tables/thresholds.tsv", THRESHOLD_COLUMNS);

/// Second-person words from which a text reads as addressed to the patient.
pub const PATIENT_VOICE: TableSource =
    crate::table_source!("crates/core/tables/patient-voice.tsv", &["word", "source"]);

/// openFDA section key → the section's display name.
pub const SECTION_NAMES: TableSource = crate::table_source!(
    "crates/core/tables/section-names.tsv",
    &["key", "name", "source"]
);

/// LOINC section code → its name and openFDA section key.
pub const LOINC_SECTIONS: TableSource = crate::table_source!(
    "crates/core/tables/loinc-sections.tsv",
    &["code", "loinc_name", "key", "source"]
);

/// Sections that are only the general part of their parent.
pub const GENERAL_PARTS: TableSource = crate::table_source!(
    "crates/core/tables/general-parts.tsv",
    &["section", "source"]
);

/// Abbreviations whose full stop ends no sentence.
pub const ABBREVIATIONS: TableSource = crate::table_source!(
    "crates/core/tables/abbreviations.tsv",
    &["abbreviation", "source"]
);

/// Negative contractions whose stem is not the verb.
pub const CONTRACTIONS: TableSource = crate::table_source!(
    "crates/core/tables/contractions.tsv",
    &["stem", "written_out", "source"]
);

/// Plural endings and the singular endings they fold to, in the order they are tried.
pub const PLURAL_ENDINGS: TableSource = crate::table_source!(
    "crates/core/tables/plural-endings.tsv",
    &["ending", "singular", "min_chars", "source"]
);

/// Words that end or rule out the class a label states in its Indications.
pub const STATED_CLASS_WORDS: TableSource = crate::table_source!(
    "crates/core/tables/stated-class-words.tsv",
    &["word", "role", "source"]
);

/// Every table of the core, for `drugcite_engine::tables::check_all`.
pub const ALL: &[&TableSource] = &[
    &THRESHOLDS,
    &PATIENT_VOICE,
    &SECTION_NAMES,
    &LOINC_SECTIONS,
    &GENERAL_PARTS,
    &ABBREVIATIONS,
    &CONTRACTIONS,
    &STATED_CLASS_WORDS,
    &PLURAL_ENDINGS,
];

#[cfg(test)]
mod tests {
    #[test]
    fn every_core_table_parses() {
        for table in super::ALL {
            table.parse().unwrap();
        }
    }
}
