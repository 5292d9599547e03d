//! The ingest pipeline: read, admit (new versions only on `--update`), parse and segment,
//! embed, analyse for the graph, write the generation beside the live one and publish it.
//! See `ingest` for what it promises.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use drugcite_store::progress::ProgressMode;

use super::embedding::EmbeddingStage;
use super::error::IngestError;
use super::ledger::{Admission, IngestMode, Ledger};
use super::report::{GraphReport, IngestReport, ReportBuilder, TextsReport};
use super::source::{self, RawRecord};
use crate::conditions::{self, VocabularyTerm};
use crate::embed::Embedder;
use crate::graph::analysis::Analyses;
use crate::index::effects::{write_effects, EffectsError, EFFECTS_FILE};
use drugcite_core::label::{segment_label, LabelRecord, NameSource};
use drugcite_store::history::Withdrawal;
use drugcite_store::progress::{Progress, Unit};
use drugcite_store::{
    write_manifest, DataDir, IndexBuilder, SegmentDoc, SegmentView, Snapshot, StoreError,
    VectorCache,
};

pub struct IngestOptions<'e> {
    pub progress: ProgressMode,
    /// Embeds every segment for semantic search; `None` builds a lexical-only index.
    pub embedder: Option<&'e Embedder>,
    /// The open condition vocabularies the knowledge graph recognises conditions with (besides
    /// drugcite's curated terms); compiled into the generation. Empty: curated terms only (an
    /// update then keeps the live generation's vocabulary).
    pub vocabulary: &'e [VocabularyTerm],
    pub mode: IngestMode,
}

/// Builds a new generation from `inputs` and makes it live in `data_dir`. An update that
/// brings no new label version publishes nothing and reports the live generation.
pub fn ingest(
    data_dir: &DataDir,
    inputs: &[PathBuf],
    options: &IngestOptions,
) -> Result<IngestReport, IngestError> {
    let started = Instant::now();
    let files = source::expand_inputs(inputs)?;
    let draft = data_dir.begin_generation()?;
    let base = open_base(data_dir, options.mode)?;
    let space = options.embedder.map(Embedder::vector_space);
    let builder = match (&base, options.mode) {
        (Some(base), IngestMode::Update) => IndexBuilder::extend(draft.path(), base, space)?,
        _ => IndexBuilder::create(draft.path(), space)?,
    };
    let cache = options
        .embedder
        .zip(base.as_ref())
        .and_then(|(e, base)| VectorCache::open(base.generation(), e.vector_space()));
    let bytes_read = Arc::new(AtomicU64::new(0));
    let mut pipeline = Pipeline {
        builder,
        embedding: options.embedder.map(|e| {
            let stage = EmbeddingStage::new(e, cache);
            match options.mode {
                IngestMode::Update => stage.skipping_cached(),
                IngestMode::Full => stage,
            }
        }),
        ledger: Ledger::new(options.mode, base.as_ref()),
        report: ReportBuilder::new(&files, options.mode),
        progress: Progress::start(options.progress, "ingest", total_bytes(&files), Unit::Bytes),
        bytes_read: Arc::clone(&bytes_read),
    };
    for file in &files {
        source::read_file(file, &bytes_read, &mut |raw| pipeline.accept(raw))?;
    }
    pipeline.progress.finish();
    let unchanged = options.mode == IngestMode::Update && pipeline.report.indexed() == 0;
    if let (true, Some(base)) = (unchanged, &base) {
        pipeline.report.history(&pipeline.ledger, 0);
        let mut report = pipeline.report.finish(started.elapsed());
        report.generation = base.generation().display().to_string();
        return Ok(report);
    }
    if pipeline.report.indexed() == 0 {
        return Err(IngestError::NothingIndexed);
    }
    let withdrawal = Withdrawal {
        at: now_utc(),
        generation: draft.name().to_string(),
    };
    let withdrawn = pipeline.ledger.withdraw_absent(&withdrawal);
    if let Some(base) = &base {
        pipeline.copy_missing_docs(base)?;
    }
    if let Some(stage) = &mut pipeline.embedding {
        stage.flush(&mut pipeline.builder)?;
        let model = options.embedder.map(Embedder::model_dir);
        pipeline.report.embeddings(stage.counts(), model);
    }
    pipeline.report.history(&pipeline.ledger, withdrawn);
    let embedding_copies = pipeline.embedding.as_ref().map_or(0, |s| s.counts().copies);
    pipeline
        .builder
        .finish(pipeline.ledger.labels(), pipeline.ledger.history())?;
    let mut report = pipeline.report.finish(started.elapsed());
    write_manifest(draft.path(), &report)?;
    let finished = Snapshot::open_draft(draft.path())?;
    finished.write_columns()?;
    drugcite_store::write_text_tables(&finished)?;
    drop(finished);
    let vocabulary = graph_vocabulary(options, base.as_ref())?;
    let previous = base.as_ref().map(Snapshot::generation);
    let analyses;
    (report.graph, report.texts, analyses) = build_graph(draft.path(), &vocabulary, previous)?;
    if let Some(embedder) = options.embedder {
        embed_effects(draft.path(), &analyses, embedder, previous)?;
    }
    report.texts.embedding_copies = embedding_copies;
    report.seconds = started.elapsed().as_secs_f64();
    write_manifest(draft.path(), &report)?;
    drop(base);
    let generation = draft.publish()?;
    report.generation = generation.display().to_string();
    Ok(report)
}

/// The live generation an ingest builds on: required by an update, optional for a full one.
fn open_base(data_dir: &DataDir, mode: IngestMode) -> Result<Option<Snapshot>, IngestError> {
    match Snapshot::open_current(data_dir) {
        Ok(base) => Ok(Some(base)),
        Err(StoreError::NoIndex(dir)) if mode == IngestMode::Update => {
            Err(IngestError::NothingToUpdate(dir))
        }
        Err(StoreError::NoIndex(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The vocabulary given, else (for an update) the one the live generation was built with.
fn graph_vocabulary(
    options: &IngestOptions,
    base: Option<&Snapshot>,
) -> Result<Vec<VocabularyTerm>, IngestError> {
    match (options.mode, base) {
        (IngestMode::Update, Some(base)) if options.vocabulary.is_empty() => {
            conditions::vocabulary::read_compiled(base.generation())
                .map_err(|e| IngestError::input(base.generation(), e))
        }
        _ => Ok(options.vocabulary.to_vec()),
    }
}

fn total_bytes(files: &[PathBuf]) -> u64 {
    files
        .iter()
        .filter_map(|f| f.metadata().ok())
        .map(|m| m.len())
        .sum()
}

/// Now, UTC, RFC 3339 (seconds).
fn now_utc() -> String {
    let now = time::OffsetDateTime::now_utc().replace_nanosecond(0);
    let now = now.unwrap_or_else(|_| time::OffsetDateTime::now_utc());
    now.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// Extracts the knowledge graph from a finished generation and stores it there, with the
/// condition vocabulary it was built with and the per-text analysis (reusing `live`'s).
fn build_graph(
    generation: &Path,
    vocabulary: &[VocabularyTerm],
    live: Option<&Path>,
) -> Result<(GraphReport, TextsReport, Analyses), StoreError> {
    let started = Instant::now();
    tracing::info!(
        vocabulary_terms = vocabulary.len(),
        "building the knowledge graph"
    );
    let snapshot = Snapshot::open_draft(generation)?;
    let built = crate::graph::build(&snapshot, vocabulary, live)?;
    let graph = built.graph;
    let write_error = |what: &str| {
        let what = format!("writing {what} in {}", generation.display());
        move |e| drugcite_store::io_error(what)(e)
    };
    graph.write(generation).map_err(write_error("the graph"))?;
    built
        .analyses
        .write(generation)
        .map_err(write_error("the text analysis"))?;
    conditions::vocabulary::write_compiled(generation, vocabulary)
        .map_err(write_error("the condition vocabulary"))?;
    let texts = TextsReport::new(built.segments, built.distinct_texts, &built.analyses);
    Ok((
        GraphReport::new(&graph, vocabulary.len(), started.elapsed()),
        texts,
        built.analyses,
    ))
}

/// Embeds the names of the effects the graph build found (`search::effects`) into the draft.
fn embed_effects(
    generation: &Path,
    analyses: &Analyses,
    embedder: &Embedder,
    previous: Option<&Path>,
) -> Result<(), IngestError> {
    let started = Instant::now();
    let counts = write_effects(generation, analyses, embedder, previous).map_err(|e| match e {
        EffectsError::Embed(e) => IngestError::Embed(e),
        EffectsError::Io(e) => {
            drugcite_store::io_error(format!("writing {EFFECTS_FILE}"))(e).into()
        }
    })?;
    tracing::info!(
        names = counts.names,
        embedded = counts.embedded,
        reused = counts.reused,
        texts = counts.texts,
        seconds = started.elapsed().as_secs_f64(),
        "embedded the effect names"
    );
    Ok(())
}

struct Pipeline<'e> {
    builder: IndexBuilder,
    embedding: Option<EmbeddingStage<'e>>,
    ledger: Ledger,
    report: ReportBuilder,
    progress: Progress,
    bytes_read: Arc<AtomicU64>,
}

impl Pipeline<'_> {
    fn accept(&mut self, raw: RawRecord) -> Result<(), IngestError> {
        self.report.record_read();
        self.report
            .unknown_section_codes(&raw.unknown_section_codes);
        let value = match raw.value {
            Ok(value) => value,
            Err(unreadable) => {
                let reason = &unreadable.reason;
                self.report
                    .skip(&raw.position, unreadable.reason_key, reason);
                return Ok(());
            }
        };
        let record = match LabelRecord::parse(&value) {
            Ok(record) => record,
            Err(e) => {
                self.report
                    .skip(&raw.position, e.reason_key(), &e.to_string());
                return Ok(());
            }
        };
        if self.ledger.admit(&record.meta) == Admission::AlreadyIndexed {
            let meta = &record.meta;
            let why = format!(
                "set_id {} version {} ({}) is already indexed",
                meta.set_id, meta.version, meta.label_id
            );
            self.report
                .skip(&raw.position, "version_already_indexed", &why);
            return Ok(());
        }
        let segments = segment_label(&record);
        for segment in &segments {
            if !self.ledger.claim_doc(segment.fingerprint) {
                continue;
            }
            let doc = SegmentDoc {
                fingerprint: segment.fingerprint,
                section_key: &segment.section_key,
                text: &segment.text,
            };
            self.builder.add_segment(&record.meta, &doc)?;
            self.report.doc_written();
            if let Some(stage) = &mut self.embedding {
                stage.add(&mut self.builder, &segment.text, &segment.section_key)?;
            }
        }
        self.report.indexed_label(
            segments.len() as u64,
            record.html_tables as u64,
            record.meta.name_source == NameSource::ProductData,
        );
        self.ledger.record(record.meta, &segments);
        self.show_progress();
        Ok(())
    }

    /// Copies from the live generation the docs the history still needs (superseded,
    /// withdrawn and retired segments of a full ingest), each re-hashed before it is copied.
    fn copy_missing_docs(&mut self, base: &Snapshot) -> Result<(), IngestError> {
        let missing = self.ledger.missing_docs();
        if missing.is_empty() {
            return Ok(());
        }
        let mut failure: Option<IngestError> = None;
        base.visit_segments(|segment| {
            if failure.is_some() || !missing.contains(&segment.fingerprint) {
                return;
            }
            if let Err(e) = self.copy_doc(base, &segment) {
                failure = Some(e);
            }
        })?;
        failure.map_or(Ok(()), Err)
    }

    fn copy_doc(&mut self, base: &Snapshot, segment: &SegmentView) -> Result<(), IngestError> {
        base.check_segment(segment)?;
        let doc = SegmentDoc {
            fingerprint: segment.fingerprint,
            section_key: segment.section_key,
            text: segment.text,
        };
        let label = Arc::clone(&base.labels()[segment.label as usize]);
        self.builder.add_segment(&label, &doc)?;
        self.ledger.claim_doc(segment.fingerprint);
        self.report.doc_copied();
        if let Some(stage) = &mut self.embedding {
            stage.add(&mut self.builder, segment.text, segment.section_key)?;
        }
        Ok(())
    }

    fn show_progress(&mut self) {
        let (labels, segments) = (self.report.indexed(), self.report.segments());
        let embedded = self.embedding.as_ref().map(|stage| stage.counts());
        let elapsed = self.progress.elapsed();
        let position = self.bytes_read.load(Ordering::Relaxed);
        self.progress.update(position, || {
            let rate = labels as f64 / elapsed.as_secs_f64().max(1e-3);
            let mut message = format!("{labels} labels, {segments} segments, {rate:.0} labels/s");
            if let Some(counts) = embedded {
                let per_second =
                    counts.computed as f64 / counts.compute_time.as_secs_f64().max(1e-3);
                message.push_str(&format!(
                    ", embedded {} ({per_second:.0}/s), reused {}",
                    counts.computed, counts.reused
                ));
            }
            message
        });
    }
}
