//! The values a walk of the graph yields: an edge's relation, severity and evidence, one hop of
//! a chain, a relationship found with the path that led to it. Values only.

use std::collections::HashSet;

use petgraph::graph::{EdgeIndex, NodeIndex};

use crate::graph::model::{Evidence, Node, RelationType, Severity};

/// The relation types answered when a question names none.
pub(super) const DEFAULT_TYPES: [RelationType; 5] = [
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
pub(super) struct Matched {
    pub(super) nodes: HashSet<NodeIndex>,
    pub(super) relations: Vec<RelationType>,
}

/// Edges walked, each as (edge, from, to).
pub(super) type Walk = Vec<(EdgeIndex, NodeIndex, NodeIndex)>;

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

impl Found<'_> {
    /// What makes two found relationships the same statement: drug, target and relation type.
    pub fn identity(&self) -> (String, String, RelationType) {
        (self.drug.id.clone(), self.target.id.clone(), self.edge.kind)
    }
}
