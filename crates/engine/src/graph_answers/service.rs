//! The graph service: a question read, answered over the live or Neo4j graph, each relationship's
//! evidence resolved through verify. See the module above for the whole path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Instant;

use arc_swap::ArcSwapOption;

use super::question;
use super::verdict::{instruction_about, verdict, Instruction, Verdict};
use crate::error::EngineError;
use crate::graph::{
    Evidence, Found, GraphQuestion, Hop, Node, NodeKind, Reasoner, RelationType, Severity,
};
use crate::index::{Live, LiveIndex};
use crate::neo4j::SyncWatch;
use crate::search::collapse::{searchable, AlsoIn};
use crate::understand::form::QuestionForm;
use crate::verify::{Verification, Verifier};
use drugcite_core::domain::{Fingerprint, GraphLimit, MaxHops, Question, TextHash};
use drugcite_store::{io_error, StoredSegment};

/// Evidence texts shown per graph relationship (all are counted).
const EVIDENCE_SHOWN: usize = 3;

/// One distinct text stating a relationship: the copy shown and the other labels holding it.
pub struct EvidenceText {
    pub segment: Arc<StoredSegment>,
    pub also_in: AlsoIn,
}

/// A graph answer: the question as understood and the ranked relationships.
pub struct GraphAnswer {
    pub understood: GraphQuestion,
    pub relationships: Vec<AnsweredRelationship>,
    /// A yes/no question about two named things: what the labels state between them.
    pub verdict: Option<Verdict>,
}

pub struct AnsweredRelationship {
    pub drug: String,
    pub target: Node,
    pub kind: RelationType,
    pub severity: Option<Severity>,
    /// The first `EVIDENCE_SHOWN` distinct stating texts, boxed warnings first.
    pub evidence: Vec<EvidenceText>,
    /// How many distinct texts state it in all.
    pub evidence_count: usize,
    /// Interactions and contraindications with a drug or class: what the label says to do.
    pub instruction: Option<Instruction>,
    /// The hop chain from the question's anchor to this relationship.
    pub path: Vec<Hop>,
}

pub struct GraphService {
    index: Arc<LiveIndex>,
    verifier: Arc<Verifier>,
    /// `None`: the graph is the generation's own.
    neo4j: Option<Neo4jGraphs>,
}

impl GraphService {
    pub fn new(
        index: Arc<LiveIndex>,
        verifier: Arc<Verifier>,
        neo4j: Option<Arc<SyncWatch>>,
    ) -> Self {
        Self {
            index,
            verifier,
            neo4j: neo4j.map(Neo4jGraphs::new),
        }
    }

    /// The knowledge graph's reasoner: the live generation's, or on Neo4j the graph of the
    /// last completed sync (loaded on first use, rechecked at most once a second).
    pub fn reasoner(&self) -> Result<Arc<Reasoner>, EngineError> {
        let live = self.index.current();
        match (&live.reasoner, &self.neo4j) {
            (Some(reasoner), _) => Ok(Arc::clone(reasoner)),
            (None, Some(neo4j)) => neo4j.reasoner(live.snapshot.generation()),
            (None, None) => unreachable!("the embedded graph is loaded with the generation"),
        }
    }

    /// Nodes and relationships of the graph being served; (0, 0) while a Neo4j graph has not
    /// been loaded yet.
    pub fn size(&self) -> (usize, usize) {
        let live = self.index.current();
        let loaded = self.neo4j.as_ref().and_then(|n| n.loaded.load_full());
        let reasoner = live
            .reasoner
            .as_ref()
            .or(loaded.as_ref().map(|g| &g.reasoner));
        reasoner.map_or((0, 0), |reasoner| {
            let graph = reasoner.graph();
            (graph.node_count(), graph.edge_count())
        })
    }

    /// Answers a relationship question over the knowledge graph: what was understood, and the
    /// ranked relationships with their evidence segments and hop chains.
    pub fn answer(
        &self,
        question: &Question,
        max_hops: MaxHops,
        limit: GraphLimit,
    ) -> Result<GraphAnswer, EngineError> {
        let reasoner = self.reasoner()?;
        let live = self.index.current();
        let mut understood = question::understand(
            &reasoner,
            question.as_str(),
            &live.vocabulary,
            live.snapshot.labels(),
        );
        let common = understood.form == QuestionForm::CommonSideEffects;
        let considered = if common { usize::MAX } else { limit.get() };
        let graph = reasoner.graph();
        let mut found = graph.answer(&understood, max_hops.get(), considered);
        if let Some(plain) = understood.without_guess().filter(|_| found.is_empty()) {
            found = graph.answer(&plain, max_hops.get(), considered);
            understood = plain;
        }
        if common {
            self.order_by_label_frequency(&mut found)?;
            found.truncate(limit.get());
        }
        let relationships: Vec<AnsweredRelationship> = found
            .iter()
            .map(|f| self.answered(&live, f, understood.boxed_only))
            .collect::<Result<_, _>>()?;
        let verdict = asks_verdict(&understood).then(|| {
            let two_drugs = understood.conditions.is_empty();
            verdict(
                relationships.iter().map(|r| (r.kind, r.instruction)),
                two_drugs,
            )
        });
        Ok(GraphAnswer {
            understood,
            relationships,
            verdict,
        })
    }

    /// The segment `fingerprint` names, resolved through verify.
    pub(super) fn verify(&self, fingerprint: Fingerprint) -> Result<Verification, EngineError> {
        self.verifier.verify(fingerprint)
    }

    /// A found relationship with its strongest evidence texts (boxed warnings first; only
    /// those when the question asks about boxed warnings), each once.
    fn answered(
        &self,
        live: &Live,
        found: &Found,
        boxed_only: bool,
    ) -> Result<AnsweredRelationship, EngineError> {
        let boxed = |e: &&Evidence| e.section == "boxed_warning";
        let mut evidence: Vec<&Evidence> = found
            .edge
            .evidence
            .iter()
            .filter(|e| !boxed_only || boxed(e))
            .collect();
        evidence.sort_by_key(|e| (!boxed(e), e.fingerprint));
        let texts = by_text(live, evidence.iter().map(|e| e.fingerprint));
        let mut shown = Vec::new();
        for copies in texts.iter().take(EVIDENCE_SHOWN) {
            if let Verification::Verified(segment) = self.verifier.verify(copies[0])? {
                let also_in = AlsoIn::of(&copies[1..], &live.catalog, live.snapshot.labels());
                shown.push(EvidenceText { segment, also_in });
            }
        }
        let with_drug = matches!(
            found.edge.kind,
            RelationType::Interaction | RelationType::Contraindication
        ) && matches!(found.target.kind, NodeKind::Drug | NodeKind::DrugClass);
        let about = |names: Vec<String>| {
            shown
                .iter()
                .filter_map(|e| instruction_about(&e.segment.text, &names))
                .min()
        };
        let instruction = with_drug
            .then(|| about(partner_names(found.target)))
            .flatten();
        Ok(AnsweredRelationship {
            instruction,
            drug: found.drug.name.clone(),
            target: found.target.clone(),
            kind: found.edge.kind,
            severity: found.edge.severity,
            evidence_count: texts.len(),
            evidence: shown,
            path: found.path.clone(),
        })
    }
}

/// A yes/no question naming two things (two drugs or classes, or a drug and a condition).
fn asks_verdict(question: &GraphQuestion) -> bool {
    let named = question.drugs.len() + question.conditions.len();
    question.form == QuestionForm::YesNo && !question.drugs.is_empty() && named >= 2
}

/// Evidence fingerprints grouped by their text, groups and copies in the order given; a
/// fingerprint the live catalog does not hold as searchable stands alone.
fn by_text(live: &Live, evidence: impl Iterator<Item = Fingerprint>) -> Vec<Vec<Fingerprint>> {
    let mut groups: Vec<Vec<Fingerprint>> = Vec::new();
    let mut group_of: HashMap<TextHash, usize> = HashMap::new();
    for fingerprint in evidence {
        let text = live
            .catalog
            .get(fingerprint)
            .filter(searchable)
            .map(|info| info.text_hash);
        match text.and_then(|t| group_of.get(&t)) {
            Some(&group) => groups[group].push(fingerprint),
            None => {
                if let Some(text) = text {
                    group_of.insert(text, groups.len());
                }
                groups.push(vec![fingerprint]);
            }
        }
    }
    groups
}

/// The graph read from Neo4j, and what it was read for.
struct LoadedGraph {
    reasoner: Arc<Reasoner>,
    /// What the last completed sync wrote (`None`: a database no sync completed in).
    digest: Option<String>,
    generation: PathBuf,
}

/// The graph of the last completed Neo4j sync. Readers never wait for a reload: while one
/// request reads a newer sync's graph (seconds on a large graph), the others keep answering
/// from the complete graph already loaded; only a server with none yet waits for it.
struct Neo4jGraphs {
    watch: Arc<SyncWatch>,
    loaded: ArcSwapOption<LoadedGraph>,
    loading: Mutex<()>,
}

impl Neo4jGraphs {
    fn new(watch: Arc<SyncWatch>) -> Self {
        Self {
            watch,
            loaded: ArcSwapOption::empty(),
            loading: Mutex::new(()),
        }
    }

    fn reasoner(&self, generation: &Path) -> Result<Arc<Reasoner>, EngineError> {
        let synced = self.watch.check()?;
        let loaded = self.loaded.load_full();
        let of_generation = loaded.filter(|g| g.generation == generation);
        if let Some(graph) = of_generation.as_ref().filter(|g| g.digest == synced.digest) {
            return Ok(Arc::clone(&graph.reasoner));
        }
        let _loading = match self.loading.try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => match &of_generation {
                Some(stale) => return Ok(Arc::clone(&stale.reasoner)),
                None => self.loading.lock().unwrap_or_else(|e| e.into_inner()),
            },
        };
        if let Some(graph) = self
            .loaded
            .load_full()
            .filter(|g| g.generation == generation && g.digest == synced.digest)
        {
            return Ok(Arc::clone(&graph.reasoner));
        }
        let started = Instant::now();
        let data = self.watch.client().read_graph()?;
        let read_ms = started.elapsed().as_millis();
        let (nodes, relationships) = (data.nodes.len(), data.relationships.len());
        let reasoner = Reasoner::new(data, generation).map_err(io_error(format!(
            "reading the condition vocabulary of {}",
            generation.display()
        )))?;
        let reasoner = Arc::new(reasoner);
        tracing::info!(
            nodes,
            relationships,
            read_ms,
            total_ms = started.elapsed().as_millis(),
            "knowledge graph loaded from Neo4j"
        );
        self.loaded.store(Some(Arc::new(LoadedGraph {
            reasoner: Arc::clone(&reasoner),
            digest: synced.digest,
            generation: generation.to_path_buf(),
        })));
        Ok(reasoner)
    }
}

/// What label text calls an interaction partner: a drug by the first word of its established
/// name; a class by its name and the curated terms for it ("ACE inhibitor" for the angiotensin
/// converting enzyme inhibitors, `graph/drug-classes.tsv`).
fn partner_names(partner: &Node) -> Vec<String> {
    if partner.kind != NodeKind::DrugClass {
        let first = partner.name.split_whitespace().next().unwrap_or_default();
        return vec![first.to_lowercase()];
    }
    let mut names = vec![partner.name.to_lowercase()];
    names.extend(crate::curated::class_terms(&partner.name).iter().cloned());
    names
}
