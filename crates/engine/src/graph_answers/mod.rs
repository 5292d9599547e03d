//! The graph service behind /v1/graph: reads a question, answers it over the live generation's
//! graph (or the graph of the last completed Neo4j sync) and resolves each relationship's
//! evidence through verify, one item per distinct text (copies under other labels named in its
//! `also_in`). Reads the evidence text for what the graph keeps as fingerprints: the
//! instruction of an interaction, the verdict of a yes/no question, the label's own order of
//! the most common side effects (`common.rs`). Owns the graph loaded from Neo4j; no HTTP, no
//! ranking of search.

mod common;
pub mod question;
mod service;
pub mod verdict;

pub use service::{AnsweredRelationship, EvidenceText, GraphAnswer, GraphService};
