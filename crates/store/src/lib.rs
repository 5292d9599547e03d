//! The embedded store: a data directory of immutable index generations, one of them live.
//! Owns the on-disk layout and the atomic swap; knows nothing of HTTP or input formats.
//!
//! ```text
//! DIR/CURRENT                 a generation name (validated, never a path) of the live generation,
//!                             replaced by rename: atomic
//! DIR/indexes/<generation>/   tantivy/ (one doc per fingerprint: text, section, set id, names),
//!                             labels.jsonl (every label version), history.bin (per set id: its
//!                             versions, the fingerprints of each, withdrawal), graph.bin,
//!                             conditions.jsonl, vectors.bin (segment embeddings, when ingested
//!                             with a model), catalog.cols, holders.cols, copies.cols, current.bin
//!                             (per-fingerprint tables, mapped at open: columns/),
//!                             manifest.json (the report + SHA-256 of every other file)
//! DIR/indexes/<gen>.building  a generation being built; never read, removed by the next ingest
//! DIR/keys.json               API keys (hashed); kept across ingests
//! DIR/ingest.lock             held while an ingest runs
//! DIR/leases/<gen>.lease      shared-locked by every process that has <gen> open; pruning skips it
//! drugcite check              check.rs: re-hashes the live generation's files and segments
//! ```
//!
//! A generation is opened only when its files match the manifest's checksums, and every
//! segment read is re-hashed against its fingerprint before it is returned.

mod builder;
mod check;
mod checksum;
mod columns;
mod cores;
mod current;
pub mod encoded;
mod generation;
pub mod history;
mod holders;
mod layout;
mod lease;
pub mod prehashed;
mod schema;
mod seal;
pub use schema::text_analyzer;
mod snapshot;
mod texts;
pub use schema::{u64_column, Fields};
pub use texts::SegmentStatistics;
pub use texts::{TextFields, TextsIndex};
pub mod progress;
mod vectors;
mod words;

pub use builder::{write_manifest, IndexBuilder, SegmentDoc};
pub use check::{check, CheckReport, SegmentMismatch};
pub use checksum::FileMismatch;
pub use columns::catalog::{LabelSections, SegmentCatalog};
pub use columns::copies::Copies;
pub use history::{LabelHistory, SetHistory, VersionEntry, VersionRank, VersionStatus};
pub use layout::{DataDir, GenerationDraft};
pub use snapshot::{
    SegmentAddress, SegmentInfo, SegmentView, Snapshot, Standing, StoredSegment, VersionRef,
};
/// Writing a vectors file by hand, for the engine's tests of what reads it.
#[cfg(any(test, feature = "test-support"))]
pub use vectors::VectorWriter;
pub use vectors::{MappedVectors, VectorCache, VectorSpace};
pub use words::write_text_tables;
pub use words::{label_brands, label_words, SHORTEST_WORD};

/// Failures of the store. Messages name the path and what to do.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no index in {0}: run `drugcite ingest --data-dir {0} PATH…` first")]
    NoIndex(String),
    #[error("another ingest holds {0}; wait for it to finish")]
    IngestRunning(String),
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    #[error("index error in {context}: {source}")]
    Index {
        context: String,
        #[source]
        source: tantivy::TantivyError,
    },
    #[error("corrupt store file {path}: {reason}")]
    Corrupt { path: String, reason: String },
    /// A segment read back does not hash to its fingerprint: never served as verified.
    #[error(
        "segment {fingerprint} of {generation} fails its fingerprint check ({detail}): \
         run `drugcite check`"
    )]
    Tampered {
        generation: String,
        fingerprint: String,
        detail: String,
    },
}

/// Runs one phase of opening a generation and logs how long it took (operators read where
/// an open's time goes from these lines).
pub fn open_phase<T>(phase: &'static str, run: impl FnOnce() -> T) -> T {
    let started = std::time::Instant::now();
    let result = run();
    let ms = started.elapsed().as_millis();
    tracing::info!(phase, ms, "opening the index");
    result
}

pub fn io_error(context: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> StoreError {
    let context = context.to_string();
    move |source| StoreError::Io { context, source }
}

/// The JSON value of each line of the file at `path`; a line that is not one is `Corrupt`,
/// naming the file and the line.
pub(crate) fn read_json_lines<T: serde::de::DeserializeOwned>(
    path: &std::path::Path,
) -> Result<Vec<T>, StoreError> {
    use std::io::BufRead;
    let file =
        std::fs::File::open(path).map_err(io_error(format!("opening {}", path.display())))?;
    let mut values = Vec::new();
    for (number, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io_error(format!("reading {}", path.display())))?;
        let value = serde_json::from_str(&line).map_err(|e| StoreError::Corrupt {
            path: path.display().to_string(),
            reason: format!("line {}: {e}", number + 1),
        })?;
        values.push(value);
    }
    Ok(values)
}

pub(crate) fn index_error(
    context: impl std::fmt::Display,
) -> impl FnOnce(tantivy::TantivyError) -> StoreError {
    let context = context.to_string();
    move |source| StoreError::Index { context, source }
}
