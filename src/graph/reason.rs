//! Multi-hop answers over the knowledge graph held in petgraph: relationships of the drugs a
//! question names, or the drugs that satisfy every constraint of a "which drugs" question,
//! each with the hop chains that led to it; ranked by severity, then evidence, in a stable
//! order. Knows nothing about segment text; evidence stays fingerprints here.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::model::{Evidence, GraphData, Node, NodeKind, RelationType, Severity};
use super::question::{GraphQuestion, NamedCondition, NamedDrug};
use crate::text::{key_contains, key_of};

/// The relation types answered when a question names none.
const DEFAULT_TYPES: [RelationType; 5] = [
    RelationType::Contraindication,
    RelationType::Warning,
    RelationType::AdverseReaction,
    RelationType::Indication,
    RelationType::Interaction,
];

#[derive(Clone, Debug)]
pub struct Edge {
    pub kind: RelationType,
    pub severity: Option<Severity>,
    pub evidence: Vec<Evidence>,
}

/// A named condition resolved to graph nodes, with the relation types asked for it.
struct Matched {
    nodes: HashSet<NodeIndex>,
    relations: Vec<RelationType>,
}

/// Edges walked, each as (edge, from, to).
type Walk = Vec<(EdgeIndex, NodeIndex, NodeIndex)>;

/// One step of a hop chain; `kind` "has_member" is a member_of edge walked from the class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hop {
    pub from: String,
    pub kind: &'static str,
    pub to: String,
}

/// A relationship in an answer: drug, target, the edge, and the chain that led to it.
#[derive(Clone, Debug)]
pub struct Found<'g> {
    pub drug: &'g Node,
    pub target: &'g Node,
    pub edge: &'g Edge,
    pub path: Vec<Hop>,
}

pub struct KnowledgeGraph {
    graph: DiGraph<Node, Edge>,
    by_id: HashMap<String, NodeIndex>,
    /// The normalised key of each condition node's name, by node index.
    condition_keys: Vec<Option<String>>,
}

impl KnowledgeGraph {
    pub fn new(data: GraphData) -> Self {
        let mut graph = DiGraph::with_capacity(data.nodes.len(), data.relationships.len());
        let mut by_id = HashMap::with_capacity(data.nodes.len());
        let mut condition_keys = Vec::with_capacity(data.nodes.len());
        for node in data.nodes {
            condition_keys.push((node.kind == NodeKind::Condition).then(|| key_of(&node.name)));
            let id = node.id.clone();
            by_id.insert(id, graph.add_node(node));
        }
        for r in data.relationships {
            if let (Some(&from), Some(&to)) = (by_id.get(&r.from), by_id.get(&r.to)) {
                let edge = Edge {
                    kind: r.kind,
                    severity: r.severity,
                    evidence: r.evidence,
                };
                graph.add_edge(from, to, edge);
            }
        }
        Self {
            graph,
            by_id,
            condition_keys,
        }
    }

    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// The relationships answering `question`, ranked, at most `limit`.
    pub fn answer(
        &self,
        question: &GraphQuestion,
        max_hops: usize,
        limit: usize,
    ) -> Vec<Found<'_>> {
        let mut found = if question.asks_which {
            self.which_drugs(question, max_hops)
        } else {
            self.about_subjects(question, max_hops)
        };
        found.truncate(limit);
        found
    }

    /// Relationships of the drugs the question is about (members of a class named as subject).
    fn about_subjects(&self, question: &GraphQuestion, max_hops: usize) -> Vec<Found<'_>> {
        let subjects = subjects_of(question);
        let partners: Vec<&NamedDrug> = question.drugs.iter().skip(1).collect();
        let asks_drug_relation = question.relation_types.contains(&RelationType::Interaction)
            || question
                .relation_types
                .contains(&RelationType::Contraindication);
        let interaction_partners = asks_drug_relation
            && question.conditions.is_empty()
            && !question.shared
            && !partners.is_empty();
        let reaches: Vec<HashMap<NodeIndex, Vec<Walk>>> = if interaction_partners {
            partners.iter().map(|p| self.reach(p, max_hops)).collect()
        } else {
            Vec::new()
        };
        let subjects = if interaction_partners {
            &subjects[..1]
        } else {
            &subjects[..]
        };
        let conditions: Vec<Matched> = question
            .conditions
            .iter()
            .map(|c| self.matched(c))
            .collect();
        let mut groups: Vec<Vec<Found>> = Vec::new();
        for subject in subjects {
            let mut group = Vec::new();
            for (drug, lead) in self.expand(subject, max_hops) {
                let budget = max_hops.saturating_sub(lead.len());
                for reach in &reaches {
                    group.extend(self.chains_to(reach, drug, budget, &lead));
                }
                if !interaction_partners {
                    group.extend(self.edges_of(drug, question, &conditions, &lead));
                }
            }
            groups.push(group);
        }
        let shared = question.shared && groups.len() > 1;
        if shared {
            keep_shared_targets(&mut groups);
        }
        let mut found: Vec<Found> = groups.into_iter().flatten().collect();
        rank(&mut found);
        if shared {
            group_by_target(&mut found);
        }
        found
    }

    /// Drugs meeting every constraint: candidates are all drugs, or a named class's members
    /// when the class is asked about ("which SSRIs …").
    fn which_drugs(&self, question: &GraphQuestion, max_hops: usize) -> Vec<Found<'_>> {
        let mut partners: Vec<&NamedDrug> = question.drugs.iter().collect();
        let candidates: Vec<(NodeIndex, Vec<Hop>)> = match partners.first().copied() {
            Some(first)
                if first.is_class
                    && !question.relation_types.is_empty()
                    && class_is_asked(question) =>
            {
                partners.remove(0);
                self.expand(first, max_hops)
            }
            _ => self
                .graph
                .node_indices()
                .filter(|i| self.graph[*i].kind == NodeKind::Drug)
                .map(|i| (i, Vec::new()))
                .collect(),
        };
        let named: HashSet<&str> = partners
            .iter()
            .flat_map(|p| p.nodes.iter().map(|n| n.id.as_str()))
            .collect();
        let candidates = candidates
            .into_iter()
            .filter(|(i, _)| !named.contains(self.graph[*i].id.as_str()));
        if partners.is_empty() && question.conditions.is_empty() {
            return Vec::new();
        }
        let reaches: Vec<HashMap<NodeIndex, Vec<Walk>>> =
            partners.iter().map(|p| self.reach(p, max_hops)).collect();
        let conditions: Vec<Matched> = question
            .conditions
            .iter()
            .map(|c| self.matched(c))
            .collect();
        let mut answers: Vec<Vec<Found>> = Vec::new();
        for (drug, lead) in candidates {
            let budget = max_hops.saturating_sub(lead.len());
            let mut constraints: Vec<Vec<Found>> = conditions
                .iter()
                .map(|c| self.condition_edges(drug, c, question.boxed_only, &lead))
                .collect();
            constraints.extend(
                reaches
                    .iter()
                    .map(|r| self.chains_to(r, drug, budget, &lead)),
            );
            if constraints.iter().all(|c| !c.is_empty()) {
                let mut best: Vec<Found> = constraints.into_iter().filter_map(strongest).collect();
                rank(&mut best);
                answers.push(best);
            }
        }
        answers.sort_by(|a, b| {
            answer_strength(b)
                .cmp(&answer_strength(a))
                .then_with(|| a[0].drug.name.cmp(&b[0].drug.name))
        });
        answers.into_iter().flatten().collect()
    }

    /// The drug nodes a named drug or class stands for, with the hop from the class.
    fn expand(&self, named: &NamedDrug, max_hops: usize) -> Vec<(NodeIndex, Vec<Hop>)> {
        let mut out = Vec::new();
        for node in &named.nodes {
            let Some(&index) = self.by_id.get(&node.id) else {
                continue;
            };
            if !named.is_class {
                out.push((index, Vec::new()));
                continue;
            }
            if max_hops < 2 {
                continue;
            }
            for edge in self.graph.edges_directed(index, Direction::Incoming) {
                if edge.weight().kind == RelationType::MemberOf {
                    let hop = self.hop(index, "has_member", edge.source());
                    out.push((edge.source(), vec![hop]));
                }
            }
        }
        out.sort_by(|a, b| self.graph[a.0].id.cmp(&self.graph[b.0].id));
        out.dedup_by_key(|(i, _)| *i);
        out
    }

    /// A drug's edges of the question's relation types, to its named conditions (`matched`
    /// once per question) if any.
    fn edges_of(
        &self,
        drug: NodeIndex,
        question: &GraphQuestion,
        conditions: &[Matched],
        lead: &[Hop],
    ) -> Vec<Found<'_>> {
        if !conditions.is_empty() {
            return conditions
                .iter()
                .flat_map(|c| self.condition_edges(drug, c, question.boxed_only, lead))
                .collect();
        }
        let types: Vec<RelationType> = if question.relation_types.is_empty() {
            DEFAULT_TYPES.to_vec()
        } else {
            question.relation_types.clone()
        };
        let mut found = Vec::new();
        for edge in self.graph.edges_directed(drug, Direction::Outgoing) {
            if types.contains(&edge.weight().kind) && boxed_ok(edge.weight(), question.boxed_only) {
                found.push(self.found(drug, edge.target(), edge.id(), lead));
            }
        }
        if types.contains(&RelationType::Interaction) {
            for edge in self.graph.edges_directed(drug, Direction::Incoming) {
                if edge.weight().kind == RelationType::Interaction {
                    found.push(self.found(edge.source(), drug, edge.id(), lead));
                }
            }
        }
        found
    }

    fn condition_edges(
        &self,
        drug: NodeIndex,
        condition: &Matched,
        boxed_only: bool,
        lead: &[Hop],
    ) -> Vec<Found<'_>> {
        self.graph
            .edges_directed(drug, Direction::Outgoing)
            .filter(|e| condition.relations.contains(&e.weight().kind))
            .filter(|e| boxed_ok(e.weight(), boxed_only))
            .filter(|e| condition.nodes.contains(&e.target()))
            .map(|e| self.found(drug, e.target(), e.id(), lead))
            .collect()
    }

    /// The condition nodes whose name contains one of a named condition's phrases.
    fn matched(&self, condition: &NamedCondition) -> Matched {
        let nodes = self
            .condition_keys
            .iter()
            .enumerate()
            .filter(|(_, key)| {
                key.as_ref()
                    .is_some_and(|key| condition.keys.iter().any(|k| key_contains(key, k)))
            })
            .map(|(i, _)| NodeIndex::new(i))
            .collect();
        Matched {
            nodes,
            relations: condition.relations.clone(),
        }
    }

    /// Every drug an interaction chain from `partner` reaches within `budget` steps (an
    /// interaction or drug contraindication edge once, class memberships around it), with the
    /// walks that reach it (see `walk_interactions`).
    fn reach(&self, partner: &NamedDrug, budget: usize) -> HashMap<NodeIndex, Vec<Walk>> {
        let mut reached: HashMap<NodeIndex, Vec<Walk>> = HashMap::new();
        for node in &partner.nodes {
            let Some(&start) = self.by_id.get(&node.id) else {
                continue;
            };
            for (end, walk) in self.walk_interactions(start, budget) {
                reached.entry(end).or_default().push(walk);
            }
        }
        reached
    }

    /// The interactions by which `reach` gets to `drug` in at most `budget` steps, each with
    /// its chain after `lead`.
    fn chains_to(
        &self,
        reach: &HashMap<NodeIndex, Vec<Walk>>,
        drug: NodeIndex,
        budget: usize,
        lead: &[Hop],
    ) -> Vec<Found<'_>> {
        let walks = reach.get(&drug).into_iter().flatten();
        walks
            .filter(|walk| walk.len() <= budget)
            .filter_map(|walk| {
                let &(edge, _, _) = walk.iter().find(|(e, _, _)| self.is_drug_relation(*e))?;
                let (from, to) = self.graph.edge_endpoints(edge)?;
                let mut path = lead.to_vec();
                path.extend(walk.iter().map(|&(e, a, b)| self.step(e, a, b)));
                Some(Found {
                    drug: &self.graph[from],
                    target: &self.graph[to],
                    edge: &self.graph[edge],
                    path,
                })
            })
            .collect()
    }

    /// An interaction, or a contraindication with a drug or class ("contraindicated with MAO
    /// inhibitors"): the edges a chain between two drugs may use once.
    fn is_drug_relation(&self, edge: EdgeIndex) -> bool {
        let to_drug = self
            .graph
            .edge_endpoints(edge)
            .is_some_and(|(_, to)| self.graph[to].kind != NodeKind::Condition);
        match self.graph[edge].kind {
            RelationType::Interaction => true,
            RelationType::Contraindication => to_drug,
            _ => false,
        }
    }

    /// Breadth-first walks from `start` over interaction edges (one at most per walk) and
    /// member_of edges (either way); every drug reached after its interaction edge, with the
    /// first (shortest) walk to it as (edge, from, to) steps.
    fn walk_interactions(&self, start: NodeIndex, budget: usize) -> Vec<(NodeIndex, Walk)> {
        let mut seen: HashSet<(NodeIndex, bool)> = HashSet::from([(start, false)]);
        let mut queue = VecDeque::from([(start, false, Vec::new())]);
        let mut reached = Vec::new();
        while let Some((node, used, steps)) = queue.pop_front() {
            if used && self.graph[node].kind == NodeKind::Drug {
                reached.push((node, steps.clone()));
            }
            if steps.len() >= budget {
                continue;
            }
            let edges = self
                .graph
                .edges_directed(node, Direction::Outgoing)
                .map(|e| (e.id(), e.target()))
                .chain(
                    self.graph
                        .edges_directed(node, Direction::Incoming)
                        .map(|e| (e.id(), e.source())),
                );
            let mut next: Vec<(EdgeIndex, NodeIndex)> = edges.collect();
            next.sort_by(|a, b| {
                self.graph[a.1]
                    .id
                    .cmp(&self.graph[b.1].id)
                    .then(a.0.cmp(&b.0))
            });
            for (edge, other) in next {
                let kind = self.graph[edge].kind;
                let interaction = self.is_drug_relation(edge);
                if (interaction && used) || !(interaction || kind == RelationType::MemberOf) {
                    continue;
                }
                let state = (other, used || interaction);
                if seen.insert(state) {
                    let mut steps = steps.clone();
                    steps.push((edge, node, other));
                    queue.push_back((other, state.1, steps));
                }
            }
        }
        reached
    }

    fn found(
        &self,
        drug: NodeIndex,
        target: NodeIndex,
        edge: EdgeIndex,
        lead: &[Hop],
    ) -> Found<'_> {
        let weight = &self.graph[edge];
        let mut path = lead.to_vec();
        path.push(self.hop(drug, weight.kind.as_str(), target));
        Found {
            drug: &self.graph[drug],
            target: &self.graph[target],
            edge: weight,
            path,
        }
    }

    /// A walked step as a hop: a member_of edge walked from the class reads "has_member"; a
    /// relationship keeps its own direction (the drug whose label states it first).
    fn step(&self, edge: EdgeIndex, from: NodeIndex, to: NodeIndex) -> Hop {
        match self.graph[edge].kind {
            RelationType::MemberOf if self.graph[from].kind == NodeKind::DrugClass => {
                self.hop(from, "has_member", to)
            }
            RelationType::MemberOf => self.hop(from, "member_of", to),
            kind => {
                let (source, target) = self.graph.edge_endpoints(edge).unwrap_or((from, to));
                self.hop(source, kind.as_str(), target)
            }
        }
    }

    fn hop(&self, from: NodeIndex, kind: &'static str, to: NodeIndex) -> Hop {
        Hop {
            from: self.graph[from].name.clone(),
            kind,
            to: self.graph[to].name.clone(),
        }
    }
}

/// The named drugs and classes a question is about: all when it compares them ("share"), else
/// the first one (the others are partners).
fn subjects_of(question: &GraphQuestion) -> Vec<&NamedDrug> {
    if question.shared {
        question.drugs.iter().collect()
    } else {
        question.drugs.iter().take(1).collect()
    }
}

/// "Which SSRIs …": the class named is what is asked for, not a partner ("which drugs interact
/// with SSRIs", "which drugs are contraindicated with MAO inhibitors").
fn class_is_asked(question: &GraphQuestion) -> bool {
    let about_partners = question.conditions.is_empty()
        && (question.relation_types.contains(&RelationType::Interaction)
            || question
                .relation_types
                .contains(&RelationType::Contraindication));
    !about_partners || question.drugs.len() > 1
}

fn boxed_ok(edge: &Edge, boxed_only: bool) -> bool {
    !boxed_only || edge.evidence.iter().any(|e| e.section == "boxed_warning")
}

/// Keeps, in every group, only relationships whose target every group reaches.
fn keep_shared_targets(groups: &mut [Vec<Found>]) {
    let targets =
        |g: &Vec<Found>| -> BTreeSet<String> { g.iter().map(|f| f.target.id.clone()).collect() };
    let mut common = targets(&groups[0]);
    for group in groups.iter().skip(1) {
        common = common.intersection(&targets(group)).cloned().collect();
    }
    for group in groups.iter_mut() {
        group.retain(|f| common.contains(&f.target.id));
    }
}

/// The strongest of one constraint's relationships (shortest chain among equals).
fn strongest(mut found: Vec<Found>) -> Option<Found> {
    rank(&mut found);
    found.into_iter().next()
}

/// Brings each shared target's relationships together, targets in the order of their
/// strongest relationship (the ranked order of `found`).
fn group_by_target(found: &mut [Found]) {
    let mut first_seen: HashMap<String, usize> = HashMap::new();
    for (at, f) in found.iter().enumerate() {
        first_seen.entry(f.target.id.clone()).or_insert(at);
    }
    found.sort_by_key(|f| first_seen[&f.target.id]);
}

fn strength(found: &Found) -> (Option<Severity>, usize) {
    (found.edge.severity, found.edge.evidence.len())
}

fn answer_strength(answer: &[Found]) -> (Option<Severity>, usize) {
    let severity = answer.iter().map(|f| f.edge.severity).max().flatten();
    (severity, answer.iter().map(|f| f.edge.evidence.len()).sum())
}

/// Severity first, then evidence strength (number of stating segments), then names and type:
/// the same order for the same graph every time. Repeated relationships are dropped.
fn rank(found: &mut Vec<Found>) {
    found.sort_by(|a, b| {
        strength(b)
            .cmp(&strength(a))
            .then_with(|| a.drug.name.cmp(&b.drug.name))
            .then_with(|| a.target.name.cmp(&b.target.name))
            .then_with(|| a.edge.kind.cmp(&b.edge.kind))
            .then_with(|| a.path.len().cmp(&b.path.len()))
    });
    let mut seen = BTreeMap::new();
    found.retain(|f| {
        seen.insert((f.drug.id.clone(), f.target.id.clone(), f.edge.kind), ())
            .is_none()
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Fingerprint;
    use crate::graph::model::Relationship;

    fn evidence(n: u64, section: &str) -> Vec<Evidence> {
        (0..n)
            .map(|i| Evidence {
                fingerprint: Fingerprint::from_halves(i, n),
                section: section.into(),
            })
            .collect()
    }

    fn edge(
        from: &str,
        to: &str,
        kind: RelationType,
        severity: Option<Severity>,
        n: u64,
        section: &str,
    ) -> Relationship {
        Relationship {
            from: from.into(),
            to: to.into(),
            kind,
            severity,
            evidence: evidence(n, section),
        }
    }

    /// b interacts with class k, whose members are a and c; a causes bleeding (life-
    /// threatening), c has a boxed warning about gastrointestinal bleeding; a and b cause nausea.
    fn graph() -> KnowledgeGraph {
        use RelationType::*;
        KnowledgeGraph::new(GraphData {
            nodes: vec![
                Node::drug("a"),
                Node::drug("b"),
                Node::drug("c"),
                Node::class("k"),
                Node::condition("DOID:1", "bleeding"),
                Node::condition("DOID:2", "gastrointestinal bleeding"),
                Node::condition("DOID:3", "nausea"),
            ],
            relationships: vec![
                edge(
                    "drug:a",
                    "DOID:1",
                    AdverseReaction,
                    Some(Severity::LifeThreatening),
                    2,
                    "adverse_reactions",
                ),
                edge(
                    "drug:c",
                    "DOID:2",
                    Warning,
                    Some(Severity::Serious),
                    1,
                    "boxed_warning",
                ),
                edge(
                    "drug:b",
                    "class:k",
                    Interaction,
                    Some(Severity::Moderate),
                    1,
                    "drug_interactions",
                ),
                edge("drug:a", "class:k", MemberOf, None, 0, ""),
                edge("drug:c", "class:k", MemberOf, None, 0, ""),
                edge(
                    "drug:a",
                    "DOID:3",
                    AdverseReaction,
                    None,
                    1,
                    "adverse_reactions",
                ),
                edge(
                    "drug:b",
                    "DOID:3",
                    AdverseReaction,
                    None,
                    3,
                    "adverse_reactions",
                ),
            ],
        })
    }

    fn named(name: &str, class: bool) -> NamedDrug {
        NamedDrug {
            nodes: vec![if class {
                Node::class(name)
            } else {
                Node::drug(name)
            }],
            is_class: class,
        }
    }

    fn condition(name: &str, relations: &[RelationType]) -> NamedCondition {
        NamedCondition {
            text: name.into(),
            name: name.into(),
            keys: vec![key_of(name)],
            relations: relations.to_vec(),
        }
    }

    fn summary(found: &[Found]) -> Vec<(String, &'static str, String, usize)> {
        found
            .iter()
            .map(|f| {
                (
                    f.drug.name.clone(),
                    f.edge.kind.as_str(),
                    f.target.name.clone(),
                    f.path.len(),
                )
            })
            .collect()
    }

    #[test]
    fn which_drugs_interact_through_a_class_and_cause_a_condition() {
        let question = GraphQuestion {
            drugs: vec![named("b", false)],
            conditions: vec![condition(
                "bleeding",
                &[RelationType::AdverseReaction, RelationType::Warning],
            )],
            relation_types: vec![RelationType::Interaction, RelationType::AdverseReaction],
            asks_which: true,
            ..GraphQuestion::default()
        };
        let graph = graph();
        let found = graph.answer(&question, 2, 10);
        assert_eq!(
            summary(&found),
            [
                ("a".into(), "adverse_reaction", "bleeding".into(), 1),
                ("b".into(), "interaction", "k".into(), 2),
                ("c".into(), "warning", "gastrointestinal bleeding".into(), 1),
                ("b".into(), "interaction", "k".into(), 2),
            ]
        );
        assert_eq!(found[1].path[1].kind, "has_member");
        assert!(
            graph.answer(&question, 1, 10).is_empty(),
            "the class step needs a second hop"
        );
    }

    #[test]
    fn a_contraindication_with_a_class_links_drugs_like_an_interaction() {
        let data = GraphData {
            nodes: vec![
                Node::drug("a"),
                Node::drug("d"),
                Node::class("k"),
                Node::condition("DOID:3", "nausea"),
            ],
            relationships: vec![
                edge(
                    "drug:d",
                    "class:k",
                    RelationType::Contraindication,
                    Some(Severity::Serious),
                    1,
                    "contraindications",
                ),
                edge(
                    "drug:d",
                    "DOID:3",
                    RelationType::Contraindication,
                    Some(Severity::Serious),
                    1,
                    "contraindications",
                ),
                edge("drug:a", "class:k", RelationType::MemberOf, None, 0, ""),
            ],
        };
        let graph = KnowledgeGraph::new(data);
        let question = GraphQuestion {
            drugs: vec![named("k", true)],
            relation_types: vec![RelationType::Contraindication],
            asks_which: true,
            ..GraphQuestion::default()
        };
        let found = graph.answer(&question, 2, 10);
        assert_eq!(
            summary(&found),
            [("d".into(), "contraindication", "k".into(), 1)]
        );
    }

    #[test]
    fn a_class_subject_reaches_its_members_and_boxed_only_keeps_boxed_evidence() {
        let question = GraphQuestion {
            drugs: vec![named("k", true)],
            conditions: vec![condition("bleeding", &[RelationType::Warning])],
            relation_types: vec![RelationType::Warning],
            boxed_only: true,
            ..GraphQuestion::default()
        };
        let graph = graph();
        let found = graph.answer(&question, 2, 10);
        assert_eq!(
            summary(&found),
            [("c".into(), "warning", "gastrointestinal bleeding".into(), 2)]
        );
        assert!(graph.answer(&question, 1, 10).is_empty());
    }

    #[test]
    fn shared_keeps_targets_every_drug_reaches_and_ranking_is_stable() {
        let question = GraphQuestion {
            drugs: vec![named("a", false), named("b", false)],
            relation_types: vec![RelationType::AdverseReaction],
            shared: true,
            ..GraphQuestion::default()
        };
        let graph = graph();
        let found = graph.answer(&question, 2, 10);
        assert_eq!(
            summary(&found),
            [
                ("b".into(), "adverse_reaction", "nausea".into(), 1),
                ("a".into(), "adverse_reaction", "nausea".into(), 1),
            ]
        );
        assert_eq!(
            summary(&graph.answer(&question, 2, 1)),
            summary(&found[..1])
        );
    }
}
