//! Credit leases and usage batches in the database. A server reserves a block of an account's
//! credit (the balance check inside the UPDATE, so servers never take more than there is),
//! writes its usage with the matching decrement of its lease in one transaction, returns what
//! it did not spend, and forfeits leases whose server stopped renewing them. For every account
//! its ledger (grants + usage) always equals its credit plus its leases' held credit. No
//! in-memory state here: that is `meter`'s.

use std::collections::{BTreeMap, HashMap};

use sqlx::AnyPool;

use crate::ids::random_hex;
use crate::ledger_lines::record_grant;
use crate::scopes::Scope;
use crate::{AccountError, Credit};

/// Requests and credit of one key not yet written, per (day, endpoint); may be negative
/// after a refund of a request already written.
#[derive(Debug)]
pub(crate) struct KeyCounts {
    account_id: String,
    rows: Vec<(i64, Scope, i64, i64)>,
    /// Unix seconds of the last request counted (0: none, only refunds).
    pub last_used: i64,
}

impl KeyCounts {
    pub fn new(account_id: &str) -> Self {
        Self {
            account_id: account_id.to_owned(),
            rows: Vec::new(),
            last_used: 0,
        }
    }

    pub fn add(&mut self, day: i64, scope: Scope, requests: i64, spent: i64) {
        match self.rows.iter_mut().find(|r| r.0 == day && r.1 == scope) {
            Some(row) => {
                row.2 += requests;
                row.3 += spent;
            }
            None => self.rows.push((day, scope, requests, spent)),
        }
    }

    pub fn merge(&mut self, other: KeyCounts) {
        for (day, scope, requests, spent) in other.rows {
            self.add(day, scope, requests, spent);
        }
        self.last_used = self.last_used.max(other.last_used);
    }
}

/// Usage not yet written, by key id (foldhash: only ids of authenticated keys are keys).
pub(crate) type Usage = HashMap<String, KeyCounts, foldhash::fast::RandomState>;

/// One write: usage by key id, and the leases (account id, lease id) to give back.
pub(crate) struct Batch {
    pub usage: Usage,
    pub returning: Vec<(String, String)>,
}

/// A server asking for `wanted` more credit of an account, of which it needs at least `needed`.
pub(crate) struct Reservation<'a> {
    pub account_id: &'a str,
    pub server_id: &'a str,
    /// The server's current lease of the account, topped up if it still exists.
    pub lease_id: Option<&'a str>,
    pub wanted: i64,
    pub needed: i64,
    pub expires_at: i64,
}

/// The lease the credit went to, and how much was taken.
pub(crate) struct Reserved {
    pub id: String,
    pub taken: i64,
}

/// Moves up to `wanted` of the account's credit into the server's lease, in one transaction.
/// `CreditExhausted` (nothing changed) when the account has less than `needed`.
pub(crate) async fn reserve(
    pool: &AnyPool,
    asked: Reservation<'_>,
) -> Result<Reserved, AccountError> {
    let mut tx = pool.begin().await?;
    let mut taken = asked.wanted;
    loop {
        let debited = sqlx::query(
            "UPDATE accounts SET credit_micros = credit_micros - $1 WHERE id = $2 AND credit_micros >= $3",
        )
        .bind(taken)
        .bind(asked.account_id)
        .bind(taken)
        .execute(&mut *tx)
        .await?;
        if debited.rows_affected() == 1 {
            break;
        }
        let available: Option<i64> =
            sqlx::query_scalar("SELECT credit_micros FROM accounts WHERE id = $1")
                .bind(asked.account_id)
                .fetch_optional(&mut *tx)
                .await?;
        let available =
            available.ok_or_else(|| AccountError::UnknownAccount(asked.account_id.to_owned()))?;
        if available < asked.needed {
            return Err(AccountError::CreditExhausted);
        }
        taken = available.min(asked.wanted);
    }
    let topped_up = match asked.lease_id {
        Some(id) => {
            sqlx::query(
                "UPDATE credit_leases SET held_micros = held_micros + $1, expires_at = $2 WHERE id = $3 AND server_id = $4",
            )
            .bind(taken)
            .bind(asked.expires_at)
            .bind(id)
            .bind(asked.server_id)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1
        }
        None => false,
    };
    let id = match (topped_up, asked.lease_id) {
        (true, Some(id)) => id.to_owned(),
        _ => {
            let id = random_hex(8);
            sqlx::query("INSERT INTO credit_leases (id, account_id, server_id, held_micros, expires_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(&id)
                .bind(asked.account_id)
                .bind(asked.server_id)
                .bind(taken)
                .bind(asked.expires_at)
                .execute(&mut *tx)
                .await?;
            id
        }
    };
    tx.commit().await?;
    Ok(Reserved { id, taken })
}

/// Writes a batch in one transaction: each account's net spend taken off this server's lease
/// of it and added to the usage rows, keys' last use, this server's leases renewed to
/// `expires_at`, the returned leases' credit given back to their accounts. Returns the accounts
/// whose lease was forfeit meanwhile (their spend is already gone with the lease, so their
/// requests are counted with no credit).
pub(crate) async fn write(
    pool: &AnyPool,
    server_id: &str,
    batch: &Batch,
    expires_at: i64,
) -> Result<Vec<String>, AccountError> {
    let mut spent: BTreeMap<&str, i64> = BTreeMap::new();
    for counts in batch.usage.values() {
        let total: i64 = counts.rows.iter().map(|row| row.3).sum();
        *spent.entry(counts.account_id.as_str()).or_default() += total;
    }
    let mut tx = pool.begin().await?;
    let mut forfeited = Vec::new();
    let mut credit_back: BTreeMap<&str, i64> = BTreeMap::new();
    for (&account_id, &amount) in spent.iter().filter(|(_, amount)| **amount != 0) {
        let found = sqlx::query(
            "UPDATE credit_leases SET held_micros = held_micros - $1 WHERE account_id = $2 AND server_id = $3",
        )
        .bind(amount)
        .bind(account_id)
        .bind(server_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        match (found, amount > 0) {
            (0, true) => forfeited.push(account_id.to_owned()),
            (0, false) => *credit_back.entry(account_id).or_default() -= amount,
            _ => {}
        }
    }
    let mut keys: Vec<(&String, &KeyCounts)> = batch.usage.iter().collect();
    keys.sort_by_key(|(key_id, _)| *key_id);
    for (key_id, counts) in &keys {
        let unpaid = forfeited.contains(&counts.account_id);
        let mut rows = counts.rows.clone();
        rows.sort_by_key(|row| (row.0, row.1));
        for (day, scope, requests, spent) in rows {
            let spent = if unpaid { 0 } else { spent };
            if requests == 0 && spent == 0 {
                continue;
            }
            sqlx::query(
                "INSERT INTO usage_daily (key_id, day, endpoint, requests, spent_micros) VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (key_id, day, endpoint) DO UPDATE SET requests = usage_daily.requests + $6, \
                 spent_micros = usage_daily.spent_micros + $7",
            )
            .bind(key_id.as_str())
            .bind(day)
            .bind(scope.as_str())
            .bind(requests)
            .bind(spent)
            .bind(requests)
            .bind(spent)
            .execute(&mut *tx)
            .await?;
        }
    }
    for (key_id, counts) in keys.iter().filter(|(_, counts)| counts.last_used > 0) {
        sqlx::query(
            "UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $3)",
        )
        .bind(counts.last_used)
        .bind(key_id.as_str())
        .bind(counts.last_used)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("UPDATE credit_leases SET expires_at = $1 WHERE server_id = $2")
        .bind(expires_at)
        .bind(server_id)
        .execute(&mut *tx)
        .await?;
    for (account_id, lease_id) in &batch.returning {
        let held: Option<i64> = sqlx::query_scalar(
            "DELETE FROM credit_leases WHERE id = $1 AND server_id = $2 RETURNING held_micros",
        )
        .bind(lease_id)
        .bind(server_id)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(held) = held {
            *credit_back.entry(account_id.as_str()).or_default() += held;
        }
    }
    for (account_id, amount) in credit_back.into_iter().filter(|(_, amount)| *amount != 0) {
        sqlx::query("UPDATE accounts SET credit_micros = credit_micros + $1 WHERE id = $2")
            .bind(amount)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(forfeited)
}

/// Forfeits every lease (of any server) not renewed by `now`: its server is taken to have
/// stopped, and whatever it served from the lease since its last write went unrecorded, so
/// the credit is neither given back (that could pay twice for a request) nor counted as usage;
/// a ledger line says what was forfeit. Returns how many leases were forfeit.
pub(crate) async fn forfeit_expired(pool: &AnyPool, now: i64) -> Result<usize, AccountError> {
    let mut tx = pool.begin().await?;
    let expired: Vec<(String, i64, String)> = sqlx::query_as(
        "DELETE FROM credit_leases WHERE expires_at < $1 RETURNING account_id, held_micros, server_id",
    )
    .bind(now)
    .fetch_all(&mut *tx)
    .await?;
    for (account_id, held, server_id) in expired.iter().filter(|lease| lease.1 != 0) {
        let reason = format!(
            "credit lease of server {server_id} forfeit: the server stopped without returning it \
             (requests it served from it since its last usage write are not itemised)"
        );
        record_grant(&mut tx, account_id, Credit::from_micros(-held), &reason).await?;
    }
    tx.commit().await?;
    Ok(expired.len())
}
