//! The application: the router over every route behind the request layers, and serving it
//! until a shutdown signal while the index generation and the limits are kept fresh.

use std::sync::Arc;
use std::time::Duration;

use axum::routing::{get, post};
use tokio::net::TcpListener;
use tower::layer::layer_fn;
use tower::ServiceBuilder;

use super::bounds::Bounded;
use super::dispatch::Dispatch;
use super::error::ApiError;
use super::metering::RefundFailures;
use super::metrics::Neo4jFailure;
use super::observe::ObserveLayer;
use super::route_table::Routes;
use super::server::{self, App, ConnectionBounds};
use super::state::{AppState, MAX_BODY_BYTES};
use super::{console, mcp, openapi, routes};
use drugcite_engine::engine::EngineError;

/// How often the server looks for a newly published index generation.
const RELOAD_EVERY: Duration = Duration::from_secs(5);

/// The routes, and around them once, outermost first: the request observed (id, metrics,
/// access log), its bounds (target, header and body sizes, `request_timeout`, a panic answered
/// as a 500), a failed keyed request's charge refunded; innermost, a GET of a direct route
/// (`/health`, verify) given to its handler, any other request to axum's router. The layers
/// wrap the router as a whole rather than each route (axum's `Router::layer`), which would box
/// every route once per layer and cost allocations on every request.
pub fn router(state: AppState, request_timeout: Duration) -> impl App {
    let console = match state.console {
        Some(_) => console::routes(),
        None => Routes::new(),
    };
    let routes = Routes::new()
        .route("/v1/search", post(routes::search::search))
        .route("/v1/graph", post(routes::graph::graph))
        .route("/v1/verify/quote", post(routes::quote::check_quote))
        .direct_get("/v1/verify/{fingerprint}", routes::verify::verify)
        .route("/v1/labels/{set_id}", get(routes::labels::label))
        .direct_get("/health", routes::health::health)
        .route("/openapi.json", get(openapi::document))
        .merge(console)
        .merge(mcp::routes(&state));
    let (router, route_table) = routes.finish(&state.metrics);
    let directs = route_table.directs();
    let router = router
        .fallback(|| async { ApiError::NotFound })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .with_state(state.clone());
    ServiceBuilder::new()
        .layer(ObserveLayer::new(Arc::clone(&state.metrics), route_table))
        .layer(layer_fn(move |inner| {
            Bounded::new(inner, request_timeout, MAX_BODY_BYTES)
        }))
        .layer(layer_fn(|inner| {
            RefundFailures::new(inner, Arc::clone(&state.accounts))
        }))
        .service(Dispatch::new(router, state.clone(), directs))
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
