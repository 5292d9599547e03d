//! The distinct-text index of a generation: one tantivy doc per distinct (text, section, drug
//! names) among its segments, so BM25 scores a paragraph once however many labels copy it. Written
//! beside the segment index at ingest and scored with the segment index's statistics, so a doc
//! scores exactly what each of its copies scores there. Knows nothing of ranking or currency.

use crate::files::TEXTS_DIR;
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use sha2::{Digest, Sha256};
use tantivy::indexer::NoMergePolicy;
use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::TantivyDocument;
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, STRING,
};
use tantivy::{Index, IndexReader, IndexWriter, Searcher, Term};

use super::schema::{open_for_reading, register_analyzer, Fields, ANALYZER};
use super::seal::Seal;
use super::{index_error, io_error, StoreError};
use drugcite_core::domain::TextHash;

const WRITER_MEMORY_BYTES: usize = 64 * 1024 * 1024;

/// The fields of the distinct-text index; `text` and `names` are analysed like the segment
/// index's fields of the same names.
#[derive(Clone, Copy, Debug)]
pub struct TextFields {
    pub text: Field,
    pub names: Field,
    pub section_key: Field,
    /// `TextHash` of the text.
    pub text_hash: Field,
    /// `copy_key` of the section and names: which copies of the text the doc stands for.
    pub copy_key: Field,
}

impl TextFields {
    fn schema() -> (Schema, TextFields) {
        let mut builder = Schema::builder();
        let analysed = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(ANALYZER)
                .set_index_option(IndexRecordOption::WithFreqs),
        );
        let fields = TextFields {
            text: builder.add_text_field("text", analysed.clone()),
            names: builder.add_text_field("names", analysed),
            section_key: builder.add_text_field("section_key", STRING),
            text_hash: builder.add_u64_field("text_hash", FAST),
            copy_key: builder.add_u64_field("copy_key", FAST),
        };
        (builder.build(), fields)
    }

    fn of(index: &Index) -> tantivy::Result<TextFields> {
        let schema = index.schema();
        Ok(TextFields {
            text: schema.get_field("text")?,
            names: schema.get_field("names")?,
            section_key: schema.get_field("section_key")?,
            text_hash: schema.get_field("text_hash")?,
            copy_key: schema.get_field("copy_key")?,
        })
    }
}

/// Which copies of a text one distinct doc stands for: those in section `section_key` of labels
/// whose search names joined are `names` (two copies with the same key score the same).
pub fn copy_key(section_key: &str, names: &str) -> u64 {
    let mut hasher = Sha256::new();
    hasher.update(b"drugcite.copy-key.v1");
    hasher.update((section_key.len() as u64).to_be_bytes());
    hasher.update(section_key.as_bytes());
    hasher.update(names.as_bytes());
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// Writes the distinct-text index of a generation being built: each (text, key) once.
pub(crate) struct TextsWriter {
    index: Index,
    writer: IndexWriter,
    fields: TextFields,
    seen: HashSet<(u64, u64)>,
}

impl TextsWriter {
    /// An empty index in `generation`.
    pub fn create(generation: &Path) -> Result<Self, StoreError> {
        let dir = generation.join(TEXTS_DIR);
        std::fs::create_dir_all(&dir).map_err(io_error(format!("creating {}", dir.display())))?;
        let index = Index::create_in_dir(&dir, TextFields::schema().0)
            .map_err(index_error("creating the distinct-text index"))?;
        let writer = Self::writing(index, HashSet::new())?;
        writer.writer.set_merge_policy(Box::new(NoMergePolicy));
        Ok(writer)
    }

    /// Continues the index already linked into `generation` (from the base generation), knowing
    /// the docs it holds so none is written twice.
    pub fn extend(generation: &Path) -> Result<Self, StoreError> {
        let dir = generation.join(TEXTS_DIR);
        let index = Index::open_in_dir(&dir)
            .map_err(index_error("opening the linked distinct-text index"))?;
        let fields = TextFields::of(&index).map_err(index_error("reading schema"))?;
        let reader = index
            .reader()
            .map_err(index_error("reading the distinct-text index"))?;
        let mut seen = HashSet::new();
        for segment in reader.searcher().segment_readers() {
            let column = |field| {
                segment
                    .fast_fields()
                    .u64(index.schema().get_field_name(field))
                    .map(|c| c.first_or_default_col(0))
            };
            let (texts, keys) = (
                column(fields.text_hash).map_err(index_error("reading text hashes"))?,
                column(fields.copy_key).map_err(index_error("reading copy keys"))?,
            );
            seen.extend((0..segment.max_doc()).map(|d| (texts.get_val(d), keys.get_val(d))));
        }
        Self::writing(index, seen)
    }

    fn writing(index: Index, seen: HashSet<(u64, u64)>) -> Result<Self, StoreError> {
        register_analyzer(&index);
        let fields = TextFields::of(&index).map_err(index_error("reading schema"))?;
        let writer = index
            .writer_with_num_threads(1, WRITER_MEMORY_BYTES)
            .map_err(index_error("opening the distinct-text writer"))?;
        Ok(Self {
            index,
            writer,
            fields,
            seen,
        })
    }

    /// Adds the text of a segment in `section_key` of a label named `names` (their `copy_key`
    /// is `key`), unless held already.
    pub fn add(
        &mut self,
        text: &str,
        section_key: &str,
        names: &str,
        key: u64,
    ) -> Result<(), StoreError> {
        let hash = TextHash::of(text).get();
        if !self.seen.insert((hash, key)) {
            return Ok(());
        }
        let mut doc = TantivyDocument::default();
        doc.add_text(self.fields.text, text);
        doc.add_text(self.fields.names, names);
        doc.add_text(self.fields.section_key, section_key);
        doc.add_u64(self.fields.text_hash, hash);
        doc.add_u64(self.fields.copy_key, key);
        self.writer
            .add_document(doc)
            .map_err(index_error("adding a distinct text"))?;
        Ok(())
    }

    /// Commits, merged into one tantivy segment when `merge`.
    pub fn finish(mut self, merge: bool) -> Result<(), StoreError> {
        self.writer
            .commit()
            .map_err(index_error("committing texts"))?;
        let segments = self
            .index
            .searchable_segment_ids()
            .map_err(index_error("listing text segments"))?;
        if merge && segments.len() > 1 {
            self.writer
                .merge(&segments)
                .wait()
                .map_err(index_error("merging text segments"))?;
        }
        self.writer
            .wait_merging_threads()
            .map_err(index_error("finishing text merges"))
    }
}

/// The opened distinct-text index of a generation.
pub struct TextsIndex {
    reader: IndexReader,
    fields: TextFields,
}

impl TextsIndex {
    /// The index of `generation`; `None` for a generation written before it existed.
    pub(super) fn open(generation: &Path, seal: &Arc<Seal>) -> Result<Option<Self>, StoreError> {
        if !generation.join(TEXTS_DIR).exists() {
            return Ok(None);
        }
        let (index, reader) = open_for_reading(generation, TEXTS_DIR, seal)?;
        let fields = TextFields::of(&index).map_err(index_error("reading schema"))?;
        Ok(Some(Self { reader, fields }))
    }

    pub fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }

    pub fn fields(&self) -> TextFields {
        self.fields
    }
}

/// The segment index's BM25 statistics asked in the distinct-text index's fields: a distinct doc
/// then scores what every copy of it scores among the segments.
pub struct SegmentStatistics<'a> {
    pub segments: &'a Searcher,
    pub segment_fields: Fields,
    pub text_fields: TextFields,
}

impl SegmentStatistics<'_> {
    fn segment_field(&self, field: Field) -> Field {
        if field == self.text_fields.names {
            self.segment_fields.names
        } else if field == self.text_fields.section_key {
            self.segment_fields.section_key
        } else {
            self.segment_fields.text
        }
    }
}

impl Bm25StatisticsProvider for SegmentStatistics<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        self.segments.total_num_tokens(self.segment_field(field))
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        self.segments.total_num_docs()
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        let value = term.value();
        let field = self.segment_field(term.field());
        let word = value.as_str().unwrap_or_default();
        self.segments.doc_freq(&Term::from_field_text(field, word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_key_tells_sections_and_names_apart() {
        let key = copy_key("warnings", "donepezil ; aricept");
        assert_eq!(key, copy_key("warnings", "donepezil ; aricept"));
        assert_ne!(key, copy_key("boxed_warning", "donepezil ; aricept"));
        assert_ne!(key, copy_key("warnings", "donepezil"));
        assert_ne!(
            copy_key("ab", "c"),
            copy_key("a", "bc"),
            "the section's length is hashed"
        );
    }
}
