//! The knowledge graph: drug–condition and drug–drug relationships extracted from label text
//! at ingest (each backed by segment fingerprints), stored in the generation, and answered over
//! with petgraph. No HTTP here.

pub mod analysis;
pub mod build;
mod class_level;
pub mod cues;
pub mod enzymes;
pub mod findings;
pub(crate) mod heads;
pub mod instruction;
mod membership;
pub mod model;
pub mod names;
pub mod query;
pub mod reason;
pub mod relations;
pub mod severity;
pub(crate) mod wording;

use std::path::Path;

pub use build::build;
pub use model::{Evidence, GraphData, Node, NodeKind, RelationType, Relationship, Severity};
pub use query::GraphQuestion;
pub use reason::{Found, Hop, KnowledgeGraph};

use crate::conditions::{self, Matcher};
use crate::curated::{condition_synonyms, ConditionSynonyms};

/// A generation's graph with what reading questions about it needs: the condition matcher
/// of the vocabulary it was built with and the curated condition synonyms.
pub struct Reasoner {
    graph: KnowledgeGraph,
    matcher: Matcher,
    synonyms: Vec<ConditionSynonyms>,
}

impl Reasoner {
    /// The graph stored in `generation`; an empty graph (with a warning) for a generation
    /// ingested before graphs existed.
    pub fn load(generation: &Path) -> std::io::Result<Self> {
        let data = GraphData::read(generation)?.unwrap_or_else(|| {
            tracing::warn!(
                generation = %generation.display(),
                "this index has no knowledge graph; re-ingest to answer /v1/graph"
            );
            GraphData::default()
        });
        Self::new(data, generation)
    }

    /// `data` (read from another store) with the question reading of `generation`'s vocabulary.
    pub fn new(data: GraphData, generation: &Path) -> std::io::Result<Self> {
        let vocabulary =
            conditions::vocabulary::read_compiled(generation).map_err(std::io::Error::other)?;
        Ok(Self {
            graph: KnowledgeGraph::new(data),
            matcher: conditions::matcher(&vocabulary),
            synonyms: condition_synonyms(),
        })
    }

    pub fn graph(&self) -> &KnowledgeGraph {
        &self.graph
    }

    /// The condition matcher of the vocabulary the graph was built with.
    pub fn matcher(&self) -> &Matcher {
        &self.matcher
    }

    /// The curated condition synonyms questions are read with.
    pub fn synonyms(&self) -> &[ConditionSynonyms] {
        &self.synonyms
    }
}
