//! `POST /v1/verify/quote` (additive): one quote (optionally with its fingerprint) or a whole
//! answer text in; per quoted passage whether it is verbatim label text, equal up to named
//! normalisations, a near miss (closest passage and character diff) or absent. Same access as
//! verify; the checking is `verify::quote`'s.

use axum::extract::State;
use axum::Json;

use super::wire::{blocking, Envelope};
use crate::http::access::{Access, VerifyAccess};
use crate::http::body::{Fields, FromFields, JsonBody};
use crate::http::{ApiError, AppState};
use drugcite_engine::quote::{CheckRequest, QuoteReport};

/// `quote`, `answer` or both (with both, `quote` is checked first; at most 20 passages in all;
/// neither: nothing to check, `count` 0).
/// Unknown fields are ignored; `null` is the same as an absent field.
#[derive(utoipa::ToSchema)]
pub struct QuoteRequest {
    /// One quoted passage (1–2000 characters, not only whitespace).
    #[schema(
        min_length = 1,
        max_length = 2000,
        pattern = r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]",
        example = "Avoid alcoholic beverages."
    )]
    quote: Option<String>,
    /// The fingerprint cited for `quote` (128 characters of 0/1) — or, without `quote`, for every
    /// passage of `answer` without a citation of its own: checked against that segment only.
    /// Without it, against the segments search finds for the quote.
    #[schema(min_length = 128, max_length = 128, pattern = "^[01]{128}$")]
    fingerprint: Option<String>,
    /// A whole answer (at most 20000 characters): every passage in "double" or “curly”
    /// quotes is checked (at most 20, each at most 2000 characters; none: no checks), each
    /// optionally followed by its citation `[fp:<128 binary digits>]`.
    #[schema(
        min_length = 1,
        max_length = 20000,
        example = "The label says \"Avoid alcoholic beverages.\" [fp:0101…]"
    )]
    answer: Option<String>,
    /// Only labels of this drug (generic, brand or substance name) for quotes without a
    /// citation.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]",
        example = "sertraline"
    )]
    drug: Option<String>,
}

impl FromFields for QuoteRequest {
    fn from_fields(mut fields: Fields) -> Result<Self, ApiError> {
        Ok(Self {
            quote: fields.text("quote")?,
            fingerprint: fields.text("fingerprint")?,
            answer: fields.text("answer")?,
            drug: fields.text("drug")?,
        })
    }
}

#[utoipa::path(post, path = "/v1/verify/quote", tag = "verify",
    request_body = QuoteRequest,
    security((), ("api_key" = [])),
    responses(
        (status = 200, description = "One check per quoted passage, in order, and a summary", body = Envelope<QuoteReport>),
        (status = 400, description = "An empty answer, a blank quote, a malformed fingerprint, or a size bound exceeded", body = crate::http::ErrorEnvelope),
        (status = 401, description = "A key was sent and is invalid or revoked", body = crate::http::ErrorEnvelope),
        (status = 403, description = "The key sent lacks scope `verify`", body = crate::http::ErrorEnvelope),
        (status = 429, description = "Rate limit exceeded; see Retry-After", body = crate::http::ErrorEnvelope),
        (status = 500, description = "Server error", body = crate::http::ErrorEnvelope),
    ))]
pub async fn check_quote(
    _access: Access<VerifyAccess>,
    State(state): State<AppState>,
    JsonBody(request): JsonBody<QuoteRequest>,
) -> Result<Json<Envelope<QuoteReport>>, ApiError> {
    let request = CheckRequest::parse(
        request.quote,
        request.answer,
        request.fingerprint,
        request.drug,
    )?;
    let engine = state.engine.clone();
    let report = blocking(move || engine.check_quotes(&request)).await?;
    Ok(Json(Envelope::ok(report)))
}
