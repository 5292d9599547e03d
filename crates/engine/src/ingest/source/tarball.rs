//! Tar inputs (`.tar`, `.tar.gz`/`.tgz`, `.tar.xz`, decompressed by the caller): the files of one
//! stream handed on in order as they are read, so memory does not grow with the archive. A
//! broken stream is an input error, never a skipped record; reading members by kind is not here.

use std::io::{self, Read};

use tar::EntryType;

use super::record::{Container, Member, MemberSink};
use crate::ingest::error::IngestError;

/// Hands every regular file of the tar stream `reader` to `each`, in archive order (folders,
/// links and devices are passed over), then reads the stream to its end so that a compressed
/// archive's own checks are verified. A header, member or trailer that cannot be read (a
/// truncated or corrupt archive) is an `IngestError::Input` naming the position reached.
pub fn tar_members(
    label: &str,
    reader: impl Read,
    each: &mut MemberSink,
) -> Result<(), IngestError> {
    let broken = |path: &str, e: io::Error| IngestError::Input {
        path: path.to_owned(),
        reason: format!("unreadable tar archive: {e}"),
    };
    let mut archive = tar::Archive::new(reader);
    for entry in archive.entries().map_err(|e| broken(label, e))? {
        let entry = entry.map_err(|e| broken(label, e))?;
        if !matches!(
            entry.header().entry_type(),
            EntryType::Regular | EntryType::Continuous
        ) {
            continue;
        }
        let name = entry.path().map_err(|e| broken(label, e))?.into_owned();
        let position = format!("{label}!{}", name.display());
        let mut watched = Watched {
            inner: entry,
            failure: None,
        };
        each(Member {
            position: position.clone(),
            name,
            container: Container::Tar,
            reader: &mut watched,
        })?;
        if let Some(e) = watched.failure {
            return Err(broken(&position, e));
        }
    }
    io::copy(&mut archive.into_inner(), &mut io::sink()).map_err(|e| broken(label, e))?;
    Ok(())
}

/// A member's bytes, keeping the first error the archive stream gave while they were read: the
/// reader of the member may take it for a bad member and go on, but the archive is broken.
struct Watched<R> {
    inner: R,
    failure: Option<io::Error>,
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).inspect_err(|e| {
            if self.failure.is_none() && e.kind() != io::ErrorKind::Interrupted {
                self.failure = Some(io::Error::new(e.kind(), e.to_string()));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    use super::super::files::read_file;
    use super::super::files::tests::collect;
    use super::super::fixtures::{gz, read_all, spl, tar_of, write, xz};
    use super::super::member::read_member;
    use super::tar_members;
    use crate::ingest::source::RawRecord;

    #[test]
    fn a_tar_xz_hands_on_each_document_in_order_named_by_archive_and_member() {
        let dir = tempfile::tempdir().unwrap();
        let tar = tar_of(&[
            ("spl-common/b.xml", &spl("B")),
            ("spl-common/a.xml.gz", &gz(&spl("A"))),
            ("spl-common/README.txt", b"passed over"),
        ]);
        let path = write(dir.path(), "common.tar.xz", &xz(&tar));
        let records = collect(&path);
        let positions: Vec<&str> = records.iter().map(|r| r.0.as_str()).collect();
        let label = path.display();
        assert_eq!(
            positions,
            [
                format!("{label}!spl-common/b.xml"),
                format!("{label}!spl-common/a.xml.gz")
            ]
        );
        let set_ids: Vec<&str> = records
            .iter()
            .map(|r| r.1.as_ref().unwrap()["set_id"].as_str().unwrap())
            .collect();
        assert_eq!(set_ids, ["b", "a"]);
    }

    #[test]
    fn a_plain_gzipped_and_xz_tar_read_alike() {
        let dir = tempfile::tempdir().unwrap();
        let tar = tar_of(&[
            ("one.jsonl", b"{\"a\":1}\n{\"b\":2}\n"),
            ("d.xml", &spl("D")),
        ]);
        let read = |name: &str, bytes: &[u8]| -> Vec<(String, String)> {
            let path = write(dir.path(), name, bytes);
            collect(&path)
                .into_iter()
                .map(|(position, value)| {
                    let member = position.split_once('!').unwrap().1.to_owned();
                    (member, value.unwrap().to_string())
                })
                .collect()
        };
        let plain = read("x.tar", &tar);
        assert_eq!(plain.len(), 3);
        assert_eq!(plain[0].0, "one.jsonl:1");
        assert_eq!(read("x.tar.gz", &gz(&tar)), plain);
        assert_eq!(read("x.TGZ", &gz(&tar)), plain);
        assert_eq!(read("x.tar.xz", &xz(&tar)), plain);
    }

    #[test]
    fn a_member_that_cannot_be_decompressed_or_opened_is_skipped_and_the_next_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let tar = tar_of(&[
            ("bad.xml.gz", b"\x1f\x8b not gzip after all"),
            ("broken.zip", b"PK not a zip"),
            ("good.xml", &spl("G")),
        ]);
        let path = write(dir.path(), "some.tar.xz", &xz(&tar));
        let (records, ended) = read_all(&path);
        ended.unwrap();
        assert_eq!(
            records,
            [
                (
                    "some.tar.xz!bad.xml.gz".into(),
                    Some("unreadable_tar_entry")
                ),
                (
                    "some.tar.xz!broken.zip".into(),
                    Some("unreadable_tar_entry")
                ),
                ("some.tar.xz!good.xml".into(), None),
            ]
        );
    }

    /// A flipped byte may give a member wrong bytes before xz checks the block at its end; the
    /// error comes all the same, and an ingest that meets it publishes nothing.
    #[test]
    fn a_truncated_or_corrupt_archive_is_an_input_error() {
        let dir = tempfile::tempdir().unwrap();
        let tar = tar_of(&[("a.xml", &spl("A")), ("b.xml", &spl("B"))]);
        let compressed = xz(&tar);
        let mut flipped = compressed.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x55;
        let cases: [(&str, &[u8]); 5] = [
            ("cut.tar", &tar[..512 * 3 + 100]),
            ("footless.tar.xz", &compressed[..compressed.len() - 12]),
            ("flipped.tar.xz", &flipped),
            ("text.tar", &[b'x'; 600]),
            ("garbage.tar.gz", b"\x1f\x8b\x08 not really gzip"),
        ];
        for (name, bytes) in cases {
            let path = write(dir.path(), name, bytes);
            let (_, ended) = read_all(&path);
            let error = ended.expect_err(name);
            assert!(error.contains(name), "{name}: {error}");
            assert!(error.contains("unreadable tar archive"), "{name}: {error}");
        }
        let (records, _) = read_all(&dir.path().join("cut.tar"));
        assert_eq!(
            records,
            [("cut.tar!a.xml".to_owned(), None)],
            "read before the cut"
        );
        let (records, _) = read_all(&dir.path().join("footless.tar.xz"));
        assert_eq!(
            records.len(),
            2,
            "every member read; the missing xz index found after"
        );
    }

    /// A stream that fails once at `fail_at`, then ends, as a decoder may after an error.
    struct FailsOnceThenEnds {
        bytes: Vec<u8>,
        at: usize,
        fail_at: usize,
    }

    impl std::io::Read for FailsOnceThenEnds {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.at > self.fail_at {
                return Ok(0);
            }
            if self.at == self.fail_at {
                self.at += 1;
                return Err(std::io::Error::other("corrupt compressed data"));
            }
            let end = self.fail_at.min(self.at + buf.len());
            let n = end - self.at;
            buf[..n].copy_from_slice(&self.bytes[self.at..end]);
            self.at = end;
            Ok(n)
        }
    }

    #[test]
    fn a_stream_failing_inside_a_member_is_an_input_error_though_the_member_was_skipped() {
        let tar = tar_of(&[("a.xml", &spl("A")), ("b.xml", &spl("B"))]);
        let stream = FailsOnceThenEnds {
            bytes: tar,
            at: 0,
            fail_at: 512 * 2 + 10,
        };
        let mut records = Vec::new();
        let mut sink = |r: RawRecord| {
            records.push((r.position, r.value.err().map(|e| e.reason_key)));
            Ok(())
        };
        let ended = tar_members("s.tar", stream, &mut |m| read_member(m, 0, &mut sink));
        let error = ended.unwrap_err().to_string();
        assert!(
            error.starts_with("s.tar!a.xml: unreadable tar archive: corrupt compressed data"),
            "{error}"
        );
        assert_eq!(
            records,
            [("s.tar!a.xml".to_owned(), Some("unreadable_tar_entry"))]
        );
    }

    /// Three members of 1.5 MB of JSON Lines each in a plain tar: each member's first record
    /// reaches the sink before any byte of the next member is read from the file.
    #[test]
    fn each_member_is_handed_on_before_the_next_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let member = |m: usize| -> Vec<u8> {
            let mut lines = String::new();
            for n in 0.. {
                if lines.len() >= 3 << 19 {
                    break;
                }
                lines.push_str(&format!("{{\"member\":{m},\"n\":{n}}}\n"));
            }
            lines.into_bytes()
        };
        let members = [member(1), member(2), member(3)];
        let names = ["1.jsonl", "2.jsonl", "3.jsonl"];
        let files: Vec<(&str, &[u8])> = names
            .iter()
            .copied()
            .zip(members.iter().map(Vec::as_slice))
            .collect();
        let path = write(dir.path(), "big.tar", &tar_of(&files));
        // The folder's header, then each member's header and its data padded to 512 bytes.
        let mut member_end = 512;
        let ends: Vec<u64> = members
            .iter()
            .map(|m| {
                member_end += 512 + m.len().div_ceil(512) * 512;
                member_end as u64
            })
            .collect();
        let bytes_read = Arc::new(AtomicU64::new(0));
        let mut read_at_first_record = Vec::new();
        read_file(&path, &bytes_read, &mut |r: RawRecord| {
            if r.position.ends_with(".jsonl:1") {
                read_at_first_record.push(bytes_read.load(Ordering::Relaxed));
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(read_at_first_record.len(), 3);
        for (i, (read, end)) in read_at_first_record.iter().zip(&ends).enumerate() {
            assert!(
                read < end,
                "member {}: {read} bytes read, its end at {end}",
                i + 1
            );
        }
        assert_eq!(
            bytes_read.load(Ordering::Relaxed),
            std::fs::metadata(&path).unwrap().len()
        );
    }
}
