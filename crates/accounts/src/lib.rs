//! Accounts, their API keys, console sessions, usage and metered credit, in one database
//! (SQLite by default, PostgreSQL for several servers). A library with no HTTP in it: the
//! console and the API's access check are thin adapters over `Accounts`.

mod credit;
mod db;
mod identity;
mod keys;
mod meter;
pub mod scopes;
mod throttle;
mod values;

use std::time::{SystemTime, UNIX_EPOCH};

use rand::RngCore;
use sqlx::AnyPool;

pub use credit::{today, Charge, LedgerEntry, UsageRow};
pub use db::Database;
pub use identity::{Account, SessionToken};
pub use keys::KeyGrant;
pub use throttle::LOGIN_ATTEMPTS_PER_MINUTE;
pub use values::{Credit, Email, KeyName, Password, PASSWORD_CHARS};

use crate::scopes::Scope;
use meter::Meter;
use throttle::LoginThrottle;

/// The account CLI keys belong to: unlimited credit, no password (it cannot log in).
pub const OPERATOR_EMAIL: &str = "operator@drugcite.invalid";

/// Price of one request to each endpoint.
#[derive(Clone, Copy, Debug)]
pub struct Prices {
    pub search: Credit,
    pub verify: Credit,
    pub graph: Credit,
}

impl Prices {
    pub fn of(&self, scope: Scope) -> Credit {
        match scope {
            Scope::Search => self.search,
            Scope::Verify => self.verify,
            Scope::Graph => self.graph,
        }
    }
}

/// How accounts are opened and billed.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// Credit a new account starts with (default USD 5.00).
    pub starting_credit: Credit,
    pub prices: Prices,
    /// Whether anyone may sign up in the console; otherwise only the operator's CLI makes accounts.
    pub open_signup: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            starting_credit: Credit::from_micros(5_000_000),
            prices: Prices {
                search: Credit::from_micros(5_000),
                verify: Credit::ZERO,
                graph: Credit::from_micros(5_000),
            },
            open_signup: true,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("enter an email address such as name@example.org")]
    BadEmail,
    #[error("the password {0}")]
    WeakPassword(&'static str),
    #[error("amount {0:?} is not a USD amount such as 5.00")]
    BadAmount(String),
    #[error("key name must be 1 to 100 characters")]
    BadKeyName,
    #[error("an account with this email already exists")]
    EmailTaken,
    #[error("sign-up is by invitation: ask the operator for an account")]
    SignupClosed,
    #[error("wrong email or password")]
    WrongCredentials,
    #[error("this account's credit is exhausted")]
    CreditExhausted,
    #[error("too many log-in attempts: wait a minute and try again")]
    Throttled,
    #[error("no account {0}")]
    UnknownAccount(String),
    #[error("no key with id {0}")]
    UnknownKey(String),
    #[error(
        "--database-url must be a postgres:// URL (SQLite needs none: it lives in the data dir)"
    )]
    BadDatabaseUrl,
    #[error("accounts database: {0}")]
    Database(String),
}

impl From<sqlx::Error> for AccountError {
    fn from(error: sqlx::Error) -> Self {
        Self::Database(error.to_string())
    }
}

/// The accounts engine over one database.
pub struct Accounts {
    pool: AnyPool,
    policy: Policy,
    throttle: LoginThrottle,
    meter: Meter,
}

impl Accounts {
    /// Connects, applies migrations, and makes sure the operator account exists.
    pub async fn open(database: &Database, policy: Policy) -> Result<Self, AccountError> {
        let pool = db::open(database).await?;
        let accounts = Self {
            meter: Meter::start(pool.clone(), policy.prices),
            pool,
            policy,
            throttle: LoginThrottle::new(),
        };
        accounts.ensure_operator().await?;
        Ok(accounts)
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Forgets login-throttle buckets that are full again (call now and then).
    pub fn forget_idle(&self) {
        self.throttle.forget_idle();
    }
}

pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// `bytes` random bytes from the operating system, as lowercase hex.
pub fn random_hex(bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buffer);
    hex(&buffer)
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
