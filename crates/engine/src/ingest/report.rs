//! The ingest report: what was read, indexed and skipped (by reason, with positions), and how
//! long it took. Printed by the CLI and stored as the generation's manifest.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::embedding::EmbeddingCounts;
use super::ledger::{IngestMode, Ledger};
use crate::graph::analysis::Analyses;
use crate::graph::GraphData;

/// Positions listed per report; counts stay exact beyond it.
const MAX_LISTED_SKIPS: usize = 100;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Skip {
    pub position: String,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IngestReport {
    pub inputs: Vec<String>,
    pub mode: IngestMode,
    pub labels_read: u64,
    /// Label versions indexed from the inputs.
    pub labels_indexed: u64,
    pub labels_skipped: BTreeMap<String, u64>,
    /// The first skipped records, with position and reason.
    pub skipped: Vec<Skip>,
    /// Segments of the label versions indexed from the inputs.
    pub segments: u64,
    /// The label history the generation holds after this ingest.
    pub history: HistoryReport,
    /// `*_table` HTML fields left out (their text is part of the section text).
    pub html_tables_not_indexed: u64,
    /// Labels without an openFDA name whose drug name was derived from SPL product data.
    pub names_from_product_data: u64,
    /// SPL section codes openFDA does not name, with how many documents used each: such a
    /// subsection's text stays in its parent section only; a top-level one is indexed as
    /// `spl_unclassified_section`, as openFDA does.
    #[serde(default)]
    pub unknown_section_codes: BTreeMap<String, u64>,
    /// Segment embeddings computed by the model, and reused from the previous generation.
    pub embeddings_computed: u64,
    pub embeddings_reused: u64,
    /// Opening vectors of Indications texts (`embed::openings`) computed by the transformer,
    /// and reused from the previous generation.
    #[serde(default)]
    pub openings_computed: u64,
    #[serde(default)]
    pub openings_reused: u64,
    #[serde(default)]
    pub openings_seconds: f64,
    /// Tokens that went through the passage encoder for the computed embeddings, and its time.
    pub embedding_tokens: u64,
    pub embedding_seconds: f64,
    /// Model directory the embeddings came from; empty for a lexical-only index.
    pub embedding_model: String,
    /// The knowledge graph extracted from the indexed segments.
    #[serde(default)]
    pub graph: GraphReport,
    /// Copies of one text under several labels (repackagers): embedded and analysed once.
    #[serde(default)]
    pub texts: TextsReport,
    pub seconds: f64,
    /// Directory of the published generation.
    pub generation: String,
}

/// Label versions and segment docs of the generation, and what this ingest changed.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct HistoryReport {
    /// Label sets (set ids) and label versions the generation holds.
    pub label_sets: usize,
    pub label_versions: usize,
    /// Versions kept from the live generation without being in the inputs.
    pub versions_carried: usize,
    /// Sets a full ingest found absent from its inputs and marked withdrawn.
    pub sets_withdrawn: u64,
    /// Segment docs written from the inputs (new texts), and copied from the live generation
    /// (superseded and withdrawn segments a full ingest carries forward).
    pub segment_docs_written: u64,
    pub segment_docs_copied: u64,
}

/// Node and relationship counts of the graph, by kind, and how it was built.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct GraphReport {
    /// Terms of the open condition vocabularies used (0: drugcite's curated terms only).
    pub vocabulary_terms: usize,
    pub nodes: BTreeMap<String, usize>,
    pub relationships: BTreeMap<String, usize>,
    pub seconds: f64,
}

impl GraphReport {
    pub fn new(graph: &GraphData, vocabulary_terms: usize, elapsed: Duration) -> Self {
        let counts = graph.counts();
        Self {
            vocabulary_terms,
            nodes: counts
                .nodes
                .into_iter()
                .map(|(kind, n)| (kind.as_str().to_owned(), n))
                .collect(),
            relationships: counts
                .relationships
                .into_iter()
                .map(|(kind, n)| (kind.as_str().to_owned(), n))
                .collect(),
            seconds: elapsed.as_secs_f64(),
        }
    }
}

/// Distinct texts among the indexed segments, and what was done once per text.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TextsReport {
    pub segments: u64,
    pub distinct_texts: u64,
    /// Segments per distinct text (1.0: no copies).
    pub duplicate_ratio: f64,
    /// Segments whose text this ingest had already embedded (no vector of their own).
    pub embedding_copies: u64,
    /// Distinct (text, section) pairs of relation-bearing sections the graph analysed now, and
    /// those whose analysis came from the live generation.
    pub analyses_computed: u64,
    pub analyses_reused: u64,
}

impl TextsReport {
    pub fn new(segments: u64, distinct_texts: u64, analyses: &Analyses) -> Self {
        Self {
            segments,
            distinct_texts,
            duplicate_ratio: segments as f64 / distinct_texts.max(1) as f64,
            embedding_copies: 0,
            analyses_computed: analyses.computed,
            analyses_reused: analyses.reused,
        }
    }
}

pub(super) struct ReportBuilder {
    report: IngestReport,
}

impl ReportBuilder {
    pub fn new(files: &[PathBuf], mode: IngestMode) -> Self {
        Self {
            report: IngestReport {
                inputs: files.iter().map(|f| f.display().to_string()).collect(),
                mode,
                labels_read: 0,
                labels_indexed: 0,
                labels_skipped: BTreeMap::new(),
                skipped: Vec::new(),
                segments: 0,
                history: HistoryReport::default(),
                html_tables_not_indexed: 0,
                names_from_product_data: 0,
                unknown_section_codes: BTreeMap::new(),
                embeddings_computed: 0,
                embeddings_reused: 0,
                openings_computed: 0,
                openings_reused: 0,
                openings_seconds: 0.0,
                embedding_tokens: 0,
                embedding_seconds: 0.0,
                embedding_model: String::new(),
                graph: GraphReport::default(),
                texts: TextsReport::default(),
                seconds: 0.0,
                generation: String::new(),
            },
        }
    }

    pub fn record_read(&mut self) {
        self.report.labels_read += 1;
    }

    pub fn unknown_section_codes(&mut self, codes: &[String]) {
        for code in codes {
            *self
                .report
                .unknown_section_codes
                .entry(code.clone())
                .or_default() += 1;
        }
    }

    pub fn skip(&mut self, position: &str, reason_key: &str, reason: &str) {
        *self
            .report
            .labels_skipped
            .entry(reason_key.to_owned())
            .or_default() += 1;
        tracing::warn!(position, reason, "record skipped");
        if self.report.skipped.len() < MAX_LISTED_SKIPS {
            self.report.skipped.push(Skip {
                position: position.to_owned(),
                reason: reason.to_owned(),
            });
        }
    }

    pub fn indexed_label(&mut self, segments: u64, html_tables: u64, derived_name: bool) {
        self.report.labels_indexed += 1;
        self.report.segments += segments;
        self.report.html_tables_not_indexed += html_tables;
        self.report.names_from_product_data += u64::from(derived_name);
    }

    pub fn doc_written(&mut self) {
        self.report.history.segment_docs_written += 1;
    }

    pub fn doc_copied(&mut self) {
        self.report.history.segment_docs_copied += 1;
    }

    pub fn history(&mut self, ledger: &Ledger, sets_withdrawn: u64) {
        let history = &mut self.report.history;
        history.label_sets = ledger.history().len();
        history.label_versions = ledger.label_count();
        history.versions_carried = ledger.carried_versions();
        history.sets_withdrawn = sets_withdrawn;
    }

    pub fn embeddings(&mut self, counts: EmbeddingCounts, model: Option<&Path>) {
        self.report.embeddings_computed = counts.computed;
        self.report.embeddings_reused = counts.reused;
        self.report.openings_computed = counts.openings_computed;
        self.report.openings_reused = counts.openings_reused;
        self.report.openings_seconds = counts.openings_time.as_secs_f64();
        self.report.embedding_tokens = counts.tokens;
        self.report.embedding_seconds = counts.compute_time.as_secs_f64();
        self.report.embedding_model = model.map(|m| m.display().to_string()).unwrap_or_default();
    }

    pub fn indexed(&self) -> u64 {
        self.report.labels_indexed
    }

    pub fn segments(&self) -> u64 {
        self.report.segments
    }

    pub fn finish(mut self, elapsed: Duration) -> IngestReport {
        self.report.seconds = elapsed.as_secs_f64();
        self.report
    }
}

impl fmt::Display for IngestReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let skipped: u64 = self.labels_skipped.values().sum();
        let history = &self.history;
        writeln!(f, "mode:              {:?}", self.mode)?;
        writeln!(f, "labels read:       {}", self.labels_read)?;
        writeln!(f, "labels indexed:    {}", self.labels_indexed)?;
        writeln!(f, "labels skipped:    {skipped}")?;
        for (reason, count) in &self.labels_skipped {
            writeln!(f, "  {reason}: {count}")?;
        }
        for skip in &self.skipped {
            writeln!(f, "  at {}: {}", skip.position, skip.reason)?;
        }
        writeln!(f, "segments:          {}", self.segments)?;
        writeln!(
            f,
            "history:           {} labels, {} versions ({} carried forward), {} withdrawn now; \
             segment docs {} written, {} copied",
            history.label_sets,
            history.label_versions,
            history.versions_carried,
            history.sets_withdrawn,
            history.segment_docs_written,
            history.segment_docs_copied
        )?;
        writeln!(
            f,
            "html tables not indexed (text kept in sections): {}",
            self.html_tables_not_indexed
        )?;
        writeln!(
            f,
            "names derived from product data: {}",
            self.names_from_product_data
        )?;
        if !self.unknown_section_codes.is_empty() {
            let codes: Vec<String> = self
                .unknown_section_codes
                .iter()
                .map(|(code, n)| format!("{code} ×{n}"))
                .collect();
            writeln!(
                f,
                "unknown SPL section codes (text kept in the parent section, or unclassified): {}",
                codes.join(", ")
            )?;
        }
        if self.labels_indexed == 0 {
            writeln!(f, "embeddings:        none computed (nothing new)")?;
        } else if self.embedding_model.is_empty() {
            writeln!(f, "embeddings:        none (lexical-only index)")?;
        } else {
            let seconds = self.embedding_seconds.max(1e-3);
            writeln!(
                f,
                "embeddings:        {} computed in {:.1} s ({:.0} segments/s, {:.0} tokens/s), {} reused; model {}",
                self.embeddings_computed,
                self.embedding_seconds,
                self.embeddings_computed as f64 / seconds,
                self.embedding_tokens as f64 / seconds,
                self.embeddings_reused,
                self.embedding_model
            )?;
            writeln!(
                f,
                "opening vectors:   {} computed in {:.1} s, {} reused (Indications texts and patient sections' \"What is\" answers, by the transformer)",
                self.openings_computed, self.openings_seconds, self.openings_reused
            )?;
        }
        let graph = &self.graph;
        let list = |counts: &BTreeMap<String, usize>| {
            let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
            parts.join(", ")
        };
        writeln!(
            f,
            "graph:             nodes: {}; relationships: {}; built in {:.1} s",
            list(&graph.nodes),
            list(&graph.relationships),
            graph.seconds
        )?;
        if graph.vocabulary_terms == 0 {
            writeln!(f, "                   no open condition vocabulary given (--vocab): curated terms only")?;
        } else {
            writeln!(
                f,
                "                   condition vocabulary: {} terms",
                graph.vocabulary_terms
            )?;
        }
        let texts = &self.texts;
        writeln!(
            f,
            "distinct texts:    {} of {} segments ({:.2} segments per text); graph analyses {} computed, {} reused",
            texts.distinct_texts,
            texts.segments,
            texts.duplicate_ratio,
            texts.analyses_computed,
            texts.analyses_reused
        )?;
        writeln!(f, "seconds:           {:.1}", self.seconds)?;
        write!(f, "index:             {}", self.generation)
    }
}
