//! Log-in throttling: a token bucket per email address and one per client address, so
//! neither one account nor one client can guess passwords quickly. Holds no credentials.

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::{AccountError, Email};

/// Log-in attempts per minute allowed for one email address (also the burst).
pub const LOGIN_ATTEMPTS_PER_MINUTE: NonZeroU32 = NonZeroU32::new(5).unwrap();
/// Log-in attempts per minute allowed from one client address, over all emails.
const ATTEMPTS_PER_ADDRESS_PER_MINUTE: NonZeroU32 = NonZeroU32::new(20).unwrap();

pub struct LoginThrottle {
    per_email: DefaultKeyedRateLimiter<String>,
    per_address: DefaultKeyedRateLimiter<Option<IpAddr>>,
}

impl LoginThrottle {
    pub fn new() -> Self {
        Self {
            per_email: RateLimiter::keyed(Quota::per_minute(LOGIN_ATTEMPTS_PER_MINUTE)),
            per_address: RateLimiter::keyed(Quota::per_minute(ATTEMPTS_PER_ADDRESS_PER_MINUTE)),
        }
    }

    /// Counts one attempt; `Throttled` once either budget is spent.
    pub fn attempt(&self, email: &Email, address: Option<IpAddr>) -> Result<(), AccountError> {
        let by_address = self.per_address.check_key(&address);
        let by_email = self.per_email.check_key(&email.to_string());
        match (by_address, by_email) {
            (Ok(()), Ok(())) => Ok(()),
            _ => Err(AccountError::Throttled),
        }
    }

    pub fn forget_idle(&self) {
        self.per_email.retain_recent();
        self.per_address.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_attempt_on_one_email_is_throttled_but_another_email_is_not() {
        let throttle = LoginThrottle::new();
        let ann = Email::parse("ann@example.org").unwrap();
        let bob = Email::parse("bob@example.org").unwrap();
        for _ in 0..LOGIN_ATTEMPTS_PER_MINUTE.get() {
            throttle.attempt(&ann, None).unwrap();
        }
        assert!(matches!(
            throttle.attempt(&ann, None),
            Err(AccountError::Throttled)
        ));
        assert!(throttle.attempt(&bob, None).is_ok());
    }
}
