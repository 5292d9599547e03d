//! The engine's one error: what a search, verify, quote check or graph answer can fail with
//! (the store, the embedding model, the Neo4j backend). The server maps it to the spec's
//! envelopes; nothing here knows HTTP.

use crate::embed::EmbedError;
use crate::neo4j::Neo4jError;
use drugcite_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    /// The Neo4j graph backend failed or did not answer in time.
    #[error(transparent)]
    GraphStore(#[from] Neo4jError),
}
