//! `GET /health`: up and able to read its index (none of whose blocks failed its check).
//! No key, no envelope on success (§4.3).

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use crate::http::{ApiError, AppState};

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
pub async fn health(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
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
    Ok(Json(Health {
        msg: "running fine",
    }))
}
