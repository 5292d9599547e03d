//! SPL XML inputs: one document per `.xml` file or zip entry, read whole (an SPL document is
//! at most a few MB) and turned into the openFDA record shape by `label::spl`. An unreadable
//! document is a record-level problem, reported and skipped, never fatal.

use std::io::Read;

use super::record::{RawRecord, Sink, Unreadable};
use crate::ingest::error::IngestError;
use drugcite_core::label::spl::read_spl;

/// Reads the SPL document of one `.xml` file, named `position` in the report.
pub fn read_xml(position: &str, mut reader: impl Read, sink: &mut Sink) -> Result<(), IngestError> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| IngestError::Input {
            path: position.to_owned(),
            reason: e.to_string(),
        })?;
    sink(spl_record(position, &bytes))
}

/// One SPL document's bytes → its record, or why it could not be read (the report's reason).
pub fn spl_record(position: &str, bytes: &[u8]) -> RawRecord {
    let unreadable = |reason_key, reason: String| RawRecord {
        position: position.to_owned(),
        value: Err(Unreadable { reason_key, reason }),
        unknown_section_codes: Vec::new(),
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return unreadable("malformed_xml", "not UTF-8 text".into());
    };
    match read_spl(text) {
        Ok(spl) => RawRecord {
            position: position.to_owned(),
            value: Ok(spl.record),
            unknown_section_codes: spl.unknown_codes.into_keys().collect(),
        },
        Err(e) => unreadable(e.reason_key(), e.to_string()),
    }
}
