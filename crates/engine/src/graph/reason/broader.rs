//! The broader classes a class's name contains: a class named by a modifier and another class's
//! name is a kind of that class ("potassium-sparing diuretic" of "diuretic", "loop diuretic" of
//! "diuretic", "dihydropyridine calcium channel blocker" of "calcium channel blocker"), so what
//! a label states for the broader class holds for it. Read from the graph's own class names.

use petgraph::graph::NodeIndex;

use super::knowledge_graph::KnowledgeGraph;
use crate::graph::model::{Node, NodeKind};

/// The suffix curated lay classes carry in their names ("diuretic (lay)").
const LAY: &str = " (lay)";

impl KnowledgeGraph {
    /// The class nodes whose name is `class`'s name without its leading words (with or without
    /// the lay suffix), nearest first; nothing for a node that is not a class.
    pub(super) fn broader_classes(&self, class: NodeIndex) -> Vec<NodeIndex> {
        let node = &self.graph[class];
        if node.kind != NodeKind::DrugClass {
            return Vec::new();
        }
        let name = node.name.strip_suffix(LAY).unwrap_or(&node.name);
        let words: Vec<&str> = name.split_whitespace().collect();
        let mut out = Vec::new();
        for start in 1..words.len() {
            let head = words[start..].join(" ");
            for name in [head.clone(), format!("{head}{LAY}")] {
                if let Some(&index) = self.by_id.get(&Node::class(&name).id) {
                    out.push(index);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::graph::model::{GraphData, Node};
    use crate::graph::KnowledgeGraph;

    #[test]
    fn a_class_named_by_a_modifier_and_another_class_is_a_kind_of_it() {
        let graph = KnowledgeGraph::new(GraphData {
            nodes: vec![
                Node::class("potassium-sparing diuretic"),
                Node::class("diuretic (lay)"),
                Node::class("calcium channel blocker"),
                Node::class("dihydropyridine calcium channel blocker"),
                Node::class("beta-adrenergic blocker"),
            ],
            relationships: vec![],
        });
        let broader = |name: &str| -> Vec<String> {
            let index = graph.by_id[&format!("class:{name}")];
            graph
                .broader_classes(index)
                .into_iter()
                .map(|i| graph.graph[i].name.clone())
                .collect()
        };
        assert_eq!(broader("potassium-sparing diuretic"), ["diuretic (lay)"]);
        assert_eq!(
            broader("dihydropyridine calcium channel blocker"),
            ["calcium channel blocker"]
        );
        assert!(broader("beta-adrenergic blocker").is_empty());
        assert!(broader("diuretic (lay)").is_empty());
    }
}
