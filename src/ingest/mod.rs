//! Ingest: label records from files → parsed, segmented, fingerprinted → a new generation
//! built beside the live one and published atomically at the end. A bad record is counted
//! and reported, never fatal; an I/O or index failure aborts and leaves the live index alone.

mod embedding;
mod report;
mod source;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub use crate::progress::ProgressMode;
pub use report::{GraphReport, IngestReport, TextsReport};

use self::embedding::{EmbeddingStage, StageError};
use self::report::ReportBuilder;
use self::source::RawRecord;
use crate::conditions::{self, VocabularyTerm};
use crate::embed::{EmbedError, Embedder};
use crate::label::{segment_label, LabelRecord, NameSource};
use crate::progress::{Progress, Unit};
use crate::store::{write_manifest, DataDir, IndexBuilder, Snapshot, StoreError, VectorCache};

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("{path}: {reason}")]
    Input { path: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error("no label could be indexed from the inputs; the live index is unchanged")]
    NothingIndexed,
}

impl IngestError {
    fn input(path: &Path, reason: impl std::fmt::Display) -> Self {
        Self::Input {
            path: path.display().to_string(),
            reason: reason.to_string(),
        }
    }
}

impl From<StageError> for IngestError {
    fn from(e: StageError) -> Self {
        match e {
            StageError::Embed(e) => Self::Embed(e),
            StageError::Store(e) => Self::Store(e),
        }
    }
}

pub struct IngestOptions<'e> {
    pub progress: ProgressMode,
    /// Embeds every segment for semantic search; `None` builds a lexical-only index.
    pub embedder: Option<&'e Embedder>,
    /// The open condition vocabularies the knowledge graph recognises conditions with (besides
    /// drugcite's curated terms); compiled into the generation. Empty: curated terms only.
    pub vocabulary: &'e [VocabularyTerm],
}

/// Builds a new generation from `inputs` and makes it live in `data_dir`.
pub fn ingest(
    data_dir: &DataDir,
    inputs: &[PathBuf],
    options: &IngestOptions,
) -> Result<IngestReport, IngestError> {
    let started = Instant::now();
    let files = source::expand_inputs(inputs)?;
    let cache = options.embedder.and_then(|e| {
        let live = data_dir.current_generation().ok()?;
        VectorCache::open(&live, e.vector_space())
    });
    let draft = data_dir.begin_generation()?;
    let total_bytes = files
        .iter()
        .filter_map(|f| f.metadata().ok())
        .map(|m| m.len())
        .sum();
    let bytes_read = Arc::new(AtomicU64::new(0));
    let mut pipeline = Pipeline {
        builder: IndexBuilder::create(draft.path(), options.embedder.map(Embedder::vector_space))?,
        embedding: options.embedder.map(|e| EmbeddingStage::new(e, cache)),
        versions: HashMap::new(),
        report: ReportBuilder::new(&files),
        progress: Progress::start(options.progress, "ingest", total_bytes, Unit::Bytes),
        bytes_read: Arc::clone(&bytes_read),
    };
    for file in &files {
        source::read_file(file, &bytes_read, &mut |raw| pipeline.accept(raw))?;
    }
    if let Some(stage) = &mut pipeline.embedding {
        stage.flush(&mut pipeline.builder)?;
        let model = options.embedder.map(Embedder::model_dir);
        pipeline.report.embeddings(stage.counts(), model);
    }
    let pipeline_copies = pipeline.embedding.as_ref().map_or(0, |s| s.counts().copies);
    pipeline.progress.finish();
    if pipeline.report.indexed() == 0 {
        return Err(IngestError::NothingIndexed);
    }
    pipeline.builder.finish()?;
    let mut report = pipeline.report.finish(started.elapsed());
    write_manifest(draft.path(), &report)?;
    let live = data_dir.current_generation().ok();
    (report.graph, report.texts) = build_graph(draft.path(), options.vocabulary, live.as_deref())?;
    report.texts.embedding_copies = pipeline_copies;
    report.seconds = started.elapsed().as_secs_f64();
    write_manifest(draft.path(), &report)?;
    let generation = draft.publish()?;
    report.generation = generation.display().to_string();
    Ok(report)
}

/// Extracts the knowledge graph from a finished generation and stores it there, with the
/// condition vocabulary it was built with and the per-text analysis (reusing `live`'s).
fn build_graph(
    generation: &Path,
    vocabulary: &[VocabularyTerm],
    live: Option<&Path>,
) -> Result<(GraphReport, TextsReport), StoreError> {
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
        move |e| crate::store::io_error(what)(e)
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
    ))
}

/// Which of two records of the same set id is newer: version number, then effective time.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct VersionRank(u64, String);

struct Pipeline<'e> {
    builder: IndexBuilder,
    embedding: Option<EmbeddingStage<'e>>,
    /// Per set id: the rank of the version indexed so far and its segment count.
    versions: HashMap<String, (VersionRank, u64)>,
    report: ReportBuilder,
    progress: Progress,
    bytes_read: Arc<AtomicU64>,
}

impl Pipeline<'_> {
    fn accept(&mut self, raw: RawRecord) -> Result<(), IngestError> {
        self.report.record_read();
        let value = match raw.value {
            Ok(value) => value,
            Err(reason) => {
                self.report.skip(&raw.position, "malformed_json", &reason);
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
        if !self.make_room_for(&record, &raw.position) {
            return Ok(());
        }
        let segments = segment_label(&record);
        self.builder.add_label(&record.meta, &segments)?;
        if let Some(stage) = &mut self.embedding {
            for segment in &segments {
                stage.add(&mut self.builder, &segment.text)?;
            }
        }
        let rank = rank_of(&record);
        self.versions
            .insert(record.meta.set_id.clone(), (rank, segments.len() as u64));
        self.report.indexed_label(
            segments.len() as u64,
            record.html_tables as u64,
            record.meta.name_source == NameSource::ProductData,
        );
        self.show_progress();
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

    /// Keeps one version per set id: an older or repeated version is skipped; a newer one
    /// replaces the version indexed earlier in this run.
    fn make_room_for(&mut self, record: &LabelRecord, position: &str) -> bool {
        let set_id = &record.meta.set_id;
        let Some((indexed_rank, indexed_segments)) = self.versions.get(set_id).cloned() else {
            return true;
        };
        if rank_of(record) <= indexed_rank {
            let why = format!("set_id {set_id} version {} already indexed", indexed_rank.0);
            self.report
                .skip(position, "not_newer_than_indexed_version", &why);
            return false;
        }
        self.builder.remove_set(set_id);
        self.report.superseded(indexed_segments);
        true
    }
}

fn rank_of(record: &LabelRecord) -> VersionRank {
    VersionRank(
        record.meta.version.parse().unwrap_or(0),
        record.meta.effective_time.clone(),
    )
}
