//! Verify: resolves a fingerprint to the exact segment it was computed from, on the live
//! generation or on Neo4j, behind a cache keyed by what each answer was read from (so an
//! answer of a replaced generation or an earlier sync is never served). No HTTP, no ranking.

use std::sync::Arc;

use moka::sync::Cache;

pub use crate::index::fingerprints::{FingerprintIndex, Lookup};
pub use drugcite_core::domain::MAX_HAMMING_RADIUS;

use crate::cache_stats::{CacheCounters, CacheStats};
use crate::error::EngineError;
use crate::index::LiveIndex;
use crate::neo4j::{Neo4jError, SyncWatch};
use drugcite_core::domain::Fingerprint;
use drugcite_store::StoredSegment;

/// Verified segments kept in memory; a citation checker re-verifies the same few often.
const CACHE_ENTRIES: u64 = 50_000;

pub enum Verification {
    Verified(Arc<StoredSegment>),
    /// No exact match; the nearest indexed fingerprint differs in `distance` bits.
    Mismatch {
        distance: u32,
    },
    NotFound,
}

/// Where verify reads segments.
pub enum SegmentSource {
    /// The live generation's own store.
    Embedded,
    /// The Neo4j database the generation was synced into.
    Neo4j(Arc<SyncWatch>),
}

pub struct Verifier {
    index: Arc<LiveIndex>,
    source: SegmentSource,
    /// Keyed by the live generation's epoch, or on Neo4j by the sync's.
    /// foldhash: only fingerprints of indexed segments are kept, so a client cannot choose keys.
    cache: Cache<(u64, Fingerprint), Arc<StoredSegment>, foldhash::fast::RandomState>,
    counters: CacheCounters,
}

impl Verifier {
    pub fn new(index: Arc<LiveIndex>, source: SegmentSource) -> Self {
        Self {
            index,
            source,
            cache: Cache::builder()
                .max_capacity(CACHE_ENTRIES)
                .build_with_hasher(foldhash::fast::RandomState::default()),
            counters: CacheCounters::default(),
        }
    }

    /// The verify cache's hits, misses and size since the process started.
    pub fn cache_stats(&self) -> CacheStats {
        self.counters.stats(self.cache.entry_count())
    }

    /// The segment of `fingerprint` if its answer is cached for what is served now: never
    /// blocks, so an async caller can answer a hit without a trip to the blocking pool.
    pub fn cached(&self, fingerprint: Fingerprint) -> Option<Arc<StoredSegment>> {
        let segment = self.cache.get(&(self.epoch(), fingerprint));
        if segment.is_some() {
            self.counters.hit();
        }
        segment
    }

    /// The epoch of what is served now (the live generation's, or on Neo4j the sync's); it
    /// only grows, so an answer looked up after reading it is never older than it.
    pub fn epoch(&self) -> u64 {
        match &self.source {
            SegmentSource::Embedded => self.index.epoch(),
            SegmentSource::Neo4j(watch) => watch.epoch(),
        }
    }

    pub fn verify(&self, fingerprint: Fingerprint) -> Result<Verification, EngineError> {
        match &self.source {
            SegmentSource::Embedded => self.verify_embedded(fingerprint),
            SegmentSource::Neo4j(watch) => self.verify_on_neo4j(watch, fingerprint),
        }
    }

    fn verify_embedded(&self, fingerprint: Fingerprint) -> Result<Verification, EngineError> {
        let live = self.index.current();
        let key = (live.epoch, fingerprint);
        if let Some(segment) = self.cache.get(&key) {
            self.counters.hit();
            return Ok(Verification::Verified(segment));
        }
        self.counters.miss();
        Ok(match live.fingerprints.lookup(fingerprint) {
            Lookup::Exact(address) => {
                let segment = Arc::new(live.snapshot.segment(address)?);
                self.cache.insert(key, Arc::clone(&segment));
                Verification::Verified(segment)
            }
            Lookup::Near { distance, .. } => Verification::Mismatch { distance },
            Lookup::Absent => Verification::NotFound,
        })
    }

    /// Exact match by an indexed lookup; else the nearest fingerprint sharing a 16-bit block.
    fn verify_on_neo4j(
        &self,
        watch: &SyncWatch,
        fingerprint: Fingerprint,
    ) -> Result<Verification, EngineError> {
        let key = (watch.epoch(), fingerprint);
        if let Some(segment) = self.cache.get(&key) {
            self.counters.hit();
            return Ok(Verification::Verified(segment));
        }
        self.counters.miss();
        let client = watch.client();
        if let Some(segment) = client.segment(fingerprint)? {
            let segment = Arc::new(segment);
            self.cache.insert(key, Arc::clone(&segment));
            return Ok(Verification::Verified(segment));
        }
        Ok(match client.nearest(fingerprint)? {
            Some((distance, _)) => Verification::Mismatch { distance },
            None => Verification::NotFound,
        })
    }

    /// Notices a newer Neo4j sync (answers cached from an earlier one are no longer served);
    /// nothing to do on the embedded store, whose generations key the cache themselves.
    pub fn follow_syncs(&self) -> Result<(), Neo4jError> {
        if let SegmentSource::Neo4j(watch) = &self.source {
            watch.check()?;
        }
        Ok(())
    }
}
