//! Statements a label makes about its drug's whole class: a sentence that names a class the
//! label's drug belongs to, and not the drug itself, states its interactions for every member
//! ("Lithium Clinical Impact: NSAIDs have produced elevations in plasma lithium levels", in an
//! NSAID's label, is an interaction of the NSAID class with lithium). Pure: statements in,
//! (class, partner) pairs out; the graph build adds them as edges from the class.

use std::collections::{BTreeMap, HashSet};

use super::analysis::Found;
use super::model::{Node, NodeKind, RelationType};

/// A statement a label's sentence makes for a class of its drug: `class` relates to `partner`
/// as `statement` says.
pub struct ClassStatement<'a> {
    pub class: &'a Node,
    pub partner: &'a Node,
    pub statement: &'a Found,
}

/// The class-level statements among `found` (the statements of one text) for a label whose drug
/// is `drug` and belongs to `own_classes` (class node ids): interactions and drug/class
/// contraindications of sentences that name one of those classes and not the drug itself.
pub fn class_statements<'a>(
    found: &'a [Found],
    drug: &str,
    own_classes: &HashSet<String>,
) -> Vec<ClassStatement<'a>> {
    let mut by_sentence: BTreeMap<usize, Vec<&'a Found>> = BTreeMap::new();
    for statement in found.iter().filter(|s| speaks_of_partners(s.kind)) {
        by_sentence
            .entry(statement.sentence)
            .or_default()
            .push(statement);
    }
    let mut out = Vec::new();
    for statements in by_sentence.values() {
        let targets = || statements.iter().flat_map(|s| s.targets.iter());
        if targets().any(|t| t.id == drug) {
            continue;
        }
        let classes: Vec<&Node> = targets().filter(|t| own_classes.contains(&t.id)).collect();
        for class in classes {
            for statement in statements {
                let partners = statement
                    .targets
                    .iter()
                    .filter(|t| is_partner(t, own_classes));
                out.extend(partners.map(|partner| ClassStatement {
                    class,
                    partner,
                    statement,
                }));
            }
        }
    }
    out
}

fn speaks_of_partners(kind: RelationType) -> bool {
    matches!(
        kind,
        RelationType::Interaction | RelationType::Contraindication
    )
}

/// A drug or class other than the label's own classes.
fn is_partner(node: &Node, own_classes: &HashSet<String>) -> bool {
    matches!(node.kind, NodeKind::Drug | NodeKind::DrugClass) && !own_classes.contains(&node.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(sentence: usize, targets: Vec<Node>) -> Found {
        Found {
            kind: RelationType::Interaction,
            severity: None,
            targets,
            sentence,
        }
    }

    #[test]
    fn a_sentence_about_the_drugs_class_speaks_for_the_class_and_one_naming_the_drug_does_not() {
        let nsaid = Node::class("nonsteroidal anti-inflammatory drug");
        let own: HashSet<String> = HashSet::from([nsaid.id.clone()]);
        let statements = [
            found(0, vec![Node::unlabelled_drug("lithium")]),
            found(0, vec![nsaid.clone()]),
            found(1, vec![Node::drug("celecoxib")]),
            found(1, vec![nsaid.clone()]),
            found(1, vec![Node::drug("warfarin")]),
            found(2, vec![Node::drug("digoxin")]),
        ];
        let pairs: Vec<(String, String)> = class_statements(&statements, "drug:celecoxib", &own)
            .into_iter()
            .map(|c| (c.class.name.clone(), c.partner.name.clone()))
            .collect();
        assert_eq!(
            pairs,
            [(nsaid.name.clone(), "lithium".to_owned())],
            "sentence 1 names celecoxib itself; sentence 2 names no class of it"
        );
    }
}
