//! The console's static files, compiled into the binary: stylesheet, scripts, the vendored
//! graph-layout library (cytoscape.js, see `static/console/vendor/README.md`), the icon and
//! the reference pages (`docs/`) as text. Serves bytes; no page logic.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

const FAVICON_ICO: &[u8] = include_bytes!("../../../static/console/favicon.ico");

/// `/console/static/{file}`.
pub async fn asset(Path(file): Path<String>) -> Response {
    let (body, content_type) = match file.as_str() {
        "console.css" => (
            include_str!("../../../static/console/console.css"),
            "text/css; charset=utf-8",
        ),
        "console.js" => (
            include_str!("../../../static/console/console.js"),
            "text/javascript; charset=utf-8",
        ),
        "playground.js" => (
            include_str!("../../../static/console/playground.js"),
            "text/javascript; charset=utf-8",
        ),
        "graph-view.js" => (
            include_str!("../../../static/console/graph-view.js"),
            "text/javascript; charset=utf-8",
        ),
        "cytoscape.min.js" => (
            include_str!("../../../static/console/vendor/cytoscape.min.js"),
            "text/javascript; charset=utf-8",
        ),
        "favicon.svg" => (
            include_str!("../../../static/console/favicon.svg"),
            "image/svg+xml",
        ),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    let headers = [
        (header::CONTENT_TYPE, content_type),
        (header::CACHE_CONTROL, "public, max-age=300"),
    ];
    (headers, body).into_response()
}

/// `/console/docs/{page}`: the reference pages the console links to, as their Markdown text.
pub async fn docs(Path(page): Path<String>) -> Response {
    let text = match page.as_str() {
        "accounts" => include_str!("../../../../../docs/accounts.md"),
        "search" => include_str!("../../../../../docs/search.md"),
        "verify" => include_str!("../../../../../docs/verify.md"),
        "graph" => include_str!("../../../../../docs/graph.md"),
        "mcp" => include_str!("../../../../../docs/mcp.md"),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    let headers = [
        (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
        (header::CACHE_CONTROL, "public, max-age=300"),
    ];
    (headers, text).into_response()
}

/// `/favicon.ico`, which browsers ask for on every site.
pub async fn favicon() -> Response {
    let headers = [
        (header::CONTENT_TYPE, "image/x-icon"),
        (header::CACHE_CONTROL, "public, max-age=86400"),
    ];
    (headers, FAVICON_ICO).into_response()
}
