//! The engine façade the CLI and the HTTP adapter share: the live snapshot with its
//! fingerprint index, search, and cached verify. Swaps to a newly published generation
//! without a restart. No HTTP types here.

use std::path::PathBuf;
use std::sync::Arc;

use arc_swap::ArcSwap;
use moka::sync::Cache;

use crate::domain::{Fingerprint, Question, TopK};
use crate::search::lexical_search;
use crate::store::{DataDir, Snapshot, StoreError, StoredSegment};
use crate::verify::{FingerprintIndex, Lookup};

/// Verified segments kept in memory; a citation checker re-verifies the same few often.
const VERIFY_CACHE_ENTRIES: u64 = 50_000;

pub enum Verification {
    Verified(Arc<StoredSegment>),
    /// No exact match; the nearest indexed fingerprint differs in `distance` bits.
    Mismatch {
        distance: u32,
    },
    NotFound,
}

struct Live {
    snapshot: Snapshot,
    fingerprints: FingerprintIndex,
}

impl Live {
    fn open(data_dir: &DataDir) -> Result<Self, StoreError> {
        let snapshot = Snapshot::open_current(data_dir)?;
        let fingerprints = FingerprintIndex::build(snapshot.fingerprints()?);
        Ok(Self {
            snapshot,
            fingerprints,
        })
    }
}

pub struct Engine {
    data_dir: DataDir,
    live: ArcSwap<Live>,
    verified: Cache<Fingerprint, Arc<StoredSegment>>,
}

impl Engine {
    pub fn open(data_dir: DataDir) -> Result<Self, StoreError> {
        let live = Live::open(&data_dir)?;
        Ok(Self {
            data_dir,
            live: ArcSwap::from_pointee(live),
            verified: Cache::new(VERIFY_CACHE_ENTRIES),
        })
    }

    pub fn segment_count(&self) -> u64 {
        self.live.load().snapshot.segment_count()
    }

    pub fn generation(&self) -> PathBuf {
        self.live.load().snapshot.generation().to_path_buf()
    }

    /// Best-matching segments for a question, best first, deterministic.
    pub fn search(
        &self,
        question: &Question,
        top_k: TopK,
    ) -> Result<Vec<StoredSegment>, StoreError> {
        let live = self.live.load();
        lexical_search(&live.snapshot, question, top_k)?
            .into_iter()
            .map(|address| live.snapshot.segment(address))
            .collect()
    }

    pub fn verify(&self, fingerprint: Fingerprint) -> Result<Verification, StoreError> {
        if let Some(segment) = self.verified.get(&fingerprint) {
            return Ok(Verification::Verified(segment));
        }
        let live = self.live.load();
        match live.fingerprints.lookup(fingerprint) {
            Lookup::Exact(address) => {
                let segment = Arc::new(live.snapshot.segment(address)?);
                self.verified.insert(fingerprint, Arc::clone(&segment));
                Ok(Verification::Verified(segment))
            }
            Lookup::Near { distance, .. } => Ok(Verification::Mismatch { distance }),
            Lookup::Absent => Ok(Verification::NotFound),
        }
    }

    /// Opens the generation `CURRENT` names if it is not the one being served; returns whether
    /// it swapped. Requests in flight finish on the snapshot they started with.
    pub fn reload_if_changed(&self) -> Result<bool, StoreError> {
        if self.data_dir.current_generation()? == self.generation() {
            return Ok(false);
        }
        self.live.store(Arc::new(Live::open(&self.data_dir)?));
        self.verified.invalidate_all();
        Ok(true)
    }
}
