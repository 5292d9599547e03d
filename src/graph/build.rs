//! Builds the knowledge graph of a generation from its current segments: every statement of
//! every current segment of a relation-bearing section becomes (or strengthens) a relationship from the
//! label's drug, with the segment's fingerprint as evidence; drugs link to their classes.
//! Reads a snapshot, returns data; writing it is the caller's.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::model::{Evidence, GraphData, Node, RelationType, Relationship, Severity};
use super::relations::{relation_of_section, statements, Drugs, Target};
use crate::conditions::Matcher;
use crate::label::LabelMeta;
use crate::search::understanding::{DrugVocabulary, LabelNames};
use crate::store::{Snapshot, StoreError};

#[derive(Default)]
struct Accumulated {
    severity: Option<Severity>,
    evidence: BTreeSet<Evidence>,
}

/// The nodes a statement's target stands for.
pub fn target_nodes(target: &Target, labels: &[Arc<LabelMeta>]) -> Vec<Node> {
    match target {
        Target::Condition { id, name } => vec![Node::condition(id, name)],
        Target::Class(name) => vec![Node::class(name)],
        Target::Drug(ordinals) => ordinals
            .iter()
            .map(|l| Node::drug(&labels[*l as usize].drug.name))
            .collect(),
        Target::Ingredient(name) => vec![Node::drug(name)],
    }
}

/// The graph of `snapshot`, conditions found with `matcher`.
pub fn build(snapshot: &Snapshot, matcher: &Matcher) -> Result<GraphData, StoreError> {
    let labels = snapshot.labels();
    let vocabulary =
        DrugVocabulary::build(snapshot.current_labels().map(|(label, l)| LabelNames {
            label,
            generic: &l.drug.name,
            names: &l.search_names,
            classes: &l.classes,
        }));
    let drugs = Drugs::new(&vocabulary, labels);
    let drug_of = |label: u32| Node::drug(&labels[label as usize].drug.name);
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    let mut edges: BTreeMap<(String, String, RelationType), Accumulated> = BTreeMap::new();
    for (label, _) in snapshot.current_labels() {
        let drug = drug_of(label);
        nodes.insert(drug.id.clone(), drug);
    }
    snapshot.visit_segments(|segment| {
        if !segment.current || relation_of_section(segment.section_key).is_none() {
            return;
        }
        let from = drug_of(segment.label);
        for statement in statements(segment.text, segment.section_key, matcher, &drugs) {
            let targets = target_nodes(&statement.target, labels);
            for to in targets.into_iter().filter(|to| to.id != from.id) {
                let edge = edges
                    .entry((from.id.clone(), to.id.clone(), statement.kind))
                    .or_default();
                edge.severity = edge.severity.max(statement.severity);
                edge.evidence.insert(Evidence {
                    fingerprint: segment.fingerprint,
                    section: segment.section_key.to_owned(),
                });
                nodes.entry(to.id.clone()).or_insert(to);
            }
        }
    })?;
    for (class, members) in vocabulary.classes() {
        let class = Node::class(class);
        for member in members {
            let key = (
                drug_of(*member).id,
                class.id.clone(),
                RelationType::MemberOf,
            );
            edges.entry(key).or_default();
        }
        nodes.insert(class.id.clone(), class);
    }
    Ok(GraphData {
        nodes: nodes.into_values().collect(),
        relationships: edges
            .into_iter()
            .map(|((from, to, kind), edge)| Relationship {
                from,
                to,
                kind,
                severity: edge.severity,
                evidence: edge.evidence.into_iter().collect(),
            })
            .collect(),
    })
}
