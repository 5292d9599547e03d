//! The generation being served, shared by search, verify and the graph: opened whole (snapshot,
//! fingerprint index, segment catalog, vectors and opening vectors, drug vocabulary, embedded
//! graph) and swapped whole when a newer one is published. Owns no cache and answers no question.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arc_swap::ArcSwap;

use crate::graph::Reasoner;
use crate::index::effects::{EffectIndex, EFFECTS_FILE};
use crate::index::fingerprints::FingerprintIndex;
use crate::index::openings::OpeningIndex;
use crate::index::vectors::DenseIndex;
use crate::index::LiveTexts;
use crate::understand::{DrugVocabulary, LabelWords};
use drugcite_core::domain::TextHash;
use drugcite_store::{
    io_error, label_brands, label_words, open_phase, Copies, DataDir, LabelRows, LabelSections,
    MappedVectors, SegmentCatalog, Snapshot, StoreError, VectorSpace,
};

/// One opened generation with everything the services read from it.
pub struct Live {
    /// Distinguishes this opening from every other one of the process: caches key by it.
    pub epoch: u64,
    pub snapshot: Snapshot,
    /// The generation's own graph; `None` when the graph comes from Neo4j.
    pub reasoner: Option<Arc<Reasoner>>,
    pub fingerprints: FingerprintIndex,
    pub catalog: SegmentCatalog,
    /// Which sections each label has (from the catalog).
    pub label_sections: LabelSections,
    /// The current segments of each label's set id (from the catalog).
    pub label_rows: LabelRows,
    /// The searchable copies of each distinct text.
    pub copies: Copies,
    /// Which docs of the distinct-text index have a searchable copy (`None` without that index).
    pub live_texts: Option<LiveTexts>,
    /// One row per distinct searchable text.
    pub dense: Option<DenseIndex<TextHash>>,
    /// The opening vectors of the current Indications texts (`None` without any).
    pub openings: Option<OpeningIndex>,
    /// The effects the texts name, with their names' vectors (`None` without them).
    pub effects: Option<EffectIndex>,
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

    /// The epoch of the generation served now, without taking a reference to it.
    pub fn epoch(&self) -> u64 {
        self.current.load().epoch
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
    Snapshot::open_current_with(data_dir, |snapshot| build_live(snapshot, options, epoch))
}

/// Everything the services read from an opened generation; the graph is loaded on a second
/// thread beside the segment tables.
fn build_live(snapshot: Snapshot, options: OpenOptions, epoch: u64) -> Result<Live, StoreError> {
    let (reasoner, tables) = std::thread::scope(|scope| {
        let graph = scope.spawn(|| load_graph(&snapshot, options));
        let tables = open_tables(&snapshot, options);
        (graph.join().expect("opening the graph"), tables)
    });
    let reasoner = reasoner?;
    let tables = tables?;
    let vocabulary = match &reasoner {
        Some(reasoner) => tables
            .vocabulary
            .with_unlabelled_drugs(reasoner.graph().unlabelled_drugs()),
        None => tables.vocabulary,
    };
    Ok(Live {
        epoch,
        snapshot,
        reasoner,
        fingerprints: tables.fingerprints,
        catalog: tables.catalog,
        label_sections: tables.label_sections,
        label_rows: tables.label_rows,
        copies: tables.copies,
        live_texts: tables.live_texts,
        dense: tables.dense,
        openings: tables.openings,
        effects: tables.effects,
        vocabulary,
    })
}

/// What search and verify read of a generation's segments.
struct Tables {
    catalog: SegmentCatalog,
    label_sections: LabelSections,
    label_rows: LabelRows,
    fingerprints: FingerprintIndex,
    copies: Copies,
    live_texts: Option<LiveTexts>,
    dense: Option<DenseIndex<TextHash>>,
    openings: Option<OpeningIndex>,
    effects: Option<EffectIndex>,
    vocabulary: DrugVocabulary,
}

/// The segment tables; the fingerprint index is built from the catalog (in fingerprint order)
/// on a thread of its own beside the rest (at 100× it is the longest phase).
fn open_tables(snapshot: &Snapshot, options: OpenOptions) -> Result<Tables, StoreError> {
    let catalog = open_phase("segment catalog", || snapshot.catalog())?;
    let (fingerprints, rest) = std::thread::scope(|scope| {
        let fingerprints = scope.spawn(|| {
            open_phase("fingerprint index", || {
                FingerprintIndex::build(catalog.addresses().collect())
            })
        });
        let rest = (|| {
            let copies = open_phase("copies", || snapshot.copies(&catalog))?;
            let live_texts = open_phase("live distinct texts", || {
                LiveTexts::build(snapshot, &copies)
            });
            let dense = open_phase("vectors", || {
                usable_vectors(snapshot, options.space, &copies)
            })?;
            let openings = open_phase("opening vectors", || {
                usable_openings(snapshot, options.space, &catalog)
            })?;
            let effects = open_phase("effect names", || usable_effects(snapshot, options.space))?;
            let words = open_phase("label words", || label_words(snapshot.generation()))?;
            let brands = open_phase("label brands", || label_brands(snapshot.generation()))?;
            let vocabulary = open_phase("drug vocabulary", || {
                DrugVocabulary::of_current_labels(snapshot)
                    .with_label_words(LabelWords::new(words))
                    .with_label_brands(brands)
            });
            let label_sections = open_phase("label sections", || catalog.label_sections());
            let label_rows = open_phase("label rows", || {
                let set_ids = snapshot.labels().iter().map(|meta| meta.set_id.as_str());
                LabelRows::build(&catalog, set_ids)
            });
            let vectors = (dense, openings, effects);
            let labels = (label_sections, label_rows);
            Ok::<_, StoreError>((copies, live_texts, vectors, vocabulary, labels))
        })();
        (
            fingerprints.join().expect("building the fingerprint index"),
            rest,
        )
    });
    let (copies, live_texts, (dense, openings, effects), vocabulary, labels) = rest?;
    let (label_sections, label_rows) = labels;
    Ok(Tables {
        catalog,
        label_sections,
        label_rows,
        fingerprints,
        copies,
        live_texts,
        dense,
        openings,
        effects,
        vocabulary,
    })
}

/// The generation's own knowledge graph, unless the graph comes from Neo4j.
fn load_graph(
    snapshot: &Snapshot,
    options: OpenOptions,
) -> Result<Option<Arc<Reasoner>>, StoreError> {
    if !options.embedded_graph {
        return Ok(None);
    }
    let generation = snapshot.generation();
    let reasoner = open_phase("graph", || Reasoner::load(generation)).map_err(io_error(
        format!("reading the graph of {}", generation.display()),
    ))?;
    Ok(Some(Arc::new(reasoner)))
}

/// The generation's vectors when they are in `space` (the loaded model's).
fn usable_vectors(
    snapshot: &Snapshot,
    space: Option<VectorSpace>,
    copies: &Copies,
) -> Result<Option<DenseIndex<TextHash>>, StoreError> {
    Ok(match (snapshot.vectors()?, space) {
        (Some(stored), Some(space)) if stored.space() == space => Some(live_rows(stored, copies)?),
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

/// The opening vectors of the generation when its vectors are in `space`.
fn usable_openings(
    snapshot: &Snapshot,
    space: Option<VectorSpace>,
    catalog: &SegmentCatalog,
) -> Result<Option<OpeningIndex>, StoreError> {
    match (snapshot.vectors()?, space) {
        (Some(stored), Some(space)) if stored.space() == space => {
            OpeningIndex::build(stored, catalog)
        }
        _ => Ok(None),
    }
}

/// The effects of the generation when their names were embedded by the loaded model.
fn usable_effects(
    snapshot: &Snapshot,
    space: Option<VectorSpace>,
) -> Result<Option<EffectIndex>, StoreError> {
    let Some(space) = space else {
        return Ok(None);
    };
    EffectIndex::open(snapshot.generation(), space)
        .map_err(io_error(format!("reading {EFFECTS_FILE}")))
}

/// The dense index over one row per distinct text a current segment holds (superseded and
/// withdrawn ones are never searched); a text stored twice keeps its first row only (the same
/// text has the same vector).
fn live_rows(stored: MappedVectors, copies: &Copies) -> Result<DenseIndex<TextHash>, StoreError> {
    DenseIndex::mapped(stored, |text| copies.contains(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use drugcite_core::domain::Fingerprint;
    use drugcite_store::{SegmentAddress, SegmentInfo, VectorSpace, VectorWriter};

    fn info(label: u32, text: &str, current: bool) -> SegmentInfo {
        SegmentInfo {
            address: SegmentAddress(tantivy::DocAddress::new(0, label)),
            label,
            current,
            section_key: Arc::from("warnings"),
            text_hash: TextHash::of(text),
            addresses_patient: false,
        }
    }

    #[test]
    fn a_text_stored_twice_or_held_by_two_labels_gets_one_row_and_gone_or_superseded_texts_none() {
        let fp = |i: u64| Fingerprint::from_halves(0, i);
        let catalog = SegmentCatalog::build([
            (fp(1), info(0, "a", true)),
            (fp(2), info(1, "b", true)),
            (fp(3), info(2, "a", true)),
            (fp(4), info(3, "old", false)),
        ]);
        let (a, b, gone, old) = (
            TextHash::of("a"),
            TextHash::of("b"),
            TextHash::of("gone"),
            TextHash::of("old"),
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vectors.bin");
        let space = VectorSpace {
            model_id: [0; 16],
            dimensions: 2,
        };
        let mut writer = VectorWriter::create(&path, space).unwrap();
        let rows = [(a, [1.0, 0.0]), (gone, [0.0, 1.0]), (b, [0.6, 0.8])];
        for (text, row) in rows.iter().chain(&[(a, [1.0, 0.0]), (old, [1.0, 0.0])]) {
            writer.append(*text, row).unwrap();
        }
        writer.finish().unwrap();
        let stored = MappedVectors::open(&path).unwrap();
        let dense = live_rows(stored, &Copies::build(&catalog)).unwrap();
        let nearest = dense.nearest(&[1.0, 0.0], 10);
        let found: Vec<TextHash> = nearest.iter().map(|(text, _)| *text).collect();
        assert_eq!(found, [a, b]);
    }
}
