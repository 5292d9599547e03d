//! The knowledge tables `search` reads (and the index, the embedder and the quote check read for
//! it), compiled in from `crates/engine/tables/search/`: one `TableSource` per file, parsed where
//! it is used; the thresholds and the section roles are read through the two functions below.

use std::sync::LazyLock;

use drugcite_core::table::{Table, TableSource, THRESHOLD_COLUMNS};

/// Named numbers of search, the effect index, the openings and the quote check.
pub const THRESHOLDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/search/thresholds.tsv",
    THRESHOLD_COLUMNS
);

/// What each clinical section answers, embedded for section meaning.
pub const SECTION_DESCRIPTIONS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/search/section-descriptions.tsv",
    &["sections", "description", "source"]
);

/// What search does with some sections: effects, openings, self-descriptions, the Indications.
pub const SECTION_ROLES: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/search/section-roles.tsv",
    &["section", "role", "source"]
);

/// The question a patient section asks of the drug itself ("What is").
pub const SELF_DESCRIPTION_QUESTIONS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/search/self-description-questions.tsv",
    &["question", "source"]
);

/// Every table of this area, for `check_all`.
pub const ALL: &[&TableSource] = &[
    &THRESHOLDS,
    &SECTION_DESCRIPTIONS,
    &SECTION_ROLES,
    &SELF_DESCRIPTION_QUESTIONS,
];

/// The roles a section may have in `SECTION_ROLES`.
const ROLES: &[&str] = &["effects", "opening", "self_description", "indications"];

/// A threshold of `tables/search/thresholds.tsv`.
pub(crate) fn threshold(name: &str) -> f64 {
    static TABLE: LazyLock<Table> = LazyLock::new(|| THRESHOLDS.rows());
    TABLE.number(name)
}

/// The sections of `role` in `tables/search/section-roles.tsv`, in file order. A row naming
/// another role or a section key the label model does not know is a bad row.
pub(crate) fn sections_with_role(role: &str) -> Vec<&'static str> {
    static ROWS: LazyLock<Vec<(&'static str, String)>> = LazyLock::new(|| {
        let table = SECTION_ROLES.rows();
        let (section, role) = (table.column("section"), table.column("role"));
        let known: Vec<&'static str> = drugcite_core::label::section_keys().collect();
        let checked = |row: &drugcite_core::table::Row| {
            let key = known.iter().find(|k| **k == row.cell(section));
            match key {
                Some(key) if ROLES.contains(&row.cell(role)) => (*key, row.cell(role).to_owned()),
                _ => panic!(
                    "{}:{}: {} is no openFDA section key or {} none of the roles {ROLES:?}",
                    SECTION_ROLES.file,
                    row.line(),
                    row.cell(section),
                    row.cell(role)
                ),
            }
        };
        table.rows().iter().map(checked).collect()
    });
    let rows = ROWS.iter().filter(|(_, r)| r == role);
    rows.map(|(key, _)| *key).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_role_names_a_known_section_and_one_section_says_what_a_drug_treats() {
        let all: usize = ROLES.iter().map(|r| sections_with_role(r).len()).sum();
        assert_eq!(all, SECTION_ROLES.rows().rows().len());
        assert_eq!(sections_with_role("indications"), ["indications_and_usage"]);
        assert_eq!(sections_with_role("effects")[0], "adverse_reactions");
    }
}
