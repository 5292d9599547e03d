//! Neo4j's names for the graph's node kinds and relationship types, one place for the sync,
//! the stale-data sweep and the reads.

use crate::graph::{NodeKind, RelationType};

/// The Neo4j label of a graph node kind.
pub fn node_label(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Drug => "Drug",
        NodeKind::DrugClass => "DrugClass",
        NodeKind::Condition => "Condition",
        NodeKind::Population => "Population",
    }
}

/// The Neo4j relationship type of a graph relationship type.
pub fn relationship_type(kind: RelationType) -> &'static str {
    match kind {
        RelationType::Contraindication => "CONTRAINDICATION",
        RelationType::Warning => "WARNING",
        RelationType::AdverseReaction => "ADVERSE_REACTION",
        RelationType::Indication => "INDICATION",
        RelationType::Interaction => "INTERACTION",
        RelationType::MemberOf => "MEMBER_OF",
    }
}
