//! Zip inputs: openFDA's bulk files, DailyMed's zip per label (the SPL XML and its images)
//! and zips of such zips, their members handed on one by one to be read by kind (`member.rs`).
//! A zip whose directory cannot be read is the caller's to judge; a member never stops the rest.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::PathBuf;

use super::record::{Container, Member, MemberSink};
use crate::ingest::error::IngestError;

/// Hands every file of a zip to `each`, in the zip's order (folders are passed over).
pub fn zip_members<R: Read + Seek>(
    label: &str,
    mut archive: zip::ZipArchive<R>,
    each: &mut MemberSink,
) -> Result<(), IngestError> {
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).map_err(|e| IngestError::Input {
            path: label.to_owned(),
            reason: e.to_string(),
        })?;
        if entry.is_dir() {
            continue;
        }
        let name = PathBuf::from(entry.name());
        each(Member {
            position: format!("{label}!{}", entry.name()),
            name,
            container: Container::Zip,
            reader: &mut entry,
        })?;
    }
    Ok(())
}

/// Opens a zip that is itself a member of an archive: its bytes are copied to an anonymous
/// temporary file (a zip is read from its end; memory stays flat whatever its size). `Ok(Err)`
/// when the member cannot be read or is no zip (a skipped record); `Err` when the temporary
/// file cannot be written.
pub fn open_inner_zip(
    position: &str,
    member: &mut dyn Read,
) -> Result<Result<zip::ZipArchive<File>, String>, IngestError> {
    let spill_failed = |e: std::io::Error| IngestError::Input {
        path: position.to_owned(),
        reason: format!("cannot copy the zip to a temporary file: {e}"),
    };
    let mut file = tempfile::tempfile().map_err(spill_failed)?;
    let mut buffer = vec![0; 1 << 16];
    loop {
        let n = match member.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Ok(Err(format!("unreadable zip: {e}"))),
        };
        file.write_all(&buffer[..n]).map_err(spill_failed)?;
    }
    file.rewind().map_err(spill_failed)?;
    Ok(zip::ZipArchive::new(file).map_err(|e| format!("unreadable zip: {e}")))
}

#[cfg(test)]
mod tests {
    use super::super::files::tests::collect;
    use super::super::fixtures::zip_of;
    use super::*;

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
