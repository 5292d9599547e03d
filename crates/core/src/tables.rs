//! The knowledge tables the core reads (label section names and codes, sentence abbreviations,
//! patient-voice words), compiled in from `crates/core/tables/`. Each is parsed where it is
//! used; `ALL` lets the engine check every table at start and the test below parse them all.

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

/// Every table of the core, for `drugcite_engine::tables::check_all`.
pub const ALL: &[&TableSource] = &[&THRESHOLDS, &PATIENT_VOICE];

#[cfg(test)]
mod tests {
    #[test]
    fn every_core_table_parses() {
        for table in super::ALL {
            table.parse().unwrap();
        }
    }
}
