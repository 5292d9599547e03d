//! `GET /openapi.json`: the OpenAPI 3 document, generated from the handlers' annotations.

use axum::Json;
use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, ObjectBuilder};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::routes;

#[derive(OpenApi)]
#[openapi(
    info(title = "drugcite", description = "Search official US drug-label text; verify every quote by its 128-bit fingerprint."),
    paths(routes::health::health, routes::search::search, routes::verify::verify, routes::quote::check_quote, routes::labels::label, routes::graph::graph),
    components(schemas(super::ErrorEnvelope)),
    modifiers(&ApiKeyHeader, &QuoteOrAnswerRequired)
)]
pub struct ApiDoc;

struct ApiKeyHeader;

impl Modify for ApiKeyHeader {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("x-api-key"))),
        );
    }
}

/// A quote check needs `quote`, `answer` or both: a rule the derived object schema cannot say.
struct QuoteOrAnswerRequired;

impl Modify for QuoteOrAnswerRequired {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(schemas) = openapi.components.as_mut().map(|c| &mut c.schemas) else {
            return;
        };
        let Some(request) = schemas.remove("QuoteRequest") else {
            return;
        };
        let quote_or_answer = AnyOfBuilder::new()
            .item(ObjectBuilder::new().required("quote"))
            .item(ObjectBuilder::new().required("answer"));
        let schema = AllOfBuilder::new().item(request).item(quote_or_answer);
        schemas.insert("QuoteRequest".to_owned(), schema.into());
    }
}

pub async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
