//! HTTP adapter: axum routes over the engine. Turns requests into domain values, calls the
//! engine, and shapes the spec's envelopes. No search, storage or key logic lives here.

mod access;
mod activity;
mod body;
mod bounds;
mod console;
mod error;
mod limits;
mod mcp;
mod metering;
mod metrics;
mod metrics_export;
mod observe;
mod openapi;
mod routes;
mod server;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::middleware::from_fn_with_state;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;

pub use console::Settings as ConsoleSettings;
pub use error::{ApiError, ErrorEnvelope};
pub use limits::{RateLimitConfig, DEFAULT_AUTH_FAILURES_PER_MINUTE};
pub use observe::{ACCESS_LOG_TARGET, REQUEST_ID};
pub use server::ConnectionBounds;

use drugcite_accounts::Accounts;
use drugcite_engine::engine::{Engine, EngineError};
use limits::RateLimits;
use metrics::{HttpMetrics, Neo4jFailure};
use observe::ObserveLayer;

/// Largest request body accepted; a question is at most 2,000 characters.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// How often the server looks for a newly published index generation.
const RELOAD_EVERY: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct AppState {
    engine: Arc<Engine>,
    accounts: Arc<Accounts>,
    limits: Arc<RateLimits>,
    limit_config: RateLimitConfig,
    /// The web console's settings when it is served.
    console: Option<ConsoleSettings>,
    metrics: Arc<HttpMetrics>,
}

impl AppState {
    pub fn new(engine: Arc<Engine>, accounts: Arc<Accounts>, limits: RateLimitConfig) -> Self {
        Self {
            engine,
            accounts,
            limits: Arc::new(RateLimits::new(limits, DEFAULT_AUTH_FAILURES_PER_MINUTE)),
            limit_config: limits,
            console: None,
            metrics: Arc::new(HttpMetrics::default()),
        }
    }

    /// The router of the metrics listener (`GET /metrics`), over this state's counters.
    pub fn metrics_router(&self) -> Router {
        metrics_export::router(metrics_export::Scrape::new(
            Arc::clone(&self.engine),
            Arc::clone(&self.metrics),
        ))
    }

    /// Serves the web console under `/console`.
    pub fn with_console(mut self, settings: ConsoleSettings) -> Self {
        self.console = Some(settings);
        self
    }

    /// Failed authentications per minute one client address may make before its keyed
    /// requests get 429 (default `DEFAULT_AUTH_FAILURES_PER_MINUTE`).
    pub fn with_auth_failures_per_minute(mut self, per_minute: NonZeroU32) -> Self {
        self.limits = Arc::new(RateLimits::new(self.limit_config, per_minute));
        self
    }
}

/// The routes behind the request bounds (target and header sizes, `request_timeout`), each
/// request observed (id, metrics, access log) outside them.
pub fn router(state: AppState, request_timeout: Duration) -> Router {
    let observe = ObserveLayer::new(Arc::clone(&state.metrics));
    let console = match state.console {
        Some(_) => console::routes(),
        None => Router::new(),
    };
    Router::new()
        .route("/v1/search", post(routes::search::search))
        .route("/v1/graph", post(routes::graph::graph))
        .route("/v1/verify/quote", post(routes::quote::check_quote))
        .route("/v1/verify/{fingerprint}", get(routes::verify::verify))
        .route("/v1/labels/{set_id}", get(routes::labels::label))
        .route_layer(from_fn_with_state(state.clone(), metering::refund_failures))
        .route("/health", get(routes::health::health))
        .route("/openapi.json", get(openapi::document))
        .merge(console)
        .merge(mcp::routes(&state))
        .fallback(|| async { ApiError::NotFound })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::Internal("a request handler panicked".into()).into_response()
        }))
        .with_state(state)
        .layer(from_fn_with_state(request_timeout, bounds::bounded))
        .layer(observe)
}

/// `serve_with` the default bounds (see `ConnectionBounds`).
pub async fn serve(listener: TcpListener, state: AppState) -> std::io::Result<()> {
    serve_with(listener, state, ConnectionBounds::default()).await
}

/// Serves until Ctrl-C / SIGTERM, picking up newly published index generations as they land;
/// then drains connections within `config.shutdown_grace` and returns.
pub async fn serve_with(
    listener: TcpListener,
    state: AppState,
    config: ConnectionBounds,
) -> std::io::Result<()> {
    let maintenance = tokio::spawn(maintain(state.clone()));
    let app = router(state, config.request_timeout);
    server::run(listener, app, config, shutdown_signal()).await;
    maintenance.abort();
    Ok(())
}

async fn maintain(state: AppState) {
    let mut ticks = tokio::time::interval(RELOAD_EVERY);
    loop {
        ticks.tick().await;
        state.limits.forget_idle();
        state.accounts.forget_idle();
        let engine = Arc::clone(&state.engine);
        match tokio::task::spawn_blocking(move || engine.refresh()).await {
            Ok(Ok(true)) => {
                tracing::info!(generation = %state.engine.index.generation().display(), "serving a new index generation")
            }
            Ok(Ok(false)) => {}
            Ok(Err(EngineError::GraphStore(e))) => {
                state.metrics.count_neo4j_error(Neo4jFailure::SyncWatch);
                tracing::warn!("cannot ask Neo4j for a newer sync: {e}")
            }
            Ok(Err(e)) => tracing::error!("keeping the current index: {e}"),
            Err(e) => tracing::error!("index reload task failed: {e}"),
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
