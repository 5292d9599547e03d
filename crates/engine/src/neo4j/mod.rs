//! The Neo4j backend over neo4rs (Bolt 4.4): a client with a timeout on every query, the
//! schema of `cypher/schema.cypher`, the sync of a generation into Neo4j and the reads the
//! server makes (the graph for petgraph, segments for verify). No HTTP here.

mod client;
mod held;
mod names;
mod read;
mod schema;
mod stale;
mod sync;
mod watch;

pub use client::{Neo4jClient, Neo4jConfig, Neo4jError};
pub use read::StoredCounts;
pub use schema::{schema_statements, SchemaReport};
pub use sync::{sync_generation, SyncError, SyncReport};
pub use watch::{SeenSync, SyncWatch};
