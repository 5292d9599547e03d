//! Whether the tables a generation maps (catalog, copies, holders, current documents) say what
//! the same tables built at open from its index and history would: the check that lets a
//! generation written before the table files and one written with them serve alike.

use super::Snapshot;
use crate::{Copies, StoreError};
use drugcite_core::domain::TextHash;

impl Snapshot {
    /// Whether this generation's tables were read from its table files (`false`: built at open).
    pub fn maps_stored_tables(&self) -> bool {
        self.stored_columns
    }

    /// Where this generation's tables differ from those of `built` (the same generation opened
    /// without its table files): one line per difference, empty when they agree.
    pub fn table_differences(&self, built: &Snapshot) -> Result<Vec<String>, StoreError> {
        let mut differences = Vec::new();
        let (catalog, built_catalog) = (self.catalog()?, built.catalog()?);
        let listed = |catalog: &crate::SegmentCatalog| -> Vec<String> {
            catalog
                .iter()
                .map(|(fp, info)| format!("{fp:?} {info:?}"))
                .collect()
        };
        if listed(&catalog) != listed(&built_catalog) {
            differences.push("catalog entries".to_owned());
        }
        for (fp, info) in catalog.iter() {
            if format!("{:?}", catalog.get(fp)) != format!("{:?}", Some(info)) {
                differences.push(format!("catalog lookup of {fp:?}"));
            }
        }
        let mut indexed = self.fingerprints()?;
        indexed.sort_unstable();
        if catalog.addresses().collect::<Vec<_>>() != indexed {
            differences.push("catalog addresses against the index".to_owned());
        }
        let (copies, built_copies) = (self.copies(&catalog)?, built.copies(&built_catalog)?);
        let of = |copies: &Copies, catalog, text| -> Vec<(String, String)> {
            let copies = copies.of(text, catalog);
            copies
                .map(|(fp, info)| (format!("{fp:?}"), format!("{info:?}")))
                .collect()
        };
        for (_, info) in catalog.iter() {
            let mapped = of(&copies, &catalog, info.text_hash);
            if mapped != of(&built_copies, &built_catalog, info.text_hash)
                || copies.contains(info.text_hash) == mapped.is_empty()
                || (info.current && !mapped.iter().any(|(_, i)| *i == format!("{info:?}")))
            {
                differences.push(format!("copies of {:?}", info.text_hash));
            }
        }
        if !of(&copies, &catalog, TextHash::of("no such text")).is_empty() {
            differences.push("copies of a text no label holds".to_owned());
        }
        let history: Vec<_> = self.history_fingerprints().collect();
        if history != built.history_fingerprints().collect::<Vec<_>>() {
            differences.push("history fingerprints".to_owned());
        }
        for fp in history {
            if self.holders.of(fp) != built.holders.of(fp) {
                differences.push(format!("holders of {fp:?}"));
            }
        }
        for segment in self.searcher().segment_readers() {
            let id = segment.segment_id();
            if self.current_docs.docs_of(id) != built.current_docs.docs_of(id) {
                differences.push(format!("current documents of segment {id:?}"));
            }
        }
        Ok(differences)
    }
}
