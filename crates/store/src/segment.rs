//! What the store says about one segment: where it lives in a snapshot, what ranking needs
//! without its text, and the segment read back with the label version holding it. Values only;
//! reading them is the snapshot's business.

use std::sync::Arc;

use tantivy::DocAddress;

use crate::history::VersionStatus;
use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_core::label::LabelMeta;

/// Where a segment lives in this snapshot. Only meaningful for the snapshot that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SegmentAddress(pub DocAddress);

/// A segment read back from the store, with the newest label version holding it.
#[derive(Clone, Debug)]
pub struct StoredSegment {
    pub text: String,
    pub section_key: String,
    pub fingerprint: Fingerprint,
    pub label: Arc<LabelMeta>,
    pub standing: Standing,
}

/// Where the label version of a segment stands in its label's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub status: VersionStatus,
    /// The label's newest version (the segment's own unless it is superseded).
    pub newest: VersionRef,
}

/// Names one label version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionRef {
    pub label_id: String,
    pub version: String,
    pub effective_time: String,
}

/// One live segment as `Snapshot::visit_segments` passes it, borrowed from the store.
pub struct SegmentView<'a> {
    pub address: SegmentAddress,
    pub fingerprint: Fingerprint,
    /// Shared by every copy of this exact text, under any label.
    pub text_hash: TextHash,
    /// Ordinal into `Snapshot::labels`: the newest version holding the segment.
    pub label: u32,
    /// In the current version of a label still published: searchable.
    pub current: bool,
    pub section_key: &'a str,
    pub text: &'a str,
}

/// What ranking needs to know about a segment without reading its text.
#[derive(Clone, Debug)]
pub struct SegmentInfo {
    pub address: SegmentAddress,
    /// Ordinal into `Snapshot::labels`: the newest version holding the segment.
    pub label: u32,
    /// In the current version of a label still published: searchable.
    pub current: bool,
    pub section_key: Arc<str>,
    /// Shared by every copy of this exact text, under any label.
    pub text_hash: TextHash,
    /// The text speaks to the patient (a medication guide, wherever the label put it).
    pub addresses_patient: bool,
}
