//! JSON inputs read as streams: JSON Lines line by line, `{"meta":…,"results":[…]}` envelopes
//! and bare arrays element by element, each optionally gzipped; which format a file name says
//! and the decompression it names (gzip, or xz for a tar). Never holds more than one record.

use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;
use lzma_rust2::XzReader;
use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::record::{RawRecord, Sink};
use crate::ingest::error::IngestError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    JsonLines,
    Json,
    Xml,
    Zip,
    /// `.tar`, `.tar.gz`, `.tgz` or `.tar.xz`.
    Tar,
}

pub(super) fn format_of(path: &Path) -> Option<Format> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    if name.ends_with(".tar.xz") || name.ends_with(".tgz") {
        return Some(Format::Tar);
    }
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
        Some(Format::JsonLines)
    } else if name.ends_with(".json") {
        Some(Format::Json)
    } else if name.ends_with(".xml") {
        Some(Format::Xml)
    } else if name.ends_with(".zip") {
        Some(Format::Zip)
    } else if name.ends_with(".tar") {
        Some(Format::Tar)
    } else {
        None
    }
}

/// `reader` decompressed as the name's last extension says: `.gz` and `.tgz` gzip (members
/// concatenated), `.xz` xz (streams concatenated, every block's check verified); else as is.
pub(super) fn decompress<'r>(path: &Path, reader: impl Read + 'r) -> Box<dyn Read + 'r> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("gz" | "tgz") => Box::new(MultiGzDecoder::new(reader)),
        Some("xz") => Box::new(XzReader::new(BufReader::new(reader), true)),
        _ => Box::new(reader),
    }
}

pub(super) fn read_stream(
    label: &str,
    format: Format,
    reader: impl Read,
    sink: &mut Sink,
) -> Result<(), IngestError> {
    let reader = BufReader::with_capacity(1 << 20, reader);
    match format {
        Format::JsonLines => read_lines(label, reader, sink),
        _ => read_json(label, reader, sink),
    }
}

fn read_lines(label: &str, reader: impl BufRead, sink: &mut Sink) -> Result<(), IngestError> {
    for (number, line) in reader.lines().enumerate() {
        let position = format!("{label}:{}", number + 1);
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                return Err(IngestError::Input {
                    path: position,
                    reason: e.to_string(),
                })
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str(&line).map_err(|e| format!("invalid JSON: {e}"));
        sink(RawRecord::json(position, value))?;
    }
    Ok(())
}

/// Streams an envelope `{"results":[…]}` (other keys ignored; `{}` holds no records) or a
/// bare array. A syntax error ends the file (JSON cannot resynchronise); it is reported as a
/// record-level problem at the position reached, and records before it are kept.
fn read_json(label: &str, reader: impl Read, sink: &mut Sink) -> Result<(), IngestError> {
    let mut state = StreamState {
        label,
        sink,
        next_index: 0,
        failure: None,
    };
    let mut deserializer = serde_json::Deserializer::from_reader(reader);
    let outcome = TopLevel(&mut state)
        .deserialize(&mut deserializer)
        .and_then(|()| deserializer.end());
    if let Some(failure) = state.failure.take() {
        return Err(failure);
    }
    if let Err(e) = outcome {
        let position = format!("{label}#results[{}]", state.next_index);
        let reason = format!("invalid JSON, rest of file unreadable: {e}");
        (state.sink)(RawRecord::json(position, Err(reason)))?;
    }
    Ok(())
}

struct StreamState<'s, 'a> {
    label: &'s str,
    sink: &'s mut Sink<'a>,
    next_index: usize,
    failure: Option<IngestError>,
}

struct TopLevel<'r, 's, 'a>(&'r mut StreamState<'s, 'a>);
struct Results<'r, 's, 'a>(&'r mut StreamState<'s, 'a>);

impl<'de> DeserializeSeed<'de> for TopLevel<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopLevel<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an openFDA envelope {\"results\": [...]} or an array of label records")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "results" {
                map.next_value_seed(Results(&mut *self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        Results(self.0).visit_seq(seq)
    }
}

impl<'de> DeserializeSeed<'de> for Results<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Results<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of label records")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let state = self.0;
        while let Some(value) = seq.next_element::<Value>()? {
            let position = format!("{}#results[{}]", state.label, state.next_index);
            state.next_index += 1;
            if let Err(failure) = (state.sink)(RawRecord::json(position, Ok(value))) {
                state.failure = Some(failure);
                return Err(A::Error::custom("ingest stopped"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_says_the_format_and_its_last_extension_the_compression() {
        let formats = [
            ("labels.jsonl.gz", Some(Format::JsonLines)),
            ("bulk.json.zip", Some(Format::Zip)),
            ("label.XML.gz", Some(Format::Xml)),
            ("common.tar.xz", Some(Format::Tar)),
            ("common.tar.gz", Some(Format::Tar)),
            ("common.TGZ", Some(Format::Tar)),
            ("common.tar", Some(Format::Tar)),
            ("label.xml.xz", None),
            ("common.xz", None),
        ];
        for (name, format) in formats {
            assert_eq!(format_of(Path::new(name)), format, "{name}");
        }
        let decompressed = |name: &str, bytes: Vec<u8>| {
            let mut out = String::new();
            decompress(Path::new(name), bytes.as_slice())
                .read_to_string(&mut out)
                .map(|_| out)
        };
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
        std::io::Write::write_all(&mut gz, b"text").unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(decompressed("a.tgz", gz.clone()).unwrap(), "text");
        assert_eq!(decompressed("a.tar.gz", gz.clone()).unwrap(), "text");
        assert!(decompressed("a.tar.xz", gz.clone()).is_err(), "not xz");
        assert_eq!(decompressed("a.tar", b"text".to_vec()).unwrap(), "text");
    }
}
