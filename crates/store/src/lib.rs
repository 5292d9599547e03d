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
mod error;
mod files;
mod generation;
pub mod history;
mod holders;
mod layout;
mod lease;
pub mod prehashed;
mod schema;
mod seal;
mod segment;
pub use schema::text_analyzer;
mod snapshot;
mod texts;
mod timing;
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
pub use columns::label_rows::LabelRows;
pub(crate) use error::index_error;
pub use error::{io_error, StoreError};
pub(crate) use files::read_json_lines;
pub use history::{LabelHistory, SetHistory, VersionEntry, VersionRank, VersionStatus};
pub use layout::{DataDir, GenerationDraft};
pub use segment::{SegmentAddress, SegmentInfo, SegmentView, Standing, StoredSegment, VersionRef};
pub use snapshot::Snapshot;
pub use timing::open_phase;
/// Writing a vectors file by hand, for the engine's tests of what reads it.
#[cfg(any(test, feature = "test-support"))]
pub use vectors::VectorWriter;
pub use vectors::{MappedVectors, VectorCache, VectorSpace};
pub use words::write_text_tables;
pub use words::{label_brands, label_words, SHORTEST_WORD};
