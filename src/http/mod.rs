//! HTTP adapter: axum routes over the engine. Turns requests into domain values, calls the
//! engine, and shapes the spec's envelopes. No search, storage or key logic lives here.

mod access;
mod body;
mod error;
mod limits;
mod openapi;
mod routes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::TraceLayer;

pub use error::{ApiError, ErrorEnvelope};
pub use limits::RateLimitConfig;

use crate::engine::{Engine, EngineError};
use crate::keys::KeyRing;
use limits::RateLimits;

/// Largest request body accepted; a question is at most 2,000 characters.
const MAX_BODY_BYTES: usize = 64 * 1024;
/// How often the server looks for a newly published index generation.
const RELOAD_EVERY: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct AppState {
    engine: Arc<Engine>,
    keys: Arc<KeyRing>,
    limits: Arc<RateLimits>,
}

impl AppState {
    pub fn new(engine: Arc<Engine>, keys: KeyRing, limits: RateLimitConfig) -> Self {
        Self {
            engine,
            keys: Arc::new(keys),
            limits: Arc::new(RateLimits::new(limits)),
        }
    }
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/health", get(routes::health::health))
        .route("/v1/search", post(routes::search::search))
        .route("/v1/graph", post(routes::graph::graph))
        .route("/v1/verify/{fingerprint}", get(routes::verify::verify))
        .route("/openapi.json", get(openapi::document))
        .fallback(|| async { ApiError::NotFound })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::Internal("a request handler panicked".into()).into_response()
        }))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Serves until Ctrl-C / SIGTERM, picking up newly published index generations as they land.
pub async fn serve(listener: TcpListener, state: AppState) -> std::io::Result<()> {
    tokio::spawn(maintain(state.clone()));
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await
}

async fn maintain(state: AppState) {
    let mut ticks = tokio::time::interval(RELOAD_EVERY);
    loop {
        ticks.tick().await;
        state.limits.forget_idle();
        let engine = Arc::clone(&state.engine);
        match tokio::task::spawn_blocking(move || engine.refresh()).await {
            Ok(Ok(true)) => {
                tracing::info!(generation = %state.engine.index.generation().display(), "serving a new index generation")
            }
            Ok(Ok(false)) => {}
            Ok(Err(EngineError::GraphStore(e))) => {
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
