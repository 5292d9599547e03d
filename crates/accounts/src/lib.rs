//! Accounts, their API keys, console sessions, usage and metered credit, in one database
//! (SQLite by default, PostgreSQL for several servers). A library with no HTTP in it: the
//! console and the API's access check are thin adapters over `Accounts`.

mod credit;
mod db;
mod email_tokens;
mod error;
mod grant;
mod identity;
mod ids;
mod key_cache;
mod keys;
mod lease;
#[cfg(test)]
mod lease_tests;
mod ledger_lines;
mod mail_throttle;
mod meter;
mod onboarding;
mod policy;
mod reset;
pub mod scopes;
mod service;
mod signup_rules;
mod throttle;
mod upkeep;
mod values;

pub use credit::{LedgerEntry, UsageRow};
pub use db::Database;
pub use email_tokens::EmailToken;
pub use error::AccountError;
pub use grant::KeyGrant;
pub use identity::{Account, SessionToken};
pub use ids::random_hex;
pub use meter::{today, Charge};
pub use onboarding::SignUp;
pub use policy::{Metering, Policy, Prices, OPERATOR_EMAIL};
pub use service::Accounts;
pub use signup_rules::Onboarding;
pub use throttle::LOGIN_ATTEMPTS_PER_MINUTE;
pub use values::{Credit, Email, KeyName, Password, DEFAULT_PASSWORD_MIN_SCORE, PASSWORD_CHARS};
