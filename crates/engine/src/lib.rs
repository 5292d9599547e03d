//! drugcite's engine: ingest, the live index, question understanding, search, verify, the quote
//! check and the knowledge graph, over the store. No HTTP, no command line: the server and the
//! binary are thin adapters over `engine::Engine`.

pub mod cache_stats;
pub mod conditions;
pub mod curated;
pub mod embed;
pub mod engine;
pub mod error;
pub mod graph;
pub mod graph_answers;
pub mod history;
pub mod index;
pub mod ingest;
pub mod neo4j;
pub mod quote;
pub mod search;
pub mod tables;
pub mod understand;
pub mod verify;
pub mod workers;
