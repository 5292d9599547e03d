//! Per-fingerprint tables written into a generation at ingest and mapped when it is opened, so
//! an open builds no table per segment: the segment catalog, the holders, the current copies of
//! each text, and the current documents. A generation written before them builds the same tables
//! in memory at open (`stored` says which). Knows nothing of ranking.

pub(crate) mod catalog;
pub(crate) mod copies;
pub(crate) mod label_rows;
pub(crate) mod table;

use crate::files::CURRENT_FILE;
use std::collections::HashMap;
use std::path::Path;

use tantivy::index::SegmentId;
use tantivy::{DocId, Searcher};

use super::current::CurrentDocs;
use super::{encoded, StoreError};

const CURRENT_TAG: &[u8; 8] = b"DCCURDC1";

/// Whether `generation` was written with its tables (`current.bin` is written last of them).
pub(crate) fn stored(generation: &Path) -> bool {
    generation.join(CURRENT_FILE).exists()
}

/// Per tantivy segment in the searcher's order (the order the catalog's addresses count in):
/// its id and its current documents.
type StoredCurrent = Vec<(String, Vec<DocId>)>;

pub(crate) fn write_current(
    generation: &Path,
    searcher: &Searcher,
    current: &CurrentDocs,
) -> Result<(), StoreError> {
    let stored: StoredCurrent = searcher
        .segment_readers()
        .iter()
        .map(|segment| {
            let id = segment.segment_id();
            (id.uuid_string(), current.docs_of(id).to_vec())
        })
        .collect();
    let path = generation.join(CURRENT_FILE);
    encoded::write(&path, CURRENT_TAG, &stored)
        .map_err(super::io_error(format!("writing {}", path.display())))
}

/// The current documents `write_current` stored; refused unless the index's segments are the
/// ones, in the order, they were written for.
pub(crate) fn read_current(
    generation: &Path,
    searcher: &Searcher,
) -> Result<CurrentDocs, StoreError> {
    let path = generation.join(CURRENT_FILE);
    let stored: StoredCurrent = encoded::read(&path, CURRENT_TAG)
        .map_err(super::io_error(format!("reading {}", path.display())))?;
    let ids: Vec<String> = searcher
        .segment_readers()
        .iter()
        .map(|segment| segment.segment_id().uuid_string())
        .collect();
    if !ids.iter().eq(stored.iter().map(|(id, _)| id)) {
        return Err(StoreError::Corrupt {
            path: path.display().to_string(),
            reason: "written for other tantivy segments than the index holds: re-ingest".into(),
        });
    }
    let by_segment: HashMap<SegmentId, Vec<DocId>> = searcher
        .segment_readers()
        .iter()
        .map(|segment| segment.segment_id())
        .zip(stored.into_iter().map(|(_, docs)| docs))
        .collect();
    Ok(CurrentDocs::new(by_segment))
}
