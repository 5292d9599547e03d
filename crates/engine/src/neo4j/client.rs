//! A blocking Neo4j client: neo4rs on a small runtime of its own, so engine code (sync, run on
//! the blocking pool) and the CLI call it alike. Every query runs under a timeout; a dead
//! database is an error, never a hang. Knows nothing of drugcite's graph.

use std::future::Future;
use std::sync::mpsc;
use std::time::Duration;

use neo4rs::{ConfigBuilder, Graph, Query, Row};

/// Where Neo4j is and how long any one query may take (connecting included).
#[derive(Clone, Debug)]
pub struct Neo4jConfig {
    /// `bolt://host:port` or `neo4j://host:port`.
    pub uri: String,
    pub user: String,
    pub password: String,
    pub query_timeout: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum Neo4jError {
    #[error("Neo4j at {uri} did not answer within {millis} ms")]
    Timeout { uri: String, millis: u128 },
    #[error("Neo4j at {uri}: {reason}")]
    Failed { uri: String, reason: String },
    #[error("Neo4j at {uri} returned unexpected data: {reason}")]
    Unexpected { uri: String, reason: String },
}

impl Neo4jError {
    /// The database refused a schema statement because an equivalent index exists.
    pub fn is_already_exists(&self) -> bool {
        let Self::Failed { reason, .. } = self else {
            return false;
        };
        let reason = reason.to_lowercase();
        reason.contains("alreadyexists") || reason.contains("already exists")
    }
}

pub struct Neo4jClient {
    /// Always `Some` until dropped; taken to shut it down without blocking.
    runtime: Option<tokio::runtime::Runtime>,
    graph: Graph,
    uri: String,
    timeout: Duration,
}

const WORKER_THREADS: usize = 2;
const MAX_CONNECTIONS: usize = 8;

impl Neo4jClient {
    /// A client for `config`. Connections are opened on first use (and reopened after the
    /// database comes back), so this succeeds while the database is down.
    pub fn new(config: &Neo4jConfig) -> Result<Self, Neo4jError> {
        let failed = |reason: String| Neo4jError::Failed {
            uri: config.uri.clone(),
            reason,
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(WORKER_THREADS)
            .thread_name("neo4j-client")
            .enable_all()
            .build()
            .map_err(|e| failed(format!("starting the client runtime: {e}")))?;
        let neo4rs_config = ConfigBuilder::default()
            .uri(config.uri.as_str())
            .user(config.user.as_str())
            .password(config.password.as_str())
            .max_connections(MAX_CONNECTIONS)
            .connection_timeout(config.query_timeout)
            .build()
            .map_err(|e| failed(e.to_string()))?;
        let entered = runtime.enter();
        let graph = Graph::connect(neo4rs_config).map_err(|e| failed(e.to_string()))?;
        drop(entered);
        Ok(Self {
            runtime: Some(runtime),
            graph,
            uri: config.uri.clone(),
            timeout: config.query_timeout,
        })
    }

    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Runs a statement, discarding any result.
    pub fn run(&self, statement: Query) -> Result<(), Neo4jError> {
        self.call(|graph| async move { graph.run(statement).await.map(drop) })
    }

    /// Runs a query and returns all its rows.
    pub fn rows(&self, statement: Query) -> Result<Vec<Row>, Neo4jError> {
        self.call(|graph| async move {
            let mut stream = graph.execute(statement).await?;
            let mut rows = Vec::new();
            while let Some(row) = stream.next().await? {
                rows.push(row);
            }
            Ok(rows)
        })
    }

    /// An error for a row that lacks a column or has the wrong type in it.
    pub(super) fn unexpected(&self, reason: impl std::fmt::Display) -> Neo4jError {
        Neo4jError::Unexpected {
            uri: self.uri.clone(),
            reason: reason.to_string(),
        }
    }

    /// Runs `work` on the client's runtime under the query timeout and waits for it.
    fn call<T, F, Fut>(&self, work: F) -> Result<T, Neo4jError>
    where
        F: FnOnce(Graph) -> Fut,
        Fut: Future<Output = Result<T, neo4rs::Error>> + Send + 'static,
        T: Send + 'static,
    {
        let (sender, receiver) = mpsc::sync_channel(1);
        let future = work(self.graph.clone());
        let limit = self.timeout;
        let runtime = self.runtime.as_ref().expect("runtime lives until drop");
        runtime.spawn(async move {
            let outcome = tokio::time::timeout(limit, future).await;
            let _ = sender.send(outcome);
        });
        match receiver.recv() {
            Ok(Ok(Ok(value))) => Ok(value),
            Ok(Ok(Err(error))) => Err(Neo4jError::Failed {
                uri: self.uri.clone(),
                reason: error.to_string(),
            }),
            Ok(Err(_elapsed)) => Err(Neo4jError::Timeout {
                uri: self.uri.clone(),
                millis: limit.as_millis(),
            }),
            Err(_) => Err(Neo4jError::Failed {
                uri: self.uri.clone(),
                reason: "the query task stopped".to_owned(),
            }),
        }
    }
}

impl Drop for Neo4jClient {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(reason: &str) -> Neo4jError {
        Neo4jError::Failed {
            uri: "bolt://x".into(),
            reason: reason.into(),
        }
    }

    #[test]
    fn only_an_existing_index_counts_as_already_there() {
        let neo4j = "Neo4j error `Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists`: \
                     An equivalent index already exists";
        assert!(failed(neo4j).is_already_exists());
        assert!(
            !failed("Neo4j error `Neo.ClientError.Statement.SyntaxError`: x").is_already_exists()
        );
        let timeout = Neo4jError::Timeout {
            uri: "bolt://x".into(),
            millis: 5,
        };
        assert!(!timeout.is_already_exists());
    }
}
