//! One record as read, before any interpretation, and why one could not be read; the sink every
//! reader passes records to; one member of an archive as its archive's reader hands it on.
//! Values only: no reading here.

use std::io::Read;
use std::path::PathBuf;

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
    /// A member of a `container` that could not be decompressed or opened.
    pub(crate) fn unreadable_member(
        container: Container,
        position: String,
        reason: String,
    ) -> Self {
        Self {
            position,
            value: Err(Unreadable {
                reason_key: container.unreadable_key(),
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

/// The kind of archive a member comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    Zip,
    Tar,
}

impl Container {
    /// The report's reason for a member of this kind of archive that could not be read.
    fn unreadable_key(self) -> &'static str {
        match self {
            Self::Zip => "unreadable_zip_entry",
            Self::Tar => "unreadable_tar_entry",
        }
    }
}

/// One file inside an archive, handed by the archive's reader to the reader of its kind.
pub struct Member<'r> {
    /// `archive!name` (`archive!inner.zip!name` deeper down): where its records come from.
    pub position: String,
    /// Its name inside the archive, which says its format.
    pub name: PathBuf,
    pub container: Container,
    /// Its bytes, read once, front to back.
    pub reader: &'r mut dyn Read,
}

/// What an archive's reader hands each member to.
pub type MemberSink<'a> = dyn FnMut(Member<'_>) -> Result<(), IngestError> + 'a;
