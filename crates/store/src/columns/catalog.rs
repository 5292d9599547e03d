//! The segment catalog as a table: per fingerprint of a live segment, its address, label,
//! standing, section, text hash and audience, sorted by fingerprint and looked up in place.
//! Read-only once built; what the rows say is decided by `Snapshot::build_catalog`.

use crate::files::CATALOG_FILE;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use tantivy::DocAddress;

use super::table::{le_u32, Table};
use crate::{SegmentAddress, SegmentInfo, StoreError};
use drugcite_core::domain::{Fingerprint, TextHash};

const TAG: &[u8; 8] = b"DCCATLG1";
const KEY: usize = 16;
/// Segment ordinal, doc, label, section (u32 LE each), text hash (u64 LE), flags.
const VALUE: usize = 25;
const CURRENT: u8 = 1;
const PATIENT: u8 = 2;

/// Fingerprint → what ranking knows of the live segment, for every live segment.
pub struct SegmentCatalog {
    table: Table,
    /// The section keys the rows name by their place here.
    sections: Vec<Arc<str>>,
}

impl SegmentCatalog {
    /// The catalog of `segments` (one entry per fingerprint).
    pub fn build(segments: impl IntoIterator<Item = (Fingerprint, SegmentInfo)>) -> Self {
        let mut places: HashMap<Arc<str>, u32> = HashMap::new();
        let mut sections = Vec::new();
        let rows = segments
            .into_iter()
            .map(|(fingerprint, info)| {
                let section = *places
                    .entry(Arc::clone(&info.section_key))
                    .or_insert_with(|| {
                        sections.push(Arc::clone(&info.section_key));
                        sections.len() as u32 - 1
                    });
                (fingerprint.to_be_bytes(), row(&info, section))
            })
            .collect();
        let names: Vec<&str> = sections.iter().map(|s| &**s).collect();
        let trailer = postcard::to_allocvec(&names).expect("section keys encode");
        Self {
            table: Table::build(TAG, rows, &trailer),
            sections,
        }
    }

    /// The catalog `write` stored in `generation`, mapped.
    pub(crate) fn map(generation: &Path) -> Result<Self, StoreError> {
        let path = generation.join(CATALOG_FILE);
        let table = Table::map(&path, TAG, KEY, VALUE)?;
        let names: Vec<String> =
            postcard::from_bytes(table.trailer()).map_err(|e| StoreError::Corrupt {
                path: path.display().to_string(),
                reason: format!("section keys undecodable ({e})"),
            })?;
        Ok(Self {
            table,
            sections: names.into_iter().map(Arc::from).collect(),
        })
    }

    pub(crate) fn write(&self, generation: &Path) -> Result<(), StoreError> {
        self.table.write(&generation.join(CATALOG_FILE))
    }

    pub fn get(&self, fingerprint: Fingerprint) -> Option<SegmentInfo> {
        let row = self.table.find(&fingerprint.to_be_bytes())?;
        Some(self.info(row))
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// Every live segment, in fingerprint order.
    pub fn iter(&self) -> impl Iterator<Item = (Fingerprint, SegmentInfo)> + '_ {
        (0..self.table.len()).map(|row| self.entry(row))
    }

    /// Every live segment's fingerprint and address, in fingerprint order.
    pub fn addresses(&self) -> impl Iterator<Item = (Fingerprint, SegmentAddress)> + '_ {
        (0..self.table.len()).map(|row| {
            let address = address(self.table.value(row));
            (fingerprint(self.table.key(row)), address)
        })
    }

    /// The segment in `row` (its place in fingerprint order).
    pub(crate) fn entry(&self, row: usize) -> (Fingerprint, SegmentInfo) {
        (fingerprint(self.table.key(row)), self.info(row))
    }

    /// The address of the segment in `row`.
    pub fn address_at(&self, row: usize) -> SegmentAddress {
        address(self.table.value(row))
    }

    /// The label of the segment in `row` when it is current.
    pub(crate) fn current_label(&self, row: usize) -> Option<u32> {
        let value = self.table.value(row);
        (value[24] & CURRENT != 0).then(|| le_u32(value, 8))
    }

    fn info(&self, row: usize) -> SegmentInfo {
        let value = self.table.value(row);
        let flags = value[24];
        SegmentInfo {
            address: address(value),
            label: le_u32(value, 8),
            current: flags & CURRENT != 0,
            section_key: Arc::clone(&self.sections[le_u32(value, 12) as usize]),
            text_hash: TextHash::from_stored(u64::from_le_bytes(
                value[16..24].try_into().expect("8 bytes"),
            )),
            addresses_patient: flags & PATIENT != 0,
        }
    }
}

/// Which sections each label has a segment in, read from the catalog's rows (any version).
#[derive(Default)]
pub struct LabelSections {
    /// Per label ordinal, the catalog places of its sections, sorted.
    by_label: Vec<Vec<u32>>,
    /// The section key of each catalog place.
    keys: Vec<Arc<str>>,
}

impl LabelSections {
    /// The places (in `keys`) of the sections `label` has a segment in, ascending; empty for a
    /// label it knows nothing of.
    pub fn places_of(&self, label: u32) -> &[u32] {
        self.by_label.get(label as usize).map_or(&[], Vec::as_slice)
    }

    /// Every section key the catalog names, by place.
    pub fn keys(&self) -> &[Arc<str>] {
        &self.keys
    }
}

impl SegmentCatalog {
    /// The sections of every label, from one pass over the rows.
    pub fn label_sections(&self) -> LabelSections {
        let mut by_label: Vec<Vec<u32>> = Vec::new();
        for row in 0..self.table.len() {
            let value = self.table.value(row);
            let (label, place) = (le_u32(value, 8) as usize, le_u32(value, 12));
            if by_label.len() <= label {
                by_label.resize_with(label + 1, Vec::new);
            }
            by_label[label].push(place);
        }
        for sections in &mut by_label {
            sections.sort_unstable();
            sections.dedup();
        }
        let keys = self.sections.clone();
        LabelSections { by_label, keys }
    }
}

/// The segment address of a row's value.
fn address(value: &[u8]) -> SegmentAddress {
    SegmentAddress(DocAddress::new(le_u32(value, 0), le_u32(value, 4)))
}

/// The fingerprint a 16-byte key holds.
pub(crate) fn fingerprint(key: &[u8]) -> Fingerprint {
    Fingerprint::from_be_bytes(key.try_into().expect("16-byte keys"))
}

fn row(info: &SegmentInfo, section: u32) -> [u8; VALUE] {
    let mut value = [0u8; VALUE];
    let address = info.address.0;
    value[0..4].copy_from_slice(&address.segment_ord.to_le_bytes());
    value[4..8].copy_from_slice(&address.doc_id.to_le_bytes());
    value[8..12].copy_from_slice(&info.label.to_le_bytes());
    value[12..16].copy_from_slice(&section.to_le_bytes());
    value[16..24].copy_from_slice(&info.text_hash.get().to_le_bytes());
    value[24] =
        if info.current { CURRENT } else { 0 } | if info.addresses_patient { PATIENT } else { 0 };
    value
}
