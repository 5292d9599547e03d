//! `GET /health`: up and able to read its index (none of whose blocks failed its check).
//! No key, no envelope on success (§4.3).

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::http::{ApiError, AppState};

/// `Health` as the wire has it, written once rather than serialised per request.
const RUNNING_FINE: &str = r#"{"msg":"running fine"}"#;

#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    /// `running fine`
    msg: &'static str,
}

#[utoipa::path(get, path = "/health", tag = "health",
    responses(
        (status = 200, description = "The service is up", body = Health),
        (status = 500, description = "The index cannot be read", body = crate::http::ErrorEnvelope),
    ))]
pub async fn health(State(state): State<AppState>) -> Result<Response, ApiError> {
    let live = state.engine.index.current();
    if let Some(failure) = live.snapshot.failure() {
        return Err(ApiError::Internal(format!(
            "a block of the live index failed its check: {failure}"
        )));
    }
    if live.snapshot.segment_count() == 0 {
        return Err(ApiError::Internal(
            "the live index holds no segments".into(),
        ));
    }
    let json = HeaderValue::from_static("application/json");
    Ok(([(header::CONTENT_TYPE, json)], RUNNING_FINE).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_body_is_the_health_schema_serialised() {
        let health = Health {
            msg: "running fine",
        };
        assert_eq!(serde_json::to_string(&health).unwrap(), RUNNING_FINE);
    }
}
