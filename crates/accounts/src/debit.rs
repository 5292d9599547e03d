//! The atomic debit of one request: the balance and the day's usage row in one transaction, the
//! balance check inside the UPDATE so concurrent debits on any number of servers never
//! overspend. One statement pair; batching is the meter's.

use sqlx::{Any, Transaction};

use crate::grant::KeyGrant;
use crate::ids::now;
use crate::scopes::Scope;
use crate::{AccountError, Credit};

pub(crate) const SECS_PER_DAY: i64 = 86_400;

/// What one admitted request cost, and where it was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    pub price: Credit,
    pub scope: Scope,
    pub day: i64,
}

/// Within `tx`: debits `price` from the key's account if it can pay (the check is inside the
/// UPDATE, so concurrent debits never overspend) and counts the request in its usage row.
/// `CreditExhausted` changes nothing.
pub(crate) async fn debit(
    tx: &mut Transaction<'static, Any>,
    grant: &KeyGrant,
    scope: Scope,
    price: Credit,
) -> Result<Charge, AccountError> {
    let spent = if price > Credit::ZERO {
        let unlimited: Option<i64> = sqlx::query_scalar(
            "UPDATE accounts SET credit_micros = CASE WHEN unlimited = 1 THEN credit_micros ELSE credit_micros - $1 END \
             WHERE id = $2 AND (unlimited = 1 OR credit_micros >= $3) RETURNING unlimited",
        )
        .bind(price.micros())
        .bind(&grant.account_id)
        .bind(price.micros())
        .fetch_optional(&mut **tx)
        .await?;
        match unlimited {
            None => return Err(AccountError::CreditExhausted),
            Some(1) => Credit::ZERO,
            Some(_) => price,
        }
    } else {
        Credit::ZERO
    };
    let day = today();
    sqlx::query(
        "INSERT INTO usage_daily (key_id, day, endpoint, requests, spent_micros) VALUES ($1, $2, $3, 1, $4) \
         ON CONFLICT (key_id, day, endpoint) DO UPDATE SET requests = usage_daily.requests + 1, \
         spent_micros = usage_daily.spent_micros + $5",
    )
    .bind(&grant.key_id)
    .bind(day)
    .bind(scope.as_str())
    .bind(spent.micros())
    .bind(spent.micros())
    .execute(&mut **tx)
    .await?;
    Ok(Charge {
        price: spent,
        scope,
        day,
    })
}

/// Today, in days since 1970-01-01 UTC.
pub fn today() -> i64 {
    now() / SECS_PER_DAY
}
