//! One member of an archive (a zip or tar entry) read by what its name says: JSON streamed, an
//! SPL document whole, a zip or tar inside it opened while the nesting depth allows. A member
//! that cannot be decompressed or opened is a skipped record; whether the archive is broken is
//! its reader's judgment (`archive.rs`, `tarball.rs`), not this module's.

use std::io::Read;

use super::archive::{open_inner_zip, zip_members};
use super::record::{Member, RawRecord, Sink};
use super::stream::{decompress, format_of, read_stream, Format};
use super::tarball::tar_members;
use super::xml::spl_record;
use crate::ingest::error::IngestError;

/// How deep archives inside archives are opened: DailyMed ships a zip of per-label zips, and a
/// tar may hold such a zip (tar → release zip → label zip → XML).
pub const ARCHIVE_NESTING: usize = 2;

/// Reads one member; archives inside it are opened while `depth > 0`, and other files (a
/// label's images, READMEs) are passed over.
pub fn read_member(member: Member, depth: usize, sink: &mut Sink) -> Result<(), IngestError> {
    let Member {
        position,
        name,
        container,
        reader,
    } = member;
    match format_of(&name) {
        Some(format @ (Format::Json | Format::JsonLines)) => {
            read_stream(&position, format, decompress(&name, reader), sink)
        }
        Some(Format::Xml) => match read_whole(decompress(&name, reader)) {
            Ok(bytes) => sink(spl_record(&position, &bytes)),
            Err(reason) => sink(RawRecord::unreadable_member(container, position, reason)),
        },
        Some(Format::Zip) if depth > 0 => match open_inner_zip(&position, reader)? {
            Ok(inner) => zip_members(&position, inner, &mut |m| read_member(m, depth - 1, sink)),
            Err(reason) => sink(RawRecord::unreadable_member(container, position, reason)),
        },
        Some(Format::Tar) if depth > 0 => {
            tar_members(&position, decompress(&name, reader), &mut |m| {
                read_member(m, depth - 1, sink)
            })
        }
        _ => Ok(()),
    }
}

/// The whole decompressed content of a member (an SPL document: a few MB at most), or why it
/// could not be read.
fn read_whole(mut member: impl Read) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    member
        .read_to_end(&mut bytes)
        .map_err(|e| format!("unreadable archive member: {e}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{gz, read_all, spl, tar_of, write, zip_of};

    #[test]
    fn members_of_every_input_kind_are_read_and_archives_inside_open_two_levels_deep() {
        let dir = tempfile::tempdir().unwrap();
        let label_zip = zip_of(&[("label.xml", &spl("Z")), ("image.jpg", b"\xff\xd8")]);
        let release_zip = zip_of(&[("one.zip", &label_zip)]);
        let deepest = tar_of(&[("d.xml", &spl("D"))]);
        let deeper = tar_of(&[("c.xml", &spl("C")), ("c.tar", &deepest)]);
        let deep = tar_of(&[("b.tar", &deeper)]);
        let tar = tar_of(&[
            ("labels.jsonl.gz", &gz(b"{\"a\":1}\n{\"b\":2}\n")),
            ("bulk.json", br#"{"meta":{},"results":[{"c":3}]}"#),
            ("release.zip", &release_zip),
            ("inner.tar.gz", &gz(&tar_of(&[("e.xml", &spl("E"))]))),
            ("a.tar", &deep),
        ]);
        let path = write(dir.path(), "all.tar", &tar);
        let (records, ended) = read_all(&path);
        ended.unwrap();
        let positions: Vec<&str> = records.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(
            positions,
            [
                "all.tar!labels.jsonl.gz:1",
                "all.tar!labels.jsonl.gz:2",
                "all.tar!bulk.json#results[0]",
                "all.tar!release.zip!one.zip!label.xml",
                "all.tar!inner.tar.gz!e.xml",
                "all.tar!a.tar!b.tar!c.xml",
            ],
            "c.tar, a third archive inside, is not opened"
        );
        assert!(records.iter().all(|r| r.1.is_none()));
    }
}
