//! Reading a generation's files when a snapshot is opened: the tantivy index, the manifest, the
//! labels, their history and holders, the current documents and the fingerprint columns. Runs
//! once per open; tantivy's files are read through the seal, the other files' checks are the
//! caller's.

use crate::files::{LABELS_FILE, TANTIVY_DIR};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use tantivy::{DocId, Searcher};

use super::{FingerprintColumns, Snapshot};
use crate::checksum::parse_manifest;
use crate::columns;
use crate::current::CurrentDocs;
use crate::history::LabelHistory;
use crate::holders::{Holder, Holders};
use crate::lease::Lease;
use crate::schema::{open_for_reading, Fields};
use crate::seal::Seal;
use crate::texts::TextsIndex;
use crate::{index_error, io_error, open_phase, read_json_lines, StoreError};
use drugcite_core::domain::Fingerprint;
use drugcite_core::label::LabelMeta;

impl Snapshot {
    pub(super) fn open_files(
        generation: &Path,
        manifest: serde_json::Value,
        seal: &Arc<Seal>,
        lease: Option<Lease>,
    ) -> Result<Self, StoreError> {
        let (index, reader) = open_phase("tantivy", || {
            open_for_reading(generation, TANTIVY_DIR, seal)
        })?;
        let fields = Fields::of(&index).map_err(index_error("reading schema"))?;
        let labels = open_phase("labels", || read_labels(&generation.join(LABELS_FILE)))?;
        let history = open_phase("history", || LabelHistory::read(generation))?;
        let stored_columns = columns::stored(generation);
        if !stored_columns && lease.is_some() {
            tracing::info!(
                generation = %generation.display(),
                "written before its column tables: building them (re-ingest for a faster open)"
            );
        }
        let holders = open_phase("holders", || {
            Holders::open(&history, &labels, generation, stored_columns)
        })?;
        let fingerprint_columns = fingerprint_columns(&reader.searcher())?;
        let current_docs = open_phase("current segments", || match stored_columns {
            true => columns::read_current(generation, &reader.searcher()),
            false => Ok(current_docs(
                &reader.searcher(),
                &fingerprint_columns,
                &holders,
            )),
        })?;
        let texts = open_phase("distinct-text index", || TextsIndex::open(generation, seal))?;
        Ok(Self {
            texts,
            generation: generation.to_path_buf(),
            labels,
            history,
            holders,
            current_docs,
            stored_columns,
            manifest,
            fingerprint_columns,
            seal: Arc::clone(seal),
            reader,
            index,
            fields,
            _lease: lease,
        })
    }
}

/// The fingerprint fast-field columns of every tantivy segment, by segment ordinal.
pub(super) fn fingerprint_columns(
    searcher: &Searcher,
) -> Result<Vec<FingerprintColumns>, StoreError> {
    searcher
        .segment_readers()
        .iter()
        .map(|segment| {
            let columns = segment.fast_fields();
            let column = |name| {
                columns
                    .u64(name)
                    .map_err(index_error("reading fingerprints"))
            };
            Ok((column("fp_high")?, column("fp_low")?))
        })
        .collect()
}

/// Per tantivy segment, the documents whose fingerprint is current.
pub(super) fn current_docs(
    searcher: &Searcher,
    columns: &[FingerprintColumns],
    holders: &Holders,
) -> CurrentDocs {
    let mut by_segment = HashMap::new();
    for (segment, (high, low)) in searcher.segment_readers().iter().zip(columns) {
        let docs: Vec<DocId> = segment
            .doc_ids_alive()
            .filter(|&doc| {
                let fingerprint = high
                    .first(doc)
                    .zip(low.first(doc))
                    .map(|(h, l)| Fingerprint::from_halves(h, l));
                fingerprint
                    .and_then(|fp| holders.of(fp))
                    .is_some_and(|holder: Holder| holder.current)
            })
            .collect();
        by_segment.insert(segment.segment_id(), docs);
    }
    CurrentDocs::new(by_segment)
}

pub(super) fn read_labels(path: &Path) -> Result<Vec<Arc<LabelMeta>>, StoreError> {
    let labels: Vec<LabelMeta> = read_json_lines(path)?;
    Ok(labels.into_iter().map(Arc::new).collect())
}

pub(super) fn read_manifest(path: &Path) -> Result<serde_json::Value, StoreError> {
    let body = std::fs::read(path).map_err(io_error(format!("reading {}", path.display())))?;
    parse_manifest(path, &body)
}
