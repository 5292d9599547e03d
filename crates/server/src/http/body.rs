//! `JsonBody<T>`: a request body read as one JSON object whatever its Content-Type (curl -d
//! sends form-encoded), then taken apart field by field into `T`. Every failure is a 400 whose
//! detail names the field or the JSON error, never a Rust type.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde_json::{Map, Value};

use super::{ApiError, MAX_BODY_BYTES};

/// A request body type built from the fields of a JSON object.
pub trait FromFields: Sized {
    fn from_fields(fields: Fields) -> Result<Self, ApiError>;
}

pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: FromFields> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                ApiError::BadRequest(if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    format!("request body is larger than {MAX_BODY_BYTES} bytes")
                } else {
                    "request body could not be read".to_owned()
                })
            })?;
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|e| ApiError::BadRequest(format!("request body is not valid JSON: {e}")))?;
        match value {
            Value::Object(fields) => T::from_fields(Fields(fields)).map(JsonBody),
            _ => Err(ApiError::BadRequest(
                "request body must be a JSON object".into(),
            )),
        }
    }
}

/// The fields of a request object; unknown fields are ignored, `null` is the same as absent.
pub struct Fields(Map<String, Value>);

impl Fields {
    /// A string field.
    pub fn text(&mut self, name: &str) -> Result<Option<String>, ApiError> {
        match self.0.remove(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(_) => Err(ApiError::BadRequest(format!("{name} must be a string"))),
        }
    }

    /// An integer field (a number with no fractional part, as JSON Schema counts integers).
    pub fn integer(&mut self, name: &str) -> Result<Option<i64>, ApiError> {
        let not_integer = || ApiError::BadRequest(format!("{name} must be an integer"));
        match self.0.remove(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(number)) => number
                .as_i64()
                .or_else(|| whole(number.as_f64()?))
                .map(Some)
                .ok_or_else(not_integer),
            Some(_) => Err(not_integer()),
        }
    }
}

/// `5.0` as 5; fractions and values beyond ±2^53 are not integers here.
fn whole(number: f64) -> Option<i64> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    (number.fract() == 0.0 && number.abs() <= EXACT).then_some(number as i64)
}
