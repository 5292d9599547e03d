//! The knowledge graph in petgraph: drug, class, condition and population nodes by id, the
//! relationships as edges, built once from a generation's `GraphData`. Answering questions
//! over it is the rest of `reason`.

use std::collections::HashMap;

use petgraph::graph::{DiGraph, NodeIndex};

use super::found::Edge;
use crate::graph::model::{GraphData, Node, NodeKind};
use drugcite_core::text::key_of;

pub struct KnowledgeGraph {
    pub(super) graph: DiGraph<Node, Edge>,
    pub(super) by_id: HashMap<String, NodeIndex>,
    /// The normalised key of each condition node's name, by node index.
    pub(super) condition_keys: Vec<Option<String>>,
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

    /// Whether `word` names a drug node without a label of its own.
    pub fn is_unlabelled_drug(&self, word: &str) -> bool {
        self.by_id
            .get(&format!("drug:{word}"))
            .is_some_and(|&i| self.graph[i].unlabelled)
    }

    /// The names of the drug nodes without a label of their own.
    pub fn unlabelled_drugs(&self) -> impl Iterator<Item = String> + '_ {
        self.graph
            .node_weights()
            .filter(|n| n.unlabelled)
            .map(|n| n.name.clone())
    }

    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }
}
