//! The tantivy schema of a generation, the text analyzer shared by indexing and queries, and
//! how a published generation's indexes are opened for reading.

use std::path::Path;
use std::sync::Arc;

use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, INDEXED, STORED, STRING,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    StopWordFilter, TextAnalyzer,
};
use tantivy::{Index, IndexReader, ReloadPolicy};

use super::seal::{Seal, SealedDirectory};
use super::{index_error, StoreError};

pub(crate) const ANALYZER: &str = "drugcite_en";

#[derive(Clone, Copy, Debug)]
pub struct Fields {
    /// Segment text, analysed for BM25 and stored verbatim.
    pub text: Field,
    /// Generic, brand and substance names of the segment's drug, analysed, not stored.
    pub names: Field,
    pub section_key: Field,
    pub label_id: Field,
    pub set_id: Field,
    pub fp_high: Field,
    pub fp_low: Field,
    /// `TextHash` of the text: copies of one paragraph under several labels share it.
    pub text_hash: Field,
    /// `copy_key` of the section and names: the doc of the distinct-text index standing for
    /// this segment (`None` in a generation written before that index existed).
    pub copy_key: Option<Field>,
}

impl Fields {
    pub fn schema() -> (Schema, Fields) {
        let mut builder = Schema::builder();
        let analysed = TextFieldIndexing::default()
            .set_tokenizer(ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions);
        let fields = Fields {
            text: builder.add_text_field(
                "text",
                TextOptions::default()
                    .set_indexing_options(analysed.clone())
                    .set_stored(),
            ),
            names: builder.add_text_field(
                "names",
                TextOptions::default().set_indexing_options(analysed),
            ),
            section_key: builder.add_text_field("section_key", STRING | STORED),
            label_id: builder.add_text_field("label_id", STRING | STORED),
            set_id: builder.add_text_field("set_id", STRING | STORED),
            fp_high: builder.add_u64_field("fp_high", FAST | INDEXED | STORED),
            fp_low: builder.add_u64_field("fp_low", FAST | INDEXED | STORED),
            text_hash: builder.add_u64_field("text_hash", FAST | INDEXED | STORED),
            copy_key: Some(builder.add_u64_field("copy_key", FAST)),
        };
        (builder.build(), fields)
    }

    pub fn of(index: &Index) -> tantivy::Result<Fields> {
        let schema = index.schema();
        Ok(Fields {
            text: schema.get_field("text")?,
            names: schema.get_field("names")?,
            section_key: schema.get_field("section_key")?,
            label_id: schema.get_field("label_id")?,
            set_id: schema.get_field("set_id")?,
            fp_high: schema.get_field("fp_high")?,
            fp_low: schema.get_field("fp_low")?,
            text_hash: schema.get_field("text_hash")?,
            copy_key: schema.get_field("copy_key").ok(),
        })
    }
}

/// Words, lowercased, ASCII-folded, English stop words removed, Porter-stemmed.
pub(crate) fn register_analyzer(index: &Index) {
    index.tokenizers().register(ANALYZER, text_analyzer());
}

/// Opens the tantivy index in the directory `name` of `generation` for reading: through the
/// seal (every range tantivy reads is checked against the manifest's block hashes first), the
/// analyzer registered, a reader that never reloads (a generation does not change).
pub(crate) fn open_for_reading(
    generation: &Path,
    name: &str,
    seal: &Arc<Seal>,
) -> Result<(Index, IndexReader), StoreError> {
    let dir = generation.join(name);
    let sealed = SealedDirectory::open(generation, name, Arc::clone(seal))?;
    let index = Index::open(sealed).map_err(index_error(format!("opening {}", dir.display())))?;
    register_analyzer(&index);
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()
        .map_err(index_error(format!(
            "opening a reader of {}",
            dir.display()
        )))?;
    Ok((index, reader))
}

/// The analyzer of the text field, also for matching question phrases the way the text is
/// matched ("ankles swell" meets "swelling").
pub fn text_analyzer() -> TextAnalyzer {
    let mut builder = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .dynamic();
    if let Some(stop_words) = StopWordFilter::new(Language::English) {
        builder = builder.filter_dynamic(stop_words);
    }
    builder
        .filter_dynamic(Stemmer::new(Language::English))
        .build()
}

/// A u64 fast field of a tantivy segment as a column (a missing value reads 0), `None` when
/// the segment has no such field (a generation written before it existed).
pub fn u64_column(
    reader: &tantivy::SegmentReader,
    name: &str,
) -> Option<std::sync::Arc<dyn tantivy::columnar::ColumnValues<u64>>> {
    let column = reader.fast_fields().u64(name).ok()?;
    Some(column.first_or_default_col(0))
}
