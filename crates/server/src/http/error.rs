//! The HTTP boundary's one error type and the only place the spec's error envelopes (§2.2,
//! §7) are produced. Every failure a handler, extractor or request bound can meet maps to one
//! variant; nothing else in the server writes an error body.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use super::failure::{Failure, Refusal};
use drugcite_accounts::AccountError;
use drugcite_core::domain::InvalidInput;
use drugcite_engine::engine::EngineError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("invalid data: {0}")]
    BadRequest(String),
    #[error("unauthorized request")]
    Unauthorized,
    #[error("forbidden")]
    Forbidden,
    #[error("resource not found")]
    NotFound,
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The request target is longer than the server reads (see `bounds`).
    #[error("uri too long")]
    UriTooLong,
    /// More or larger request headers than the server reads (see `bounds`).
    #[error("request headers too large")]
    HeadersTooLarge,
    #[error("api limit exceeded")]
    RateLimited { retry_after_secs: u64 },
    /// The key's account has no credit left for this request (no Retry-After: waiting
    /// does not help; the operator grants more).
    #[error("credit exhausted")]
    CreditExhausted,
    #[error("internal server error: {0}")]
    Internal(String),
    /// A backing store (Neo4j) failed or timed out: the spec's 500 ("server error or
    /// temporary unavailability"), with a Retry-After.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// The request did not complete within the request timeout (slow body or slow answer):
    /// the spec's 500 for temporary unavailability, with a Retry-After.
    #[error("request timed out after {0} s")]
    Timeout(u64),
}

/// Seconds a client is asked to wait after a store was unavailable or a request timed out.
const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 5;

/// §2.2 error envelope. `detail` is an addition of ours on 400s saying what was wrong.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorEnvelope {
    /// Always 0.
    status: i32,
    #[serde(rename = "errorCode")]
    error_code: &'static str,
    msg: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
}

impl From<InvalidInput> for ApiError {
    fn from(invalid: InvalidInput) -> Self {
        Self::BadRequest(invalid.to_string())
    }
}

impl From<drugcite_engine::quote::QuoteInputError> for ApiError {
    fn from(invalid: drugcite_engine::quote::QuoteInputError) -> Self {
        Self::BadRequest(invalid.to_string())
    }
}

impl From<EngineError> for ApiError {
    fn from(error: EngineError) -> Self {
        match error {
            EngineError::GraphStore(e) => Self::Unavailable(e.to_string()),
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<AccountError> for ApiError {
    fn from(error: AccountError) -> Self {
        match error {
            AccountError::CreditExhausted => Self::CreditExhausted,
            other => Self::Internal(other.to_string()),
        }
    }
}

impl ApiError {
    fn parts(&self) -> (StatusCode, &'static str, &'static str) {
        match self {
            Self::BadRequest(_) => (StatusCode::BAD_REQUEST, "", "invalid data"),
            Self::Unauthorized => (
                StatusCode::UNAUTHORIZED,
                "NotAuthorizedException",
                "unauthorized request",
            ),
            Self::Forbidden => (StatusCode::FORBIDDEN, "AccessDeniedException", "forbidden"),
            Self::NotFound => (StatusCode::NOT_FOUND, "", "resource not found"),
            Self::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "", "method not allowed"),
            Self::UriTooLong => (StatusCode::URI_TOO_LONG, "", "uri too long"),
            Self::HeadersTooLarge => (
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "",
                "request headers too large",
            ),
            Self::RateLimited { .. } => (
                StatusCode::TOO_MANY_REQUESTS,
                "LimitExceededError",
                "api limit exceeded",
            ),
            Self::CreditExhausted => (
                StatusCode::TOO_MANY_REQUESTS,
                "LimitExceededError",
                "credit exhausted",
            ),
            Self::Internal(_) | Self::Unavailable(_) | Self::Timeout(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "",
                "internal server error",
            ),
        }
    }
}

impl ApiError {
    fn failure(&self) -> Failure {
        match self {
            Self::RateLimited { .. } => Failure::Refused(Refusal::RateLimited),
            Self::CreditExhausted => Failure::Refused(Refusal::CreditExhausted),
            Self::Unauthorized => Failure::Refused(Refusal::Unauthorized),
            Self::Forbidden => Failure::Refused(Refusal::Forbidden),
            Self::Unavailable(_) => Failure::StoreUnavailable,
            _ => Failure::Other,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, error_code, msg) = self.parts();
        let failure = self.failure();
        let detail = match &self {
            Self::BadRequest(reason) => Some(reason.clone()),
            Self::CreditExhausted => Some(
                "the credit of this key's account is spent; the operator can grant more".into(),
            ),
            Self::Internal(reason) | Self::Unavailable(reason) => {
                tracing::error!("{reason}");
                None
            }
            Self::Timeout(_) => {
                tracing::warn!("{self}");
                None
            }
            _ => None,
        };
        let envelope = ErrorEnvelope {
            status: 0,
            error_code,
            msg,
            detail,
        };
        let mut response = (status, Json(envelope)).into_response();
        response.extensions_mut().insert(failure);
        let retry_after = match self {
            Self::RateLimited { retry_after_secs } => Some(retry_after_secs),
            Self::Unavailable(_) | Self::Timeout(_) => Some(UNAVAILABLE_RETRY_AFTER_SECS),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
