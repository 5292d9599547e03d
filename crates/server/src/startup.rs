//! Builds a server from its configuration: opens the engine on the chosen graph backend and
//! the accounts database (migrating a legacy `keys.json`), wires them and the rate limits into
//! the HTTP state, binds the listener and serves. `drugcite serve` and the integration tests
//! both start servers through here. No request handling here.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::http::{self, AppState, ConnectionBounds, ConsoleSettings, RateLimitConfig};
use crate::mail::{MailError, MailSettings, Mailer};
use drugcite_accounts::{AccountError, Accounts, Credit, Database, Onboarding, Policy};
use drugcite_engine::embed::Embedder;
use drugcite_engine::engine::{Engine, GraphBackend};
use drugcite_store::{DataDir, StoreError};

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
    pub accounts: AccountsConfig,
    /// Where `GET /metrics` is served (a private address: it takes no key); `None`: nowhere.
    pub metrics_addr: Option<SocketAddr>,
}

/// The accounts database, the billing policy and the web console.
#[derive(Clone, Debug)]
pub struct AccountsConfig {
    /// `postgres://…` so several servers share accounts, keys and credit; `None`: SQLite in
    /// the data dir.
    pub database_url: Option<String>,
    pub policy: Policy,
    /// Serve the web console under `/console`.
    pub console: bool,
    /// Mark console cookies `Secure` (serve behind TLS).
    pub secure_cookies: bool,
    /// Sign-up throttles, mailed links' lifetimes, password strength.
    pub onboarding: Onboarding,
    /// How the console's mail is sent; the console needs some.
    pub mail: MailSettings,
    /// Base of mailed links and snippets; `None`: `http://` and the bound address.
    pub public_url: Option<String>,
    /// Below this credit the console warns (default `DEFAULT_LOW_CREDIT`).
    pub low_credit: Credit,
}

/// The console's low-credit warning starts below USD 0.50 unless configured.
pub const DEFAULT_LOW_CREDIT: Credit = Credit::from_micros(500_000);

impl Default for AccountsConfig {
    fn default() -> Self {
        Self {
            database_url: None,
            policy: Policy::default(),
            console: false,
            secure_cookies: false,
            onboarding: Onboarding::default(),
            mail: MailSettings::default(),
            public_url: None,
            low_credit: DEFAULT_LOW_CREDIT,
        }
    }
}

impl AccountsConfig {
    /// Opens (and migrates) the accounts database this configuration names.
    pub async fn open(&self, data_dir: &DataDir) -> Result<Accounts, AccountError> {
        let database = Database::choose(self.database_url.as_deref(), data_dir.root())?;
        Ok(Accounts::open(&database, self.policy)
            .await?
            .with_onboarding(self.onboarding))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Accounts(#[from] AccountError),
    #[error(transparent)]
    Mail(#[from] MailError),
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
    metrics_listener: Option<TcpListener>,
    state: AppState,
    connections: ConnectionBounds,
}

impl Server {
    /// Opens the live index (and on Neo4j, tries to load its graph: a database that is down
    /// now is retried on each /v1/graph) and binds `addr` (port 0 picks a free one).
    pub async fn start(config: ServeConfig, addr: SocketAddr) -> Result<Self, StartupError> {
        let keys_path = config.data_dir.keys_path();
        let accounts_dir = config.data_dir.clone();
        let engine = open_engine(config.data_dir, config.embedder, config.backend)?;
        let accounts = config.accounts.open(&accounts_dir).await?;
        let moved = accounts.migrate_key_file(&keys_path).await?;
        if moved > 0 {
            tracing::info!("moved {moved} keys from keys.json to the operator account");
        }
        let mut state = AppState::new(Arc::new(engine), Arc::new(accounts), config.limits)
            .with_auth_failures_per_minute(config.auth_failures_per_minute);
        let listener = bind(addr).await?;
        if config.accounts.console {
            let public_url = match config.accounts.public_url {
                Some(url) => url.trim_end_matches('/').to_owned(),
                None => format!("http://{}", local_addr(&listener, addr)),
            };
            state = state.with_console(ConsoleSettings {
                secure_cookies: config.accounts.secure_cookies,
                public_url,
                low_credit: config.accounts.low_credit,
                mailer: Mailer::new(&config.accounts.mail)?,
            });
        }
        let metrics_listener = match config.metrics_addr {
            Some(addr) => Some(bind(addr).await?),
            None => None,
        };
        Ok(Self {
            listener,
            metrics_listener,
            state,
            connections: config.connections,
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Where `/metrics` is served, if anywhere.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_listener
            .as_ref()
            .and_then(|listener| listener.local_addr().ok())
    }

    /// Serves until Ctrl-C / SIGTERM, then drains within the shutdown grace period; the
    /// metrics listener stops with it.
    /// Keeps the accounts' background work (key revision poll, usage writes) running while
    /// it serves; at the end writes the last usage and returns its credit leases.
    pub async fn run(self) -> std::io::Result<()> {
        let metrics = self.metrics_listener.map(|listener| {
            let router = self.state.metrics_router();
            tokio::spawn(async move { axum::serve(listener, router).await })
        });
        let accounts = self.state.accounts();
        let upkeep = tokio::spawn(Arc::clone(&accounts).run_upkeep());
        let served = http::serve_with(self.listener, self.state, self.connections).await;
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        upkeep.abort();
        if let Err(e) = accounts.close().await {
            tracing::error!("writing the last usage and returning credit leases: {e}");
        }
        served
    }
}

fn local_addr(listener: &TcpListener, asked: SocketAddr) -> SocketAddr {
    listener.local_addr().unwrap_or(asked)
}

async fn bind(addr: SocketAddr) -> Result<TcpListener, StartupError> {
    TcpListener::bind(addr)
        .await
        .map_err(|source| StartupError::Bind { addr, source })
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
