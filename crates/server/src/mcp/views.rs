//! What the MCP tools answer, as JSON: every segment with the fingerprint and DailyMed URL an
//! agent must cite. Shapes engine results only; no lookups here.

use serde::Serialize;

use drugcite_engine::graph::Severity;
use drugcite_engine::graph_answers::verdict::{Instruction, Verdict};
use drugcite_engine::graph_answers::PairVerdict;
use drugcite_engine::graph_answers::{AnsweredRelationship, GraphAnswer};
use drugcite_engine::quote::QuotedSegment;
use drugcite_engine::search::SearchHit;
use drugcite_store::{StoredSegment, VersionStatus};

/// How to cite, repeated in every answer so an agent keeps it in view.
pub const CITE: &str = "Quote label text verbatim and cite each quote's fingerprint as [fp:<fingerprint>] with its source.url; check a drafted answer with check_quote before showing it.";

#[derive(Serialize)]
pub struct SearchView {
    pub query: String,
    pub results: Vec<SearchResultView>,
    pub cite: &'static str,
}

#[derive(Serialize)]
pub struct SearchResultView {
    #[serde(flatten)]
    pub segment: QuotedSegment,
    /// Other labels holding exactly this text.
    pub also_in_count: usize,
}

impl From<&SearchHit> for SearchResultView {
    fn from(hit: &SearchHit) -> Self {
        Self {
            segment: QuotedSegment::from(&hit.segment),
            also_in_count: hit.also_in.count,
        }
    }
}

#[derive(Serialize)]
pub struct VerifyView {
    pub verified: bool,
    pub fingerprint: String,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub segment: Option<QuotedSegment>,
    /// The label version holding the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_version: Option<String>,
    pub message: String,
}

impl VerifyView {
    pub fn verified(segment: &StoredSegment) -> Self {
        let message = match segment.standing.status {
            VersionStatus::Current => "verified: exact text of the current label version".into(),
            VersionStatus::Superseded => format!(
                "verified, but from a superseded label version; the current version is {}",
                segment.standing.newest.version
            ),
            VersionStatus::Withdrawn => "verified, but the label is no longer published".into(),
        };
        Self {
            verified: true,
            fingerprint: segment.fingerprint.to_string(),
            segment: Some(QuotedSegment::from(segment)),
            label_version: Some(segment.label.version.clone()),
            message,
        }
    }

    pub fn not_verified(fingerprint: String, message: String) -> Self {
        Self {
            verified: false,
            fingerprint,
            segment: None,
            label_version: None,
            message,
        }
    }
}

#[derive(Serialize)]
pub struct GraphView {
    pub question: String,
    /// Why the question could not be answered as asked, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'static str>,
    /// A yes/no question about two named things: the most cautious statement of their labels
    /// (as /v1/graph's `verdict`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// With a verdict: how many labels of the named drugs were read for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels_read: Option<usize>,
    /// A medication list: every pair with its verdict, most cautious first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<PairVerdict>>,
    pub relationships: Vec<RelationshipView>,
    /// Relationships shown here, and how many answer the question in all (ask again with a
    /// larger `limit`, up to 100, to see more).
    pub shown: usize,
    pub total: usize,
    pub cite: &'static str,
}

#[derive(Serialize)]
pub struct RelationshipView {
    pub drug: String,
    pub target: String,
    pub target_kind: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub severity: Option<Severity>,
    /// What the label says to do about an interaction or contraindication with a drug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instruction: Option<Instruction>,
    /// Exact label texts stating the relationship, each citable by its fingerprint.
    pub evidence: Vec<QuotedSegment>,
    pub evidence_count: usize,
}

impl GraphView {
    pub fn of(question: String, answer: &GraphAnswer) -> Self {
        Self {
            question,
            message: answer.understood.note(),
            verdict: answer.verdict,
            labels_read: answer.labels_read,
            pairs: answer.pairs.clone(),
            relationships: answer.relationships.iter().map(relationship).collect(),
            shown: answer.relationships.len(),
            total: answer.total.max(answer.relationships.len()),
            cite: CITE,
        }
    }
}

fn relationship(r: &AnsweredRelationship) -> RelationshipView {
    RelationshipView {
        drug: r.drug.clone(),
        target: r.target.name.clone(),
        target_kind: r.target.kind.as_str(),
        kind: r.kind.as_str(),
        severity: r.severity,
        instruction: r.instruction,
        evidence: r
            .evidence
            .iter()
            .map(|e| QuotedSegment::from(e.segment.as_ref()))
            .collect(),
        evidence_count: r.evidence_count,
    }
}
