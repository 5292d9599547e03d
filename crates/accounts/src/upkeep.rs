//! The background work of a serving `Accounts`: reading the key revision (so revocations made
//! anywhere hold here), writing usage and renewing or returning leases, forfeiting leases of
//! servers that stopped; and the last write when the server stops. Timing only: the rules are
//! `key_cache`'s, `meter`'s and `lease`'s.

use std::sync::Arc;

use tokio::time::{interval, MissedTickBehavior};

use crate::ids::now;
use crate::lease::forfeit_expired;
use crate::{AccountError, Accounts};

impl Accounts {
    /// Runs until dropped (abort its task): polls the key revision every `key_poll_every`,
    /// and every `flush_every` writes usage and forfeits expired leases. Failures are logged
    /// and retried at the next tick (unwritten usage stays in memory).
    pub async fn run_upkeep(self: Arc<Self>) {
        let metering = self.policy.metering;
        let mut poll = interval(metering.key_poll_every);
        let mut flush = interval(metering.flush_every);
        poll.set_missed_tick_behavior(MissedTickBehavior::Delay);
        flush.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = poll.tick() => {
                    if let Err(e) = self.keys.poll(&self.pool).await {
                        tracing::warn!("reading the key revision: {e}");
                    }
                }
                _ = flush.tick() => {
                    if let Err(e) = self.meter.flush(&self.pool, false).await {
                        tracing::warn!("writing usage: {e}");
                    }
                    match forfeit_expired(&self.pool, now()).await {
                        Ok(0) => {}
                        Ok(n) => tracing::warn!("forfeited {n} expired credit leases of stopped servers"),
                        Err(e) => tracing::warn!("forfeiting expired credit leases: {e}"),
                    }
                }
            }
        }
    }

    /// Writes the last usage and gives every lease back (call when the server stops).
    pub async fn close(&self) -> Result<(), AccountError> {
        self.meter.flush(&self.pool, true).await
    }
}
