//! Which sync a server on Neo4j is following: the digest of the last completed sync, asked of
//! Neo4j at most once per `RECHECK`, and an epoch that changes whenever that digest does, for
//! caches to key by. Reads nothing but the digest.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Neo4jClient, Neo4jError};

/// How often a server on Neo4j asks whether a newer sync has completed.
const RECHECK: Duration = Duration::from_secs(1);

/// The last completed sync as seen by this server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenSync {
    /// Changes whenever `digest` does.
    pub epoch: u64,
    /// What the sync wrote; `None`: a database no sync completed in.
    pub digest: Option<String>,
}

pub struct SyncWatch {
    client: Arc<Neo4jClient>,
    seen: Mutex<Option<(SeenSync, Instant)>>,
    epoch: AtomicU64,
}

impl SyncWatch {
    pub fn new(client: Arc<Neo4jClient>) -> Self {
        Self {
            client,
            seen: Mutex::new(None),
            epoch: AtomicU64::new(0),
        }
    }

    pub fn client(&self) -> &Neo4jClient {
        &self.client
    }

    /// The last completed sync, asking Neo4j if the last answer is older than `RECHECK`. No
    /// lock is held while Neo4j is asked.
    pub fn check(&self) -> Result<SeenSync, Neo4jError> {
        if let Some((seen, at)) = self.seen.lock().unwrap_or_else(|e| e.into_inner()).clone() {
            if at.elapsed() < RECHECK {
                return Ok(seen);
            }
        }
        let digest = self.client.synced_graph_digest()?;
        let mut slot = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let epoch = match slot.as_ref() {
            Some((seen, _)) if seen.digest == digest => seen.epoch,
            Some(_) => self.epoch.fetch_add(1, Ordering::AcqRel) + 1,
            None => self.epoch.load(Ordering::Acquire),
        };
        let seen = SeenSync { epoch, digest };
        *slot = Some((seen.clone(), Instant::now()));
        Ok(seen)
    }

    /// The epoch of the last sync seen, without asking Neo4j.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::Acquire)
    }
}
