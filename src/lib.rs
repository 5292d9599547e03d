//! drugcite: search official US drug-label text and prove every quote by fingerprint.
//! The engine (label, ingest, store, search, verify, graph, neo4j, keys, engine) has no HTTP
//! in it; `http` is the thin axum adapter over it, and the binary's CLI calls the same engine.

pub mod accounts;
pub mod cache_stats;
pub mod conditions;
pub mod config;
pub mod curated;
pub mod domain;
pub mod embed;
pub mod engine;
pub mod eval;
pub mod eval_graph;
pub mod graph;
pub mod history;
pub mod http;
pub mod ingest;
pub mod keys;
pub mod label;
pub mod live;
pub mod mcp;
pub mod neo4j;
pub mod progress;
pub mod search;
pub mod startup;
pub mod store;
pub mod text;
pub mod verify;
