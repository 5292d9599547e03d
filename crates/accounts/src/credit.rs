//! Metered credit as callers see it: charging and refunding a request (done in memory by
//! `meter`), grants, the ledger and usage per key, day and endpoint. Knows no HTTP.

use crate::grant::KeyGrant;
use crate::ledger_lines::record_grant;
use crate::meter::{Charge, SECS_PER_DAY};
use crate::scopes::Scope;
use crate::{AccountError, Accounts, Credit};

/// One line of an account's ledger: a grant (starting credit, operator grant), or the debits
/// of one key on one endpoint on one day, summed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerEntry {
    /// Unix seconds (for usage: the start of its day, UTC).
    pub at: i64,
    pub amount: Credit,
    pub reason: String,
}

/// Requests and credit spent by one key on one endpoint on one day (days since 1970-01-01 UTC).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageRow {
    pub day: i64,
    pub key_id: String,
    pub key_name: String,
    pub endpoint: String,
    pub requests: i64,
    pub spent: Credit,
}

impl Accounts {
    /// Counts one request on `scope` and pays its price from this server's lease of the
    /// account's credit (reserving more in the database only when the lease runs dry), so
    /// servers never spend more than the account has. `CreditExhausted` when it cannot pay;
    /// unlimited accounts and free endpoints are only counted (`price` 0).
    pub async fn charge(&self, grant: &KeyGrant, scope: Scope) -> Result<Charge, AccountError> {
        self.meter.charge(&self.pool, grant, scope).await
    }

    /// Gives back the price of a charged request that failed, and uncounts it.
    pub fn refund(&self, grant: &KeyGrant, charge: Charge) {
        self.meter.refund(grant, charge);
    }

    /// Writes this server's pending usage (see `meter`), so that what is read next includes
    /// every request it answered.
    pub(crate) async fn settle(&self) -> Result<(), AccountError> {
        self.meter.flush(&self.pool, false).await
    }

    /// Adds `amount` (negative takes credit away) to an account, with a ledger line.
    pub async fn grant(
        &self,
        account_id: &str,
        amount: Credit,
        reason: &str,
    ) -> Result<Credit, AccountError> {
        let mut tx = self.pool.begin().await?;
        let balance: Option<i64> = sqlx::query_scalar(
            "UPDATE accounts SET credit_micros = credit_micros + $1 WHERE id = $2 RETURNING credit_micros",
        )
        .bind(amount.micros())
        .bind(account_id)
        .fetch_optional(&mut *tx)
        .await?;
        let balance = balance.ok_or_else(|| AccountError::UnknownAccount(account_id.to_owned()))?;
        record_grant(&mut tx, account_id, amount, reason).await?;
        tx.commit().await?;
        Ok(Credit::from_micros(balance))
    }

    /// Grants and daily debits, oldest first. The balance is always their sum.
    pub async fn ledger(&self, account_id: &str) -> Result<Vec<LedgerEntry>, AccountError> {
        self.settle().await?;
        let grants: Vec<(i64, i64, String)> = sqlx::query_as(
            "SELECT at, amount_micros, reason FROM credit_ledger WHERE account_id = $1",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        let mut entries: Vec<LedgerEntry> = grants
            .into_iter()
            .map(|(at, amount, reason)| LedgerEntry {
                at,
                amount: Credit::from_micros(amount),
                reason,
            })
            .collect();
        for row in self.usage(account_id, 0).await? {
            entries.push(LedgerEntry {
                at: row.day * SECS_PER_DAY,
                amount: Credit::from_micros(-row.spent.micros()),
                reason: format!(
                    "{} × {} with key {} ({})",
                    row.requests, row.endpoint, row.key_id, row.key_name
                ),
            });
        }
        entries.sort_by(|a, b| (a.at, &a.reason).cmp(&(b.at, &b.reason)));
        Ok(entries)
    }

    /// Usage of an account's keys from day `since_day` on, by day, key and endpoint.
    pub async fn usage(
        &self,
        account_id: &str,
        since_day: i64,
    ) -> Result<Vec<UsageRow>, AccountError> {
        self.settle().await?;
        let rows: Vec<(i64, String, String, String, i64, i64)> = sqlx::query_as(
            "SELECT u.day, u.key_id, k.name, u.endpoint, u.requests, u.spent_micros FROM usage_daily u \
             JOIN api_keys k ON k.id = u.key_id WHERE k.account_id = $1 AND u.day >= $2 \
             ORDER BY u.day, u.key_id, u.endpoint",
        )
        .bind(account_id)
        .bind(since_day)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(
                |(day, key_id, key_name, endpoint, requests, spent)| UsageRow {
                    day,
                    key_id,
                    key_name,
                    endpoint,
                    requests,
                    spent: Credit::from_micros(spent),
                },
            )
            .collect())
    }
}
