//! Writing one line of an account's ledger (a grant, a take-back, a forfeited lease) inside
//! the caller's transaction. The line only: changing the balance it explains is the caller's.

use sqlx::{Any, Transaction};

use crate::ids::{now, random_hex};
use crate::{AccountError, Credit};

pub(crate) async fn record_grant(
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
