//! The history side of one ingest: which label versions the live generation already holds,
//! which input versions are new, which segments need a tantivy doc, and the history and label
//! list the new generation publishes. Decides; never writes files.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use drugcite_core::domain::Fingerprint;
use drugcite_core::label::{LabelMeta, Segment};
use drugcite_store::history::{SectionEntry, Withdrawal};
use drugcite_store::{LabelHistory, Snapshot, VersionEntry, VersionRank};

/// How an ingest treats the live generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IngestMode {
    /// The inputs are a full snapshot: every record is processed again, the history of the
    /// live generation is carried forward, and a label the inputs lack is withdrawn.
    Full,
    /// The inputs are additions: only versions the live generation lacks are processed; the
    /// rest of the live generation is kept as it is.
    Update,
}

/// What to do with one input record.
#[derive(Debug, PartialEq, Eq)]
pub enum Admission {
    Index,
    /// Already held (same label id, or same version and effective time).
    AlreadyIndexed,
}

pub struct Ledger {
    mode: IngestMode,
    history: LabelHistory,
    labels: Vec<Arc<LabelMeta>>,
    label_positions: HashMap<String, usize>,
    /// Fingerprints that have a tantivy doc in the new generation.
    with_doc: HashSet<Fingerprint>,
    /// Label ids processed from this run's inputs.
    from_input: HashSet<String>,
    /// Set ids this run's inputs contain.
    sets_in_input: BTreeSet<String>,
}

impl Ledger {
    /// Starts from the live generation's history and labels (if there is one). An update
    /// starts with every live doc in place; a full ingest builds its docs from nothing.
    pub fn new(mode: IngestMode, base: Option<&Snapshot>) -> Self {
        let mut ledger = Self {
            mode,
            history: base.map(|b| b.history().clone()).unwrap_or_default(),
            labels: Vec::new(),
            label_positions: HashMap::new(),
            with_doc: HashSet::new(),
            from_input: HashSet::new(),
            sets_in_input: BTreeSet::new(),
        };
        if let Some(base) = base {
            for label in base.labels() {
                ledger.put_label(Arc::clone(label));
            }
            if mode == IngestMode::Update {
                ledger.with_doc = base.history_fingerprints().collect();
            }
        }
        ledger
    }

    /// A version is indexed once per run; an update also skips versions the live generation
    /// holds; another label id with the same version and effective time is the same version.
    pub fn admit(&mut self, meta: &LabelMeta) -> Admission {
        self.sets_in_input.insert(meta.set_id.clone());
        let rank = VersionRank::new(&meta.version, &meta.effective_time);
        let versions = self
            .history
            .get(&meta.set_id)
            .map_or(&[][..], |set| set.versions.as_slice());
        let held = versions.iter().any(|v| v.label_id == meta.label_id);
        let same_version_other_id = versions
            .iter()
            .any(|v| v.rank() == rank && v.label_id != meta.label_id);
        if self.from_input.contains(&meta.label_id)
            || same_version_other_id
            || (held && self.mode == IngestMode::Update)
        {
            return Admission::AlreadyIndexed;
        }
        self.from_input.insert(meta.label_id.clone());
        Admission::Index
    }

    /// Whether `fingerprint` still needs a doc; marks it as having one.
    pub fn claim_doc(&mut self, fingerprint: Fingerprint) -> bool {
        self.with_doc.insert(fingerprint)
    }

    /// Records an admitted version and its segments.
    pub fn record(&mut self, meta: LabelMeta, segments: &[Segment]) {
        let entry = VersionEntry {
            label_id: meta.label_id.clone(),
            version: meta.version.clone(),
            effective_time: meta.effective_time.clone(),
            sections: sections_of(segments),
            retired: Vec::new(),
        };
        self.history.put(&meta.set_id, entry);
        self.put_label(Arc::new(meta));
    }

    /// Marks withdrawn (full ingests only) every set the inputs lacked; returns how many.
    pub fn withdraw_absent(&mut self, withdrawal: &Withdrawal) -> u64 {
        match self.mode {
            IngestMode::Full => self
                .history
                .withdraw_absent(&self.sets_in_input, withdrawal),
            IngestMode::Update => 0,
        }
    }

    /// Fingerprints the history holds that have no doc yet (a full ingest copies them from the
    /// live generation: superseded, withdrawn and retired segments).
    pub fn missing_docs(&self) -> HashSet<Fingerprint> {
        self.history
            .sets()
            .flat_map(|set| &set.versions)
            .flat_map(|v| v.fingerprints().chain(v.retired.iter().copied()))
            .filter(|fp| !self.with_doc.contains(fp))
            .collect()
    }

    /// Label versions kept from the live generation without being in the inputs.
    pub fn carried_versions(&self) -> usize {
        self.history
            .sets()
            .flat_map(|set| &set.versions)
            .filter(|v| !self.from_input.contains(&v.label_id))
            .count()
    }

    pub fn history(&self) -> &LabelHistory {
        &self.history
    }

    pub fn labels(&self) -> impl Iterator<Item = &LabelMeta> {
        self.labels.iter().map(AsRef::as_ref)
    }

    pub fn label_count(&self) -> usize {
        self.labels.len()
    }

    fn put_label(&mut self, label: Arc<LabelMeta>) {
        match self.label_positions.get(&label.label_id) {
            Some(&at) => self.labels[at] = label,
            None => {
                self.label_positions
                    .insert(label.label_id.clone(), self.labels.len());
                self.labels.push(label);
            }
        }
    }
}

/// The version's sections in document order, each with its segments' fingerprints.
fn sections_of(segments: &[Segment]) -> Vec<SectionEntry> {
    let mut sections: Vec<SectionEntry> = Vec::new();
    for segment in segments {
        match sections.last_mut() {
            Some(last) if last.key == segment.section_key => {
                last.fingerprints.push(segment.fingerprint)
            }
            _ => sections.push(SectionEntry {
                key: segment.section_key.clone(),
                fingerprints: vec![segment.fingerprint],
            }),
        }
    }
    sections
}
