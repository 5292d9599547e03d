//! Password reset by mailed link: a token per request (throttled like sign-up, the same
//! answer for unknown addresses), then a new password that uses the token, confirms the
//! email and ends every session of the account. Returns tokens; sends nothing.

use std::net::IpAddr;

use crate::email_tokens::{self, EmailToken, TokenPurpose};
use crate::identity::hash_password;
use crate::{Account, AccountError, Accounts, Email, Password};

impl Accounts {
    /// A reset token for the account of `email`, or `None` when there is no account that can
    /// log in with a password (the caller answers the same either way).
    pub async fn request_password_reset(
        &self,
        email: &str,
        address: Option<IpAddr>,
    ) -> Result<Option<(Account, EmailToken)>, AccountError> {
        let email = Email::parse(email)?;
        self.mail_throttle.attempt(&email, address)?;
        let account = match self.account_by_email(&email).await {
            Ok(account) if !account.unlimited => account,
            Ok(_) | Err(AccountError::UnknownAccount(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut tx = self.pool.begin().await?;
        let token = email_tokens::issue(
            &mut tx,
            &account.id,
            TokenPurpose::ResetPassword,
            self.onboarding.reset_token_secs,
        )
        .await?;
        tx.commit().await?;
        Ok(Some((account, token)))
    }

    /// The account a live reset token is for (the token stays unused).
    pub async fn reset_account(&self, token: &str) -> Result<Account, AccountError> {
        let id = email_tokens::peek(&self.pool, token, TokenPurpose::ResetPassword).await?;
        self.account(&id).await
    }

    /// Sets a new password with a reset token, once: the token is used, the email counts as
    /// confirmed (the link reached its inbox) and every session of the account ends. A
    /// password that fails the rules leaves the token unused.
    pub async fn reset_password(
        &self,
        token: &str,
        password: &str,
    ) -> Result<Account, AccountError> {
        let account = self.reset_account(token).await?;
        let email = Email::parse(&account.email)?;
        let password =
            Password::parse_scored(password, &email, self.onboarding.password_min_score)?;
        let hash = hash_password(password).await?;
        let mut tx = self.pool.begin().await?;
        let id = email_tokens::redeem(&mut tx, token, TokenPurpose::ResetPassword).await?;
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
            .bind(hash)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1")
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        self.mark_confirmed(&mut tx, &id).await?;
        tx.commit().await?;
        self.account(&id).await
    }
}
