//! The engine façade the CLI and the HTTP adapter share: the live snapshot with its
//! fingerprint, catalog, dense and vocabulary indexes; hybrid search; cached verify and the
//! graph, from the generation or from Neo4j. Swaps to a newly published generation without a
//! restart. No HTTP types here.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use moka::sync::Cache;

use crate::dense::DenseIndex;
use crate::domain::{Fingerprint, GraphLimit, MaxHops, Question, SearchFilters, TopK};
use crate::embed::{EmbedError, Embedder};
use crate::graph::{
    Evidence as GraphEvidence, Found, GraphQuestion, Hop, Node, Reasoner, RelationType, Severity,
};
use crate::label::section_name;
use crate::neo4j::{Neo4jClient, Neo4jError};
use crate::query::{DrugVocabulary, LabelNames, Understanding};
use crate::ranking::{rank, Candidates};
use crate::search::{analyse, lexical_candidates};
use crate::store::{
    io_error, DataDir, SegmentInfo, Snapshot, StoreError, StoredSegment, StoredVectors, VectorSpace,
};
use crate::verify::{FingerprintIndex, Lookup};

/// Verified segments kept in memory; a citation checker re-verifies the same few often.
const VERIFY_CACHE_ENTRIES: u64 = 50_000;
const QUERY_CACHE_ENTRIES: u64 = 10_000;
/// Candidates drawn from each retriever before fusion; more when filters will discard some.
const CANDIDATES: usize = 300;
const FILTERED_CANDIDATES: usize = 5_000;
/// Extra BM25 candidates taken from the subject drug's (or class's) own labels.
const SUBJECT_CANDIDATES: usize = 100;
/// Evidence segments shown per graph relationship (all are counted).
const EVIDENCE_SHOWN: usize = 3;
/// How often a server on Neo4j asks whether a newer sync has completed.
const NEO4J_GRAPH_RECHECK: Duration = Duration::from_secs(1);

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    /// The Neo4j graph backend failed or did not answer in time.
    #[error(transparent)]
    GraphStore(#[from] Neo4jError),
}

/// Where the knowledge graph and the verify lookups live. Search always runs on the local
/// index.
#[derive(Clone)]
pub enum GraphBackend {
    /// The generation's own files.
    Embedded,
    /// A Neo4j database the generation was synced into (`drugcite ingest --neo4j`).
    Neo4j(Arc<Neo4jClient>),
}

/// A graph answer: the question as understood and the ranked relationships.
pub struct GraphAnswer {
    pub understood: GraphQuestion,
    pub relationships: Vec<AnsweredRelationship>,
}

pub struct AnsweredRelationship {
    pub drug: String,
    pub target: Node,
    pub kind: RelationType,
    pub severity: Option<Severity>,
    /// The first `EVIDENCE_SHOWN` stating segments, boxed warnings first.
    pub evidence: Vec<Arc<StoredSegment>>,
    /// How many segments state it in all.
    pub evidence_count: usize,
    /// The hop chain from the question's anchor to this relationship.
    pub path: Vec<Hop>,
}

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
    /// The generation's own graph; `None` on the Neo4j backend.
    reasoner: Option<Arc<Reasoner>>,
    fingerprints: FingerprintIndex,
    catalog: HashMap<Fingerprint, SegmentInfo>,
    dense: Option<DenseIndex>,
    vocabulary: DrugVocabulary,
}

impl Live {
    /// The live generation; its vectors are used only if they are in `space` (the loaded model's).
    fn open(
        data_dir: &DataDir,
        space: Option<VectorSpace>,
        backend: &GraphBackend,
    ) -> Result<Self, StoreError> {
        let snapshot = Snapshot::open_current(data_dir)?;
        let fingerprints = FingerprintIndex::build(snapshot.fingerprints()?);
        let catalog = snapshot.catalog()?;
        let dense = match (snapshot.vectors()?, space) {
            (Some(stored), Some(space)) if stored.space == space => {
                Some(live_rows(stored, &catalog))
            }
            (Some(_), Some(_)) => {
                tracing::warn!(
                    generation = %snapshot.generation().display(),
                    "the index's embeddings come from another model than the one loaded; \
                     searching lexically until it is re-ingested with this model"
                );
                None
            }
            _ => None,
        };
        let vocabulary = DrugVocabulary::build(snapshot.labels().iter().enumerate().map(
            |(i, l)| LabelNames {
                label: i as u32,
                generic: &l.drug.name,
                names: &l.search_names,
                classes: &l.classes,
            },
        ));
        let reasoner = match backend {
            GraphBackend::Embedded => Some(Arc::new(
                Reasoner::load(snapshot.generation()).map_err(io_error(format!(
                    "reading the graph of {}",
                    snapshot.generation().display()
                )))?,
            )),
            GraphBackend::Neo4j(_) => None,
        };
        Ok(Self {
            snapshot,
            reasoner,
            fingerprints,
            catalog,
            dense,
            vocabulary,
        })
    }
}

/// BM25 candidates for `text` over the whole index, joined by the best ones within the
/// subject's labels (a class or brand the text rarely spells out still reaches its labels).
fn lexical_pool(
    snapshot: &Snapshot,
    text: &str,
    pool: usize,
    understanding: &Understanding,
) -> Result<Vec<(Fingerprint, f32)>, StoreError> {
    let mut lexical = lexical_candidates(snapshot, text, pool, None)?;
    let subject = understanding
        .drugs
        .first()
        .filter(|_| !understanding.subject_open);
    if let Some(subject) = subject {
        let known: HashSet<Fingerprint> = lexical.iter().map(|(fp, _)| *fp).collect();
        let within = lexical_candidates(snapshot, text, SUBJECT_CANDIDATES, Some(&subject.labels))?;
        lexical.extend(within.into_iter().filter(|(fp, _)| !known.contains(fp)));
        lexical.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    }
    Ok(lexical)
}

/// The dense index over the rows of segments still in the index (a version superseded during
/// the same ingest leaves rows behind in the vectors file).
fn live_rows(stored: StoredVectors, catalog: &HashMap<Fingerprint, SegmentInfo>) -> DenseIndex {
    let mut fingerprints = Vec::with_capacity(stored.fingerprints.len());
    let mut matrix = Vec::with_capacity(stored.matrix.len());
    let rows = stored.matrix.chunks_exact(stored.space.dimensions);
    for (fp, row) in stored.fingerprints.into_iter().zip(rows) {
        if catalog.contains_key(&fp) {
            fingerprints.push(fp);
            matrix.extend_from_slice(row);
        }
    }
    DenseIndex::new(stored.space.dimensions, fingerprints, matrix)
}

/// The graph a server on Neo4j answers from, and what it was loaded for.
struct Neo4jGraph {
    reasoner: Arc<Reasoner>,
    /// What the last completed sync wrote (`None`: a database no sync completed in).
    digest: Option<String>,
    generation: PathBuf,
    checked: Instant,
}

pub struct Engine {
    data_dir: DataDir,
    embedder: Option<Arc<Embedder>>,
    backend: GraphBackend,
    /// Loaded on first use; reloaded when a newer sync has completed.
    neo4j_graph: Mutex<Option<Neo4jGraph>>,
    live: ArcSwap<Live>,
    verified: Cache<Fingerprint, Arc<StoredSegment>>,
    query_vectors: Cache<String, Arc<Vec<f32>>>,
}

impl Engine {
    /// Opens the live generation. Without an embedder, or over a generation ingested without
    /// one, search is lexical only.
    pub fn open(data_dir: DataDir, embedder: Option<Arc<Embedder>>) -> Result<Self, StoreError> {
        Self::open_with(data_dir, embedder, GraphBackend::Embedded)
    }

    /// Opens the live generation with the knowledge graph and verify on `backend`.
    pub fn open_with(
        data_dir: DataDir,
        embedder: Option<Arc<Embedder>>,
        backend: GraphBackend,
    ) -> Result<Self, StoreError> {
        let space = embedder.as_deref().map(Embedder::vector_space);
        let live = Live::open(&data_dir, space, &backend)?;
        Ok(Self {
            data_dir,
            embedder,
            backend,
            neo4j_graph: Mutex::new(None),
            live: ArcSwap::from_pointee(live),
            verified: Cache::new(VERIFY_CACHE_ENTRIES),
            query_vectors: Cache::new(QUERY_CACHE_ENTRIES),
        })
    }

    pub fn segment_count(&self) -> u64 {
        self.live.load().snapshot.segment_count()
    }

    /// Nodes and relationships of the live knowledge graph; (0, 0) while a Neo4j graph
    /// has not been loaded yet.
    pub fn graph_size(&self) -> (usize, usize) {
        let live = self.live.load();
        let from_neo4j = self.neo4j_graph.lock().unwrap_or_else(|e| e.into_inner());
        let reasoner = live
            .reasoner
            .as_ref()
            .or(from_neo4j.as_ref().map(|g| &g.reasoner));
        reasoner.map_or((0, 0), |reasoner| {
            let graph = reasoner.graph();
            (graph.node_count(), graph.edge_count())
        })
    }

    /// The knowledge graph's reasoner: the live generation's, or on Neo4j the graph of the
    /// last completed sync (loaded on first use, rechecked at most once a second).
    pub fn reasoner(&self) -> Result<Arc<Reasoner>, EngineError> {
        let live = self.live.load();
        if let Some(reasoner) = &live.reasoner {
            return Ok(Arc::clone(reasoner));
        }
        let GraphBackend::Neo4j(client) = &self.backend else {
            unreachable!("the embedded graph is loaded when the generation is opened")
        };
        self.neo4j_reasoner(client, live.snapshot.generation())
    }

    fn neo4j_reasoner(
        &self,
        client: &Neo4jClient,
        generation: &Path,
    ) -> Result<Arc<Reasoner>, EngineError> {
        let mut slot = self.neo4j_graph.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = |g: &&mut Neo4jGraph| g.generation == generation;
        if let Some(loaded) = slot.as_mut().filter(fresh) {
            if loaded.checked.elapsed() < NEO4J_GRAPH_RECHECK {
                return Ok(Arc::clone(&loaded.reasoner));
            }
        }
        let digest = client.synced_graph_digest()?;
        if let Some(loaded) = slot.as_mut().filter(fresh).filter(|g| g.digest == digest) {
            loaded.checked = Instant::now();
            return Ok(Arc::clone(&loaded.reasoner));
        }
        let data = client.read_graph()?;
        let reasoner = Reasoner::new(data, generation).map_err(io_error(format!(
            "reading the condition vocabulary of {}",
            generation.display()
        )))?;
        let reasoner = Arc::new(reasoner);
        *slot = Some(Neo4jGraph {
            reasoner: Arc::clone(&reasoner),
            digest,
            generation: generation.to_path_buf(),
            checked: Instant::now(),
        });
        Ok(reasoner)
    }

    /// Whether searches use embeddings (a model is loaded and the index has vectors).
    pub fn is_semantic(&self) -> bool {
        self.embedder.is_some() && self.live.load().dense.is_some()
    }

    pub fn generation(&self) -> PathBuf {
        self.live.load().snapshot.generation().to_path_buf()
    }

    /// Best-matching segments for a question, best first, deterministic.
    pub fn search(
        &self,
        question: &Question,
        top_k: TopK,
        filters: &SearchFilters,
    ) -> Result<Vec<StoredSegment>, EngineError> {
        let live = self.live.load();
        if analyse(&live.snapshot, question.as_str()).is_empty() {
            return Ok(Vec::new());
        }
        let pool = if filters.is_empty() {
            CANDIDATES
        } else {
            FILTERED_CANDIDATES
        };
        let understanding = live.vocabulary.understand(question.as_str());
        let or_question = |text: &'_ str| {
            if analyse(&live.snapshot, text).is_empty() {
                question.as_str().to_owned()
            } else {
                text.to_owned()
            }
        };
        let lexical = lexical_pool(
            &live.snapshot,
            &or_question(&understanding.keywords),
            pool,
            &understanding,
        )?;
        let query_vector = match (&self.embedder, &live.dense) {
            (Some(embedder), Some(_)) => {
                Some(self.query_vector(embedder, &or_question(&understanding.topic))?)
            }
            _ => None,
        };
        let semantic = match (&live.dense, &query_vector) {
            (Some(dense), Some(vector)) => dense.nearest(vector, pool),
            _ => Vec::new(),
        };
        let similarity = |fp| {
            live.dense
                .as_ref()
                .zip(query_vector.as_ref())
                .and_then(|(d, v)| d.similarity(fp, v))
        };
        let keep = |info: &SegmentInfo| matches_filters(&live.snapshot, info, filters);
        let candidates = Candidates {
            lexical: &lexical,
            semantic: &semantic,
            similarity: &similarity,
        };
        rank(&candidates, &live.catalog, &understanding, &keep)
            .into_iter()
            .take(top_k.get())
            .map(|fp| {
                live.snapshot
                    .segment(live.catalog[&fp].address)
                    .map_err(EngineError::from)
            })
            .collect()
    }

    fn query_vector(
        &self,
        embedder: &Embedder,
        question: &str,
    ) -> Result<Arc<Vec<f32>>, EmbedError> {
        if let Some(vector) = self.query_vectors.get(question) {
            return Ok(vector);
        }
        let vector = Arc::new(embedder.embed(&[question])?.remove(0));
        self.query_vectors
            .insert(question.to_owned(), Arc::clone(&vector));
        Ok(vector)
    }

    pub fn verify(&self, fingerprint: Fingerprint) -> Result<Verification, EngineError> {
        if let Some(segment) = self.verified.get(&fingerprint) {
            return Ok(Verification::Verified(segment));
        }
        let verification = match &self.backend {
            GraphBackend::Embedded => self.verify_embedded(fingerprint)?,
            GraphBackend::Neo4j(client) => verify_on_neo4j(client, fingerprint)?,
        };
        if let Verification::Verified(segment) = &verification {
            self.verified.insert(fingerprint, Arc::clone(segment));
        }
        Ok(verification)
    }

    fn verify_embedded(&self, fingerprint: Fingerprint) -> Result<Verification, EngineError> {
        let live = self.live.load();
        Ok(match live.fingerprints.lookup(fingerprint) {
            Lookup::Exact(address) => {
                Verification::Verified(Arc::new(live.snapshot.segment(address)?))
            }
            Lookup::Near { distance, .. } => Verification::Mismatch { distance },
            Lookup::Absent => Verification::NotFound,
        })
    }

    /// Answers a relationship question over the knowledge graph: what was understood, and the
    /// ranked relationships with their evidence segments and hop chains.
    pub fn graph(
        &self,
        question: &Question,
        max_hops: MaxHops,
        limit: GraphLimit,
    ) -> Result<GraphAnswer, EngineError> {
        let reasoner = self.reasoner()?;
        let live = self.live.load();
        let understood =
            reasoner.understand(question.as_str(), &live.vocabulary, live.snapshot.labels());
        let found = reasoner
            .graph()
            .answer(&understood, max_hops.get(), limit.get());
        let relationships = found
            .iter()
            .map(|f| self.answered(f, understood.boxed_only))
            .collect::<Result<_, _>>()?;
        Ok(GraphAnswer {
            understood,
            relationships,
        })
    }

    /// A found relationship with its strongest evidence segments (boxed warnings first; only
    /// those when the question asks about boxed warnings).
    fn answered(
        &self,
        found: &Found,
        boxed_only: bool,
    ) -> Result<AnsweredRelationship, EngineError> {
        let boxed = |e: &&GraphEvidence| e.section == "boxed_warning";
        let mut evidence: Vec<&GraphEvidence> = found
            .edge
            .evidence
            .iter()
            .filter(|e| !boxed_only || boxed(e))
            .collect();
        let evidence_count = evidence.len();
        evidence.sort_by_key(|e| (!boxed(e), e.fingerprint));
        let mut segments = Vec::new();
        for item in evidence.into_iter().take(EVIDENCE_SHOWN) {
            if let Verification::Verified(segment) = self.verify(item.fingerprint)? {
                segments.push(segment);
            }
        }
        Ok(AnsweredRelationship {
            drug: found.drug.name.clone(),
            target: found.target.clone(),
            kind: found.edge.kind,
            severity: found.edge.severity,
            evidence_count,
            evidence: segments,
            path: found.path.clone(),
        })
    }

    /// Opens the generation `CURRENT` names if it is not the one being served; returns whether
    /// it swapped. Requests in flight finish on the snapshot they started with.
    pub fn reload_if_changed(&self) -> Result<bool, StoreError> {
        if self.data_dir.current_generation()? == self.generation() {
            return Ok(false);
        }
        let space = self.embedder.as_deref().map(Embedder::vector_space);
        self.live
            .store(Arc::new(Live::open(&self.data_dir, space, &self.backend)?));
        self.verified.invalidate_all();
        Ok(true)
    }
}

/// Exact match by an indexed lookup; else the nearest fingerprint sharing a 16-bit block.
fn verify_on_neo4j(
    client: &Neo4jClient,
    fingerprint: Fingerprint,
) -> Result<Verification, Neo4jError> {
    if let Some(segment) = client.segment(fingerprint)? {
        return Ok(Verification::Verified(Arc::new(segment)));
    }
    Ok(match client.nearest(fingerprint)? {
        Some((distance, _)) => Verification::Mismatch { distance },
        None => Verification::NotFound,
    })
}

fn matches_filters(snapshot: &Snapshot, info: &SegmentInfo, filters: &SearchFilters) -> bool {
    let label = &snapshot.labels()[info.label as usize];
    let drug_ok = filters.drug.as_ref().is_none_or(|wanted| {
        label.drug.name.contains(wanted.as_str()) || label.search_names.iter().any(|n| n == wanted)
    });
    let section_ok = filters.section.as_ref().is_none_or(|wanted| {
        info.section_key.as_ref() == wanted
            || section_name(&info.section_key)
                .to_lowercase()
                .replace([' ', '-'], "_")
                == *wanted
    });
    let route_ok = filters
        .route
        .as_ref()
        .is_none_or(|wanted| label.drug.route.contains(wanted));
    drug_ok && section_ok && route_ok
}
