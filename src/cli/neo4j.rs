//! The binary's Neo4j flags and the two things it does with them: writing the live generation
//! into Neo4j (`sync-neo4j`, `ingest --neo4j`) and serving graph and verify from it. Thin: the
//! sync and the queries are `drugcite_engine::neo4j`.

use std::sync::Arc;
use std::time::Duration;

use drugcite_engine::engine::GraphBackend;
use drugcite_engine::graph::GraphData;
use drugcite_engine::ingest::ProgressMode;
use drugcite_engine::neo4j::{sync_generation, Neo4jClient, Neo4jConfig};
use drugcite_store::{DataDir, Snapshot};

/// Connection settings of the Neo4j backend.
#[derive(clap::Args)]
pub struct Neo4jArgs {
    /// Neo4j Bolt URI, e.g. bolt://localhost:7687.
    #[arg(long = "neo4j", value_name = "URI", env = "DRUGCITE_NEO4J_URI")]
    uri: Option<String>,
    #[arg(long, env = "DRUGCITE_NEO4J_USER", default_value = "neo4j")]
    neo4j_user: String,
    #[arg(
        long,
        env = "DRUGCITE_NEO4J_PASSWORD",
        default_value = "",
        hide_env_values = true
    )]
    neo4j_password: String,
    /// Seconds any one Neo4j query may take before it fails.
    #[arg(long, env = "DRUGCITE_NEO4J_TIMEOUT_SECS", default_value = "30")]
    neo4j_timeout_secs: u64,
}

impl Neo4jArgs {
    /// The client of `--neo4j URI`, or `None` without it.
    pub fn client(&self) -> anyhow::Result<Option<Neo4jClient>> {
        let Some(uri) = &self.uri else {
            return Ok(None);
        };
        anyhow::ensure!(
            self.neo4j_timeout_secs > 0,
            "--neo4j-timeout-secs must be at least 1"
        );
        let config = Neo4jConfig {
            uri: uri.clone(),
            user: self.neo4j_user.clone(),
            password: self.neo4j_password.clone(),
            query_timeout: Duration::from_secs(self.neo4j_timeout_secs),
        };
        Ok(Some(Neo4jClient::new(&config)?))
    }

    /// The client `what` cannot do without.
    pub fn required_client(&self, what: &str) -> anyhow::Result<Neo4jClient> {
        self.client()?
            .ok_or_else(|| anyhow::anyhow!("{what} needs --neo4j URI (or DRUGCITE_NEO4J_URI)"))
    }
}

/// Writes the live generation into Neo4j and prints the sync report.
pub fn sync_neo4j(data_dir: &DataDir, client: &Neo4jClient) -> anyhow::Result<()> {
    let snapshot = Snapshot::open_current(data_dir)?;
    let graph = GraphData::read(snapshot.generation())?.ok_or_else(|| {
        anyhow::anyhow!("the live index has no knowledge graph: re-ingest it first")
    })?;
    let report = sync_generation(client, &snapshot, &graph, ProgressMode::Auto)?;
    println!("{report}");
    Ok(())
}

/// The Neo4j backend with its schema applied; a database that is down now is reported and
/// retried on each request, not fatal.
pub fn neo4j_backend(client: Neo4jClient) -> GraphBackend {
    match client.apply_schema() {
        Ok(schema) => tracing::info!(
            uri = client.uri(),
            created = schema.created,
            existing = schema.existing,
            "neo4j schema applied"
        ),
        Err(e) => tracing::warn!("{e}; graph and verify answer 500 until Neo4j is reachable"),
    }
    GraphBackend::Neo4j(Arc::new(client))
}
