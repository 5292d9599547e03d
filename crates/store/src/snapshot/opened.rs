//! The opened generation itself: its parts and the reads every other part of `snapshot` builds
//! on (segments by address, labels, fingerprints). See `snapshot` for what it promises.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::columnar::Column;
use tantivy::schema::{TantivyDocument, Value};
use tantivy::{DocAddress, Index, IndexReader, Searcher};

use crate::current::CurrentDocs;
use crate::files::{TANTIVY_DIR, VECTORS_FILE};
use crate::history::{LabelHistory, VersionStatus};
use crate::holders::Holders;
use crate::lease::Lease;
use crate::schema::Fields;
use crate::seal::Seal;
use crate::segment::{SegmentAddress, SegmentView, Standing, StoredSegment, VersionRef};
use crate::texts::TextsIndex;
use crate::vectors::MappedVectors;
use crate::{index_error, io_error, StoreError};
use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_core::label::LabelMeta;

/// The high and low halves of the fingerprints of one tantivy segment.
pub(crate) type FingerprintColumns = (Column<u64>, Column<u64>);

pub struct Snapshot {
    pub(super) generation: PathBuf,
    pub(super) reader: IndexReader,
    pub(super) index: Index,
    pub(super) fields: Fields,
    /// Every label version of the generation; a segment names its label by ordinal here.
    pub(super) labels: Vec<Arc<LabelMeta>>,
    pub(super) history: LabelHistory,
    /// Per fingerprint: the newest label version holding it and its standing.
    pub(crate) holders: Holders,
    pub(crate) current_docs: CurrentDocs,
    /// The generation holds its column tables (catalog, holders, copies, current documents);
    /// one written before them has them built at open.
    pub(crate) stored_columns: bool,
    /// One doc per distinct (text, section, names); `None` in a generation written before it.
    pub(super) texts: Option<TextsIndex>,
    pub(super) manifest: serde_json::Value,
    /// Per tantivy segment: the fingerprint columns the verify index is built from.
    pub(super) fingerprint_columns: Vec<FingerprintColumns>,
    /// The block hashes the generation's files are checked against as they are read.
    pub(super) seal: Arc<Seal>,
    /// `None` for a draft, which only the ingest building it reads.
    pub(super) _lease: Option<Lease>,
}

impl Snapshot {
    /// Why the generation must no longer be served: a block of one of its files was found
    /// altered after it was opened (every read fails from then on).
    pub fn failure(&self) -> Option<&str> {
        self.seal.failure()
    }

    pub fn generation(&self) -> &Path {
        &self.generation
    }

    /// The ingest report this generation was built with.
    pub fn manifest(&self) -> &serde_json::Value {
        &self.manifest
    }

    /// Every label version, current or not; segments name their label by ordinal here.
    pub fn labels(&self) -> &[Arc<LabelMeta>] {
        &self.labels
    }

    /// The current version of every label still published, with its ordinal.
    pub fn current_labels(&self) -> impl Iterator<Item = (u32, &Arc<LabelMeta>)> {
        self.labels
            .iter()
            .enumerate()
            .map(|(i, label)| (i as u32, label))
            .filter(|(i, _)| self.holders.label_status(*i) == Some(VersionStatus::Current))
    }

    pub fn history(&self) -> &LabelHistory {
        &self.history
    }

    /// Every fingerprint of every label version the history holds.
    pub fn history_fingerprints(&self) -> impl Iterator<Item = Fingerprint> + '_ {
        self.holders.fingerprints()
    }

    /// The ordinal of a label version by its id.
    pub fn label_ordinal(&self, label_id: &str) -> Option<u32> {
        self.holders.label_ordinal(label_id)
    }

    /// Matches the segments search may return (current versions of published labels).
    pub fn current_query(&self) -> Box<dyn tantivy::query::Query> {
        self.current_docs.query()
    }

    /// Matches exactly the documents at `addresses`, each with score 0: current segments a
    /// search chose, such as `LabelRows::current_addresses`.
    pub fn docs_query(&self, addresses: &[SegmentAddress]) -> Box<dyn tantivy::query::Query> {
        CurrentDocs::at(&self.reader.searcher(), addresses).query()
    }

    pub fn segment_count(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    pub fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }

    pub fn index(&self) -> &Index {
        &self.index
    }

    pub fn fields(&self) -> Fields {
        self.fields
    }

    /// The distinct-text index (`None` in a generation written before it existed).
    pub fn texts(&self) -> Option<&TextsIndex> {
        self.texts.as_ref()
    }

    /// Every live segment's fingerprint and address, in storage order.
    pub fn fingerprints(&self) -> Result<Vec<(Fingerprint, SegmentAddress)>, StoreError> {
        let searcher = self.searcher();
        let mut all = Vec::with_capacity(searcher.num_docs() as usize);
        for (ordinal, segment) in searcher.segment_readers().iter().enumerate() {
            for doc in segment.doc_ids_alive() {
                let address = SegmentAddress(DocAddress::new(ordinal as u32, doc));
                if let Some(fingerprint) = self.indexed_fingerprint(address) {
                    all.push((fingerprint, address));
                }
            }
        }
        Ok(all)
    }

    /// The fingerprint the verify index holds for `address` (the fast-field columns).
    pub(super) fn indexed_fingerprint(&self, address: SegmentAddress) -> Option<Fingerprint> {
        let (high, low) = self
            .fingerprint_columns
            .get(address.0.segment_ord as usize)?;
        let doc = address.0.doc_id;
        Some(Fingerprint::from_halves(high.first(doc)?, low.first(doc)?))
    }

    /// The generation's segment embeddings, mapped, if it was ingested with a model.
    pub fn vectors(&self) -> Result<Option<MappedVectors>, StoreError> {
        let path = self.generation.join(VECTORS_FILE);
        if !path.exists() {
            return Ok(None);
        }
        MappedVectors::open(&path).map(Some)
    }

    /// Calls `visit` with every live segment, in document-store order (one pass, no seeks).
    /// A document the store cannot decode, or that lacks a field, is an error, never a panic.
    pub fn visit_segments(&self, mut visit: impl FnMut(SegmentView)) -> Result<(), StoreError> {
        let searcher = self.searcher();
        for (ordinal, segment) in searcher.segment_readers().iter().enumerate() {
            let store = segment
                .get_store_reader(64)
                .map_err(io_error("opening the document store"))?;
            let docs = store.iter::<TantivyDocument>(segment.alive_bitset());
            let walk = AssertUnwindSafe(|| -> Result<(), StoreError> {
                for (doc_id, doc) in segment.doc_ids_alive().zip(docs) {
                    let doc = doc.map_err(index_error("reading the document store"))?;
                    let address = SegmentAddress(DocAddress::new(ordinal as u32, doc_id));
                    visit(self.view(address, &doc)?);
                }
                Ok(())
            });
            catch_unwind(walk).map_err(|_| self.undecodable(None))??;
        }
        Ok(())
    }

    pub(super) fn view<'d>(
        &self,
        address: SegmentAddress,
        doc: &'d TantivyDocument,
    ) -> Result<SegmentView<'d>, StoreError> {
        let text_of = |field| doc.get_first(field).and_then(|v| v.as_str());
        let u64_of = |field| doc.get_first(field).and_then(|v| v.as_u64());
        let corrupt = |reason: &str| self.corrupt(address, reason);
        let fingerprint = Fingerprint::from_halves(
            u64_of(self.fields.fp_high).ok_or_else(|| corrupt("no fingerprint"))?,
            u64_of(self.fields.fp_low).ok_or_else(|| corrupt("no fingerprint"))?,
        );
        let holder = self
            .holders
            .of(fingerprint)
            .ok_or_else(|| corrupt("in no label version of the history"))?;
        Ok(SegmentView {
            address,
            fingerprint,
            label: holder.label,
            current: holder.current,
            text_hash: TextHash::from_stored(
                u64_of(self.fields.text_hash).ok_or_else(|| corrupt("no text hash"))?,
            ),
            section_key: text_of(self.fields.section_key).ok_or_else(|| corrupt("no section"))?,
            text: text_of(self.fields.text).ok_or_else(|| corrupt("no text"))?,
        })
    }

    /// Reads one segment's stored text and metadata, and returns it only if the text, its
    /// label's set id and its section still hash to the fingerprint stored and indexed for it.
    /// Nothing is read once a block of the generation failed its hash (tantivy may still hold
    /// decoded blocks of it).
    pub fn segment(&self, address: SegmentAddress) -> Result<StoredSegment, StoreError> {
        self.seal.fail_fast()?;
        let searcher = self.searcher();
        let doc: TantivyDocument = catch_unwind(AssertUnwindSafe(|| searcher.doc(address.0)))
            .map_err(|_| self.undecodable(Some(address)))?
            .map_err(index_error("reading a segment"))?;
        let view = self.view(address, &doc)?;
        if let Some(detail) = self.fingerprint_problem(&view) {
            return Err(self.tampered(&view, detail));
        }
        Ok(StoredSegment {
            text: view.text.to_owned(),
            section_key: view.section_key.to_owned(),
            fingerprint: view.fingerprint,
            label: Arc::clone(&self.labels[view.label as usize]),
            standing: self.standing(view.label),
        })
    }

    /// The standing of a label version (by ordinal) in its label's history.
    pub fn standing(&self, label: u32) -> Standing {
        let meta = &self.labels[label as usize];
        let newest = match self.history.get(&meta.set_id) {
            Some(set) => VersionRef::of_entry(set.newest()),
            None => VersionRef {
                label_id: meta.label_id.clone(),
                version: meta.version.clone(),
                effective_time: meta.effective_time.clone(),
            },
        };
        Standing {
            status: self
                .holders
                .label_status(label)
                .unwrap_or(VersionStatus::Superseded),
            newest,
        }
    }

    /// Fails, loudly, when a visited segment does not hash to its fingerprint.
    pub fn check_segment(&self, view: &SegmentView) -> Result<(), StoreError> {
        match self.fingerprint_problem(view) {
            Some(detail) => Err(self.tampered(view, detail)),
            None => Ok(()),
        }
    }

    /// What differs between a segment's indexed, stored and recomputed fingerprints, if
    /// anything (the recomputed one hashes its label's set id, its section and its text).
    pub(crate) fn fingerprint_problem(&self, view: &SegmentView) -> Option<String> {
        let set_id = &self.labels[view.label as usize].set_id;
        let recomputed = Fingerprint::of_segment(set_id, view.section_key, view.text);
        let indexed = self.indexed_fingerprint(view.address);
        if recomputed == view.fingerprint && indexed == Some(view.fingerprint) {
            return None;
        }
        Some(format!(
            "indexed {}, stored {}, recomputed from set id {set_id:?}, section {:?} \
             and the text: {}",
            indexed.map_or("none".into(), Fingerprint::to_hex),
            view.fingerprint.to_hex(),
            view.section_key,
            recomputed.to_hex(),
        ))
    }

    /// Logs a segment that failed its re-hash loudly and makes it an error.
    pub(super) fn tampered(&self, view: &SegmentView, detail: String) -> StoreError {
        let generation = self.generation.display().to_string();
        let fingerprint = self
            .indexed_fingerprint(view.address)
            .unwrap_or(view.fingerprint)
            .to_hex();
        tracing::error!(
            %generation,
            %fingerprint,
            %detail,
            "TAMPERED OR CORRUPT SEGMENT: not served"
        );
        StoreError::Tampered {
            generation,
            fingerprint,
            detail,
        }
    }

    pub(super) fn corrupt(&self, address: SegmentAddress, reason: &str) -> StoreError {
        StoreError::Corrupt {
            path: self.generation.display().to_string(),
            reason: format!("segment {:?}: {reason}", address.0),
        }
    }

    pub(super) fn undecodable(&self, address: Option<SegmentAddress>) -> StoreError {
        let at = address.map_or(String::new(), |a| format!(" at {:?}", a.0));
        StoreError::Corrupt {
            path: self.generation.join(TANTIVY_DIR).display().to_string(),
            reason: format!("the document store cannot be decoded{at}: run `drugcite check`"),
        }
    }
}

impl VersionRef {
    pub fn of_entry(entry: &crate::history::VersionEntry) -> Self {
        Self {
            label_id: entry.label_id.clone(),
            version: entry.version.clone(),
            effective_time: entry.effective_time.clone(),
        }
    }
}
