//! The single-use, expiring tokens drugcite mails: one to confirm an address, one to reset a
//! password. Only a token's SHA-256 is stored; using one marks it used in the same statement
//! that checks it, so it works once. Issues and checks tokens; mails nothing.

use sqlx::{Any, Transaction};

use crate::identity::sha256_hex;
use crate::ids::{now, random_hex};
use crate::AccountError;

/// What a token lets its holder do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenPurpose {
    ConfirmEmail,
    ResetPassword,
}

impl TokenPurpose {
    fn as_str(self) -> &'static str {
        match self {
            Self::ConfirmEmail => "confirm_email",
            Self::ResetPassword => "reset_password",
        }
    }
}

/// A token as it goes into a link. Never logged.
pub struct EmailToken(String);

impl EmailToken {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// Issues a token for `account_id` valid `ttl_secs`; earlier unused tokens of the same
/// purpose stop working (only the newest mail's link does).
pub(crate) async fn issue(
    tx: &mut Transaction<'static, Any>,
    account_id: &str,
    purpose: TokenPurpose,
    ttl_secs: i64,
) -> Result<EmailToken, AccountError> {
    let token = EmailToken(random_hex(32));
    let at = now();
    sqlx::query("UPDATE email_tokens SET used_at = $1 WHERE account_id = $2 AND purpose = $3 AND used_at IS NULL")
        .bind(at)
        .bind(account_id)
        .bind(purpose.as_str())
        .execute(&mut **tx)
        .await?;
    sqlx::query("INSERT INTO email_tokens (token_sha256, account_id, purpose, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(sha256_hex(token.expose()))
        .bind(account_id)
        .bind(purpose.as_str())
        .bind(at + ttl_secs)
        .execute(&mut **tx)
        .await?;
    Ok(token)
}

/// The account a live (unused, unexpired) token names, without using it.
pub(crate) async fn peek(
    pool: &sqlx::AnyPool,
    token: &str,
    purpose: TokenPurpose,
) -> Result<String, AccountError> {
    sqlx::query_scalar("SELECT account_id FROM email_tokens WHERE token_sha256 = $1 AND purpose = $2 AND used_at IS NULL AND expires_at >= $3")
        .bind(sha256_hex(token))
        .bind(purpose.as_str())
        .bind(now())
        .fetch_optional(pool)
        .await?
        .ok_or(AccountError::BadToken)
}

/// Uses a live token: the account it names; `BadToken` if it is unknown, used or expired.
pub(crate) async fn redeem(
    tx: &mut Transaction<'static, Any>,
    token: &str,
    purpose: TokenPurpose,
) -> Result<String, AccountError> {
    let at = now();
    sqlx::query_scalar("UPDATE email_tokens SET used_at = $1 WHERE token_sha256 = $2 AND purpose = $3 AND used_at IS NULL AND expires_at >= $4 RETURNING account_id")
        .bind(at)
        .bind(sha256_hex(token))
        .bind(purpose.as_str())
        .bind(at)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(AccountError::BadToken)
}
