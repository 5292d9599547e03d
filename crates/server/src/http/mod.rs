//! HTTP adapter: axum routes over the engine. Turns requests into domain values, calls the
//! engine, and shapes the spec's envelopes. No search, storage or key logic lives here.

mod access;
mod activity;
mod app;
mod body;
mod bounds;
mod console;
mod dispatch;
mod error;
mod failure;
mod limits;
mod mcp;
mod metering;
mod metrics;
mod metrics_export;
mod observe;
mod openapi;
mod route_table;
mod routes;
mod server;
mod state;
mod verify_bodies;

pub use app::{router, serve, serve_with};
pub use error::{ApiError, ErrorEnvelope};
pub use limits::{RateLimitConfig, DEFAULT_AUTH_FAILURES_PER_MINUTE};
pub use observe::{ACCESS_LOG_TARGET, REQUEST_ID};
pub use server::ConnectionBounds;
pub use state::{AppState, ConsoleSettings, API_KEY_HEADER, MAX_BODY_BYTES};
