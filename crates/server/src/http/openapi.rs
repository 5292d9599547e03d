//! `GET /openapi.json`: the OpenAPI 3 document, generated from the handlers' annotations.

use axum::Json;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::routes;

#[derive(OpenApi)]
#[openapi(
    info(title = "drugcite", description = "Search official US drug-label text; verify every quote by its 128-bit fingerprint."),
    paths(routes::health::health, routes::search::search, routes::verify::verify, routes::quote::check_quote, routes::labels::label, routes::graph::graph),
    components(schemas(super::ErrorEnvelope)),
    modifiers(&ApiKeyHeader)
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

pub async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
