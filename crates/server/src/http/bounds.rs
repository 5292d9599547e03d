//! Bounds on one request, checked before routing: the length of the request target, the
//! number and size of headers, and the time the whole request may take. Each refusal is an
//! `ApiError`; connection-level limits (header read, idle, cap) live in `server`.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// Longest request target (path and query) read, in bytes: 414 above it.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// Most request headers read: 431 above it.
pub const MAX_HEADERS: usize = 100;
/// Largest sum of header name and value lengths read, in bytes: 431 above it.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;
/// hyper's own header count limit, set above ours so that our envelope answers first (hyper
/// answers an empty 431 beyond it). hyper allocates a table this long for every request, so
/// it is no larger than that needs (at 4× it was ~3 % of a verify's CPU).
pub const HYPER_MAX_HEADERS: usize = 2 * MAX_HEADERS;

/// Refuses over-long targets and oversized headers, then runs the request under `timeout`.
pub async fn bounded(State(timeout): State<Duration>, request: Request, next: Next) -> Response {
    if let Err(refused) = check_head(&request) {
        return refused.into_response();
    }
    match tokio::time::timeout(timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout(timeout.as_secs()).into_response(),
    }
}

fn check_head(request: &Request) -> Result<(), ApiError> {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if target > MAX_URI_BYTES {
        return Err(ApiError::UriTooLong);
    }
    let headers = request.headers();
    let bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if headers.len() > MAX_HEADERS || bytes > MAX_HEADER_BYTES {
        return Err(ApiError::HeadersTooLarge);
    }
    Ok(())
}
