//! How accounts are opened and billed: the operator account, the price of each endpoint, the
//! starting credit, whether sign-up is open, and how metering runs (lease size, lease expiry,
//! how often usage is written and revocations are looked for). Values; charging is `meter`'s.

use std::time::Duration;

use crate::scopes::Scope;
use crate::values::Credit;

/// The account CLI keys belong to: unlimited credit, no password (it cannot log in).
pub const OPERATOR_EMAIL: &str = "operator@drugcite.invalid";

/// Price of one request to each endpoint.
#[derive(Clone, Copy, Debug)]
pub struct Prices {
    pub search: Credit,
    pub verify: Credit,
    pub graph: Credit,
}

impl Prices {
    pub fn of(&self, scope: Scope) -> Credit {
        match scope {
            Scope::Search => self.search,
            Scope::Verify => self.verify,
            Scope::Graph => self.graph,
        }
    }
}

/// How accounts are opened and billed.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// Credit a new account starts with (default USD 5.00).
    pub starting_credit: Credit,
    pub prices: Prices,
    /// Whether anyone may sign up in the console; otherwise only the operator's CLI makes accounts.
    pub open_signup: bool,
    pub metering: Metering,
}

/// How a server meters keyed requests: credit is spent from leases it reserves in the
/// database, usage is counted in memory and written in batches, and cached keys are checked
/// against the database's revision counter.
#[derive(Clone, Copy, Debug)]
pub struct Metering {
    /// Credit one server reserves from an account at a time (default USD 0.10: 20 searches at
    /// the default price); at least one request's price is reserved whatever this says. It
    /// bounds what a `kill -9` can take from an account (see `docs/accounts.md`).
    pub lease: Credit,
    /// A lease not renewed for this long is forfeit: its server is taken to have died (default
    /// 30 s). Live servers renew theirs at every usage write.
    pub lease_ttl: Duration,
    /// How often usage is written to the database, leases renewed, idle ones returned and
    /// expired ones forfeited (default 1 s).
    pub flush_every: Duration,
    /// How often the key revision counter is read; a revocation holds on every server within
    /// this (default 250 ms).
    pub key_poll_every: Duration,
    /// Most keys held in a server's key cache (default 100,000).
    pub key_cache_capacity: u64,
}

impl Default for Metering {
    fn default() -> Self {
        Self {
            lease: Credit::from_micros(100_000),
            lease_ttl: Duration::from_secs(30),
            flush_every: Duration::from_secs(1),
            key_poll_every: Duration::from_millis(250),
            key_cache_capacity: 100_000,
        }
    }
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            starting_credit: Credit::from_micros(5_000_000),
            prices: Prices {
                search: Credit::from_micros(5_000),
                verify: Credit::ZERO,
                graph: Credit::from_micros(5_000),
            },
            open_signup: true,
            metering: Metering::default(),
        }
    }
}
