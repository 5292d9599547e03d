//! The types of relationship the knowledge graph holds (drug → condition, drug → drug, drug →
//! class): a domain value shared by the graph and the question reader, which reads the relation
//! words of a question. Its serde form is that of the graph file (`graph.bin`): keep it stable.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelationType {
    Contraindication,
    Warning,
    AdverseReaction,
    Indication,
    Interaction,
    /// Drug → the class it belongs to (no evidence: from openFDA and graph/drug-classes.tsv).
    MemberOf,
}

impl RelationType {
    pub const ALL: [RelationType; 6] = [
        Self::Contraindication,
        Self::Warning,
        Self::AdverseReaction,
        Self::Indication,
        Self::Interaction,
        Self::MemberOf,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Contraindication => "contraindication",
            Self::Warning => "warning",
            Self::AdverseReaction => "adverse_reaction",
            Self::Indication => "indication",
            Self::Interaction => "interaction",
            Self::MemberOf => "member_of",
        }
    }
}
