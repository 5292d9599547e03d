//! `GET /v1/labels/{set_id}` (additive): a label's versions, links and per-version changes,
//! from the live generation's history. Same access as verify; an unknown set id is a 404.

use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::Json;

use super::wire::{blocking, Envelope};
use crate::http::access::{Access, VerifyAccess};
use crate::http::{ApiError, AppState};
use drugcite_core::domain::{InvalidInput, SetId};
use drugcite_engine::history::{label_history, LabelHistoryView};

/// The path's set id, parsed; anything else is a 400.
pub struct SetIdParam(SetId);

impl<S: Send + Sync> FromRequestParts<S> for SetIdParam {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| InvalidInput::SetId)?;
        Ok(Self(SetId::parse(&raw)?))
    }
}

#[utoipa::path(get, path = "/v1/labels/{set_id}", tag = "labels",
    params(("set_id" = String, Path, description = "The label's SPL set id (a UUID, any case)", min_length = 36, max_length = 36, pattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")),
    security((), ("api_key" = [])),
    responses(
        (status = 200, description = "The label's versions, newest first, with what changed in each", body = Envelope<LabelHistoryView>),
        (status = 400, description = "Malformed set id", body = crate::http::ErrorEnvelope),
        (status = 401, description = "A key was sent and is invalid or revoked", body = crate::http::ErrorEnvelope),
        (status = 403, description = "The key sent lacks scope `verify`", body = crate::http::ErrorEnvelope),
        (status = 404, description = "No label with this set id was ever ingested", body = crate::http::ErrorEnvelope),
        (status = 429, description = "Rate limit exceeded; see Retry-After", body = crate::http::ErrorEnvelope),
        (status = 500, description = "Server error", body = crate::http::ErrorEnvelope),
    ))]
pub async fn label(
    _access: Access<VerifyAccess>,
    State(state): State<AppState>,
    SetIdParam(set_id): SetIdParam,
) -> Result<Json<Envelope<LabelHistoryView>>, ApiError> {
    let engine = state.engine.clone();
    let history = blocking(move || {
        let live = engine.index.current();
        Ok::<_, ApiError>(label_history(&live.snapshot, &set_id))
    })
    .await?;
    history
        .map(|view| Json(Envelope::ok(view)))
        .ok_or(ApiError::NotFound)
}
