//! Request rate limits: one token bucket per API key, one per client address for requests
//! made without a key (keyless verify), and one per client address for failed
//! authentications, which once empty refuses every keyed request from that address for a
//! while. Exceeding any is a 429 with Retry-After.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{DefaultKeyedRateLimiter, NotUntil, Quota, RateLimiter};

use super::ApiError;

#[derive(Clone, Copy, Debug)]
pub struct RateLimitConfig {
    /// Requests per minute allowed to one API key (also the burst size).
    pub per_key_per_minute: NonZeroU32,
    /// Requests per minute allowed to one client address without a key.
    pub per_address_per_minute: NonZeroU32,
}

/// Who a request is counted against.
pub enum Caller<'a> {
    Key(&'a String),
    Address(Option<IpAddr>),
}

/// Failed authentications per minute allowed to one client address unless configured.
pub const DEFAULT_AUTH_FAILURES_PER_MINUTE: NonZeroU32 = NonZeroU32::new(10).unwrap();

/// Buckets by key id, hashed with foldhash: only authenticated keys' ids reach it.
type PerKeyLimiter = RateLimiter<
    String,
    DashMapStateStore<String, foldhash::fast::RandomState>,
    DefaultClock,
    NoOpMiddleware,
>;

pub struct RateLimits {
    per_key: PerKeyLimiter,
    per_address: DefaultKeyedRateLimiter<Option<IpAddr>>,
    auth_failures: DefaultKeyedRateLimiter<Option<IpAddr>>,
    /// Addresses whose failure budget ran out, and until when their keyed requests are refused.
    blocked: Mutex<HashMap<Option<IpAddr>, Instant>>,
    /// Whether `blocked` may hold an address (set under its lock), so that a keyed request
    /// looks at the map only while some address is blocked.
    any_blocked: AtomicBool,
}

impl RateLimits {
    pub fn new(config: RateLimitConfig, auth_failures_per_minute: NonZeroU32) -> Self {
        Self {
            per_key: RateLimiter::dashmap_with_hasher(
                Quota::per_minute(config.per_key_per_minute),
                foldhash::fast::RandomState::default(),
            ),
            per_address: RateLimiter::keyed(Quota::per_minute(config.per_address_per_minute)),
            auth_failures: RateLimiter::keyed(Quota::per_minute(auth_failures_per_minute)),
            blocked: Mutex::new(HashMap::new()),
            any_blocked: AtomicBool::new(false),
        }
    }

    pub fn check(&self, caller: &Caller<'_>) -> Result<(), ApiError> {
        let outcome = match caller {
            Caller::Key(id) => self.per_key.check_key(id),
            Caller::Address(address) => self.per_address.check_key(address),
        };
        outcome.map_err(|not_until| limited(wait_of(&not_until)))
    }

    /// Refuses a keyed request from an address that failed authentication too often, before
    /// its key is looked at (a right guess must look like a wrong one).
    pub fn check_not_blocked(&self, address: Option<IpAddr>) -> Result<(), ApiError> {
        if !self.any_blocked.load(Ordering::Acquire) {
            return Ok(());
        }
        let blocked = self.blocked.lock().unwrap_or_else(|e| e.into_inner());
        match blocked.get(&address) {
            Some(until) if *until > Instant::now() => {
                Err(limited(until.saturating_duration_since(Instant::now())))
            }
            _ => Ok(()),
        }
    }

    /// Counts a failed authentication: the 429 that blocks the address once its budget is
    /// spent, else the 401 for the key.
    pub fn auth_failed(&self, address: Option<IpAddr>) -> ApiError {
        match self.auth_failures.check_key(&address) {
            Ok(()) => ApiError::Unauthorized,
            Err(not_until) => {
                let wait = wait_of(&not_until);
                let mut blocked = self.blocked.lock().unwrap_or_else(|e| e.into_inner());
                blocked.insert(address, Instant::now() + wait);
                self.any_blocked.store(true, Ordering::Release);
                limited(wait)
            }
        }
    }

    /// Forgets buckets that are full again and blocks that ended, so memory does not grow
    /// with distinct callers.
    pub fn forget_idle(&self) {
        self.per_key.retain_recent();
        self.per_address.retain_recent();
        self.auth_failures.retain_recent();
        let now = Instant::now();
        let mut blocked = self.blocked.lock().unwrap_or_else(|e| e.into_inner());
        blocked.retain(|_, until| *until > now);
        self.any_blocked
            .store(!blocked.is_empty(), Ordering::Release);
    }
}

fn wait_of(not_until: &NotUntil<<DefaultClock as Clock>::Instant>) -> Duration {
    not_until.wait_time_from(DefaultClock::default().now())
}

fn limited(wait: Duration) -> ApiError {
    ApiError::RateLimited {
        retry_after_secs: (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1),
    }
}
