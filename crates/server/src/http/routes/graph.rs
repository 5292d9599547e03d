//! `POST /v1/graph` (§4.4): a relationship question in; what was understood, the ranked
//! drug–condition and drug–drug relationships with fingerprinted evidence, and the hop chains
//! out; additive: a verdict for yes/no questions, an interaction's instruction, and search
//! segments marked as fallback evidence when the graph holds nothing for the question.

use std::time::Instant;

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::search::ReadAsShown;
use super::wire::{blocking, AlsoIn, Envelope, LabelSegment, Source};
use crate::http::access::{Access, GraphAccess};
use crate::http::body::{Fields, FromFields, JsonBody};
use crate::http::{ApiError, AppState};
use drugcite_core::domain::{GraphLimit, MaxHops, Question};
use drugcite_core::label::{dailymed_url, section_name};
use drugcite_engine::graph::{GraphQuestion, Hop, RelationType, Severity};
use drugcite_engine::graph_answers::verdict::{Instruction, Verdict};
use drugcite_engine::graph_answers::PairVerdict;
use drugcite_engine::graph_answers::{AnsweredRelationship, GraphAnswer};
use drugcite_engine::search::SearchHit;
use drugcite_engine::understand::form::QuestionForm;

/// Unknown fields are ignored; `null` is the same as an absent field.
#[derive(utoipa::ToSchema)]
pub struct GraphRequest {
    /// A question about relationships between drugs and conditions (1–2000 characters, at
    /// least one that is not whitespace, ASCII punctuation or a control character).
    #[schema(value_type = String, min_length = 1, max_length = 2000,
        pattern = r"[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]",
        example = "Which drugs interact with clopidogrel and also cause bleeding?")]
    question: Option<String>,
    /// Longest reasoning chain, 1–3 steps; default 2.
    #[schema(minimum = 1, maximum = 3, example = 2)]
    max_hops: Option<i64>,
    /// Most relationships listed, 1–100; default 25.
    #[schema(minimum = 1, maximum = 100, example = 10)]
    limit: Option<i64>,
}

impl FromFields for GraphRequest {
    fn from_fields(mut fields: Fields) -> Result<Self, ApiError> {
        Ok(Self {
            question: fields.text("question")?,
            max_hops: fields.integer("max_hops")?,
            limit: fields.integer("limit")?,
        })
    }
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct InterpretedCondition {
    /// The words of the question.
    text: String,
    /// The condition they were read as.
    name: String,
    /// Relation types the question asks about for this condition.
    relation_types: Vec<&'static str>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct Interpretation {
    drugs: Vec<String>,
    classes: Vec<String>,
    conditions: Vec<InterpretedCondition>,
    relation_types: Vec<&'static str>,
    /// "Which drugs …": the answer is a set of drugs.
    asks_which_drugs: bool,
    /// Only boxed-warning evidence counts.
    boxed_warning_only: bool,
    /// Only what all the drugs named have in common.
    shared: bool,
    /// Content words of the question that were not understood.
    not_understood: Vec<String>,
    /// Ours, additive: drugs named that have no label in the index (graph nodes known from
    /// other labels' text), in question order.
    unlabelled_drugs: Vec<String>,
    /// Ours, additive: `yes_no`, `common_side_effects` or `open`.
    form: &'static str,
    /// Ours, additive: question words no indexed label uses, each with the label words it was
    /// read as (as `/v1/search` reports them).
    read_as: Vec<ReadAsShown>,
    /// Set when the question cannot be answered as asked: it names nothing the graph knows, or
    /// conditions but no drug without asking "which drugs".
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct GraphEvidence {
    /// Exact label text stating the relationship.
    text: String,
    /// 128 characters of 0/1; resolves with /v1/verify.
    fingerprint: String,
    section: String,
    source: Source,
    /// Ours, additive: the other labels whose copy of this exact text states it too.
    #[serde(skip_serializing_if = "Option::is_none")]
    also_in: Option<AlsoIn>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct GraphRelationship {
    /// The drug whose label states the relationship (generic name, lowercase).
    drug: String,
    /// A condition, drug or drug class.
    target: String,
    /// `condition`, `drug` or `drug_class`.
    target_kind: &'static str,
    /// Vocabulary id (DOID:…, SYMP:…) or drugcite's (`drugcite:…`, `drug:…`, `class:…`).
    target_id: String,
    /// contraindication | warning | adverse_reaction | indication | interaction.
    #[serde(rename = "type")]
    kind: &'static str,
    /// life_threatening | serious | moderate | mild | null (rules in the README).
    #[schema(value_type = Option<String>)]
    severity: Option<Severity>,
    evidence: Vec<GraphEvidence>,
    /// Distinct texts stating it in all (the first few are shown; a text several labels hold
    /// counts once, its copies in the evidence's `also_in`).
    evidence_count: usize,
    /// Ours, additive: the target is a drug without a label in the index.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    target_unlabelled: bool,
    /// Ours, additive, for interactions and contraindications with a drug or class: what the
    /// stating sentence says to do — contraindicated | avoid | adjust_dose | monitor.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    instruction: Option<Instruction>,
    /// Ours, additive: the statement's sentence was matched to the question by meaning, not by
    /// a name the question uses; its cosine similarity to the question (read the evidence).
    #[serde(skip_serializing_if = "Option::is_none")]
    matched_by_meaning: Option<f32>,
}

/// Ours, additive: search segments shown because the graph holds no relationship for the
/// question. They are evidence found by search, not relationships the graph states.
#[derive(Serialize, utoipa::ToSchema)]
pub struct GraphFallback {
    /// Why these segments are here, and what was and was not understood.
    reason: String,
    /// The best search segments for the question; each fingerprint verifies.
    segments: Vec<LabelSegment>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct GraphHop {
    from: String,
    /// A relation type, `member_of` or `has_member`.
    #[serde(rename = "type")]
    kind: &'static str,
    to: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct GraphPath {
    /// Index of the relationship in `relationships` this chain led to.
    relationship: usize,
    hops: Vec<GraphHop>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct GraphMetadata {
    /// Relationships in this answer.
    count: usize,
    /// Ours, additive: relationships that answer the question in all; more than `count` when
    /// the request's `limit` (up to 100) cut the list.
    total: usize,
    search_time_ms: f64,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct GraphData {
    question: String,
    interpretation: Interpretation,
    /// Ours, additive, for yes/no questions about two named things: contraindicated | avoid |
    /// boxed_warning | use_with_caution | interaction_stated | warning | adverse_reaction |
    /// indicated | no_interaction_stated | not_stated | no_label_indexed (docs/graph.md,
    /// "Verdicts"); never less
    /// cautious than a Contraindications, Boxed Warning or Warnings sentence of the named drugs'
    /// labels;
    /// the stating evidence is the first relationship's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    verdict: Option<Verdict>,
    /// Ours, additive, with a verdict: how many labels (set ids) of the named drugs were read
    /// for it — "not_stated" means not stated in these.
    #[serde(skip_serializing_if = "Option::is_none")]
    labels_read: Option<usize>,
    /// Ours, additive, for a medication list (three or more drugs, nothing else): every pair
    /// with its verdict (as above), the indices of its relationships, how many were found, and
    /// which of the two has no label indexed; the most cautious pair first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pairs: Option<Vec<PairVerdict>>,
    /// Ours, additive: present only when `relationships` is empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback: Option<GraphFallback>,
    relationships: Vec<GraphRelationship>,
    paths: Vec<GraphPath>,
    metadata: GraphMetadata,
}

#[utoipa::path(post, path = "/v1/graph", tag = "graph",
    request_body = GraphRequest,
    security(("api_key" = [])),
    responses(
        (status = 200, description = "Relationships with evidence; empty with an interpretation when nothing was understood", body = Envelope<GraphData>),
        (status = 400, description = "Missing, empty or oversized question; max_hops outside 1-3; limit outside 1-100; malformed body", body = crate::http::ErrorEnvelope),
        (status = 401, description = "Missing, invalid or revoked key", body = crate::http::ErrorEnvelope),
        (status = 403, description = "Key lacks scope `graph`", body = crate::http::ErrorEnvelope),
        (status = 429, description = "Rate limit exceeded; see Retry-After", body = crate::http::ErrorEnvelope),
        (status = 500, description = "Server error", body = crate::http::ErrorEnvelope),
    ))]
pub async fn graph(
    _access: Access<GraphAccess>,
    State(state): State<AppState>,
    JsonBody(request): JsonBody<GraphRequest>,
) -> Result<Json<Envelope<GraphData>>, ApiError> {
    let question = Question::parse(request.question)?;
    let max_hops = MaxHops::parse(request.max_hops)?;
    let limit = GraphLimit::parse(request.limit)?;
    let started = Instant::now();
    let engine = state.engine.clone();
    let asked = question.clone();
    let (answer, fallback) = blocking(move || engine.graph_answer(&asked, max_hops, limit)).await?;
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    Ok(Json(Envelope::ok(shape(
        question.as_str(),
        answer,
        &fallback,
        elapsed,
    ))))
}

fn shape(
    question: &str,
    answer: GraphAnswer,
    fallback: &[SearchHit],
    search_time_ms: f64,
) -> GraphData {
    let interpretation = interpretation(&answer.understood);
    let total = answer.total;
    let fallback = answer
        .relationships
        .is_empty()
        .then(|| fallback_of(&interpretation, fallback));
    let paths = answer
        .relationships
        .iter()
        .enumerate()
        .map(|(relationship, r)| GraphPath {
            relationship,
            hops: r.path.iter().map(hop).collect(),
        })
        .collect();
    let relationships: Vec<GraphRelationship> =
        answer.relationships.into_iter().map(relationship).collect();
    GraphData {
        question: question.to_owned(),
        interpretation,
        verdict: answer.verdict,
        labels_read: answer.labels_read,
        pairs: answer.pairs,
        fallback,
        metadata: GraphMetadata {
            count: relationships.len(),
            total: total.max(relationships.len()),
            search_time_ms,
        },
        relationships,
        paths,
    }
}

fn interpretation(understood: &GraphQuestion) -> Interpretation {
    let names = |class: bool| {
        understood
            .drugs
            .iter()
            .filter(|d| d.is_class == class)
            .flat_map(|d| d.nodes.iter().map(|n| n.name.clone()))
            .collect()
    };
    let kinds = |kinds: &[RelationType]| kinds.iter().map(|k| k.as_str()).collect();
    Interpretation {
        drugs: names(false),
        classes: names(true),
        conditions: understood
            .conditions
            .iter()
            .map(|c| InterpretedCondition {
                text: c.text.clone(),
                name: c.name.clone(),
                relation_types: kinds(&c.relations),
            })
            .collect(),
        relation_types: kinds(&understood.relation_types),
        asks_which_drugs: understood.asks_which,
        boxed_warning_only: understood.boxed_only,
        shared: understood.shared,
        not_understood: understood.unrecognized.clone(),
        unlabelled_drugs: understood.unlabelled.clone(),
        form: match understood.form {
            QuestionForm::YesNo => "yes_no",
            QuestionForm::CommonSideEffects => "common_side_effects",
            QuestionForm::Open => "open",
        },
        read_as: understood.read_as.iter().map(ReadAsShown::from).collect(),
        message: understood.note().map(str::to_owned),
    }
}

/// The fallback block: what was understood and not, and the search segments.
fn fallback_of(interpretation: &Interpretation, hits: &[SearchHit]) -> GraphFallback {
    let mut understood: Vec<String> = interpretation.drugs.clone();
    understood.extend(interpretation.classes.iter().cloned());
    understood.extend(interpretation.conditions.iter().map(|c| c.name.clone()));
    let list = |items: &[String]| {
        if items.is_empty() {
            "nothing".to_owned()
        } else {
            items.join(", ")
        }
    };
    let reason = format!(
        "the knowledge graph states no relationship for this question (understood: {}; not understood: {}); the segments below are the best search results for it, shown as evidence to read, not as stated relationships",
        list(&understood),
        list(&interpretation.not_understood),
    );
    GraphFallback {
        reason,
        segments: hits
            .iter()
            .map(|h| LabelSegment::from(&h.segment))
            .collect(),
    }
}

fn relationship(r: AnsweredRelationship) -> GraphRelationship {
    GraphRelationship {
        target_unlabelled: r.target.unlabelled,
        instruction: r.instruction,
        matched_by_meaning: r.meaning,
        drug: r.drug,
        target: r.target.name,
        target_kind: r.target.kind.as_str(),
        target_id: r.target.id,
        kind: r.kind.as_str(),
        severity: r.severity,
        evidence_count: r.evidence_count,
        evidence: r
            .evidence
            .iter()
            .map(|item| GraphEvidence {
                text: item.segment.text.clone(),
                fingerprint: item.segment.fingerprint.to_string(),
                section: section_name(&item.segment.section_key).into_owned(),
                source: Source {
                    url: dailymed_url(&item.segment.label.set_id),
                },
                also_in: AlsoIn::shown(&item.also_in),
            })
            .collect(),
    }
}

fn hop(h: &Hop) -> GraphHop {
    GraphHop {
        from: h.from.clone(),
        kind: h.kind,
        to: h.to.clone(),
    }
}
