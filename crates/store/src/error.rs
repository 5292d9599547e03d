//! The store's one error and the adapters that give an I/O or index failure its context.
//! Messages name the path and what to do; nothing here decides what failed.

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

pub fn io_error(context: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> StoreError {
    let context = context.to_string();
    move |source| StoreError::Io { context, source }
}

pub fn index_error(
    context: impl std::fmt::Display,
) -> impl FnOnce(tantivy::TantivyError) -> StoreError {
    let context = context.to_string();
    move |source| StoreError::Index { context, source }
}
