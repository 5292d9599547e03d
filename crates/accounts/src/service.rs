//! The accounts engine over one database: opened with its policy, holding the pool, the
//! log-in and mail throttles, the key cache and the meter. Its calls are written beside their
//! concern (`identity`, `keys`, `credit`, `upkeep`).

use sqlx::AnyPool;

use crate::db::{self, Database};
use crate::error::AccountError;
use crate::key_cache::KeyCache;
use crate::mail_throttle::MailThrottle;
use crate::meter::Meter;
use crate::policy::Policy;
use crate::signup_rules::Onboarding;
use crate::throttle::LoginThrottle;

/// The accounts engine over one database.
pub struct Accounts {
    pub(crate) pool: AnyPool,
    pub(crate) policy: Policy,
    pub(crate) throttle: LoginThrottle,
    pub(crate) keys: KeyCache,
    pub(crate) meter: Meter,
    pub(crate) onboarding: Onboarding,
    pub(crate) mail_throttle: MailThrottle,
}

impl Accounts {
    /// Connects, applies migrations, and makes sure the operator account exists.
    pub async fn open(database: &Database, policy: Policy) -> Result<Self, AccountError> {
        let pool = db::open(database).await?;
        let metering = policy.metering;
        let accounts = Self {
            keys: KeyCache::new(metering.key_cache_capacity),
            meter: Meter::new(policy.prices, metering.lease, metering.lease_ttl),
            pool,
            policy,
            throttle: LoginThrottle::new(),
            onboarding: Onboarding::default(),
            mail_throttle: MailThrottle::new(&Onboarding::default()),
        };
        accounts.ensure_operator().await?;
        Ok(accounts)
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Replaces the default sign-up limits (before serving).
    pub fn with_onboarding(mut self, onboarding: Onboarding) -> Self {
        self.mail_throttle = MailThrottle::new(&onboarding);
        self.onboarding = onboarding;
        self
    }

    pub fn onboarding(&self) -> &Onboarding {
        &self.onboarding
    }

    /// Forgets login-throttle buckets that are full again (call now and then).
    pub fn forget_idle(&self) {
        self.throttle.forget_idle();
        self.mail_throttle.forget_idle();
    }
}
