//! Interaction chains between drugs over the knowledge graph: breadth-first walks that use one
//! interaction (or drug/class contraindication) edge and class memberships around it. Part of
//! the reasoner; knows nothing about questions.

use std::collections::{HashMap, HashSet, VecDeque};

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::found::{Found, Hop, Walk};
use super::knowledge_graph::KnowledgeGraph;
use crate::graph::model::{NodeKind, RelationType};
use crate::graph::query::NamedDrug;

impl KnowledgeGraph {
    /// Every drug an interaction chain from `partner` reaches within `budget` steps (an
    /// interaction or drug contraindication edge once, class memberships around it), with the
    /// walks that reach it (see `walk_interactions`). A class partner also starts from the
    /// broader classes its name contains: "diuretics" speaks for "potassium-sparing diuretics".
    pub(super) fn reach(
        &self,
        partner: &NamedDrug,
        budget: usize,
    ) -> HashMap<NodeIndex, Vec<Walk>> {
        let mut reached: HashMap<NodeIndex, Vec<Walk>> = HashMap::new();
        let mut starts: Vec<NodeIndex> = partner
            .nodes
            .iter()
            .filter_map(|node| self.by_id.get(&node.id).copied())
            .collect();
        let broader: Vec<NodeIndex> = starts
            .iter()
            .flat_map(|&s| self.broader_classes(s))
            .collect();
        starts.extend(broader);
        starts.sort();
        starts.dedup();
        for start in starts {
            for (end, walk) in self.walk_interactions(start, budget) {
                reached.entry(end).or_default().push(walk);
            }
        }
        reached
    }

    /// The interactions by which `reach` gets to `drug` in at most `budget` steps, each with
    /// its chain after `lead`.
    pub(super) fn chains_to(
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
    pub(super) fn is_drug_relation(&self, edge: EdgeIndex) -> bool {
        let to_drug = self.graph.edge_endpoints(edge).is_some_and(|(_, to)| {
            matches!(self.graph[to].kind, NodeKind::Drug | NodeKind::DrugClass)
        });
        match self.graph[edge].kind {
            RelationType::Interaction => true,
            RelationType::Contraindication => to_drug,
            _ => false,
        }
    }

    /// Breadth-first walks from `start` over interaction edges (one at most per walk) and
    /// member_of edges (either way); every drug reached after its interaction edge, with the
    /// first (shortest) walk to it of each relation kind as (edge, from, to) steps: a drug
    /// whose label lists a partner among its interactions and contraindicates the partner's
    /// class keeps both walks, so the relation asked for can be chosen.
    pub(super) fn walk_interactions(
        &self,
        start: NodeIndex,
        budget: usize,
    ) -> Vec<(NodeIndex, Walk)> {
        type State = (NodeIndex, Option<RelationType>);
        let mut seen: HashSet<State> = HashSet::from([(start, None)]);
        let mut queue: VecDeque<(State, Walk)> = VecDeque::from([((start, None), Vec::new())]);
        let mut reached = Vec::new();
        while let Some(((node, used), steps)) = queue.pop_front() {
            if used.is_some() && self.graph[node].kind == NodeKind::Drug {
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
                if (interaction && used.is_some())
                    || !(interaction || kind == RelationType::MemberOf)
                {
                    continue;
                }
                let state = (other, if interaction { Some(kind) } else { used });
                if seen.insert(state) {
                    let mut steps = steps.clone();
                    steps.push((edge, node, other));
                    queue.push_back((state, steps));
                }
            }
        }
        reached
    }
}
