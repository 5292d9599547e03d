//! The state every request handler shares: the engine, the accounts, the rate limits, the
//! console's settings and the request metrics, behind one `Arc` (axum clones the state several
//! times per request: one reference count, not one per part). Holds; decides nothing.

use std::num::NonZeroU32;
use std::ops::Deref;
use std::sync::Arc;

use axum::http::HeaderName;
use axum::Router;

use super::limits::{RateLimitConfig, RateLimits, DEFAULT_AUTH_FAILURES_PER_MINUTE};
use super::metrics::HttpMetrics;
use super::metrics_export;
use super::verify_bodies::VerifiedBodies;
use crate::mail::Mailer;
use drugcite_accounts::{Accounts, Credit};
use drugcite_engine::engine::Engine;

/// Largest request body accepted; a question is at most 2,000 characters.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// The header an API key comes in (§3), as a name ready to look up: no parse per request.
pub const API_KEY_HEADER: HeaderName = HeaderName::from_static("x-api-key");
/// How the web console is served when it is.
#[derive(Clone)]
pub struct ConsoleSettings {
    /// Mark cookies `Secure` (clients reach drugcite over TLS).
    pub secure_cookies: bool,
    /// Where users reach this drugcite (`https://api.example.org`): the base of mailed links
    /// and of the console's code snippets.
    pub public_url: String,
    /// Below this credit the console warns (and says how to get more).
    pub low_credit: Credit,
    pub mailer: Mailer,
}

#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    pub(super) engine: Arc<Engine>,
    pub(super) accounts: Arc<Accounts>,
    pub(super) limits: Arc<RateLimits>,
    pub(super) limit_config: RateLimitConfig,
    /// The web console's settings when it is served.
    pub(super) console: Option<ConsoleSettings>,
    pub(super) metrics: Arc<HttpMetrics>,
    /// Verified answers as written, reused while the verifier serves the same epoch.
    pub(super) verified_bodies: Arc<VerifiedBodies>,
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    pub fn new(engine: Arc<Engine>, accounts: Arc<Accounts>, limits: RateLimitConfig) -> Self {
        Self(Arc::new(Shared {
            engine,
            accounts,
            limits: Arc::new(RateLimits::new(limits, DEFAULT_AUTH_FAILURES_PER_MINUTE)),
            limit_config: limits,
            console: None,
            metrics: Arc::new(HttpMetrics::default()),
            verified_bodies: Arc::default(),
        }))
    }

    /// The parts, to configure before the state is shared (while serving it is not).
    fn configure(&mut self) -> &mut Shared {
        Arc::get_mut(&mut self.0).expect("the state is configured before it is shared")
    }

    /// The accounts engine the server meters with.
    pub fn accounts(&self) -> Arc<Accounts> {
        Arc::clone(&self.accounts)
    }

    /// The router of the metrics listener (`GET /metrics`), over this state's counters.
    pub fn metrics_router(&self) -> Router {
        metrics_export::router(metrics_export::Scrape::new(
            Arc::clone(&self.engine),
            Arc::clone(&self.metrics),
            Arc::clone(&self.verified_bodies),
        ))
    }

    /// Serves the web console under `/console`.
    pub fn with_console(mut self, settings: ConsoleSettings) -> Self {
        self.configure().console = Some(settings);
        self
    }

    /// Failed authentications per minute one client address may make before its keyed
    /// requests get 429 (default `DEFAULT_AUTH_FAILURES_PER_MINUTE`).
    pub fn with_auth_failures_per_minute(mut self, per_minute: NonZeroU32) -> Self {
        let shared = self.configure();
        shared.limits = Arc::new(RateLimits::new(shared.limit_config, per_minute));
        self
    }
}
