//! Metering in memory: every keyed request is counted, and a priced one is paid from this
//! server's lease of its account's credit, under one short lock and without the database. The
//! database sees usage in batches and a reservation when a lease runs dry (`lease`). Must
//! never admit a priced request its lease cannot pay.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use sqlx::AnyPool;

use crate::grant::KeyGrant;
use crate::ids::{now, random_hex};
use crate::lease::{self, Batch, KeyCounts, Usage};
use crate::scopes::Scope;
use crate::{AccountError, Credit, Prices};

pub(crate) const SECS_PER_DAY: i64 = 86_400;

/// What one admitted request cost, and where it was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    pub price: Credit,
    pub scope: Scope,
    pub day: i64,
}

/// Today, in days since 1970-01-01 UTC.
pub fn today() -> i64 {
    now() / SECS_PER_DAY
}

/// Credit this server holds of one account: `remaining` is what it may still spend; the
/// database's `held_micros` of lease `id` is that plus what it spent and has not written yet.
#[derive(Clone, Debug)]
pub(crate) struct Lease {
    pub id: String,
    pub remaining: i64,
    /// Spent from since the last write; a lease idle for a whole write period is returned.
    used: bool,
}

/// One request counted at a time (Unix seconds), or one charged request given back.
#[derive(Clone, Copy)]
enum Counted {
    At(i64),
    Refunded,
}

/// Keyed with foldhash: only ids of authenticated keys and their accounts are ever keys.
#[derive(Default)]
struct Local {
    /// Usage not yet written, by key id.
    usage: Usage,
    /// This server's leases, by account id.
    leases: HashMap<String, Lease, foldhash::fast::RandomState>,
    /// Leases to give back at the next write, by account id.
    returning: HashMap<String, Lease>,
}

pub(crate) struct Meter {
    prices: Prices,
    /// Credit reserved from an account at a time.
    lease_size: Credit,
    lease_ttl: Duration,
    /// Names this server's leases in the database.
    server_id: String,
    local: Mutex<Local>,
    /// This server's metering writes (reservations, usage batches) go one at a time, so its
    /// leases never race each other and its transactions take rows in one order.
    writer: tokio::sync::Mutex<()>,
}

impl Meter {
    pub fn new(prices: Prices, lease_size: Credit, lease_ttl: Duration) -> Self {
        Self {
            prices,
            lease_size,
            lease_ttl,
            server_id: random_hex(8),
            local: Mutex::new(Local::default()),
            writer: tokio::sync::Mutex::new(()),
        }
    }

    fn local(&self) -> MutexGuard<'_, Local> {
        self.local.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts one request on `scope` and pays its price from this server's lease, reserving
    /// more credit when the lease cannot pay. `CreditExhausted` when the account cannot.
    pub async fn charge(
        &self,
        pool: &AnyPool,
        grant: &KeyGrant,
        scope: Scope,
    ) -> Result<Charge, AccountError> {
        let price = if grant.unlimited {
            Credit::ZERO
        } else {
            self.prices.of(scope)
        };
        let at = now();
        let charge = Charge {
            price,
            scope,
            day: at / SECS_PER_DAY,
        };
        loop {
            {
                let mut local = self.local();
                if price == Credit::ZERO || local.spend(&grant.account_id, price.micros()) {
                    local.count(grant, charge, Counted::At(at));
                    return Ok(charge);
                }
            }
            self.reserve(pool, &grant.account_id, price).await?;
        }
    }

    /// Uncounts a charged request that failed and gives its price back to the lease.
    pub fn refund(&self, grant: &KeyGrant, charge: Charge) {
        let mut local = self.local();
        local.count(grant, charge, Counted::Refunded);
        let price = charge.price.micros();
        if let Some(lease) = local.lease_mut(&grant.account_id) {
            lease.remaining += price;
        }
    }

    /// Reserves credit of `account_id` until this server's lease can pay `price`.
    async fn reserve(
        &self,
        pool: &AnyPool,
        account_id: &str,
        price: Credit,
    ) -> Result<(), AccountError> {
        let _writer = self.writer.lock().await;
        let held = {
            let mut local = self.local();
            if let Some(lease) = local.returning.remove(account_id) {
                local.leases.insert(account_id.to_owned(), lease);
            }
            match local.leases.get(account_id) {
                Some(lease) if lease.remaining >= price.micros() => return Ok(()),
                Some(lease) => Some(lease.clone()),
                None => None,
            }
        };
        let remaining = held.as_ref().map_or(0, |lease| lease.remaining);
        let wanted = self.lease_size.max(price).micros() - remaining;
        let reserved = lease::reserve(
            pool,
            lease::Reservation {
                account_id,
                server_id: &self.server_id,
                lease_id: held.as_ref().map(|lease| lease.id.as_str()),
                wanted,
                needed: price.micros() - remaining,
                expires_at: self.expiry(),
            },
        )
        .await?;
        let mut local = self.local();
        let lease = local
            .leases
            .entry(account_id.to_owned())
            .or_insert_with(|| Lease {
                id: reserved.id.clone(),
                remaining: 0,
                used: true,
            });
        if lease.id != reserved.id {
            // The old lease expired in the database and was forfeit; what it had left is gone.
            *lease = Lease {
                id: reserved.id,
                remaining: 0,
                used: true,
            };
        }
        lease.remaining += reserved.taken;
        lease.used = true;
        Ok(())
    }

    /// Writes the usage counted since the last write, renews this server's leases, returns
    /// those idle for a whole period (all of them when `closing`), in one transaction.
    pub async fn flush(&self, pool: &AnyPool, closing: bool) -> Result<(), AccountError> {
        let _writer = self.writer.lock().await;
        let batch = self.local().take_batch(closing);
        match lease::write(pool, &self.server_id, &batch, self.expiry()).await {
            Ok(forfeited) => {
                let mut local = self.local();
                local.returned(&batch.returning);
                for account_id in forfeited {
                    local.leases.remove(&account_id);
                }
                Ok(())
            }
            Err(e) => {
                self.local().restore(batch);
                Err(e)
            }
        }
    }

    fn expiry(&self) -> i64 {
        now() + i64::try_from(self.lease_ttl.as_secs()).unwrap_or(i64::MAX / 2)
    }
}

impl Local {
    /// Pays `price` from the account's lease if it can.
    fn spend(&mut self, account_id: &str, price: i64) -> bool {
        match self.leases.get_mut(account_id) {
            Some(lease) if lease.remaining >= price => {
                lease.remaining -= price;
                lease.used = true;
                true
            }
            _ => false,
        }
    }

    fn lease_mut(&mut self, account_id: &str) -> Option<&mut Lease> {
        match self.leases.get_mut(account_id) {
            Some(lease) => Some(lease),
            None => self.returning.get_mut(account_id),
        }
    }

    /// Adds one request, or takes one away (a refund), to the key's usage; a request counted
    /// `at` a time is the key's last use.
    fn count(&mut self, grant: &KeyGrant, charge: Charge, counted: Counted) {
        let counts = match self.usage.get_mut(&grant.key_id) {
            Some(counts) => counts,
            None => self
                .usage
                .entry(grant.key_id.clone())
                .or_insert_with(|| KeyCounts::new(&grant.account_id)),
        };
        let requests = match counted {
            Counted::At(at) => {
                counts.last_used = at;
                1
            }
            Counted::Refunded => -1,
        };
        counts.add(
            charge.day,
            charge.scope,
            requests,
            requests * charge.price.micros(),
        );
    }

    /// The usage to write and the leases to give back; leases idle since the last write (all
    /// of them when `closing`) move to `returning` until the write succeeds.
    fn take_batch(&mut self, closing: bool) -> Batch {
        let idle: Vec<String> = self
            .leases
            .iter_mut()
            .filter_map(|(account_id, lease)| {
                let idle = closing || !lease.used;
                lease.used = false;
                idle.then(|| account_id.clone())
            })
            .collect();
        for account_id in idle {
            if let Some(lease) = self.leases.remove(&account_id) {
                self.returning.insert(account_id, lease);
            }
        }
        Batch {
            usage: std::mem::take(&mut self.usage),
            returning: self
                .returning
                .iter()
                .map(|(account_id, lease)| (account_id.clone(), lease.id.clone()))
                .collect(),
        }
    }

    /// Puts back a batch whose write failed, so the next write carries it.
    fn restore(&mut self, batch: Batch) {
        for (key_id, counts) in batch.usage {
            match self.usage.get_mut(&key_id) {
                Some(current) => current.merge(counts),
                None => {
                    self.usage.insert(key_id, counts);
                }
            }
        }
    }

    /// Forgets the leases a successful write gave back (and that no reservation took back).
    fn returned(&mut self, given_back: &[(String, String)]) {
        for (account_id, id) in given_back {
            if self
                .returning
                .get(account_id)
                .is_some_and(|lease| &lease.id == id)
            {
                self.returning.remove(account_id);
            }
        }
    }
}
