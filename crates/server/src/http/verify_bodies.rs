//! The written JSON of verified answers, kept per (epoch, fingerprint): the epoch is the one
//! the verifier served when the request began, read before the segment was looked up, so a
//! body is never older than the epoch it is found under and a new index generation or Neo4j
//! sync is never answered from an old body. Holds no verify rules; a miss only costs writing
//! the answer again.

use axum::body::Bytes;
use drugcite_core::domain::Fingerprint;
use drugcite_engine::cache_stats::CacheCounters;

/// Bytes of written answers kept (a verify answer is ~1–3 KB).
const KEPT_BYTES: u64 = 16 * 1024 * 1024;

/// The epoch a verify answer was read at, and its fingerprint.
type BodyKey = (u64, Fingerprint);

/// Keyed with foldhash: only fingerprints of indexed segments are ever kept, so a client
/// cannot choose the keys.
pub struct VerifiedBodies {
    bodies: moka::sync::Cache<BodyKey, Bytes, foldhash::fast::RandomState>,
    /// Requests answered from a kept body (their misses are the verifier's to count).
    hits: CacheCounters,
}

impl Default for VerifiedBodies {
    fn default() -> Self {
        Self {
            bodies: moka::sync::Cache::builder()
                .weigher(|_, body: &Bytes| u32::try_from(body.len()).unwrap_or(u32::MAX))
                .max_capacity(KEPT_BYTES)
                .build_with_hasher(foldhash::fast::RandomState::default()),
            hits: CacheCounters::default(),
        }
    }
}

impl VerifiedBodies {
    /// The body written for `fingerprint` under `epoch`, if kept.
    pub fn get(&self, epoch: u64, fingerprint: Fingerprint) -> Option<Bytes> {
        let body = self.bodies.get(&(epoch, fingerprint));
        if body.is_some() {
            self.hits.hit();
        }
        body
    }

    /// Keeps `body` under the epoch read before its segment was looked up.
    pub fn keep(&self, epoch: u64, fingerprint: Fingerprint, body: Bytes) {
        self.bodies.insert((epoch, fingerprint), body);
    }

    /// Requests answered from a kept body since the process started.
    pub fn hits(&self) -> u64 {
        self.hits.stats(0).hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_reused_only_under_the_epoch_it_was_kept_under() {
        let bodies = VerifiedBodies::default();
        let fingerprint = Fingerprint::of_segment("set-1", "warnings", "Do not use.");
        bodies.keep(7, fingerprint, Bytes::from_static(b"{current}"));
        assert_eq!(
            bodies.get(7, fingerprint).as_deref(),
            Some(&b"{current}"[..])
        );
        assert_eq!(
            bodies.get(8, fingerprint),
            None,
            "a newer generation misses"
        );
        let other = Fingerprint::of_segment("set-1", "warnings", "Do use.");
        assert_eq!(bodies.get(7, other), None);
        assert_eq!(bodies.hits(), 1);
    }
}
