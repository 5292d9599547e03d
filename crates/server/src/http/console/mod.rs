//! The web console under `/console`: sign-up, log-in, keys, usage and the playground as
//! server-rendered HTML over the accounts engine. Owns the console's routes, static assets
//! and security headers (a strict Content-Security-Policy); no account rules live here.

mod chart;
mod error;
mod pages;
mod session;
mod views;

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::map_response;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use super::state::AppState;

/// Everything a console page may load comes from drugcite itself; no inline script or style.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/console", get(pages::home))
        .route(
            "/console/signup",
            get(pages::signup_form).post(pages::signup),
        )
        .route("/console/login", get(pages::login_form).post(pages::login))
        .route("/console/logout", post(pages::logout))
        .route("/console/keys", get(pages::keys).post(pages::create_key))
        .route("/console/keys/{id}/revoke", post(pages::revoke_key))
        .route("/console/usage", get(pages::usage))
        .route("/console/playground", get(pages::playground))
        .route("/console/static/{file}", get(asset))
        .layer(map_response(security_headers))
}

async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let set = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_static(value));
    }
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The console's stylesheet and scripts, compiled into the binary.
async fn asset(Path(file): Path<String>) -> Response {
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
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    let headers = [
        (header::CONTENT_TYPE, content_type),
        (header::CACHE_CONTROL, "public, max-age=300"),
    ];
    (headers, body).into_response()
}
