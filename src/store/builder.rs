//! Writes one generation: segments into tantivy, label metadata into `labels.jsonl`, and the
//! ingest manifest. Memory is bounded by the tantivy writer's budget, not by the input size.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use tantivy::schema::TantivyDocument;
use tantivy::{Index, IndexWriter, Term};

use super::schema::{register_analyzer, Fields};
use super::vectors::{VectorSpace, VectorWriter, VECTORS_FILE};
use super::{index_error, io_error, layout::sync_dir, StoreError};
use crate::domain::TextHash;
use crate::label::{LabelMeta, Segment};

const WRITER_THREADS: usize = 2;
const WRITER_MEMORY_BYTES: usize = 128 * 1024 * 1024;
pub(super) const TANTIVY_DIR: &str = "tantivy";
pub(super) const LABELS_FILE: &str = "labels.jsonl";
pub(super) const MANIFEST_FILE: &str = "manifest.json";

pub struct IndexBuilder {
    dir: PathBuf,
    index: Index,
    writer: IndexWriter,
    fields: Fields,
    labels: BufWriter<File>,
    vectors: Option<VectorWriter>,
}

impl IndexBuilder {
    /// Starts an empty generation in `dir` (a draft directory from `DataDir::begin_generation`),
    /// with a vectors file when `vector_space` is given.
    pub fn create(dir: &Path, vector_space: Option<VectorSpace>) -> Result<Self, StoreError> {
        let tantivy_dir = dir.join(TANTIVY_DIR);
        std::fs::create_dir_all(&tantivy_dir)
            .map_err(io_error(format!("creating {}", tantivy_dir.display())))?;
        let (schema, fields) = Fields::schema();
        let index =
            Index::create_in_dir(&tantivy_dir, schema).map_err(index_error("creating index"))?;
        register_analyzer(&index);
        let writer = index
            .writer_with_num_threads(WRITER_THREADS, WRITER_MEMORY_BYTES)
            .map_err(index_error("opening index writer"))?;
        let labels_path = dir.join(LABELS_FILE);
        let labels = File::create(&labels_path)
            .map(BufWriter::new)
            .map_err(io_error(format!("creating {}", labels_path.display())))?;
        let vectors = vector_space
            .map(|space| VectorWriter::create(&dir.join(VECTORS_FILE), space))
            .transpose()?;
        Ok(Self {
            dir: dir.to_path_buf(),
            index,
            writer,
            fields,
            labels,
            vectors,
        })
    }

    /// Adds one label version and its segments.
    pub fn add_label(&mut self, meta: &LabelMeta, segments: &[Segment]) -> Result<(), StoreError> {
        serde_json::to_writer(&mut self.labels, meta)
            .map_err(|e| io_error("writing labels")(e.into()))?;
        self.labels
            .write_all(b"\n")
            .map_err(io_error("writing labels"))?;
        let names = meta.search_names.join(" ; ");
        for segment in segments {
            let mut doc = TantivyDocument::default();
            doc.add_text(self.fields.text, &segment.text);
            doc.add_text(self.fields.names, &names);
            doc.add_text(self.fields.section_key, &segment.section_key);
            doc.add_text(self.fields.label_id, &meta.label_id);
            doc.add_text(self.fields.set_id, &meta.set_id);
            doc.add_u64(self.fields.fp_high, segment.fingerprint.high());
            doc.add_u64(self.fields.fp_low, segment.fingerprint.low());
            doc.add_u64(self.fields.text_hash, TextHash::of(&segment.text).get());
            self.writer
                .add_document(doc)
                .map_err(index_error("adding a segment"))?;
        }
        Ok(())
    }

    /// Records the embedding of a text (only when the builder was created with vectors).
    pub fn add_vector(&mut self, text: TextHash, vector: &[f32]) -> Result<(), StoreError> {
        match &mut self.vectors {
            Some(writer) => writer.append(text, vector),
            None => Ok(()),
        }
    }

    /// Drops the segments of every label version of `set_id` added so far (a newer version of
    /// the same label arrived later in the input).
    pub fn remove_set(&mut self, set_id: &str) {
        self.writer
            .delete_term(Term::from_field_text(self.fields.set_id, set_id));
    }

    /// Commits, merges into one tantivy segment and syncs everything, leaving a generation
    /// that `Snapshot::open` can read; `write_manifest` completes it for publishing.
    pub fn finish(mut self) -> Result<(), StoreError> {
        self.writer.commit().map_err(index_error("committing"))?;
        let segment_ids = self
            .index
            .searchable_segment_ids()
            .map_err(index_error("listing segments"))?;
        if segment_ids.len() > 1 {
            self.writer
                .merge(&segment_ids)
                .wait()
                .map_err(index_error("merging segments"))?;
        }
        self.writer
            .wait_merging_threads()
            .map_err(index_error("finishing merges"))?;
        if let Some(vectors) = self.vectors.take() {
            vectors.finish()?;
        }
        let labels = self
            .labels
            .into_inner()
            .map_err(|e| io_error("flushing labels")(e.into_error()))?;
        labels.sync_all().map_err(io_error("syncing labels"))?;
        sync_dir(&self.dir.join(TANTIVY_DIR))
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
