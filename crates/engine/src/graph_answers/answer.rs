//! The values a graph answer is made of: relationships with their evidence texts, the verdict
//! of a yes/no question, the pairs of a medication list, the counts. Values only; the service
//! fills them.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::Serialize;

use super::verdict::{Instruction, Verdict};
use crate::graph::{GraphQuestion, Hop, Node, RelationType, Severity};
use crate::search::collapse::AlsoIn;
use drugcite_store::StoredSegment;

/// One distinct text stating a relationship: the copy shown and the other labels holding it.
pub struct EvidenceText {
    pub segment: Arc<StoredSegment>,
    pub also_in: AlsoIn,
}

/// A graph answer: the question as understood and the ranked relationships.
pub struct GraphAnswer {
    pub understood: GraphQuestion,
    pub relationships: Vec<AnsweredRelationship>,
    /// A yes/no question about two named things: what the labels state between them, never
    /// less cautious than a Contraindications, Boxed Warning or Warnings sentence of their labels.
    pub verdict: Option<Verdict>,
    /// With a verdict: how many labels (set ids) of the named drugs were read for it.
    pub labels_read: Option<usize>,
    /// A medication list: every pair of its drugs with its verdict, most cautious first.
    pub pairs: Option<Vec<PairVerdict>>,
    /// How many relationships answer the question in all (`relationships` shows at most the
    /// request's limit of them; a medication list shows a few per pair).
    pub total: usize,
}

/// A yes/no question's relationships with the labels' floor, and the verdict they give.
pub struct Floored {
    pub relationships: Vec<AnsweredRelationship>,
    pub verdict: Verdict,
    /// The labels (set ids) read for the floor.
    pub labels: BTreeSet<String>,
}

pub struct AnsweredRelationship {
    pub drug: String,
    pub target: Node,
    pub kind: RelationType,
    pub severity: Option<Severity>,
    /// The first `EVIDENCE_SHOWN` distinct stating texts, boxed warnings first.
    pub evidence: Vec<EvidenceText>,
    /// How many distinct texts state it in all.
    pub evidence_count: usize,
    /// Interactions and contraindications with a drug or class: what the label says to do.
    pub instruction: Option<Instruction>,
    /// The hop chain from the question's anchor to this relationship.
    pub path: Vec<Hop>,
    /// A floor sentence matched to the question by meaning (`meaning_floor`): its similarity.
    pub meaning: Option<f32>,
}

/// One pair of a medication list and what the labels state between the two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairVerdict {
    /// The two drugs' names as the graph knows them.
    pub drugs: [String; 2],
    pub verdict: Verdict,
    /// Indices into the answer's relationships that state it, most cautious first.
    pub relationships: Vec<usize>,
    /// How many relationships between the two were found (a few shown).
    pub stated: usize,
    /// Which of the two has no label in the index (its statements can only come from the
    /// other's label).
    pub unlabelled: Vec<String>,
}
