//! The web console under `/console`: sign-up, log-in, keys, usage and the playground as
//! server-rendered HTML over the accounts engine, with email confirmation and password reset.
//! Owns the console's routes and security headers (a strict Content-Security-Policy); no
//! account rules live here.

mod assets;
mod banner;
mod chart;
mod error;
mod keys;
mod letters;
mod onboarding;
mod pages;
mod session;
mod views;

use axum::http::{header, HeaderValue};
use axum::middleware::map_response;
use axum::response::Response;
use axum::routing::{get, post};

use super::route_table::Routes;

/// Everything a console page may load comes from drugcite itself; no inline script or style.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

pub fn routes() -> Routes {
    Routes::new()
        .route("/console", get(pages::home))
        .route(
            "/console/signup",
            get(onboarding::signup_form).post(onboarding::signup),
        )
        .route("/console/confirm/resend", post(onboarding::resend))
        .route(
            "/console/confirm/{token}",
            get(onboarding::confirm_form).post(onboarding::confirm),
        )
        .route(
            "/console/reset",
            get(onboarding::reset_request_form).post(onboarding::reset_request),
        )
        .route(
            "/console/reset/{token}",
            get(onboarding::reset_form).post(onboarding::reset),
        )
        .route("/console/login", get(pages::login_form).post(pages::login))
        .route("/console/logout", post(pages::logout))
        .route("/console/keys", get(keys::keys).post(keys::create_key))
        .route(
            "/console/keys/{id}/revoke",
            get(keys::revoke_form).post(keys::revoke_key),
        )
        .route("/console/usage", get(pages::usage))
        .route("/console/playground", get(pages::playground))
        .route("/console/static/{file}", get(assets::asset))
        .route("/console/docs/{page}", get(assets::docs))
        .route("/favicon.ico", get(assets::favicon))
        .map_router(|router| router.layer(map_response(security_headers)))
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
