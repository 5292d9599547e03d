//! Writes one generation: segments into tantivy (from nothing, or on hard links of the live
//! generation's immutable files for an update) with their distinct texts beside them
//! (`texts.rs`), every label version into `labels.jsonl`, the label history, and the ingest manifest. Tantivy memory is bounded by the writer's budget.

use crate::files::{LABELS_FILE, MANIFEST_FILE, TANTIVY_DIR, TEXTS_DIR, VECTORS_FILE};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use tantivy::indexer::NoMergePolicy;
use tantivy::schema::TantivyDocument;
use tantivy::{Index, IndexWriter};

use super::history::LabelHistory;
use super::schema::{register_analyzer, Fields};
use super::texts::{copy_key, TextsWriter};
use super::vectors::{VectorSpace, VectorWriter};
use super::{index_error, io_error, Snapshot, StoreError};
use crate::files::sync_dir;
use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_core::label::LabelMeta;

const WRITER_THREADS: usize = 2;
const WRITER_MEMORY_BYTES: usize = 128 * 1024 * 1024;

pub struct IndexBuilder {
    dir: PathBuf,
    index: Index,
    writer: IndexWriter,
    fields: Fields,
    vectors: Option<VectorWriter>,
    /// The distinct-text index written beside the segments.
    texts: TextsWriter,
    /// Built from nothing: merged into one tantivy segment at the end.
    fresh: bool,
}

/// One segment as the builder stores it: a tantivy doc, never changed once written.
pub struct SegmentDoc<'a> {
    pub fingerprint: Fingerprint,
    pub section_key: &'a str,
    pub text: &'a str,
}

impl IndexBuilder {
    /// Starts an empty generation in `dir` (a draft directory from `DataDir::begin_generation`),
    /// with a vectors file when `vector_space` is given.
    pub fn create(dir: &Path, vector_space: Option<VectorSpace>) -> Result<Self, StoreError> {
        let tantivy_dir = dir.join(TANTIVY_DIR);
        std::fs::create_dir_all(&tantivy_dir)
            .map_err(io_error(format!("creating {}", tantivy_dir.display())))?;
        let (schema, _) = Fields::schema();
        let index =
            Index::create_in_dir(&tantivy_dir, schema).map_err(index_error("creating index"))?;
        let vectors = vector_space
            .map(|space| VectorWriter::create(&dir.join(VECTORS_FILE), space))
            .transpose()?;
        let texts = TextsWriter::create(dir)?;
        Self::writing(dir, index, (vectors, texts), true)
    }

    /// Starts a generation in `dir` holding everything `base` holds: its tantivy files hard-linked
    /// (tantivy never changes a file it wrote; new segments and deletes are new files) and its
    /// vectors copied, so an update costs what it adds.
    pub fn extend(
        dir: &Path,
        base: &Snapshot,
        vector_space: Option<VectorSpace>,
    ) -> Result<Self, StoreError> {
        let tantivy_dir = dir.join(TANTIVY_DIR);
        link_files(&base.generation().join(TANTIVY_DIR), &tantivy_dir)?;
        let index =
            Index::open_in_dir(&tantivy_dir).map_err(index_error("opening the linked index"))?;
        let base_vectors = base.generation().join(VECTORS_FILE);
        let vectors = match (vector_space, base_vectors.exists()) {
            (Some(space), true) => Some(VectorWriter::extend(
                &dir.join(VECTORS_FILE),
                &base_vectors,
                space,
            )?),
            (None, false) => None,
            (Some(_), false) => return Err(mismatch(base, "has no embeddings")),
            (None, true) => return Err(mismatch(base, "has embeddings and no model is loaded")),
        };
        if !base.generation().join(TEXTS_DIR).exists() {
            return Err(StoreError::Corrupt {
                path: base.generation().display().to_string(),
                reason: "the live index was written before the distinct-text index existed: \
                         `ingest --update` cannot extend it; run a full ingest"
                    .into(),
            });
        }
        link_files(&base.generation().join(TEXTS_DIR), &dir.join(TEXTS_DIR))?;
        let texts = TextsWriter::extend(dir)?;
        Self::writing(dir, index, (vectors, texts), false)
    }

    fn writing(
        dir: &Path,
        index: Index,
        (vectors, texts): (Option<VectorWriter>, TextsWriter),
        fresh: bool,
    ) -> Result<Self, StoreError> {
        register_analyzer(&index);
        let fields = Fields::of(&index).map_err(index_error("reading schema"))?;
        let writer: IndexWriter = index
            .writer_with_num_threads(WRITER_THREADS, WRITER_MEMORY_BYTES)
            .map_err(index_error("opening index writer"))?;
        if fresh {
            // `finish` merges everything once; a background merge started by the commit would
            // take segments from under that merge (seen at 10× the corpus: the ingest failed).
            writer.set_merge_policy(Box::new(NoMergePolicy));
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            index,
            writer,
            fields,
            vectors,
            texts,
            fresh,
        })
    }

    /// Adds one segment of `label` (whose names make it findable by drug name).
    pub fn add_segment(
        &mut self,
        label: &LabelMeta,
        segment: &SegmentDoc,
    ) -> Result<(), StoreError> {
        let names = label.search_names.join(" ; ");
        let key = copy_key(segment.section_key, &names);
        self.texts
            .add(segment.text, segment.section_key, &names, key)?;
        let mut doc = TantivyDocument::default();
        doc.add_text(self.fields.text, segment.text);
        doc.add_text(self.fields.names, names);
        doc.add_text(self.fields.section_key, segment.section_key);
        doc.add_text(self.fields.label_id, &label.label_id);
        doc.add_text(self.fields.set_id, &label.set_id);
        doc.add_u64(self.fields.fp_high, segment.fingerprint.high());
        doc.add_u64(self.fields.fp_low, segment.fingerprint.low());
        doc.add_u64(self.fields.text_hash, TextHash::of(segment.text).get());
        if let Some(field) = self.fields.copy_key {
            doc.add_u64(field, key);
        }
        self.writer
            .add_document(doc)
            .map_err(index_error("adding a segment"))?;
        Ok(())
    }

    /// Records the embedding of a text (only when the builder was created with vectors).
    pub fn add_vector(&mut self, text: TextHash, vector: &[f32]) -> Result<(), StoreError> {
        match &mut self.vectors {
            Some(writer) => writer.append(text, vector),
            None => Ok(()),
        }
    }

    /// Commits (a fresh build merged into one tantivy segment), writes every label version and
    /// the history, and syncs everything, leaving a generation that `Snapshot::open_draft` can
    /// read; `write_manifest` completes it for publishing.
    pub fn finish<'l>(
        mut self,
        labels: impl IntoIterator<Item = &'l LabelMeta>,
        history: &LabelHistory,
    ) -> Result<(), StoreError> {
        self.writer.commit().map_err(index_error("committing"))?;
        let segment_ids = self
            .index
            .searchable_segment_ids()
            .map_err(index_error("listing segments"))?;
        if self.fresh && segment_ids.len() > 1 {
            self.writer
                .merge(&segment_ids)
                .wait()
                .map_err(index_error("merging segments"))?;
        }
        self.writer
            .wait_merging_threads()
            .map_err(index_error("finishing merges"))?;
        self.texts.finish(self.fresh)?;
        if let Some(vectors) = self.vectors.take() {
            vectors.finish()?;
        }
        write_labels(&self.dir.join(LABELS_FILE), labels)?;
        history.write(&self.dir)?;
        sync_dir(&self.dir.join(TANTIVY_DIR))?;
        sync_dir(&self.dir)
    }
}

fn write_labels<'l>(
    path: &Path,
    labels: impl IntoIterator<Item = &'l LabelMeta>,
) -> Result<(), StoreError> {
    let file = File::create(path).map_err(io_error(format!("creating {}", path.display())))?;
    let mut out = BufWriter::new(file);
    for label in labels {
        serde_json::to_writer(&mut out, label).map_err(|e| io_error("writing labels")(e.into()))?;
        out.write_all(b"\n").map_err(io_error("writing labels"))?;
    }
    let file = out
        .into_inner()
        .map_err(|e| io_error("flushing labels")(e.into_error()))?;
    file.sync_all().map_err(io_error("syncing labels"))
}

/// Hard-links every file of `from` into a new directory `to`, but tantivy's lock files.
fn link_files(from: &Path, to: &Path) -> Result<(), StoreError> {
    std::fs::create_dir_all(to).map_err(io_error(format!("creating {}", to.display())))?;
    let entries =
        std::fs::read_dir(from).map_err(io_error(format!("listing {}", from.display())))?;
    for entry in entries {
        let entry = entry.map_err(io_error(format!("listing {}", from.display())))?;
        let name = entry.file_name();
        if name.to_string_lossy().ends_with(".lock") {
            continue;
        }
        std::fs::hard_link(entry.path(), to.join(&name))
            .map_err(io_error(format!("linking {}", entry.path().display())))?;
    }
    Ok(())
}

fn mismatch(base: &Snapshot, what: &str) -> StoreError {
    StoreError::Corrupt {
        path: base.generation().display().to_string(),
        reason: format!(
            "the live index {what}: `ingest --update` must embed like it; run a full ingest"
        ),
    }
}

/// Writes the manifest (the ingest report) into a finished generation and syncs the directory:
/// the last step before the generation can be published.
pub fn write_manifest(dir: &Path, manifest: &impl Serialize) -> Result<(), StoreError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    let body =
        serde_json::to_vec_pretty(manifest).map_err(|e| io_error("encoding manifest")(e.into()))?;
    let file = File::create(&manifest_path)
        .map_err(io_error(format!("creating {}", manifest_path.display())))?;
    (&file)
        .write_all(&body)
        .map_err(io_error("writing manifest"))?;
    file.sync_all().map_err(io_error("syncing manifest"))?;
    sync_dir(dir)
}
