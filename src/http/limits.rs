//! Request rate limits: one token bucket per API key, and one per client address for
//! requests made without a key (keyless verify). Exceeding either is a 429 with Retry-After.

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::ApiError;

#[derive(Clone, Copy, Debug)]
pub struct RateLimitConfig {
    /// Requests per minute allowed to one API key (also the burst size).
    pub per_key_per_minute: NonZeroU32,
    /// Requests per minute allowed to one client address without a key.
    pub per_address_per_minute: NonZeroU32,
}

/// Who a request is counted against.
pub enum Caller {
    Key(String),
    Address(Option<IpAddr>),
}

pub struct RateLimits {
    per_key: DefaultKeyedRateLimiter<String>,
    per_address: DefaultKeyedRateLimiter<Option<IpAddr>>,
}

impl RateLimits {
    pub fn new(config: RateLimitConfig) -> Self {
        Self {
            per_key: RateLimiter::keyed(Quota::per_minute(config.per_key_per_minute)),
            per_address: RateLimiter::keyed(Quota::per_minute(config.per_address_per_minute)),
        }
    }

    pub fn check(&self, caller: &Caller) -> Result<(), ApiError> {
        let outcome = match caller {
            Caller::Key(id) => self.per_key.check_key(id),
            Caller::Address(address) => self.per_address.check_key(address),
        };
        outcome.map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::RateLimited {
                retry_after_secs: wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
            }
        })
    }

    /// Forgets buckets that are full again, so memory does not grow with distinct callers.
    pub fn forget_idle(&self) {
        self.per_key.retain_recent();
        self.per_address.retain_recent();
    }
}
