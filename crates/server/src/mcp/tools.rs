//! The five tools: their names, descriptions and JSON input schemas, the scope each needs, and
//! each one run over the engine (blocking; the same services the REST routes call).

use std::sync::Arc;

use serde_json::{json, Value};

use super::args::Arguments;
use super::error::ToolError;
use super::views::{GraphView, SearchResultView, SearchView, VerifyView, CITE};
use drugcite_accounts::scopes::Scope;
use drugcite_core::domain::{
    Fingerprint, GraphLimit, MaxHops, Question, SearchFilters, SetId, TopK,
};
use drugcite_engine::engine::Engine;
use drugcite_engine::history::label_history;
use drugcite_engine::quote::CheckRequest;
use drugcite_engine::verify::Verification;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    SearchLabels,
    VerifyCitation,
    CheckQuote,
    AskGraph,
    LabelHistory,
}

impl Tool {
    pub const ALL: [Tool; 5] = [
        Tool::SearchLabels,
        Tool::VerifyCitation,
        Tool::CheckQuote,
        Tool::AskGraph,
        Tool::LabelHistory,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tool::SearchLabels => "search_labels",
            Tool::VerifyCitation => "verify_citation",
            Tool::CheckQuote => "check_quote",
            Tool::AskGraph => "ask_graph",
            Tool::LabelHistory => "label_history",
        }
    }

    pub fn named(name: &str) -> Option<Tool> {
        Self::ALL.into_iter().find(|tool| tool.name() == name)
    }

    /// The key scope a call needs over HTTP (the REST route's scope).
    pub fn scope(self) -> Scope {
        match self {
            Tool::SearchLabels => Scope::Search,
            Tool::AskGraph => Scope::Graph,
            Tool::VerifyCitation | Tool::CheckQuote | Tool::LabelHistory => Scope::Verify,
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Tool::SearchLabels => "Search official US drug-label text (DailyMed SPL via openFDA). Returns exact label segments, each with a 128-bit fingerprint and its DailyMed URL: quote them verbatim and cite the fingerprint.",
            Tool::VerifyCitation => "Resolve a fingerprint to the exact official label text it was computed from, with its drug, section, label version and DailyMed URL; verified is false for an unknown or altered fingerprint.",
            Tool::CheckQuote => "Check that quoted text is verbatim label text: one quote (optionally with its fingerprint) or a whole answer whose \"quoted\" passages may each be followed by [fp:<fingerprint>]. Says exact (with offsets), normalised (which of whitespace, case, unicode, punctuation), near_miss (closest passage and a character diff) or not_found.",
            Tool::AskGraph => "Ask a question about relationships between drugs and conditions (contraindications, warnings, adverse reactions, interactions), answered from a knowledge graph built from label text; every relationship carries its label evidence with fingerprints.",
            Tool::LabelHistory => "List a label's versions (by SPL set id), newest first, with what changed in each and whether it is current, superseded or withdrawn.",
        }
    }

    pub fn input_schema(self) -> Value {
        let fingerprint = json!({"type": "string", "pattern": "^[01]{128}$", "minLength": 128, "maxLength": 128, "description": "128 characters of 0/1"});
        let drug = json!({"type": "string", "minLength": 1, "maxLength": 200, "description": "Only labels of this drug (generic, brand or substance name)"});
        match self {
            Tool::SearchLabels => json!({"type": "object", "properties": {
                "question": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "Question, phrase or keywords"},
                "top_k": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
                "drug": drug,
                "section": {"type": "string", "minLength": 1, "maxLength": 200, "description": "A section name (\"Drug Interactions\") or openFDA key"},
                "route": {"type": "string", "minLength": 1, "maxLength": 200, "description": "An administration route such as ORAL"}
            }, "required": ["question"]}),
            Tool::VerifyCitation => {
                json!({"type": "object", "properties": {"fingerprint": fingerprint}, "required": ["fingerprint"]})
            }
            Tool::CheckQuote => json!({"type": "object", "properties": {
                "quote": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "One quoted passage"},
                "fingerprint": fingerprint,
                "answer": {"type": "string", "minLength": 1, "maxLength": 20000, "description": "A whole answer; each \"quoted\" or “quoted” passage (at most 20) is checked, cited by a following [fp:<fingerprint>] or else searched"},
                "drug": drug
            }, "description": "Give quote, answer (non-empty) or both; a fingerprint without quote cites every uncited passage of answer"}),
            Tool::AskGraph => json!({"type": "object", "properties": {
                "question": {"type": "string", "minLength": 1, "maxLength": 2000},
                "max_hops": {"type": "integer", "minimum": 1, "maximum": 3, "default": 2},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 25}
            }, "required": ["question"]}),
            Tool::LabelHistory => json!({"type": "object", "properties": {
                "set_id": {"type": "string", "pattern": "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$", "description": "The label's SPL set id (a source.url ends with it)"}
            }, "required": ["set_id"]}),
        }
    }

    /// Runs the tool; blocking (call it off the async threads).
    pub fn run(self, engine: &Arc<Engine>, args: &Arguments) -> Result<Value, ToolError> {
        let value = match self {
            Tool::SearchLabels => serde_json::to_value(search(engine, args)?),
            Tool::VerifyCitation => serde_json::to_value(verify(engine, args)?),
            Tool::CheckQuote => {
                let request = CheckRequest::parse(
                    args.text("quote")?,
                    args.text("answer")?,
                    args.text("fingerprint")?,
                    args.text("drug")?,
                )
                .map_err(|e| ToolError::Input(e.to_string()))?;
                serde_json::to_value(engine.check_quotes(&request)?)
            }
            Tool::AskGraph => serde_json::to_value(graph(engine, args)?),
            Tool::LabelHistory => {
                let set_id = SetId::parse(&args.text("set_id")?.unwrap_or_default())?;
                let history =
                    label_history(&engine.index.current().snapshot, &set_id).ok_or_else(|| {
                        ToolError::Input("no label with this set id was ever ingested".into())
                    })?;
                serde_json::to_value(history)
            }
        };
        value.map_err(|e| ToolError::Input(format!("shaping the answer: {e}")))
    }
}

fn search(engine: &Engine, args: &Arguments) -> Result<SearchView, ToolError> {
    let question = Question::parse(args.text("question")?)?;
    let top_k = TopK::parse(args.integer("top_k")?)?;
    let filters = SearchFilters::parse(
        args.text("drug")?,
        args.text("section")?,
        args.text("route")?,
    )?;
    let hits = engine.searcher.search(&question, top_k, &filters)?.hits;
    Ok(SearchView {
        query: question.as_str().to_owned(),
        results: hits.iter().map(SearchResultView::from).collect(),
        cite: CITE,
    })
}

fn verify(engine: &Engine, args: &Arguments) -> Result<VerifyView, ToolError> {
    let raw = args
        .text("fingerprint")?
        .ok_or_else(|| ToolError::Input("fingerprint is required".into()))?;
    let fingerprint = Fingerprint::parse(&raw)?;
    Ok(match engine.verifier.verify(fingerprint)? {
        Verification::Verified(segment) => VerifyView::verified(&segment),
        Verification::Mismatch { distance } => VerifyView::not_verified(
            raw,
            format!(
                "not verified: the nearest indexed fingerprint differs in {distance} of 128 bits"
            ),
        ),
        Verification::NotFound => VerifyView::not_verified(
            raw,
            "not verified: the fingerprint is not in the verify index".into(),
        ),
    })
}

fn graph(engine: &Engine, args: &Arguments) -> Result<GraphView, ToolError> {
    let question = Question::parse(args.text("question")?)?;
    let max_hops = MaxHops::parse(args.integer("max_hops")?)?;
    let limit = GraphLimit::parse(args.integer("limit")?)?;
    let answer = engine.graph.answer(&question, max_hops, limit)?;
    Ok(GraphView::of(question.as_str().to_owned(), &answer))
}
