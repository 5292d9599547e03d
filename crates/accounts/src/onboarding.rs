//! Joining by sign-up: an unconfirmed account with no credit, throttled and with a strong
//! password, and the starting credit once its email is confirmed.
//! Returns tokens for the caller to mail; sends nothing and never says to a visitor whether
//! an address already has an account.

use std::net::IpAddr;

use crate::email_tokens::{self, EmailToken, TokenPurpose};
use crate::identity::hash_password;
use crate::ids::now;
use crate::{Account, AccountError, Accounts, Credit, Email, Password, SessionToken};

/// What a sign-up leads to; the visitor is told the same either way ("check your inbox").
pub enum SignUp {
    /// A new or still unconfirmed account: mail it this confirmation token.
    Confirm(Account, EmailToken),
    /// The address has a confirmed account: tell its owner someone tried.
    AlreadyMember(Account),
}

impl Accounts {
    /// Console sign-up: validates the password, throttles per client address, network and
    /// recipient, and makes an unconfirmed account without credit (the password is hashed
    /// whether or not the email is taken, so both take the same time).
    pub async fn sign_up(
        &self,
        email: &str,
        password: &str,
        address: Option<IpAddr>,
    ) -> Result<SignUp, AccountError> {
        if !self.policy.open_signup {
            return Err(AccountError::SignupClosed);
        }
        let email = Email::parse(email)?;
        let password =
            Password::parse_scored(password, &email, self.onboarding.password_min_score)?;
        self.mail_throttle.attempt(&email, address)?;
        let hash = hash_password(password).await?;
        let account = match self
            .insert_account(&email, Some(hash), Credit::ZERO, false, false)
            .await
        {
            Ok(account) => account,
            Err(AccountError::EmailTaken) => {
                let account = self.account_by_email(&email).await?;
                if self.email_confirmed(&account.id).await? {
                    return Ok(SignUp::AlreadyMember(account));
                }
                account
            }
            Err(e) => Err(e)?,
        };
        let token = self.confirmation_token(&account.id).await?;
        Ok(SignUp::Confirm(account, token))
    }

    /// A new confirmation token for a signed-in, unconfirmed account (throttled like sign-up);
    /// `None` once confirmed.
    pub async fn resend_confirmation(
        &self,
        account: &Account,
        address: Option<IpAddr>,
    ) -> Result<Option<EmailToken>, AccountError> {
        if self.email_confirmed(&account.id).await? {
            return Ok(None);
        }
        self.mail_throttle
            .attempt(&Email::parse(&account.email)?, address)?;
        Ok(Some(self.confirmation_token(&account.id).await?))
    }

    async fn confirmation_token(&self, account_id: &str) -> Result<EmailToken, AccountError> {
        let mut tx = self.pool.begin().await?;
        let token = email_tokens::issue(
            &mut tx,
            account_id,
            TokenPurpose::ConfirmEmail,
            self.onboarding.confirm_token_secs,
        )
        .await?;
        tx.commit().await?;
        Ok(token)
    }

    /// Uses a confirmation token: the account is confirmed, gets its starting credit (once)
    /// and a console session.
    pub async fn confirm_email(
        &self,
        token: &str,
    ) -> Result<(SessionToken, Account), AccountError> {
        let mut tx = self.pool.begin().await?;
        let id = email_tokens::redeem(&mut tx, token, TokenPurpose::ConfirmEmail).await?;
        self.mark_confirmed(&mut tx, &id).await?;
        tx.commit().await?;
        let session = self.open_session(&id).await?;
        Ok((session, self.account(&id).await?))
    }

    /// Marks `id`'s email confirmed; the first time, grants the starting credit.
    pub(crate) async fn mark_confirmed(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        id: &str,
    ) -> Result<(), AccountError> {
        let credit = self.policy.starting_credit;
        let first = sqlx::query("UPDATE accounts SET email_verified_at = $1, credit_micros = credit_micros + $2 WHERE id = $3 AND email_verified_at IS NULL")
            .bind(now())
            .bind(credit.micros())
            .bind(id)
            .execute(&mut **tx)
            .await?;
        if first.rows_affected() == 1 {
            crate::ledger_lines::record_grant(tx, id, credit, "starting credit").await?;
        }
        Ok(())
    }

    /// Whether the account's email has been confirmed.
    pub async fn email_confirmed(&self, account_id: &str) -> Result<bool, AccountError> {
        let at: Option<Option<i64>> =
            sqlx::query_scalar("SELECT email_verified_at FROM accounts WHERE id = $1")
                .bind(account_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(matches!(at, Some(Some(_))))
    }
}
