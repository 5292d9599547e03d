//! Ingest: label records from files → parsed, segmented, fingerprinted → a new generation
//! built beside the live one (from nothing, or on the live one's files for `--update`), with
//! the label history carried forward, published atomically at the end. A bad record is counted
//! and reported, never fatal; an I/O or index failure aborts and leaves the live index alone.

mod embedding;
mod error;
mod ledger;
mod pipeline;
mod report;
mod source;

pub use drugcite_store::progress::ProgressMode;
pub use error::IngestError;
pub use ledger::IngestMode;
pub use pipeline::{ingest, IngestOptions};
pub use report::{GraphReport, HistoryReport, IngestReport, TextsReport};
