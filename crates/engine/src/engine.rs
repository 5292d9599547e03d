//! The engine the CLI and the HTTP adapter share: one live generation (`index`) and the
//! services over it — search, verify, the quote check and the graph — wired for the chosen
//! graph backend. Composition only: each service owns its logic and its cache.

use std::sync::Arc;

use crate::embed::Embedder;
pub use crate::error::EngineError;
use crate::graph_answers::{GraphAnswer, GraphService};
use crate::index::{LiveIndex, OpenOptions};
use crate::neo4j::{Neo4jClient, SyncWatch};
use crate::quote::{check_quotes, CheckRequest, QuoteReport, QuoteSources};
use crate::search::{SearchHit, Searcher};
use drugcite_core::domain::{GraphLimit, MaxHops, Question, SearchFilters, TopK};

/// Search segments a graph answer without relationships carries as fallback evidence.
const FALLBACK_SEGMENTS: i64 = 5;
use crate::verify::{SegmentSource, Verifier};
use drugcite_store::{DataDir, StoreError};

/// Where the knowledge graph and the verify lookups live. Search always runs on the local
/// index.
#[derive(Clone)]
pub enum GraphBackend {
    /// The generation's own files.
    Embedded,
    /// A Neo4j database the generation was synced into (`drugcite ingest --neo4j`).
    Neo4j(Arc<Neo4jClient>),
}

pub struct Engine {
    pub index: Arc<LiveIndex>,
    pub searcher: Searcher,
    pub verifier: Arc<Verifier>,
    pub graph: GraphService,
}

impl Engine {
    /// Opens the live generation with the graph and verify on the generation itself.
    pub fn open(data_dir: DataDir, embedder: Option<Arc<Embedder>>) -> Result<Self, StoreError> {
        Self::open_with(data_dir, embedder, GraphBackend::Embedded)
    }

    /// Opens the live generation with the knowledge graph and verify on `backend`.
    pub fn open_with(
        data_dir: DataDir,
        embedder: Option<Arc<Embedder>>,
        backend: GraphBackend,
    ) -> Result<Self, StoreError> {
        let watch = match backend {
            GraphBackend::Embedded => None,
            GraphBackend::Neo4j(client) => Some(Arc::new(SyncWatch::new(client))),
        };
        let options = OpenOptions {
            space: embedder.as_deref().map(Embedder::vector_space),
            embedded_graph: watch.is_none(),
        };
        let index = Arc::new(LiveIndex::open(data_dir, options)?);
        let source = match &watch {
            None => SegmentSource::Embedded,
            Some(watch) => SegmentSource::Neo4j(Arc::clone(watch)),
        };
        let verifier = Arc::new(Verifier::new(Arc::clone(&index), source));
        Ok(Self {
            searcher: Searcher::new(Arc::clone(&index), embedder.clone()),
            graph: GraphService::new(Arc::clone(&index), Arc::clone(&verifier), watch, embedder),
            verifier,
            index,
        })
    }

    /// A /v1/graph answer; when the graph holds no relationship for the question, the best
    /// search segments for it come along as fallback evidence (never an empty answer alone).
    pub fn graph_answer(
        &self,
        question: &Question,
        max_hops: MaxHops,
        limit: GraphLimit,
    ) -> Result<(GraphAnswer, Vec<SearchHit>), EngineError> {
        let answer = self.graph.answer(question, max_hops, limit)?;
        let fallback = if answer.relationships.is_empty() {
            let top = TopK::parse(Some(FALLBACK_SEGMENTS)).expect("a valid top_k");
            self.searcher
                .search(question, top, &SearchFilters::default())?
                .hits
        } else {
            Vec::new()
        };
        Ok((answer, fallback))
    }

    /// Checks the quotes of `request` against the live generation (see `quote`).
    pub fn check_quotes(&self, request: &CheckRequest) -> Result<QuoteReport, EngineError> {
        let sources = QuoteSources {
            index: &self.index,
            searcher: &self.searcher,
            verifier: &self.verifier,
        };
        check_quotes(&sources, request)
    }

    /// Follows what was published since the last call: a newer generation of the data
    /// directory (returns whether it swapped) and, on Neo4j, a newer completed sync.
    pub fn refresh(&self) -> Result<bool, EngineError> {
        let swapped = self.index.reload_if_changed()?;
        self.verifier.follow_syncs()?;
        Ok(swapped)
    }
}
