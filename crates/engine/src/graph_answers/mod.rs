//! The graph service behind /v1/graph: reads a question, answers it over the live generation's
//! graph (or the graph of the last completed Neo4j sync) and resolves each relationship's
//! evidence through verify, one item per distinct text (copies under other labels named in its
//! `also_in`). Reads the evidence text for what the graph keeps as fingerprints: the
//! instruction of an interaction, the verdict of a yes/no question, the label's own order of
//! the most common side effects (`common.rs`), and the verdict's floor from the labels' own
//! Contraindications, Boxed Warning and Warnings sentences (`label_floor.rs`), which also name
//! the conditions a question asks about in words the reader lacks (`unread_conditions.rs`), and
//! the same floor read by meaning (`meaning_floor.rs`, what the drug is for set aside by
//! `own_words.rs`). Owns the graph loaded from
//! Neo4j; no HTTP, no ranking of search.

mod adjectives;
mod answer;
mod broader_terms;
mod common;
mod coordination;
mod label_floor;
mod meaning_floor;
pub mod medication_list;
mod own_words;
pub mod question;
mod service;
mod unread_conditions;
pub mod verdict;

pub use answer::{AnsweredRelationship, EvidenceText, GraphAnswer, PairVerdict};
pub use label_floor::TEXT_ID_PREFIX;
pub use service::GraphService;
