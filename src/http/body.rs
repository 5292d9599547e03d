//! `JsonBody<T>`: a request body parsed as JSON whatever its Content-Type (curl -d sends
//! form-encoded), with every failure — too large, unreadable, malformed, wrong types — a 400.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use super::ApiError;

pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::BadRequest(format!("request body: {e}")))
    }
}
