//! One record as read, before any interpretation, and why one could not be read; the sink every
//! reader passes records to. Values only.

use serde_json::Value;

use crate::ingest::error::IngestError;

/// One record as read, before any interpretation.
pub struct RawRecord {
    /// Where it came from, e.g. `labels.jsonl.gz:12` or `bulk.zip!part.json#results[40]`.
    pub position: String,
    /// The record in the openFDA shape, or why it could not be read.
    pub value: Result<Value, Unreadable>,
    /// SPL section codes of the record that name no known section (kept as unclassified).
    pub unknown_section_codes: Vec<String>,
}

/// Why a record could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// A stable short name for the report's "skipped by reason" table.
    pub reason_key: &'static str,
    pub reason: String,
}

impl Unreadable {
    pub(super) fn json(reason: String) -> Self {
        Self {
            reason_key: "malformed_json",
            reason,
        }
    }
}

impl RawRecord {
    /// A zip entry that could not be decompressed or opened.
    pub(crate) fn unreadable_entry(position: String, reason: String) -> Self {
        Self {
            position,
            value: Err(Unreadable {
                reason_key: "unreadable_zip_entry",
                reason,
            }),
            unknown_section_codes: Vec::new(),
        }
    }

    pub(super) fn json(position: String, value: Result<Value, String>) -> Self {
        Self {
            position,
            value: value.map_err(Unreadable::json),
            unknown_section_codes: Vec::new(),
        }
    }
}

pub type Sink<'a> = dyn FnMut(RawRecord) -> Result<(), IngestError> + 'a;
