//! The wire shapes every route answers with (the success envelope, a label segment with its
//! drug and source, the other labels holding a text) and how an answer leaves: sized JSON, and
//! engine work run off the async threads. Shapes only; no route logic.

use axum::body::Bytes;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use drugcite_core::label::{dailymed_url, section_name, Drug};
use drugcite_engine::search::collapse;
use drugcite_store::StoredSegment;

/// §2.1 success envelope.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Envelope<T> {
    /// Always 1.
    pub status: i32,
    pub msg: &'static str,
    pub data: T,
}

impl<T> Envelope<T> {
    pub fn ok(data: T) -> Self {
        Self {
            status: 1,
            msg: "operation successful",
            data,
        }
    }
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct Source {
    /// Public DailyMed record of the label's set id.
    pub url: String,
}

/// A label segment as every response shows it (§2.3).
#[derive(Serialize, utoipa::ToSchema)]
pub struct LabelSegment {
    /// Exact text of the official label section.
    pub text: String,
    /// 128 characters of 0/1; resolve it with /v1/verify.
    pub fingerprint: String,
    pub drug: Drug,
    pub section: String,
    pub source: Source,
}

impl From<&StoredSegment> for LabelSegment {
    fn from(segment: &StoredSegment) -> Self {
        Self {
            text: segment.text.clone(),
            fingerprint: segment.fingerprint.to_string(),
            drug: segment.label.drug.clone(),
            section: section_name(&segment.section_key).into_owned(),
            source: Source {
                url: dailymed_url(&segment.label.set_id),
            },
        }
    }
}

/// Ours, additive: other labels (repackagers, other labelers) holding exactly this text, each
/// with its own fingerprint. Present only when there are any.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AlsoIn {
    /// Every other label holding the text (only the first 10 are listed).
    pub count: usize,
    /// The first of them, best-ranked first.
    pub labels: Vec<AlsoInLabel>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct AlsoInLabel {
    pub set_id: String,
    pub manufacturer: String,
    /// 128 characters of 0/1 (that label's copy); resolves with /v1/verify.
    pub fingerprint: String,
    pub section: String,
}

impl AlsoIn {
    /// `None` when the text has no other copies.
    pub fn shown(also_in: &collapse::AlsoIn) -> Option<Self> {
        (also_in.count > 0).then(|| Self {
            count: also_in.count,
            labels: also_in
                .labels
                .iter()
                .map(|copy| AlsoInLabel {
                    set_id: copy.set_id.clone(),
                    manufacturer: copy.manufacturer.clone(),
                    fingerprint: copy.fingerprint.to_string(),
                    section: section_name(&copy.section_key).into_owned(),
                })
                .collect(),
        })
    }
}

/// A JSON answer serialised into a buffer of `capacity` bytes from the start: axum's `Json`
/// starts at 128 bytes and doubles, copying a verify answer (~1.7 KB) four times on the way.
pub fn sized_json_bytes<T: Serialize>(
    value: &T,
    capacity: usize,
) -> Result<Bytes, crate::http::ApiError> {
    let mut body = Vec::with_capacity(capacity);
    serde_json::to_writer(&mut body, value)
        .map_err(|e| crate::http::ApiError::Internal(format!("encoding the answer: {e}")))?;
    Ok(Bytes::from(body))
}

/// A JSON body already written.
pub fn json_response(body: Bytes) -> Response {
    let json = HeaderValue::from_static("application/json");
    ([(header::CONTENT_TYPE, json)], body).into_response()
}

/// Runs blocking engine work on the blocking pool; a panic there is an internal error.
pub async fn blocking<T: Send + 'static, E: Into<crate::http::ApiError> + Send + 'static>(
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, crate::http::ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| crate::http::ApiError::Internal(format!("engine task failed: {e}")))?
        .map_err(Into::into)
}
