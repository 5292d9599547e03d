//! The current segments of each label's set id, as document addresses grouped by set id and
//! built at open in two passes over the catalog: what "the current segments of these labels"
//! matches without a union of set-id terms intersected with every current document (at 100×
//! a drug's labels hold ~10k of 10M segments). Read-only once built; no ranking.

use std::collections::{BTreeSet, HashMap};

use tantivy::DocAddress;

use super::catalog::SegmentCatalog;
use crate::SegmentAddress;

/// Per set id, the addresses of its current segments.
#[derive(Default)]
pub struct LabelRows {
    /// Per label ordinal, its set id's group.
    group_of: Vec<u32>,
    /// Where each group's addresses start in `addresses` (one entry more than groups).
    starts: Vec<u32>,
    /// Current segments' addresses (segment ordinal in the high half), ascending per group.
    addresses: Vec<u64>,
}

impl LabelRows {
    /// The current segments of `catalog` grouped by the set id of their label (`set_ids`, by
    /// label ordinal).
    pub fn build<'a>(catalog: &SegmentCatalog, set_ids: impl Iterator<Item = &'a str>) -> Self {
        let mut groups: HashMap<&str, u32> = HashMap::new();
        let group_of: Vec<u32> = set_ids
            .map(|set_id| {
                let next = groups.len() as u32;
                *groups.entry(set_id).or_insert(next)
            })
            .collect();
        let group = |row: usize| {
            let label = catalog.current_label(row)?;
            group_of.get(label as usize).map(|&g| g as usize)
        };
        let mut starts = vec![0u32; groups.len() + 1];
        for row in 0..catalog.len() {
            if let Some(g) = group(row) {
                starts[g + 1] += 1;
            }
        }
        for g in 1..starts.len() {
            starts[g] += starts[g - 1];
        }
        let mut next = starts.clone();
        let mut addresses = vec![0u64; starts[groups.len()] as usize];
        for row in 0..catalog.len() {
            if let Some(g) = group(row) {
                addresses[next[g] as usize] = packed(catalog.address_at(row));
                next[g] += 1;
            }
        }
        for g in 0..groups.len() {
            addresses[starts[g] as usize..starts[g + 1] as usize].sort_unstable();
        }
        Self {
            group_of,
            starts,
            addresses,
        }
    }

    /// The addresses of the current segments of the set ids of `labels` (ordinals), ascending
    /// within each set id.
    pub fn current_addresses(&self, labels: &BTreeSet<u32>) -> Vec<SegmentAddress> {
        let groups: BTreeSet<u32> = labels
            .iter()
            .filter_map(|&label| self.group_of.get(label as usize).copied())
            .collect();
        groups
            .into_iter()
            .flat_map(|g| {
                &self.addresses
                    [self.starts[g as usize] as usize..self.starts[g as usize + 1] as usize]
            })
            .map(|&packed| SegmentAddress(DocAddress::new((packed >> 32) as u32, packed as u32)))
            .collect()
    }
}

fn packed(address: SegmentAddress) -> u64 {
    (u64::from(address.0.segment_ord) << 32) | u64::from(address.0.doc_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SegmentInfo;
    use drugcite_core::domain::{Fingerprint, TextHash};
    use std::sync::Arc;

    fn segment(n: u128, label: u32, current: bool, doc: u32) -> (Fingerprint, SegmentInfo) {
        let info = SegmentInfo {
            address: SegmentAddress(DocAddress::new(doc % 2, doc)),
            label,
            current,
            section_key: Arc::from("warnings"),
            text_hash: TextHash::of(&n.to_string()),
            addresses_patient: false,
        };
        (Fingerprint::from_be_bytes(n.to_be_bytes()), info)
    }

    #[test]
    fn a_labels_set_id_answers_with_its_current_segments_of_every_version() {
        let set_ids = ["a", "b", "a"];
        let catalog = SegmentCatalog::build([
            segment(1, 0, false, 9),
            segment(2, 2, true, 4),
            segment(3, 2, true, 3),
            segment(4, 1, true, 7),
        ]);
        let rows = LabelRows::build(&catalog, set_ids.into_iter());
        let docs = |labels: &[u32]| -> Vec<u32> {
            let labels = labels.iter().copied().collect();
            rows.current_addresses(&labels)
                .iter()
                .map(|a| a.0.doc_id)
                .collect()
        };
        assert_eq!(
            docs(&[0]),
            [4, 3],
            "the old version's set id: its current segments, by address"
        );
        assert_eq!(docs(&[2, 0]), [4, 3], "one set id once");
        assert_eq!(docs(&[1]), [7]);
        assert_eq!(docs(&[0, 1]), [4, 3, 7]);
        assert!(docs(&[5]).is_empty(), "an ordinal it does not know");
    }
}
