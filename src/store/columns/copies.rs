//! The copies of each text among the current segments (what search calls searchable,
//! `search::collapse::searchable`), as a table of (text hash, fingerprint) keys: a text's copies
//! are one run of rows, in fingerprint order. Read-only once built.

use std::path::Path;

use super::catalog::{fingerprint, SegmentCatalog};
use super::table::Table;
use crate::domain::{Fingerprint, TextHash};
use crate::store::StoreError;

pub(crate) const COPIES_FILE: &str = "copies.cols";
const TAG: &[u8; 8] = b"DCCOPIE1";
/// Text hash (8 bytes BE), then fingerprint (16 bytes BE).
const KEY: usize = 24;

/// The current copies of every text.
pub struct Copies {
    table: Table,
}

impl Copies {
    /// The current copies of every text `catalog` holds.
    pub fn build(catalog: &SegmentCatalog) -> Self {
        let rows = catalog
            .iter()
            .filter(|(_, info)| info.current)
            .map(|(fingerprint, info)| {
                let mut key = [0u8; KEY];
                key[..8].copy_from_slice(&info.text_hash.get().to_be_bytes());
                key[8..].copy_from_slice(&fingerprint.bits().to_be_bytes());
                (key, [])
            })
            .collect();
        Self {
            table: Table::build(TAG, rows, &[]),
        }
    }

    pub(crate) fn map(generation: &Path) -> Result<Self, StoreError> {
        let table = Table::map(&generation.join(COPIES_FILE), TAG, KEY, 0)?;
        Ok(Self { table })
    }

    pub(crate) fn write(&self, generation: &Path) -> Result<(), StoreError> {
        self.table.write(&generation.join(COPIES_FILE))
    }

    /// The current copies of `text`, in fingerprint order (none if it has none).
    pub fn of(&self, text: TextHash) -> CopyList<'_> {
        let rows = self.table.with_prefix(&text.get().to_be_bytes());
        CopyList {
            table: &self.table,
            rows,
        }
    }

    pub fn contains(&self, text: TextHash) -> bool {
        self.of(text).len() > 0
    }
}

/// The copies of one text, read from the table as they are walked.
#[derive(Clone)]
pub struct CopyList<'a> {
    table: &'a Table,
    rows: std::ops::Range<usize>,
}

impl Iterator for CopyList<'_> {
    type Item = Fingerprint;

    fn next(&mut self) -> Option<Fingerprint> {
        let row = self.rows.next()?;
        Some(fingerprint(&self.table.key(row)[8..]))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.rows.size_hint()
    }
}

impl ExactSizeIterator for CopyList<'_> {}
