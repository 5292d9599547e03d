//! openFDA section field key → the human section name a client sees (`section` in results).
//! The names are `tables/section-names.tsv`, one per text field of the openFDA drug-label schema;
//! README lists them. Lookups only.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::tables;

/// (key, name) of every row, sorted by key for binary search; a key named twice is a bad row.
static SECTION_NAMES: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let table = tables::SECTION_NAMES.rows();
    let (key, name) = (table.column("key"), table.column("name"));
    let mut names: Vec<(String, String)> = Vec::new();
    for row in table.rows() {
        if names.iter().any(|(k, _)| k == row.cell(key)) {
            let file = tables::SECTION_NAMES.file;
            panic!(
                "{file}:{}: key {} is named twice",
                row.line(),
                row.cell(key)
            );
        }
        names.push((row.cell(key).to_owned(), row.cell(name).to_owned()));
    }
    names.sort();
    names
});

/// Every section key the table names.
pub fn section_keys() -> impl Iterator<Item = &'static str> {
    SECTION_NAMES.iter().map(|(key, _)| key.as_str())
}

/// The human name of a section key; a key the table lacks (a future openFDA field) is shown
/// with underscores as spaces and each word capitalised rather than rejected.
pub fn section_name(key: &str) -> Cow<'static, str> {
    match SECTION_NAMES.binary_search_by(|(k, _)| k.as_str().cmp(key)) {
        Ok(found) => Cow::Borrowed(SECTION_NAMES[found].1.as_str()),
        Err(_) => Cow::Owned(title_case(key)),
    }
}

fn title_case(key: &str) -> String {
    key.split('_')
        .filter(|w| !w.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_lists_each_key_once_in_order() {
        let table = tables::SECTION_NAMES.rows();
        let keys: Vec<&str> = table.values("key").collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted, no key twice");
        assert_eq!(keys.len(), 84);
    }

    #[test]
    fn known_and_unknown_keys() {
        assert_eq!(
            section_name("warnings_and_cautions"),
            "Warnings and Precautions"
        );
        assert_eq!(section_name("boxed_warning"), "Boxed Warning");
        assert_eq!(section_name("new_field_x"), "New Field X");
    }
}
