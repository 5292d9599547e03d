//! Zip inputs: openFDA's bulk files, DailyMed's zip per label (the SPL XML and its images)
//! and zips of such zips, read entry by entry. Only an inner zip is held in memory (one
//! label's, a few MB); a corrupt entry is a skipped record, the outer file's failure an error.

use std::io::{Cursor, Read, Seek};
use std::path::PathBuf;

use super::record::{RawRecord, Sink};
use super::stream::{decompress, format_of, read_stream, Format};
use super::xml::spl_record;
use crate::ingest::error::IngestError;

/// How deep zips inside zips are opened (DailyMed ships a zip of per-label zips).
pub const ZIP_NESTING: usize = 2;

/// Reads the supported entries of a zip: JSON, JSON Lines and SPL XML, and zips inside it up
/// to `depth` levels. Other entries (a label's images, READMEs) are passed over. An XML entry
/// or inner zip that cannot be decompressed or opened is a skipped record, never fatal.
pub fn read_zip<R: Read + Seek>(
    label: &str,
    mut archive: zip::ZipArchive<R>,
    depth: usize,
    sink: &mut Sink,
) -> Result<(), IngestError> {
    for index in 0..archive.len() {
        let entry = archive.by_index(index).map_err(|e| IngestError::Input {
            path: label.to_owned(),
            reason: e.to_string(),
        })?;
        let entry_path = PathBuf::from(entry.name());
        let position = format!("{label}!{}", entry.name());
        match format_of(&entry_path) {
            Some(format @ (Format::Json | Format::JsonLines)) => {
                read_stream(&position, format, decompress(&entry_path, entry), sink)?
            }
            Some(Format::Xml) => match read_entry(decompress(&entry_path, entry)) {
                Ok(bytes) => sink(spl_record(&position, &bytes))?,
                Err(reason) => sink(RawRecord::unreadable_entry(position, reason))?,
            },
            Some(Format::Zip) if depth > 0 => {
                let inner = read_entry(entry).and_then(|bytes| {
                    zip::ZipArchive::new(Cursor::new(bytes))
                        .map_err(|e| format!("unreadable zip: {e}"))
                });
                match inner {
                    Ok(inner) => read_zip(&position, inner, depth - 1, sink)?,
                    Err(reason) => sink(RawRecord::unreadable_entry(position, reason))?,
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The whole decompressed content of a zip entry (an SPL document or a per-label zip: a few
/// MB at most), or why it could not be read.
fn read_entry(mut entry: impl Read) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    entry
        .read_to_end(&mut bytes)
        .map_err(|e| format!("unreadable zip entry: {e}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use std::fs::File;
    use std::io::Write;

    use super::super::files::tests::collect;
    use super::*;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes) in entries {
            zip.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            zip.write_all(bytes).unwrap();
        }
        zip.finish().unwrap().into_inner()
    }

    #[test]
    fn zip_entries_are_read_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("drug-label-0001-of-0001.json.zip");
        let mut zip = zip::ZipWriter::new(File::create(&path).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("drug-label-0001-of-0001.json", options)
            .unwrap();
        zip.write_all(br#"{"meta":{},"results":[{"x":1},{"y":2}]}"#)
            .unwrap();
        zip.start_file("README.txt", options).unwrap();
        zip.write_all(b"ignored").unwrap();
        zip.finish().unwrap();
        let records = collect(&path);
        assert_eq!(records.len(), 2);
        assert!(records[0]
            .0
            .contains(".zip!drug-label-0001-of-0001.json#results[0]"));
    }

    #[test]
    fn a_zip_of_label_zips_reads_each_document_and_skips_a_corrupt_one() {
        let dir = tempfile::tempdir().unwrap();
        let label = zip_of(&[
            ("label.xml", b"<document><setId root='A'/></document>"),
            ("image.jpg", b"\xff\xd8"),
        ]);
        let outer = zip_of(&[
            ("one.zip", &label),
            ("broken.zip", b"PK not a zip"),
            ("two.zip", &label),
        ]);
        let path = dir.path().join("dm_spl_release.zip");
        std::fs::write(&path, outer).unwrap();
        let records = collect(&path);
        let positions: Vec<&str> = records
            .iter()
            .map(|r| r.0.rsplit('/').next().unwrap())
            .collect();
        assert_eq!(
            positions,
            [
                "dm_spl_release.zip!one.zip!label.xml",
                "dm_spl_release.zip!broken.zip",
                "dm_spl_release.zip!two.zip!label.xml"
            ]
        );
        assert_eq!(records[0].1.as_ref().unwrap()["set_id"], "a");
        assert!(records[1].1.as_ref().unwrap_err().contains("zip"));
    }
}
