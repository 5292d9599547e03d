//! Hit and miss counters of the engine's in-memory caches (verify answers, question vectors):
//! relaxed atomics, so a lookup pays one uncontended increment. Read by the HTTP metrics; knows
//! nothing about how they are exposed.

use std::sync::atomic::{AtomicU64, Ordering};

/// Counts the lookups of one cache.
#[derive(Debug, Default)]
pub struct CacheCounters {
    hits: AtomicU64,
    misses: AtomicU64,
}

/// What a cache has answered since the process started, and how full it is now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    /// Entries held now (approximate: the cache evicts concurrently).
    pub entries: u64,
}

impl CacheCounters {
    pub fn hit(&self) {
        self.hits.fetch_add(1, Ordering::Relaxed);
    }

    pub fn miss(&self) {
        self.misses.fetch_add(1, Ordering::Relaxed);
    }

    /// The counts so far, with the cache's current number of `entries`.
    pub fn stats(&self, entries: u64) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            entries,
        }
    }
}

impl CacheStats {
    /// Hits per lookup, 0 before the first lookup.
    pub fn hit_ratio(&self) -> f64 {
        let lookups = self.hits + self.misses;
        if lookups == 0 {
            return 0.0;
        }
        self.hits as f64 / lookups as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_hits_and_misses_and_their_ratio() {
        let counters = CacheCounters::default();
        assert_eq!(counters.stats(0).hit_ratio(), 0.0);
        counters.hit();
        counters.hit();
        counters.hit();
        counters.miss();
        let stats = counters.stats(7);
        assert_eq!((stats.hits, stats.misses, stats.entries), (3, 1, 7));
        assert_eq!(stats.hit_ratio(), 0.75);
    }
}
