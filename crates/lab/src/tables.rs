//! The knowledge tables the lab reads (what the extractor's learning mines from the labels'
//! lists of common adverse reactions), compiled in from `crates/lab/tables/` in the format of
//! the product's tables. The lab is not part of the product's start-up check; its test below is.

use drugcite_core::table::{TableSource, THRESHOLD_COLUMNS};

/// Named numbers of the list mining.
pub const THRESHOLDS: TableSource =
    drugcite_core::table_source!("crates/lab/tables/thresholds.tsv", THRESHOLD_COLUMNS);

/// The parts of the sentence that introduces a list of common adverse reactions.
pub const LIST_INTRO: TableSource = drugcite_core::table_source!(
    "crates/lab/tables/list-intro.tsv",
    &["part", "phrase", "source"]
);

/// List items that are not reactions.
pub const NOT_REACTIONS: TableSource = drugcite_core::table_source!(
    "crates/lab/tables/not-reactions.tsv",
    &["item", "match", "source"]
);

/// Label fields whose lists are mined.
pub const LISTING_FIELDS: TableSource =
    drugcite_core::table_source!("crates/lab/tables/listing-fields.tsv", &["field", "source"]);

/// Every table of the lab.
pub const ALL: &[&TableSource] = &[&THRESHOLDS, &LIST_INTRO, &NOT_REACTIONS, &LISTING_FIELDS];

#[cfg(test)]
mod tests {
    #[test]
    fn every_lab_table_parses() {
        for table in super::ALL {
            table.parse().unwrap();
        }
    }
}
