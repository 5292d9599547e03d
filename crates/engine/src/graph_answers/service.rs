//! The graph service: a question read, answered over the live or Neo4j graph, each relationship's
//! evidence resolved through verify. See the module above for the whole path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Instant;

use arc_swap::ArcSwapOption;

use super::answer::{AnsweredRelationship, EvidenceText, Floored, GraphAnswer};
use super::label_floor::label_floor;
use super::meaning_floor::MeaningFloor;
use super::medication_list::{answer_list, is_medication_list, named_pair};
use super::own_words::{self, purposes};
use super::question;
use super::unread_conditions::unread_conditions;
use super::verdict::{instruction_about, stated_verdict, verdict, Instruction, Verdict};
use crate::embed::Embedder;
use crate::error::EngineError;
use crate::graph::{Evidence, Found, GraphQuestion, Node, NodeKind, Reasoner, RelationType};
use crate::index::{Live, LiveIndex};
use crate::neo4j::SyncWatch;
use crate::search::collapse::{searchable, AlsoIn};
use crate::understand::form::{asks_open, QuestionForm};
use crate::verify::{Verification, Verifier};
use drugcite_core::domain::{Fingerprint, GraphLimit, MaxHops, Question, TextHash};
use drugcite_core::text::contains_any_word;
use drugcite_store::io_error;

/// Evidence texts shown per graph relationship (all are counted).
const EVIDENCE_SHOWN: usize = 3;

pub struct GraphService {
    index: Arc<LiveIndex>,
    verifier: Arc<Verifier>,
    /// `None`: the graph is the generation's own.
    neo4j: Option<Neo4jGraphs>,
    /// `None` without the transformer model: verdicts then rest on named things alone.
    meaning: Option<MeaningFloor>,
}

impl GraphService {
    pub fn new(
        index: Arc<LiveIndex>,
        verifier: Arc<Verifier>,
        neo4j: Option<Arc<SyncWatch>>,
        embedder: Option<Arc<Embedder>>,
    ) -> Self {
        Self {
            index,
            verifier,
            neo4j: neo4j.map(Neo4jGraphs::new),
            meaning: embedder.map(MeaningFloor::new),
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
        let wording = question.as_str();
        if is_medication_list(&understood) {
            return answer_list(understood, |pair| {
                self.pair_floored(&live, &reasoner, pair, wording, max_hops)
            });
        }
        if asks_yes_no(&understood, question.as_str()) {
            let matcher = reasoner.matcher();
            let unread = unread_conditions(&live, &self.verifier, matcher, &understood)?;
            understood.unrecognized.retain(|word| {
                let word = word.to_lowercase();
                !unread
                    .iter()
                    .any(|c| contains_any_word(&c.text, &[word.as_str()]))
            });
            understood.conditions.extend(unread);
        }
        if reads_as_yes_no(&understood, question.as_str()) {
            understood.form = QuestionForm::YesNo;
        }
        let graph = reasoner.graph();
        let mut found = graph.answer(&understood, max_hops.get(), usize::MAX);
        if let Some(plain) = understood.without_guess().filter(|_| found.is_empty()) {
            found = graph.answer(&plain, max_hops.get(), usize::MAX);
            understood = plain;
        }
        if understood.form == QuestionForm::CommonSideEffects {
            self.order_by_label_frequency(&mut found)?;
        }
        let total = found.len();
        found.truncate(limit.get());
        let mut relationships: Vec<AnsweredRelationship> = found
            .iter()
            .map(|f| self.answered(&live, f, understood.boxed_only))
            .collect::<Result<_, _>>()?;
        let mut answer = GraphAnswer {
            understood,
            relationships: Vec::new(),
            verdict: None,
            labels_read: None,
            pairs: None,
            total,
        };
        let by_meaning = !asks_verdict(&answer.understood)
            && self.answers_by_meaning(&live, &answer.understood, wording)?;
        if by_meaning {
            answer.understood.form = QuestionForm::YesNo;
        }
        if asks_verdict(&answer.understood) || by_meaning {
            let shown = relationships.len();
            let mut floored =
                self.with_floor(&live, &answer.understood, question.as_str(), relationships)?;
            if let Some(pair) = named_pair(&answer.understood) {
                let stated = self.pair_floored(&live, &reasoner, &pair, wording, max_hops)?;
                floored = joined(floored, stated);
            }
            answer.verdict = Some(floored.verdict);
            answer.labels_read = Some(floored.labels.len());
            answer.total += floored.relationships.len() - shown;
            relationships = floored.relationships;
        }
        answer.relationships = relationships;
        Ok(answer)
    }

    /// Whether a yes/no question about one drug and words nothing read ("on Eliquis and need a
    /// lumbar puncture"), or a terse one asking no relation ("liraglutide in pt w/ MEN 2?"), is
    /// answered by a floor sentence close in meaning: then it has a verdict.
    fn answers_by_meaning(
        &self,
        live: &Live,
        question: &GraphQuestion,
        wording: &str,
    ) -> Result<bool, EngineError> {
        let Some(meaning) = self.meaning.as_ref() else {
            return Ok(false);
        };
        let terse = asks_yes_no(question, wording) && question.relation_types.is_empty();
        if !(question.form == QuestionForm::YesNo || terse) || !one_drug(question) {
            return Ok(false);
        }
        let found =
            meaning.statements(live, &self.verifier, question, wording, Verdict::NotStated)?;
        Ok(!found.is_empty())
    }

    /// The yes/no question about two drugs answered: every statement the graph holds between
    /// them, with the labels' floor.
    fn pair_floored(
        &self,
        live: &Live,
        reasoner: &Reasoner,
        pair: &GraphQuestion,
        wording: &str,
        max_hops: MaxHops,
    ) -> Result<Floored, EngineError> {
        let found = reasoner.graph().answer(pair, max_hops.get(), usize::MAX);
        let relationships = found
            .iter()
            .map(|f| self.answered(live, f, false))
            .collect::<Result<Vec<_>, _>>()?;
        self.with_floor(live, pair, wording, relationships)
    }

    /// The relationships of a yes/no question with what the labels' own text adds above them
    /// (`label_floor`), most cautious first, and the verdict they give.
    fn with_floor(
        &self,
        live: &Live,
        question: &GraphQuestion,
        wording: &str,
        mut relationships: Vec<AnsweredRelationship>,
    ) -> Result<Floored, EngineError> {
        let floor = label_floor(live, &self.verifier, question, wording)?;
        let two_drugs = about_drugs(question);
        let values_only = about_values(question);
        let names_two = things_named(question) >= 2;
        let purposes = purposes(live, &self.verifier, question)?;
        let decides = |r: &&AnsweredRelationship| {
            let of_a_value = question.measured.contains(&r.target.name);
            let context = most_cautious(r) > Verdict::BoxedWarning
                && purposes.iter().any(|c| own_words::names(c, &r.target));
            match (two_drugs, values_only) {
                _ if !names_two || context || within_one_drug(question, r) => false,
                (true, _) => names_a_drug(r),
                (false, true) => of_a_value || (question.drugs.len() > 1 && names_a_drug(r)),
                (false, false) => true,
            }
        };
        let from_graph = verdict(relationships.iter().filter(decides).map(stated), two_drugs);
        relationships.extend(
            floor
                .statements
                .into_iter()
                .filter(|s| most_cautious(s) < from_graph),
        );
        let by_meaning = |r: &&AnsweredRelationship| r.meaning.is_some();
        let mut verdict = verdict(relationships.iter().filter(decides).map(stated), two_drugs);
        if let Some(meaning) = self.meaning.as_ref().filter(|_| one_drug(question)) {
            let below = verdict;
            relationships.extend(meaning.statements(
                live,
                &self.verifier,
                question,
                wording,
                below,
            )?);
        }
        relationships.sort_by_key(|r| (!(decides(&r) || by_meaning(&r)), most_cautious(r)));
        let decided = relationships.iter().filter(|r| decides(r) || by_meaning(r));
        verdict = verdict.min(self::verdict(decided.map(stated), two_drugs));
        if relationships.is_empty() && floor.labels_read.is_empty() {
            verdict = Verdict::NoLabelIndexed;
        }
        Ok(Floored {
            verdict,
            relationships,
            labels: floor.labels_read,
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
            meaning: None,
        })
    }
}

/// Whether the question is about drugs only (it names no condition and states no measured
/// value): then only what stands
/// between drugs decides the verdict. A condition named beside two drugs still counts: it may
/// be context ("takes metformin for diabetes"), but a combination product read as its
/// ingredients names two drugs too, and a false alarm is safer than a missed contraindication.
fn about_drugs(question: &GraphQuestion) -> bool {
    question.conditions.is_empty() && question.measured.is_empty()
}

/// Whether the question names no condition but states measured values ("eplerenone with a K
/// of 5.8?"): then what the labels state of those values decides (with what stands between
/// two drugs it names), not every relationship the drug has.
fn about_values(question: &GraphQuestion) -> bool {
    question.conditions.is_empty() && !question.measured.is_empty()
}

/// Whether the question names one drug and no other drug or class: only then can a floor
/// sentence answer it by meaning (`meaning_floor`); between two named drugs their names decide.
fn one_drug(question: &GraphQuestion) -> bool {
    question.drugs.len() == 1 && !question.drugs[0].is_class
}

/// Whether `r` stands between two nodes of one drug the question names and of no other
/// ("gabapentin" names gabapentin and gabapentin enacarbil): it says nothing of what the
/// question pairs. Named apart ("Horizant with gabapentin"), the two ends are the pair asked.
fn within_one_drug(question: &GraphQuestion, r: &AnsweredRelationship) -> bool {
    let naming = |holds: &dyn Fn(&Node) -> bool| -> Vec<usize> {
        let named = question.drugs.iter().enumerate();
        named
            .filter(|(_, drug)| drug.nodes.iter().any(holds))
            .map(|(at, _)| at)
            .collect()
    };
    let drug = naming(&|n| n.name == r.drug);
    drug.len() == 1 && drug == naming(&|n| n.id == r.target.id)
}

fn names_a_drug(r: &AnsweredRelationship) -> bool {
    matches!(r.target.kind, NodeKind::Drug | NodeKind::DrugClass)
}

/// Two answers to one question (its conditions, and the pair of drugs it also names) as one:
/// every relationship once, most cautious first, and the more cautious verdict.
fn joined(mut first: Floored, second: Floored) -> Floored {
    for r in second.relationships {
        let known = first
            .relationships
            .iter()
            .any(|k| k.drug == r.drug && k.kind == r.kind && k.target.id == r.target.id);
        if !known {
            first.relationships.push(r);
        }
    }
    first.relationships.sort_by_key(most_cautious);
    first.verdict = first.verdict.min(second.verdict);
    first.labels.extend(second.labels);
    first
}

/// What a relationship states, as `verdict` reads it: type, instruction, boxed or not.
fn stated(r: &AnsweredRelationship) -> (RelationType, Option<Instruction>, bool) {
    let boxed = r
        .evidence
        .iter()
        .any(|e| e.segment.section_key == "boxed_warning");
    (r.kind, r.instruction, boxed)
}

/// The verdict one relationship alone would give (membership last).
fn most_cautious(r: &AnsweredRelationship) -> Verdict {
    let (kind, instruction, boxed) = stated(r);
    stated_verdict(kind, instruction, boxed).unwrap_or(Verdict::NotStated)
}

/// A terse question naming a drug and a second thing and asking for no list or account ("X +
/// Y?", "X in pt w/ Z - ok?"): it asks whether the two go together, so it is answered as a yes/no
/// question, verdict included.
fn reads_as_yes_no(question: &GraphQuestion, wording: &str) -> bool {
    let named = things_named(question);
    question.form == QuestionForm::Open && named >= 2 && asks_yes_no(question, wording)
}

/// A question about a named drug asked yes/no, or tersely in no open form ("X in pt w/ Y?").
fn asks_yes_no(question: &GraphQuestion, wording: &str) -> bool {
    let terse = question.form == QuestionForm::Open && !asks_open(wording);
    (question.form == QuestionForm::YesNo || terse)
        && !question.drugs.is_empty()
        && !question.asks_which
        && !question.shared
}

/// The drugs, classes, conditions and measured values a question names.
fn things_named(question: &GraphQuestion) -> usize {
    question.drugs.len() + question.conditions.len() + question.measured.len()
}

/// A yes/no question naming two things (two drugs or classes, or a drug and a condition).
fn asks_verdict(question: &GraphQuestion) -> bool {
    let named = things_named(question);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::query::NamedDrug;

    fn named(names: &[&str]) -> NamedDrug {
        NamedDrug {
            nodes: names.iter().map(|n| Node::drug(n)).collect(),
            is_class: false,
        }
    }

    fn between(drug: &str, target: &str) -> AnsweredRelationship {
        AnsweredRelationship {
            drug: drug.to_owned(),
            target: Node::drug(target),
            kind: RelationType::Contraindication,
            severity: None,
            evidence: Vec::new(),
            evidence_count: 0,
            instruction: None,
            path: Vec::new(),
            meaning: None,
        }
    }

    #[test]
    fn only_a_statement_inside_one_named_drug_is_within_it() {
        let prodrug = between("gabapentin enacarbil", "gabapentin");
        let one_name = GraphQuestion {
            drugs: vec![
                named(&["gabapentin", "gabapentin enacarbil"]),
                named(&["oxycodone"]),
            ],
            ..GraphQuestion::default()
        };
        assert!(within_one_drug(&one_name, &prodrug));
        let named_apart = GraphQuestion {
            drugs: vec![
                named(&["gabapentin enacarbil"]),
                named(&["gabapentin", "gabapentin enacarbil"]),
            ],
            ..GraphQuestion::default()
        };
        assert!(!within_one_drug(&named_apart, &prodrug), "the pair asked");
        assert!(!within_one_drug(
            &one_name,
            &between("gabapentin", "oxycodone")
        ));
    }
}
