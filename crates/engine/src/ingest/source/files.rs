//! Input paths → records: directories expanded and every file checked up front, each file read
//! by its format (JSON streams, SPL XML, zips, tars) while the bytes read are counted for the
//! progress bar. A file that cannot be opened, or an archive that cannot be read, is an error.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::archive::zip_members;
use super::member::{read_member, ARCHIVE_NESTING};
use super::record::Sink;
use super::stream::{decompress, format_of, read_stream, Format};
use super::tarball::tar_members;
use super::xml::read_xml;
use crate::ingest::error::IngestError;

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
                "unsupported input: expected .jsonl, .ndjson or .json (optionally .gz), .xml, .zip, \
                 or a .tar, .tar.gz, .tgz or .tar.xz archive",
            ));
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
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
            zip_members(&label, archive, &mut |m| {
                read_member(m, ARCHIVE_NESTING, sink)
            })
        }
        Some(Format::Tar) => tar_members(&label, decompress(path, counted), &mut |m| {
            read_member(m, ARCHIVE_NESTING, sink)
        }),
        Some(Format::Xml) => read_xml(&label, decompress(path, counted), sink),
        Some(format) => read_stream(&label, format, decompress(path, counted), sink),
        None => Err(IngestError::input(path, "unsupported input")),
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
pub(super) mod tests {
    use super::*;
    use crate::ingest::source::RawRecord;
    use serde_json::Value;
    use std::io::Write;

    pub(in crate::ingest::source) fn collect(path: &Path) -> Vec<(String, Result<Value, String>)> {
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
