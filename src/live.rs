//! The generation being served, shared by search, verify and the graph: opened whole (snapshot,
//! fingerprint index, segment catalog, vectors, drug vocabulary, embedded graph) and swapped
//! whole when a newer one is published. Owns no cache and answers no question.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arc_swap::ArcSwap;

use crate::domain::Fingerprint;
use crate::graph::Reasoner;
use crate::search::understanding::{DrugVocabulary, LabelNames};
use crate::search::vectors::DenseIndex;
use crate::store::{
    io_error, DataDir, SegmentInfo, Snapshot, StoreError, StoredVectors, VectorSpace,
};
use crate::verify::index::FingerprintIndex;

/// One opened generation with everything the services read from it.
pub struct Live {
    /// Distinguishes this opening from every other one of the process: caches key by it.
    pub epoch: u64,
    pub snapshot: Snapshot,
    /// The generation's own graph; `None` when the graph comes from Neo4j.
    pub reasoner: Option<Arc<Reasoner>>,
    pub fingerprints: FingerprintIndex,
    pub catalog: HashMap<Fingerprint, SegmentInfo>,
    pub dense: Option<DenseIndex>,
    pub vocabulary: DrugVocabulary,
}

/// How a generation is opened: which vectors are usable and whether its graph is loaded.
#[derive(Clone, Copy)]
pub struct OpenOptions {
    /// The loaded model's vector space; vectors of another model are not used.
    pub space: Option<VectorSpace>,
    /// Load the generation's embedded knowledge graph (not when the graph is on Neo4j).
    pub embedded_graph: bool,
}

/// The live generation of a data directory, replaced atomically by `reload_if_changed`.
/// Readers holding an `Arc<Live>` finish on the generation they started with.
pub struct LiveIndex {
    data_dir: DataDir,
    options: OpenOptions,
    current: ArcSwap<Live>,
    openings: AtomicU64,
}

impl LiveIndex {
    pub fn open(data_dir: DataDir, options: OpenOptions) -> Result<Self, StoreError> {
        let openings = AtomicU64::new(0);
        let live = open_live(&data_dir, options, openings.fetch_add(1, Ordering::Relaxed))?;
        Ok(Self {
            data_dir,
            options,
            current: ArcSwap::from_pointee(live),
            openings,
        })
    }

    /// The generation being served now.
    pub fn current(&self) -> Arc<Live> {
        self.current.load_full()
    }

    pub fn generation(&self) -> PathBuf {
        self.current.load().snapshot.generation().to_path_buf()
    }

    pub fn segment_count(&self) -> u64 {
        self.current.load().snapshot.segment_count()
    }

    /// Opens the generation `CURRENT` names if it is not the one being served; returns whether
    /// it swapped. A generation that fails to open leaves the served one in place.
    pub fn reload_if_changed(&self) -> Result<bool, StoreError> {
        if self.data_dir.current_generation()? == self.generation() {
            return Ok(false);
        }
        let epoch = self.openings.fetch_add(1, Ordering::Relaxed);
        let live = open_live(&self.data_dir, self.options, epoch)?;
        self.current.store(Arc::new(live));
        Ok(true)
    }
}

fn open_live(data_dir: &DataDir, options: OpenOptions, epoch: u64) -> Result<Live, StoreError> {
    let snapshot = Snapshot::open_current(data_dir)?;
    let fingerprints = FingerprintIndex::build(snapshot.fingerprints()?);
    let catalog = snapshot.catalog()?;
    let dense = usable_vectors(&snapshot, options.space, &catalog)?;
    let vocabulary =
        DrugVocabulary::build(snapshot.current_labels().map(|(label, l)| LabelNames {
            label,
            generic: &l.drug.name,
            names: &l.search_names,
            classes: &l.classes,
        }));
    let reasoner = if options.embedded_graph {
        let generation = snapshot.generation();
        let reasoner = Reasoner::load(generation).map_err(io_error(format!(
            "reading the graph of {}",
            generation.display()
        )))?;
        Some(Arc::new(reasoner))
    } else {
        None
    };
    Ok(Live {
        epoch,
        snapshot,
        reasoner,
        fingerprints,
        catalog,
        dense,
        vocabulary,
    })
}

/// The generation's vectors when they are in `space` (the loaded model's).
fn usable_vectors(
    snapshot: &Snapshot,
    space: Option<VectorSpace>,
    catalog: &HashMap<Fingerprint, SegmentInfo>,
) -> Result<Option<DenseIndex>, StoreError> {
    Ok(match (snapshot.vectors()?, space) {
        (Some(stored), Some(space)) if stored.space == space => Some(live_rows(stored, catalog)),
        (Some(_), Some(_)) => {
            tracing::warn!(
                generation = %snapshot.generation().display(),
                "the index's embeddings come from another model than the one loaded; \
                 searching lexically until it is re-ingested with this model"
            );
            None
        }
        _ => None,
    })
}

/// The dense index over one row per current segment (superseded and withdrawn ones are never
/// searched); a fingerprint stored twice keeps its first row only (the same fingerprint is the
/// same text, so the same vector).
fn live_rows(stored: StoredVectors, catalog: &HashMap<Fingerprint, SegmentInfo>) -> DenseIndex {
    let mut fingerprints = Vec::with_capacity(stored.fingerprints.len());
    let mut matrix = Vec::with_capacity(stored.matrix.len());
    let mut seen = HashSet::with_capacity(stored.fingerprints.len());
    let rows = stored.matrix.chunks_exact(stored.space.dimensions);
    for (fp, row) in stored.fingerprints.into_iter().zip(rows) {
        if catalog.get(&fp).is_some_and(|info| info.current) && seen.insert(fp) {
            fingerprints.push(fp);
            matrix.extend_from_slice(row);
        }
    }
    DenseIndex::new(stored.space.dimensions, fingerprints, matrix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{SegmentAddress, VectorSpace};

    fn info(label: u32, current: bool) -> SegmentInfo {
        SegmentInfo {
            address: SegmentAddress(tantivy::DocAddress::new(0, label)),
            label,
            current,
            section_key: Arc::from("warnings"),
            addresses_patient: false,
        }
    }

    #[test]
    fn a_fingerprint_stored_twice_gets_one_row_and_gone_or_superseded_segments_none() {
        let (a, b, gone, old) = (
            Fingerprint::from_halves(0, 1),
            Fingerprint::from_halves(0, 2),
            Fingerprint::from_halves(0, 3),
            Fingerprint::from_halves(0, 4),
        );
        let catalog = HashMap::from([
            (a, info(0, true)),
            (b, info(1, true)),
            (old, info(2, false)),
        ]);
        let stored = StoredVectors {
            space: VectorSpace {
                model_id: [0; 16],
                dimensions: 2,
            },
            fingerprints: vec![a, gone, b, a, old],
            matrix: vec![1.0, 0.0, 0.0, 1.0, 0.6, 0.8, 1.0, 0.0, 1.0, 0.0],
        };
        let dense = live_rows(stored, &catalog);
        let nearest = dense.nearest(&[1.0, 0.0], 10);
        let found: Vec<Fingerprint> = nearest.iter().map(|(fp, _)| *fp).collect();
        assert_eq!(found, [a, b]);
    }
}
