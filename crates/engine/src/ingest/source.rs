//! Input files → a stream of raw records with their positions. Never holds more than one
//! record in memory: JSON Lines are read line by line, `{"meta":…,"results":[…]}` envelopes
//! (and bare arrays) are walked element by element, SPL `.xml` documents one by one, `.zip`
//! files (openFDA bulk files, DailyMed's zip per label and zips of such zips) entry by entry.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use flate2::read::MultiGzDecoder;
use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use self::archive::{read_zip, ZIP_NESTING};
use super::xml::read_xml;
use super::IngestError;

mod archive;

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
    fn json(reason: String) -> Self {
        Self {
            reason_key: "malformed_json",
            reason,
        }
    }
}

impl RawRecord {
    /// A zip entry that could not be decompressed or opened.
    pub(super) fn unreadable_entry(position: String, reason: String) -> Self {
        Self {
            position,
            value: Err(Unreadable {
                reason_key: "unreadable_zip_entry",
                reason,
            }),
            unknown_section_codes: Vec::new(),
        }
    }

    fn json(position: String, value: Result<Value, String>) -> Self {
        Self {
            position,
            value: value.map_err(Unreadable::json),
            unknown_section_codes: Vec::new(),
        }
    }
}

pub type Sink<'a> = dyn FnMut(RawRecord) -> Result<(), IngestError> + 'a;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    JsonLines,
    Json,
    Xml,
    Zip,
}

/// Expands directories (sorted, recursively) and checks every input is a supported file.
pub fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, IngestError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| IngestError::input(path, e))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir() || format_of(p).is_some())
                .collect();
            entries.sort();
            files.extend(expand_inputs(&entries)?);
        } else if !path.exists() {
            return Err(IngestError::input(path, "no such file"));
        } else if format_of(path).is_none() {
            return Err(IngestError::input(
                path,
                "unsupported input: expected .jsonl, .ndjson or .json (optionally .gz), .xml or .zip",
            ));
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

pub(super) fn format_of(path: &Path) -> Option<Format> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
        Some(Format::JsonLines)
    } else if name.ends_with(".json") {
        Some(Format::Json)
    } else if name.ends_with(".xml") {
        Some(Format::Xml)
    } else if name.ends_with(".zip") {
        Some(Format::Zip)
    } else {
        None
    }
}

/// Reads every record of `path`, counting raw bytes read into `bytes_read`.
pub fn read_file(
    path: &Path,
    bytes_read: &Arc<AtomicU64>,
    sink: &mut Sink,
) -> Result<(), IngestError> {
    let file = File::open(path).map_err(|e| IngestError::input(path, e))?;
    let counted = CountingReader {
        inner: file,
        counter: Arc::clone(bytes_read),
    };
    let label = path.display().to_string();
    match format_of(path) {
        Some(Format::Zip) => {
            let archive = zip::ZipArchive::new(counted).map_err(|e| IngestError::input(path, e))?;
            read_zip(&label, archive, ZIP_NESTING, sink)
        }
        Some(Format::Xml) => read_xml(&label, decompress(path, counted), sink),
        Some(format) => read_stream(&label, format, decompress(path, counted), sink),
        None => Err(IngestError::input(path, "unsupported input")),
    }
}

pub(super) fn decompress<'r>(path: &Path, reader: impl Read + 'r) -> Box<dyn Read + 'r> {
    let gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    if gz {
        Box::new(MultiGzDecoder::new(reader))
    } else {
        Box::new(reader)
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

/// Counts bytes pulled from the underlying file, for a progress bar over compressed input.
struct CountingReader<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: Seek> Seek for CountingReader<R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    pub(super) fn collect(path: &Path) -> Vec<(String, Result<Value, String>)> {
        let mut out = Vec::new();
        let counter = Arc::new(AtomicU64::new(0));
        read_file(path, &counter, &mut |r: RawRecord| {
            out.push((r.position, r.value.map_err(|e| e.reason)));
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn envelope_array_and_empty_object() {
        let dir = tempfile::tempdir().unwrap();
        let envelope = dir.path().join("e.json");
        std::fs::write(
            &envelope,
            r#"{"meta":{"results":{"total":2}},"results":[{"a":1},{"b":[2]}]}"#,
        )
        .unwrap();
        let records = collect(&envelope);
        assert_eq!(records.len(), 2);
        assert!(records[1].0.ends_with("e.json#results[1]"));
        let array = dir.path().join("a.json");
        std::fs::write(&array, r#"[{"a":1}]"#).unwrap();
        assert_eq!(collect(&array).len(), 1);
        let empty = dir.path().join("empty.json");
        std::fs::write(&empty, "{}").unwrap();
        assert!(collect(&empty).is_empty());
    }

    #[test]
    fn truncated_envelope_keeps_earlier_records_and_reports_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        std::fs::write(&path, r#"{"results":[{"a":1},{"b":"#).unwrap();
        let records = collect(&path);
        assert_eq!(records.len(), 2);
        assert!(records[0].1.is_ok());
        assert!(records[1].1.as_ref().unwrap_err().contains("invalid JSON"));
    }

    #[test]
    fn gzipped_json_lines_with_a_bad_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.jsonl.gz");
        let mut gz =
            flate2::write::GzEncoder::new(File::create(&path).unwrap(), Default::default());
        gz.write_all(b"{\"a\":1}\n\nnot json\n{\"c\":3}\n").unwrap();
        gz.finish().unwrap();
        let records = collect(&path);
        let positions: Vec<&str> = records
            .iter()
            .map(|r| r.0.rsplit(':').next().unwrap())
            .collect();
        assert_eq!(positions, ["1", "3", "4"]);
        assert!(records[1].1.is_err());
    }

    #[test]
    fn unsupported_and_missing_inputs_are_refused_up_front() {
        let dir = tempfile::tempdir().unwrap();
        let txt = dir.path().join("x.txt");
        std::fs::write(&txt, "").unwrap();
        assert!(expand_inputs(&[txt]).is_err());
        assert!(expand_inputs(&[dir.path().join("missing.jsonl")]).is_err());
        std::fs::write(dir.path().join("b.jsonl"), "").unwrap();
        std::fs::write(dir.path().join("a.json"), "{}").unwrap();
        let files = expand_inputs(&[dir.path().to_path_buf()]).unwrap();
        let names: Vec<_> = files
            .iter()
            .map(|f| f.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["a.json", "b.jsonl"]);
    }
}
