//! `POST /v1/search` (§4.1): question + top_k in, ranked fingerprinted segments out.

use std::time::Instant;

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::wire::{blocking, AlsoIn, Envelope, LabelSegment};
use crate::http::access::{Access, SearchAccess};
use crate::http::body::{Fields, FromFields, JsonBody};
use crate::http::{ApiError, AppState};
use drugcite_core::domain::{Question, SearchFilters, TopK};
use drugcite_engine::understand::ReadAs;

/// Unknown fields are ignored; `null` is the same as an absent field.
#[derive(utoipa::ToSchema)]
pub struct SearchRequest {
    /// Natural-language question, phrase or keywords (1–2000 characters, at least one that is
    /// not whitespace, ASCII punctuation or a control character).
    #[schema(value_type = String, min_length = 1, max_length = 2000,
        pattern = r"[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]",
        example = "Does sertraline interact with pimozide?")]
    question: Option<String>,
    /// Number of results, 1–100; default 10.
    #[schema(minimum = 1, maximum = 100, example = 5)]
    top_k: Option<i64>,
    /// Optional filter (ours): only labels whose generic name contains this, or with this
    /// exact generic, brand or substance name (case-insensitive).
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]",
        example = "sertraline"
    )]
    drug: Option<String>,
    /// Optional filter (ours): a section name ("Drug Interactions") or openFDA key ("drug_interactions").
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]",
        example = "Drug Interactions"
    )]
    section: Option<String>,
    /// Optional filter (ours): an administration route such as ORAL (case-insensitive).
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]",
        example = "ORAL"
    )]
    route: Option<String>,
}

impl FromFields for SearchRequest {
    fn from_fields(mut fields: Fields) -> Result<Self, ApiError> {
        Ok(Self {
            question: fields.text("question")?,
            top_k: fields.integer("top_k")?,
            drug: fields.text("drug")?,
            section: fields.text("section")?,
            route: fields.text("route")?,
        })
    }
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct SearchMetadata {
    count: usize,
    search_time_ms: f64,
    /// Drugs or brands the question names of which the index holds no label (so "not
    /// indexed" can be told from "no answer"), in question order, lowercase.
    #[schema(example = json!(["warfarin"]))]
    unmatched_drugs: Vec<String>,
    /// Question words no indexed label uses, each with the label words it was searched as (a
    /// misspelling, two words run together), in question order.
    #[schema(example = json!([{"asked": "osteoperosis", "read": "osteoporosis"}]))]
    read_as: Vec<ReadAsShown>,
}

/// A question word and the label words it was searched as.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ReadAsShown {
    asked: String,
    read: String,
}

impl From<&ReadAs> for ReadAsShown {
    fn from(reading: &ReadAs) -> Self {
        Self {
            asked: reading.asked.clone(),
            read: reading.read.clone(),
        }
    }
}

/// A label segment; a text several labels hold is listed once, its other labels in `also_in`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SearchResult {
    #[serde(flatten)]
    segment: LabelSegment,
    #[serde(skip_serializing_if = "Option::is_none")]
    also_in: Option<AlsoIn>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct SearchData {
    query: String,
    results: Vec<SearchResult>,
    metadata: SearchMetadata,
}

#[utoipa::path(post, path = "/v1/search", tag = "search",
    request_body = SearchRequest,
    security(("api_key" = [])),
    responses(
        (status = 200, description = "Ranked label segments", body = Envelope<SearchData>),
        (status = 400, description = "Missing question, top_k outside 1-100, or malformed body", body = crate::http::ErrorEnvelope),
        (status = 401, description = "Missing, invalid or revoked key", body = crate::http::ErrorEnvelope),
        (status = 403, description = "Key lacks scope `search`", body = crate::http::ErrorEnvelope),
        (status = 429, description = "Rate limit exceeded; see Retry-After", body = crate::http::ErrorEnvelope),
        (status = 500, description = "Server error", body = crate::http::ErrorEnvelope),
    ))]
pub async fn search(
    _access: Access<SearchAccess>,
    State(state): State<AppState>,
    JsonBody(request): JsonBody<SearchRequest>,
) -> Result<Json<Envelope<SearchData>>, ApiError> {
    let question = Question::parse(request.question)?;
    let top_k = TopK::parse(request.top_k)?;
    let filters = SearchFilters::parse(request.drug, request.section, request.route)?;
    let started = Instant::now();
    let engine = state.engine.clone();
    let query = question.clone();
    let answer = blocking(move || engine.searcher.search(&query, top_k, &filters)).await?;
    let results: Vec<SearchResult> = answer
        .hits
        .iter()
        .map(|hit| SearchResult {
            segment: LabelSegment::from(&hit.segment),
            also_in: AlsoIn::shown(&hit.also_in),
        })
        .collect();
    Ok(Json(Envelope::ok(SearchData {
        query: question.as_str().to_owned(),
        metadata: SearchMetadata {
            count: results.len(),
            search_time_ms: started.elapsed().as_secs_f64() * 1000.0,
            unmatched_drugs: answer.unmatched_drugs,
            read_as: answer.read_as.iter().map(ReadAsShown::from).collect(),
        },
        results,
    })))
}
