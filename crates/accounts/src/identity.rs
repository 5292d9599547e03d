//! Who someone is: accounts (inserted, operator-made, the operator account), Argon2id
//! password hashes, log-in with throttling, and console sessions (only their SHA-256 stored).
//! Must not know about keys' use or credit beyond the starting grant and the balance it shows
//! (written up to date by `settle` first).

use std::net::IpAddr;
use std::sync::OnceLock;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use sha2::{Digest, Sha256};

use crate::ids::{hex, now, random_hex};
use crate::{AccountError, Accounts, Credit, Email, Password, OPERATOR_EMAIL};

/// How long a console session lasts after log-in.
const SESSION_SECS: i64 = 12 * 3600;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub email: String,
    pub credit: Credit,
    pub unlimited: bool,
}

type AccountRow = (String, String, i64, i64);

impl From<AccountRow> for Account {
    fn from((id, email, credit, unlimited): AccountRow) -> Self {
        Self {
            id,
            email,
            credit: Credit::from_micros(credit),
            unlimited: unlimited != 0,
        }
    }
}

/// An account's credit is what it has plus what servers hold of it in leases (spent or not:
/// a lease's spend reaches the usage rows and leaves the lease in one transaction).
const ACCOUNT_COLUMNS: &str =
    "SELECT id, email, credit_micros + COALESCE((SELECT CAST(SUM(l.held_micros) AS BIGINT) \
     FROM credit_leases l WHERE l.account_id = accounts.id), 0), unlimited FROM accounts";

/// A console session's secret, as sent in its cookie. Never logged.
pub struct SessionToken(String);

impl SessionToken {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

pub(crate) fn sha256_hex(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

impl Accounts {
    /// Makes an account with the starting credit (recorded in its ledger) and its email
    /// taken as verified (the operator vouches for it); `unlimited` ones are never charged.
    /// Without a password the account cannot log in.
    pub async fn create_account(
        &self,
        email: &Email,
        password: Option<Password>,
        unlimited: bool,
    ) -> Result<Account, AccountError> {
        let hash = match password {
            Some(password) => Some(hash_password(password).await?),
            None => None,
        };
        let credit = if unlimited {
            Credit::ZERO
        } else {
            self.policy.starting_credit
        };
        self.insert_account(email, hash, credit, unlimited, true)
            .await
    }

    /// Inserts an account holding `credit` (its ledger records the grant when `verified`;
    /// an unverified account gets its starting credit when its email is confirmed).
    pub(crate) async fn insert_account(
        &self,
        email: &Email,
        hash: Option<String>,
        credit: Credit,
        unlimited: bool,
        verified: bool,
    ) -> Result<Account, AccountError> {
        let account = Account {
            id: random_hex(8),
            email: email.to_string(),
            credit,
            unlimited,
        };
        let created = now();
        // The INSERT comes first: it takes the write lock at once (SQLite) and the unique
        // email decides a race between two sign-ups.
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO accounts (id, email, password_hash, credit_micros, unlimited, created_at, email_verified_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
            .bind(&account.id)
            .bind(&account.email)
            .bind(hash)
            .bind(account.credit.micros())
            .bind(i64::from(unlimited))
            .bind(created)
            .bind(verified.then_some(created))
            .execute(&mut *tx)
            .await
            .map_err(|e| if is_unique_violation(&e) { AccountError::EmailTaken } else { e.into() })?;
        if verified {
            crate::ledger_lines::record_grant(
                &mut tx,
                &account.id,
                account.credit,
                "starting credit",
            )
            .await?;
        }
        tx.commit().await?;
        Ok(account)
    }

    pub async fn account_by_email(&self, email: &Email) -> Result<Account, AccountError> {
        self.settle().await?;
        sqlx::query_as::<_, AccountRow>(&format!("{ACCOUNT_COLUMNS} WHERE email = $1"))
            .bind(email.as_str())
            .fetch_optional(&self.pool)
            .await?
            .map(Account::from)
            .ok_or_else(|| AccountError::UnknownAccount(email.to_string()))
    }

    pub async fn account(&self, id: &str) -> Result<Account, AccountError> {
        self.settle().await?;
        sqlx::query_as::<_, AccountRow>(&format!("{ACCOUNT_COLUMNS} WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .map(Account::from)
            .ok_or_else(|| AccountError::UnknownAccount(id.to_owned()))
    }

    pub async fn list_accounts(&self) -> Result<Vec<Account>, AccountError> {
        self.settle().await?;
        let rows = sqlx::query_as::<_, AccountRow>(&format!(
            "{ACCOUNT_COLUMNS} ORDER BY created_at, email"
        ))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(Account::from).collect())
    }

    pub async fn operator(&self) -> Result<Account, AccountError> {
        self.account_by_email(&operator_email()).await
    }

    pub(super) async fn ensure_operator(&self) -> Result<(), AccountError> {
        match self.create_account(&operator_email(), None, true).await {
            Ok(_) | Err(AccountError::EmailTaken) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Checks email and password (throttled per email and per client address; an unknown
    /// email costs the same hash as a known one) and opens a session.
    pub async fn log_in(
        &self,
        email: &str,
        password: &str,
        address: Option<IpAddr>,
    ) -> Result<(SessionToken, Account), AccountError> {
        let email = Email::parse(email).map_err(|_| AccountError::WrongCredentials)?;
        self.throttle.attempt(&email, address)?;
        let stored: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT id, password_hash FROM accounts WHERE email = $1")
                .bind(email.as_str())
                .fetch_optional(&self.pool)
                .await?;
        let (id, hash) = match stored {
            Some((id, Some(hash))) => (Some(id), Some(hash)),
            _ => (None, None),
        };
        let matches = verify_password(password.to_owned(), hash).await?;
        let id = id
            .filter(|_| matches)
            .ok_or(AccountError::WrongCredentials)?;
        let token = self.open_session(&id).await?;
        Ok((token, self.account(&id).await?))
    }

    /// Opens a console session for account `id` (after a log-in or a confirmed email).
    pub(crate) async fn open_session(&self, id: &str) -> Result<SessionToken, AccountError> {
        let token = SessionToken(random_hex(32));
        sqlx::query("DELETE FROM sessions WHERE expires_at < $1")
            .bind(now())
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (token_sha256, account_id, expires_at) VALUES ($1, $2, $3)",
        )
        .bind(sha256_hex(token.expose()))
        .bind(id)
        .bind(now() + SESSION_SECS)
        .execute(&self.pool)
        .await?;
        Ok(token)
    }

    /// The account of a live session, if the token names one.
    pub async fn session(&self, token: &str) -> Result<Option<Account>, AccountError> {
        let id: Option<String> = sqlx::query_scalar(
            "SELECT account_id FROM sessions WHERE token_sha256 = $1 AND expires_at >= $2",
        )
        .bind(sha256_hex(token))
        .bind(now())
        .fetch_optional(&self.pool)
        .await?;
        match id {
            Some(id) => Ok(Some(self.account(&id).await?)),
            None => Ok(None),
        }
    }

    pub async fn log_out(&self, token: &str) -> Result<(), AccountError> {
        sqlx::query("DELETE FROM sessions WHERE token_sha256 = $1")
            .bind(sha256_hex(token))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

fn operator_email() -> Email {
    Email::parse(OPERATOR_EMAIL).expect("the operator's email parses")
}

pub(crate) fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
}

pub(crate) async fn hash_password(password: Password) -> Result<String, AccountError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.expose().as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| AccountError::Database(format!("hashing a password: {e}")))
    })
    .await
    .map_err(|e| AccountError::Database(e.to_string()))?
}

/// Checks `password` against `hash`, or against a dummy hash (same cost, never matching)
/// when there is none.
async fn verify_password(password: String, hash: Option<String>) -> Result<bool, AccountError> {
    tokio::task::spawn_blocking(move || {
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| dummy_hash().to_owned());
        let parsed = PasswordHash::new(&hash)
            .map_err(|e| AccountError::Database(format!("a stored password hash: {e}")))?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
            && known)
    })
    .await
    .map_err(|e| AccountError::Database(e.to_string()))?
}

/// A hash of a random password, verified against when the email is unknown.
fn dummy_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(random_hex(16).as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .unwrap_or_default()
    })
}
