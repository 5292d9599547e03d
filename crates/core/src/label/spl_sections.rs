//! LOINC section code → openFDA section key: how openFDA names the sections of an SPL
//! document (`tables/loinc-sections.tsv`, the openFDA SPL section list with each section's
//! openFDA field). Lookups only.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::tables;

/// The openFDA key of every code; a code listed twice is a bad row.
static LOINC_SECTIONS: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    let table = tables::LOINC_SECTIONS.rows();
    let (code, key) = (table.column("code"), table.column("key"));
    let mut keys = HashMap::new();
    for row in table.rows() {
        if keys
            .insert(row.cell(code).to_owned(), row.cell(key).to_owned())
            .is_some()
        {
            let file = tables::LOINC_SECTIONS.file;
            panic!(
                "{file}:{}: code {} is listed twice",
                row.line(),
                row.cell(code)
            );
        }
    }
    keys
});

/// The openFDA key of a LOINC section code, if openFDA names it.
pub fn section_key(code: &str) -> Option<&'static str> {
    LOINC_SECTIONS.get(code).map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_name_known_sections() {
        assert_eq!(LOINC_SECTIONS.len(), 88);
        assert_eq!(section_key("34070-3"), Some("contraindications"));
        assert_eq!(section_key("43685-7"), Some("warnings_and_cautions"));
        assert_eq!(section_key("34066-1"), Some("boxed_warning"));
        assert_eq!(section_key("42229-5"), Some("spl_unclassified_section"));
        assert_eq!(section_key("00000-0"), None);
    }

    #[test]
    fn every_key_is_a_text_section_or_a_field_the_record_reads_otherwise() {
        let named: Vec<&str> = crate::label::section_keys().collect();
        let mut others: Vec<&str> = LOINC_SECTIONS
            .values()
            .map(String::as_str)
            .filter(|key| !named.contains(key))
            .collect();
        others.sort_unstable();
        // The product and indexing data and the route are openFDA metadata fields
        // (`record::NON_TEXT_FIELDS`); cellular therapy is a code no openFDA field holds.
        let expected = [
            "cellular_therapy",
            "route",
            "spl_indexing_data_elements",
            "spl_product_data_elements",
        ];
        assert_eq!(others, expected);
    }
}
