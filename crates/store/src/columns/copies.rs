//! The copies of each text among the current segments (what search calls searchable,
//! `search::collapse::searchable`): a table of the distinct texts, each naming its run of
//! catalog rows (its copies, in fingerprint order), so a copy is read without a search.
//! Read-only once built; only meaningful with the catalog it was built from.

use crate::files::COPIES_FILE;
use std::path::Path;

use super::catalog::SegmentCatalog;
use super::table::{le_u32, Table};
use crate::{SegmentInfo, StoreError};
use drugcite_core::domain::{Fingerprint, TextHash};

const TAG: &[u8; 8] = b"DCCOPIE2";
/// Text hash (8 bytes BE) → first place in the trailer's catalog rows, count (u32 LE each).
const KEY: usize = 8;
const VALUE: usize = 8;

/// The current copies of every text, as rows of the catalog.
pub struct Copies {
    table: Table,
}

impl Copies {
    /// The current copies of every text `catalog` holds.
    pub fn build(catalog: &SegmentCatalog) -> Self {
        let mut current: Vec<(TextHash, u32)> = catalog
            .iter()
            .enumerate()
            .filter(|(_, (_, info))| info.current)
            .map(|(row, (_, info))| (info.text_hash, row as u32))
            .collect();
        current.sort_unstable();
        let mut texts = Vec::new();
        let mut rows = Vec::with_capacity(current.len() * 4);
        let mut place = 0u32;
        for run in current.chunk_by(|a, b| a.0 == b.0) {
            let mut value = [0u8; VALUE];
            value[..4].copy_from_slice(&place.to_le_bytes());
            value[4..].copy_from_slice(&(run.len() as u32).to_le_bytes());
            texts.push((run[0].0.get().to_be_bytes(), value));
            for (_, row) in run {
                rows.extend_from_slice(&row.to_le_bytes());
            }
            place += run.len() as u32;
        }
        Self {
            table: Table::build(TAG, texts, &rows),
        }
    }

    pub(crate) fn map(generation: &Path) -> Result<Self, StoreError> {
        let path = generation.join(COPIES_FILE);
        let table = Table::map(&path, TAG, KEY, VALUE)?;
        let places = (0..table.len()).map(|text| run(&table, text));
        if places.map(|(at, count)| at + count).max().unwrap_or(0) * 4 > table.trailer().len() {
            return Err(StoreError::Corrupt {
                path: path.display().to_string(),
                reason: "names more copies than it holds".into(),
            });
        }
        Ok(Self { table })
    }

    pub(crate) fn write(&self, generation: &Path) -> Result<(), StoreError> {
        self.table.write(&generation.join(COPIES_FILE))
    }

    /// The current copies of `text` with what `catalog` (the one these copies were built from)
    /// knows of them, in fingerprint order (none if it has none).
    pub fn of<'a>(
        &'a self,
        text: TextHash,
        catalog: &'a SegmentCatalog,
    ) -> impl Iterator<Item = (Fingerprint, SegmentInfo)> + Clone + 'a {
        let (at, count) = self
            .table
            .find(&text.get().to_be_bytes())
            .map_or((0, 0), |place| run(&self.table, place));
        let rows = &self.table.trailer()[at * 4..(at + count) * 4];
        rows.chunks_exact(4)
            .map(|row| catalog.entry(le_u32(row, 0) as usize))
    }

    pub fn contains(&self, text: TextHash) -> bool {
        self.table.find(&text.get().to_be_bytes()).is_some()
    }
}

/// Where the copies of the text in `place` start among the catalog rows, and how many.
fn run(table: &Table, place: usize) -> (usize, usize) {
    let value = table.value(place);
    (le_u32(value, 0) as usize, le_u32(value, 4) as usize)
}
