//! Builds a server from its configuration: opens the engine on the chosen graph backend, wires
//! keys and rate limits into the HTTP state, binds the listener and serves. `drugcite serve`
//! and the integration tests both start servers through here. No request handling here.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::embed::Embedder;
use crate::engine::{Engine, GraphBackend};
use crate::http::{self, AppState, ConnectionBounds, RateLimitConfig};
use crate::keys::KeyRing;
use crate::store::{DataDir, StoreError};

/// Everything a server is started with.
pub struct ServeConfig {
    pub data_dir: DataDir,
    /// The question encoder; `None` serves lexical search only.
    pub embedder: Option<Arc<Embedder>>,
    pub backend: GraphBackend,
    pub limits: RateLimitConfig,
    /// Failed authentications per minute one client address may make (then 429).
    pub auth_failures_per_minute: NonZeroU32,
    /// Timeouts, the connection cap and the shutdown grace period.
    pub connections: ConnectionBounds,
}

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("binding {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
}

/// A server whose index is open and whose listener is bound, not yet serving.
pub struct Server {
    listener: TcpListener,
    state: AppState,
    connections: ConnectionBounds,
}

impl Server {
    /// Opens the live index (and on Neo4j, tries to load its graph: a database that is down
    /// now is retried on each /v1/graph) and binds `addr` (port 0 picks a free one).
    pub async fn start(config: ServeConfig, addr: SocketAddr) -> Result<Self, StartupError> {
        let keys = KeyRing::new(config.data_dir.keys_path());
        let engine = open_engine(config.data_dir, config.embedder, config.backend)?;
        let state = AppState::new(Arc::new(engine), keys, config.limits)
            .with_auth_failures_per_minute(config.auth_failures_per_minute);
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| StartupError::Bind { addr, source })?;
        Ok(Self {
            listener,
            state,
            connections: config.connections,
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until Ctrl-C / SIGTERM, then drains within the shutdown grace period.
    pub async fn run(self) -> std::io::Result<()> {
        http::serve_with(self.listener, self.state, self.connections).await
    }
}

fn open_engine(
    data_dir: DataDir,
    embedder: Option<Arc<Embedder>>,
    backend: GraphBackend,
) -> Result<Engine, StoreError> {
    let on_neo4j = matches!(backend, GraphBackend::Neo4j(_));
    let engine = Engine::open_with(data_dir, embedder, backend)?;
    if on_neo4j {
        if let Err(e) = engine.graph.reasoner() {
            tracing::warn!(
                "loading the knowledge graph from Neo4j: {e}; retried on each /v1/graph"
            );
        }
    }
    let (graph_nodes, graph_relationships) = engine.graph.size();
    tracing::info!(
        segments = engine.index.segment_count(),
        semantic = engine.searcher.is_semantic(),
        graph_nodes,
        graph_relationships,
        generation = %engine.index.generation().display(),
        "index loaded"
    );
    Ok(engine)
}
