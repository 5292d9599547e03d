//! The knowledge tables the core reads (label section names and codes, sentence abbreviations,
//! English plural endings and contractions, patient-voice words), compiled in from
//! `crates/core/tables/`. Each is parsed where it is used; `ALL` lets the engine check every
//! table at start and the test below parse them all.

use crate::table::{TableSource, THRESHOLD_COLUMNS};

/// Named numbers of the core.
pub const THRESHOLDS: TableSource = TableSource {
    file: "crates/core/tables/thresholds.tsv",
    text: include_str!("../tables/thresholds.tsv"),
    columns: THRESHOLD_COLUMNS,
};

/// Second-person words from which a text reads as addressed to the patient.
pub const PATIENT_VOICE: TableSource = TableSource {
    file: "crates/core/tables/patient-voice.tsv",
    text: include_str!("../tables/patient-voice.tsv"),
    columns: &["word", "source"],
};

/// openFDA section key → the section's display name.
pub const SECTION_NAMES: TableSource = TableSource {
    file: "crates/core/tables/section-names.tsv",
    text: include_str!("../tables/section-names.tsv"),
    columns: &["key", "name", "source"],
};

/// LOINC section code → its name and openFDA section key.
pub const LOINC_SECTIONS: TableSource = TableSource {
    file: "crates/core/tables/loinc-sections.tsv",
    text: include_str!("../tables/loinc-sections.tsv"),
    columns: &["code", "loinc_name", "key", "source"],
};

/// Sections that are only the general part of their parent.
pub const GENERAL_PARTS: TableSource = TableSource {
    file: "crates/core/tables/general-parts.tsv",
    text: include_str!("../tables/general-parts.tsv"),
    columns: &["section", "source"],
};

/// Abbreviations whose full stop ends no sentence.
pub const ABBREVIATIONS: TableSource = TableSource {
    file: "crates/core/tables/abbreviations.tsv",
    text: include_str!("../tables/abbreviations.tsv"),
    columns: &["abbreviation", "source"],
};

/// Negative contractions whose stem is not the verb.
pub const CONTRACTIONS: TableSource = TableSource {
    file: "crates/core/tables/contractions.tsv",
    text: include_str!("../tables/contractions.tsv"),
    columns: &["stem", "written_out", "source"],
};

/// Plural endings and the singular endings they fold to, in the order they are tried.
pub const PLURAL_ENDINGS: TableSource = TableSource {
    file: "crates/core/tables/plural-endings.tsv",
    text: include_str!("../tables/plural-endings.tsv"),
    columns: &["ending", "singular", "min_chars", "source"],
};

/// Every table of the core, for `drugcite_engine::tables::check_all`.
pub const ALL: &[&TableSource] = &[
    &THRESHOLDS,
    &PATIENT_VOICE,
    &SECTION_NAMES,
    &LOINC_SECTIONS,
    &GENERAL_PARTS,
    &ABBREVIATIONS,
    &CONTRACTIONS,
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
