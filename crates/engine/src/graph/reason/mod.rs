//! Multi-hop answers over the knowledge graph held in petgraph: relationships of the drugs a
//! question names, or the drugs that satisfy every constraint of a "which drugs" question,
//! each with the hop chains that led to it; ranked by severity, then evidence, in a stable
//! order. A yes/no question that finds nothing of the relation it asks about is answered with
//! what the graph does state between the two (where the term actually sits). Knows nothing
//! about segment text; evidence stays fingerprints here.

use std::collections::{HashMap, HashSet};

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::graph::model::{NodeKind, RelationType};
use crate::graph::query::{GraphQuestion, NamedCondition, NamedDrug};
use crate::understand::form::QuestionForm;
use drugcite_core::text::key_contains;

impl KnowledgeGraph {
    /// The relationships answering `question`, ranked, at most `limit`.
    pub fn answer(
        &self,
        question: &GraphQuestion,
        max_hops: usize,
        limit: usize,
    ) -> Vec<Found<'_>> {
        let mut found = if question.form == QuestionForm::YesNo {
            self.answer_yes_no(question, max_hops)
        } else {
            self.answer_as_asked(question, max_hops)
        };
        if found.is_empty() {
            if let Some(recast) = drug_first(question) {
                found = self.answer(&recast, max_hops, limit);
            }
        }
        found.truncate(limit);
        found
    }

    /// A yes/no question: what was asked first (about the term itself before its synonyms, when
    /// that finds anything), then everything else the graph states between the same things —
    /// a verdict must see a contraindication even when the question only says "take with".
    fn answer_yes_no(&self, question: &GraphQuestion, max_hops: usize) -> Vec<Found<'_>> {
        let literal = literal(question)
            .filter(|l| !self.answer_as_asked(&widened(l), max_hops).is_empty())
            .unwrap_or_else(|| question.clone());
        let mut found = self.answer_as_asked(&literal, max_hops);
        let mut seen: HashSet<(String, String, RelationType)> =
            found.iter().map(Found::identity).collect();
        for wider in self.answer_as_asked(&widened(&literal), max_hops) {
            if seen.insert(wider.identity()) {
                found.push(wider);
            }
        }
        found
    }

    fn answer_as_asked(&self, question: &GraphQuestion, max_hops: usize) -> Vec<Found<'_>> {
        if question.asks_which {
            self.which_drugs(question, max_hops)
        } else {
            self.about_subjects(question, max_hops)
        }
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
    /// when the class is asked about ("which SSRIs …"). With a class as partner ("which drugs
    /// are contraindicated with strong CYP3A inhibitors"), drugs whose labels name the class
    /// itself come before those reached through one of its members; when the question asks for
    /// contraindications (not interactions), drugs whose chain is a contraindication come first.
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
                let mut best: Vec<Found> = constraints
                    .into_iter()
                    .filter_map(|c| strongest(asked_first(c, &question.relation_types)))
                    .collect();
                rank(&mut best);
                answers.push(best);
            }
        }
        let direct_first = partners.iter().any(|p| p.is_class);
        let chain_length = |answer: &[Found]| -> usize {
            if direct_first {
                answer.iter().map(|f| f.path.len()).sum()
            } else {
                0
            }
        };
        let unasked = |answer: &[Found]| -> usize {
            let asks_interaction = question.relation_types.contains(&RelationType::Interaction);
            let asked = |f: &&Found| question.relation_types.contains(&f.edge.kind);
            if asks_interaction || question.relation_types.is_empty() {
                0
            } else {
                answer.iter().filter(|f| !asked(f)).count()
            }
        };
        answers.sort_by(|a, b| {
            unasked(a)
                .cmp(&unasked(b))
                .then_with(|| chain_length(a).cmp(&chain_length(b)))
                .then_with(|| answer_strength(b).cmp(&answer_strength(a)))
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

    /// The condition nodes whose name contains one of a named condition's phrases, or the
    /// nodes it names by id (a population).
    fn matched(&self, condition: &NamedCondition) -> Matched {
        let named = condition
            .ids
            .iter()
            .filter_map(|id| self.by_id.get(id).copied());
        let nodes = self
            .condition_keys
            .iter()
            .enumerate()
            .filter(|(_, key)| {
                key.as_ref()
                    .is_some_and(|key| condition.keys.iter().any(|k| key_contains(key, k)))
            })
            .map(|(i, _)| NodeIndex::new(i))
            .chain(named)
            .collect();
        Matched {
            nodes,
            relations: condition.relations.clone(),
        }
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

/// One constraint's relationships of the relation types asked, when it has any: a drug whose
/// label both contraindicates a partner and lists it among its interactions answers
/// "contraindicated with" by the contraindication.
fn asked_first<'g>(found: Vec<Found<'g>>, asked: &[RelationType]) -> Vec<Found<'g>> {
    if found.iter().any(|f| asked.contains(&f.edge.kind)) {
        found
            .into_iter()
            .filter(|f| asked.contains(&f.edge.kind))
            .collect()
    } else {
        found
    }
}

fn boxed_ok(edge: &Edge, boxed_only: bool) -> bool {
    !boxed_only || edge.evidence.iter().any(|e| e.section == "boxed_warning")
}

mod broader;
mod found;
mod knowledge_graph;
mod rank;
mod recast;
#[cfg(test)]
mod tests;
mod walk;

pub use found::{Edge, Found, Hop};
use found::{Matched, Walk, DEFAULT_TYPES};
pub use knowledge_graph::KnowledgeGraph;
use rank::{answer_strength, group_by_target, keep_shared_targets, rank, strongest};
use recast::{drug_first, literal, subjects_of, widened};
