//! What an ingest can fail with: an input that cannot be read, the store, the embedding model,
//! or nothing to index. A bad record is never an error; it is counted in the report.

use std::path::Path;

use super::embedding::StageError;
use crate::embed::EmbedError;
use drugcite_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("{path}: {reason}")]
    Input { path: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error("no label could be indexed from the inputs; the live index is unchanged")]
    NothingIndexed,
    #[error("nothing to update in {0}: run a full `drugcite ingest` first")]
    NothingToUpdate(String),
}

impl IngestError {
    pub(crate) fn input(path: &Path, reason: impl std::fmt::Display) -> Self {
        Self::Input {
            path: path.display().to_string(),
            reason: reason.to_string(),
        }
    }
}

impl From<StageError> for IngestError {
    fn from(e: StageError) -> Self {
        match e {
            StageError::Embed(e) => Self::Embed(e),
            StageError::Store(e) => Self::Store(e),
        }
    }
}
