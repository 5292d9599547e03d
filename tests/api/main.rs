//! Integration tests: the real server on a random port over a real index built from a small
//! subset of the shared openFDA corpus (`../shared/data`, or `$DRUGCITE_SHARED_DATA`).

mod accounts;
mod auth;
mod bolt;
mod catalog;
mod cli;
mod config;
mod connections;
mod console;
mod console_browser;
mod corpus;
mod distinct_texts;
mod duplicates;
mod duplicates_spl;
mod envelopes;
mod examples;
mod extract;
mod graph;
mod graph_answers;
mod graph_caps;
mod helpers;
mod history;
mod history_neo4j;
mod ingest;
mod mcp;
mod metrics;
mod neo4j;
mod quote;
mod request_id;
mod search;
mod search_understanding;
mod severity_brat;
mod spl;
mod test_db;
mod update;
mod verify;
