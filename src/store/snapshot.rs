//! A published generation opened for reading: tantivy searcher, label metadata, and the
//! fingerprint of every segment. Immutable once opened; swapping generations means a new one.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::schema::{TantivyDocument, Value};
use tantivy::{DocAddress, Index, IndexReader, ReloadPolicy, Searcher};

use super::builder::{LABELS_FILE, MANIFEST_FILE, TANTIVY_DIR};
use super::schema::{register_analyzer, Fields};
use super::vectors::{read_all, StoredVectors, VECTORS_FILE};
use super::{index_error, io_error, DataDir, StoreError};
use crate::domain::Fingerprint;
use crate::label::{addresses_patient, LabelMeta};

/// Where a segment lives in this snapshot. Only meaningful for the snapshot that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SegmentAddress(pub(crate) DocAddress);

/// A segment read back from the store, with its label.
#[derive(Clone, Debug)]
pub struct StoredSegment {
    pub text: String,
    pub section_key: String,
    pub fingerprint: Fingerprint,
    pub label: Arc<LabelMeta>,
}

/// One live segment as `Snapshot::visit_segments` passes it, borrowed from the store.
pub struct SegmentView<'a> {
    pub address: SegmentAddress,
    pub fingerprint: Fingerprint,
    /// Ordinal into `Snapshot::labels`.
    pub label: u32,
    pub section_key: &'a str,
    pub text: &'a str,
}

/// What ranking needs to know about a segment without reading its text.
#[derive(Clone, Debug)]
pub struct SegmentInfo {
    pub address: SegmentAddress,
    /// Ordinal into `Snapshot::labels`.
    pub label: u32,
    pub section_key: Arc<str>,
    /// The text speaks to the patient (a medication guide, wherever the label put it).
    pub addresses_patient: bool,
}

pub struct Snapshot {
    generation: PathBuf,
    reader: IndexReader,
    index: Index,
    fields: Fields,
    /// Every label version of the generation; a segment names its label by ordinal here.
    labels: Vec<Arc<LabelMeta>>,
    label_ordinals: HashMap<String, u32>,
    manifest: serde_json::Value,
}

impl Snapshot {
    /// Opens the live generation of `data_dir`.
    pub fn open_current(data_dir: &DataDir) -> Result<Self, StoreError> {
        Self::open(&data_dir.current_generation()?)
    }

    pub fn open(generation: &Path) -> Result<Self, StoreError> {
        let tantivy_dir = generation.join(TANTIVY_DIR);
        let index = Index::open_in_dir(&tantivy_dir)
            .map_err(index_error(format!("opening {}", tantivy_dir.display())))?;
        register_analyzer(&index);
        let fields = Fields::of(&index).map_err(index_error("reading schema"))?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(index_error("opening index reader"))?;
        let labels = read_labels(&generation.join(LABELS_FILE))?;
        let label_ordinals = labels
            .iter()
            .enumerate()
            .map(|(i, label)| (label.label_id.clone(), i as u32))
            .collect();
        Ok(Self {
            generation: generation.to_path_buf(),
            labels,
            label_ordinals,
            manifest: read_manifest(&generation.join(MANIFEST_FILE))?,
            reader,
            index,
            fields,
        })
    }

    pub fn generation(&self) -> &Path {
        &self.generation
    }

    /// The ingest report this generation was built with.
    pub fn manifest(&self) -> &serde_json::Value {
        &self.manifest
    }

    pub fn labels(&self) -> &[Arc<LabelMeta>] {
        &self.labels
    }

    pub fn segment_count(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    pub(crate) fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }

    pub(crate) fn index(&self) -> &Index {
        &self.index
    }

    pub(crate) fn fields(&self) -> Fields {
        self.fields
    }

    /// Every live segment's fingerprint and address, in storage order.
    pub fn fingerprints(&self) -> Result<Vec<(Fingerprint, SegmentAddress)>, StoreError> {
        let searcher = self.searcher();
        let mut all = Vec::with_capacity(searcher.num_docs() as usize);
        for (ordinal, segment) in searcher.segment_readers().iter().enumerate() {
            let columns = segment.fast_fields();
            let high = columns
                .u64("fp_high")
                .map_err(index_error("reading fingerprints"))?;
            let low = columns
                .u64("fp_low")
                .map_err(index_error("reading fingerprints"))?;
            for doc in segment.doc_ids_alive() {
                if let (Some(h), Some(l)) = (high.first(doc), low.first(doc)) {
                    all.push((
                        Fingerprint::from_halves(h, l),
                        SegmentAddress(DocAddress::new(ordinal as u32, doc)),
                    ));
                }
            }
        }
        Ok(all)
    }

    /// The generation's segment embeddings, if it was ingested with a model.
    pub fn vectors(&self) -> Result<Option<StoredVectors>, StoreError> {
        let path = self.generation.join(VECTORS_FILE);
        if !path.exists() {
            return Ok(None);
        }
        read_all(&path).map(Some)
    }

    /// Fingerprint → address, label, section and audience of every live segment, read in one pass over
    /// the document store.
    pub fn catalog(&self) -> Result<HashMap<Fingerprint, SegmentInfo>, StoreError> {
        let mut catalog = HashMap::with_capacity(self.searcher().num_docs() as usize);
        let mut section_keys: HashMap<String, Arc<str>> = HashMap::new();
        self.visit_segments(|segment| {
            let section_key = section_keys
                .entry(segment.section_key.to_owned())
                .or_insert_with(|| Arc::from(segment.section_key))
                .clone();
            catalog.insert(
                segment.fingerprint,
                SegmentInfo {
                    address: segment.address,
                    label: segment.label,
                    section_key,
                    addresses_patient: addresses_patient(segment.text),
                },
            );
        })?;
        Ok(catalog)
    }

    /// Calls `visit` with every live segment, in document-store order (one pass, no seeks).
    pub fn visit_segments(&self, mut visit: impl FnMut(SegmentView)) -> Result<(), StoreError> {
        let searcher = self.searcher();
        for (ordinal, segment) in searcher.segment_readers().iter().enumerate() {
            let store = segment
                .get_store_reader(64)
                .map_err(io_error("opening the document store"))?;
            let docs = store.iter::<TantivyDocument>(segment.alive_bitset());
            for (doc_id, doc) in segment.doc_ids_alive().zip(docs) {
                let doc = doc.map_err(index_error("reading the document store"))?;
                let text_of = |field| doc.get_first(field).and_then(|v| v.as_str());
                let u64_of = |field| doc.get_first(field).and_then(|v| v.as_u64());
                let (Some(label_id), Some(section_key), Some(high), Some(low), Some(text)) = (
                    text_of(self.fields.label_id),
                    text_of(self.fields.section_key),
                    u64_of(self.fields.fp_high),
                    u64_of(self.fields.fp_low),
                    text_of(self.fields.text),
                ) else {
                    continue;
                };
                let Some(&label) = self.label_ordinals.get(label_id) else {
                    continue;
                };
                visit(SegmentView {
                    address: SegmentAddress(DocAddress::new(ordinal as u32, doc_id)),
                    fingerprint: Fingerprint::from_halves(high, low),
                    label,
                    section_key,
                    text,
                });
            }
        }
        Ok(())
    }

    /// Reads one segment's stored text and metadata.
    pub fn segment(&self, address: SegmentAddress) -> Result<StoredSegment, StoreError> {
        let doc: TantivyDocument = self
            .searcher()
            .doc(address.0)
            .map_err(index_error("reading a segment"))?;
        let text_of = |field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        };
        let u64_of = |field| doc.get_first(field).and_then(|v| v.as_u64());
        let corrupt = |reason: &str| StoreError::Corrupt {
            path: self.generation.display().to_string(),
            reason: format!("segment {:?}: {reason}", address.0),
        };
        let label_id = text_of(self.fields.label_id).ok_or_else(|| corrupt("no label id"))?;
        let label = self
            .label_ordinals
            .get(&label_id)
            .map(|&ordinal| Arc::clone(&self.labels[ordinal as usize]))
            .ok_or_else(|| corrupt("unknown label"))?;
        Ok(StoredSegment {
            text: text_of(self.fields.text).ok_or_else(|| corrupt("no text"))?,
            section_key: text_of(self.fields.section_key).ok_or_else(|| corrupt("no section"))?,
            fingerprint: Fingerprint::from_halves(
                u64_of(self.fields.fp_high).ok_or_else(|| corrupt("no fingerprint"))?,
                u64_of(self.fields.fp_low).ok_or_else(|| corrupt("no fingerprint"))?,
            ),
            label,
        })
    }
}

fn read_labels(path: &Path) -> Result<Vec<Arc<LabelMeta>>, StoreError> {
    let file = File::open(path).map_err(io_error(format!("opening {}", path.display())))?;
    let mut labels = Vec::new();
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io_error(format!("reading {}", path.display())))?;
        let meta: LabelMeta = serde_json::from_str(&line).map_err(|e| StoreError::Corrupt {
            path: path.display().to_string(),
            reason: format!("line {}: {e}", number + 1),
        })?;
        labels.push(Arc::new(meta));
    }
    Ok(labels)
}

fn read_manifest(path: &Path) -> Result<serde_json::Value, StoreError> {
    let body = std::fs::read(path).map_err(io_error(format!("reading {}", path.display())))?;
    serde_json::from_slice(&body).map_err(|e| StoreError::Corrupt {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}
