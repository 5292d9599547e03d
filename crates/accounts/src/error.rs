//! What an accounts call can fail with, each message one a user can act on.

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
    #[error("the password is too easy to guess: {0}")]
    GuessablePassword(String),
    #[error("this link has expired or was already used: ask for a new one")]
    BadToken,
    #[error("too many sign-up or reset requests from your network: try again in an hour")]
    MailThrottled,
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
