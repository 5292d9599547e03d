//! The segment catalog (`Snapshot::catalog`): what ranking knows of every live segment, built
//! at ingest from the index's fast fields and postings (never the document store) and written
//! with the other column tables; mapped when a generation is opened. Writes only into a draft.

use std::collections::HashMap;
use std::sync::Arc;

use tantivy::postings::Postings;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, DocSet, SegmentReader, Term, TERMINATED};

use super::Snapshot;
use crate::columns::{self, catalog::SegmentCatalog, copies::Copies};
use crate::segment::{SegmentAddress, SegmentInfo};
use crate::{index_error, io_error, StoreError};
use drugcite_core::domain::TextHash;
use drugcite_core::label::{PATIENT_VOICE, PATIENT_VOICE_WORDS};

/// A segment's section, by its place in the section keys of its tantivy segment.
const NO_SECTION: u32 = u32::MAX;

impl Snapshot {
    /// Fingerprint → address, label, section and audience of every live segment: the
    /// generation's table, mapped, or for a generation written before it, built.
    pub fn catalog(&self) -> Result<SegmentCatalog, StoreError> {
        match self.stored_columns {
            true => SegmentCatalog::map(&self.generation),
            false => self.build_catalog(),
        }
    }

    /// The current copies of each text in `catalog` (this snapshot's): the generation's table,
    /// mapped, or for a generation written before it, built.
    pub fn copies(&self, catalog: &SegmentCatalog) -> Result<Copies, StoreError> {
        match self.stored_columns {
            true => Copies::map(&self.generation),
            false => Ok(Copies::build(catalog)),
        }
    }

    /// Writes the column tables into a draft generation whose index, labels and history are
    /// complete (`IndexBuilder::finish`); the current documents last, since they mark the
    /// tables as present.
    pub fn write_columns(&self) -> Result<(), StoreError> {
        let catalog = self.build_catalog()?;
        Copies::build(&catalog).write(&self.generation)?;
        catalog.write(&self.generation)?;
        self.holders.write(&self.generation)?;
        columns::write_current(&self.generation, &self.searcher(), &self.current_docs)
    }

    /// The catalog read from the index. The same as reading each segment's stored fields and
    /// text (`visit_segments` with `label::addresses_patient`), which the tests hold it to.
    pub(crate) fn build_catalog(&self) -> Result<SegmentCatalog, StoreError> {
        let searcher = self.searcher();
        let mut catalog = Vec::with_capacity(searcher.num_docs() as usize);
        let mut shared_keys: HashMap<String, Arc<str>> = HashMap::new();
        for (ordinal, segment) in searcher.segment_readers().iter().enumerate() {
            let (keys, sections) = self.sections_of_docs(segment)?;
            let keys: Vec<Arc<str>> = keys
                .into_iter()
                .map(|key| {
                    let shared = shared_keys
                        .entry(key)
                        .or_insert_with_key(|k| Arc::from(&**k));
                    Arc::clone(shared)
                })
                .collect();
            let voice = self.patient_voice_of_docs(segment)?;
            let text_hashes = segment
                .fast_fields()
                .u64("text_hash")
                .map_err(index_error("reading text hashes"))?;
            for doc in segment.doc_ids_alive() {
                let address = SegmentAddress(DocAddress::new(ordinal as u32, doc));
                let corrupt = |reason: &str| self.corrupt(address, reason);
                let fingerprint = self
                    .indexed_fingerprint(address)
                    .ok_or_else(|| corrupt("no fingerprint"))?;
                let holder = self
                    .holders
                    .of(fingerprint)
                    .ok_or_else(|| corrupt("in no label version of the history"))?;
                let section = keys
                    .get(sections[doc as usize] as usize)
                    .ok_or_else(|| corrupt("no section"))?;
                let text_hash = text_hashes
                    .first(doc)
                    .ok_or_else(|| corrupt("no text hash"))?;
                let info = SegmentInfo {
                    address,
                    label: holder.label,
                    current: holder.current,
                    section_key: Arc::clone(section),
                    text_hash: TextHash::from_stored(text_hash),
                    addresses_patient: usize::from(voice[doc as usize]) >= *PATIENT_VOICE_WORDS,
                };
                catalog.push((fingerprint, info));
            }
        }
        Ok(SegmentCatalog::build(catalog))
    }

    /// The section keys of one tantivy segment and, per document, the place of its key among
    /// them (`NO_SECTION` when it has none), from the postings of the section field.
    fn sections_of_docs(
        &self,
        segment: &SegmentReader,
    ) -> Result<(Vec<String>, Vec<u32>), StoreError> {
        let inverted = segment
            .inverted_index(self.fields.section_key)
            .map_err(index_error("reading sections"))?;
        let mut sections = vec![NO_SECTION; segment.max_doc() as usize];
        let mut keys = Vec::new();
        let mut terms = inverted
            .terms()
            .stream()
            .map_err(io_error("reading sections"))?;
        while terms.advance() {
            let key = String::from_utf8_lossy(terms.key()).into_owned();
            let mut postings = inverted
                .read_postings_from_terminfo(terms.value(), IndexRecordOption::Basic)
                .map_err(io_error("reading sections"))?;
            let place = keys.len() as u32;
            let mut doc = postings.doc();
            while doc != TERMINATED {
                sections[doc as usize] = place;
                doc = postings.advance();
            }
            keys.push(key);
        }
        Ok((keys, sections))
    }

    /// Per document of one tantivy segment, how often its text says one of the patient-voice
    /// words (saturating), from the postings of their terms.
    fn patient_voice_of_docs(&self, segment: &SegmentReader) -> Result<Vec<u8>, StoreError> {
        let inverted = segment
            .inverted_index(self.fields.text)
            .map_err(index_error("reading the text index"))?;
        let mut counts = vec![0u8; segment.max_doc() as usize];
        for term in self.patient_voice_terms()? {
            let postings = inverted
                .read_postings(&term, IndexRecordOption::WithFreqs)
                .map_err(io_error("reading the text index"))?;
            let Some(mut postings) = postings else {
                continue;
            };
            let mut doc = postings.doc();
            while doc != TERMINATED {
                let count = &mut counts[doc as usize];
                let said = u8::try_from(postings.term_freq()).unwrap_or(u8::MAX);
                *count = count.saturating_add(said);
                doc = postings.advance();
            }
        }
        Ok(counts)
    }

    /// The index terms the patient-voice words become (through the text field's analyzer).
    fn patient_voice_terms(&self) -> Result<Vec<Term>, StoreError> {
        let mut analyzer = self
            .index
            .tokenizer_for_field(self.fields.text)
            .map_err(index_error("reading the text analyzer"))?;
        let mut terms = Vec::new();
        for word in PATIENT_VOICE.iter() {
            let mut tokens = analyzer.token_stream(word);
            while tokens.advance() {
                let term = Term::from_field_text(self.fields.text, &tokens.token().text);
                if !terms.contains(&term) {
                    terms.push(term);
                }
            }
        }
        Ok(terms)
    }
}
