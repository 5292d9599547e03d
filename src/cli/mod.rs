//! The operator commands beside `main.rs`: their arguments (`args.rs`), keys and accounts,
//! extract, and the Neo4j flags and sync. Each is argument glue over the engine, the accounts
//! or the server; no rules here.

pub mod accounts;
pub mod args;
pub mod extract;
pub mod neo4j;
pub mod onboarding;
pub mod usd;
