//! Metered credit: the atomic debit of one request (balance and usage in one transaction,
//! the balance check inside the UPDATE so concurrent debits on any number of servers never
//! overspend), grants, the ledger and usage per key, day and endpoint. Knows no HTTP.

use sqlx::{Any, Transaction};

use crate::debit::{Charge, SECS_PER_DAY};
use crate::grant::KeyGrant;
use crate::ids::{now, random_hex};
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
    /// Debits the price of one request on `scope` and counts it, atomically and durably: the
    /// transaction (shared with the requests charged at the same moment, see `meter`) commits
    /// before this returns. `CreditExhausted` when the account cannot pay; unlimited accounts
    /// are counted but never debited (`price` 0).
    pub async fn charge(&self, grant: &KeyGrant, scope: Scope) -> Result<Charge, AccountError> {
        self.meter.charge(grant.clone(), scope).await
    }

    /// Gives back a charge whose request failed, and uncounts the request, atomically.
    pub async fn refund(&self, grant: &KeyGrant, charge: Charge) -> Result<(), AccountError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET credit_micros = credit_micros + $1 WHERE id = $2")
            .bind(charge.price.micros())
            .bind(&grant.account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE usage_daily SET requests = requests - 1, spent_micros = spent_micros - $1 \
             WHERE key_id = $2 AND day = $3 AND endpoint = $4",
        )
        .bind(charge.price.micros())
        .bind(&grant.key_id)
        .bind(charge.day)
        .bind(charge.scope.as_str())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
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

pub(super) async fn record_grant(
    tx: &mut Transaction<'static, Any>,
    account_id: &str,
    amount: Credit,
    reason: &str,
) -> Result<(), AccountError> {
    sqlx::query("INSERT INTO credit_ledger (id, account_id, at, amount_micros, reason) VALUES ($1, $2, $3, $4, $5)")
        .bind(random_hex(8))
        .bind(account_id)
        .bind(now())
        .bind(amount.micros())
        .bind(reason)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
