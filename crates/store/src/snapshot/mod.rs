//! A published generation opened for reading: tantivy searcher, label metadata and history, and
//! the fingerprint of every segment. Its bytes are used only once they matched the manifest's
//! block hashes (`seal`), it is leased while open, and every segment read is re-hashed before
//! it is returned. Immutable once opened; swapping generations means a new one.

mod catalog;
mod files;
mod open;
mod opened;
mod tables_check;

pub(crate) use opened::FingerprintColumns;
pub use opened::Snapshot;
