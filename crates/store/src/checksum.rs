//! The checksums a manifest records: when a generation is published (`seal`), the SHA-256 of
//! every 256 KiB block of every file; generations sealed before that record one SHA-256 per file.
//! Compared by `drugcite check` and, for whole-file hashes, when a generation is opened.
//! Reads a published generation's files; never changes them.

use crate::files::{MANIFEST_FILE, TANTIVY_DIR};
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::mpsc;

use serde_json::json;
use sha2::{Digest, Sha256};

use super::cores::try_each_on_cores;
pub(super) use super::seal::record::{parse_manifest, recorded, Checksums, Recorded};
use super::seal::{hash_block, record, BlockHash, FileBlocks, BLOCK_BYTES};
use super::{io_error, StoreError};
use crate::files::sync_dir;

/// A file whose content is not what the manifest recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileMismatch {
    pub file: String,
    pub problem: String,
}

/// Records the block hashes of every file under `dir` (but the manifest and tantivy's empty
/// lock files) in the manifest, replaced by rename. Called on a draft, before it is published.
pub(super) fn seal(dir: &Path) -> Result<(), StoreError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    let mut manifest = match fs::read(&manifest_path) {
        Ok(body) => parse_manifest(&manifest_path, &body)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(io_error(format!("reading {}", manifest_path.display()))(e)),
    };
    let present = list_files(dir)?;
    let names: Vec<&str> = present.iter().map(String::as_str).collect();
    let digests = hash_files(dir, &names, Kind::Blocks(BLOCK_BYTES), &mut |_| {})?;
    let files = names.iter().zip(&digests);
    manifest["checksums"] = record::of_blocks(files.map(|(f, d)| (*f, d.bytes, &d.blocks[..])));
    let staged = dir.join(format!("{MANIFEST_FILE}.new"));
    let body = serde_json::to_vec_pretty(&manifest)
        .map_err(|e| io_error("encoding manifest")(e.into()))?;
    File::create(&staged)
        .and_then(|mut f| f.write_all(&body).and_then(|()| f.sync_all()))
        .map_err(io_error(format!("writing {}", staged.display())))?;
    fs::rename(&staged, &manifest_path)
        .map_err(io_error(format!("replacing {}", manifest_path.display())))?;
    sync_dir(dir)
}

/// Every difference between `dir`'s files and `expected`: changed, missing or unlisted files.
/// `progress` is told how many bytes were hashed.
pub fn compare(
    dir: &Path,
    expected: &Recorded,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<FileMismatch>, StoreError> {
    let present = list_files(dir)?;
    let names: Vec<&str> = match expected {
        Recorded::Whole(files) => files.keys().map(String::as_str).collect(),
        Recorded::Blocks { files, .. } => files.keys().map(String::as_str).collect(),
    };
    let mut mismatches: Vec<FileMismatch> = present
        .iter()
        .filter(|file| !names.contains(&file.as_str()))
        .map(|file| mismatch(file, "is not in the manifest".into()))
        .collect();
    let listed: Vec<&str> = names
        .iter()
        .copied()
        .filter(|file| present.iter().any(|p| p == file))
        .collect();
    let kind = match expected {
        Recorded::Whole(_) => Kind::Whole,
        Recorded::Blocks { block_bytes, .. } => Kind::Blocks(*block_bytes),
    };
    let digests = hash_files(dir, &listed, kind, progress)?;
    let actual: BTreeMap<&str, Digested> = listed.into_iter().zip(digests).collect();
    for file in names {
        let problem = match (actual.get(file), expected) {
            (None, _) => Some("is missing".into()),
            (Some(found), Recorded::Whole(files)) => {
                let recorded = &files[file];
                (found.whole != *recorded)
                    .then(|| format!("sha256 {}, the manifest records {recorded}", found.whole))
            }
            (Some(found), Recorded::Blocks { files, .. }) => block_problem(found, &files[file]),
        };
        if let Some(problem) = problem {
            mismatches.push(mismatch(file, problem));
        }
    }
    mismatches.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(mismatches)
}

/// How a file's blocks differ from what the manifest records, if they do.
fn block_problem(found: &Digested, sealed: &FileBlocks) -> Option<String> {
    if found.bytes != sealed.len() {
        return Some(format!(
            "{} bytes, the manifest records {}",
            found.bytes,
            sealed.len()
        ));
    }
    let differing: Vec<usize> = (0..sealed.blocks())
        .filter(|&block| !sealed.matches(block, &found.blocks[block]))
        .collect();
    let first = differing.first()?;
    let span = sealed.block_range(*first);
    Some(format!(
        "{} of its {} blocks differ from the manifest's, the first block {first} (bytes {}..{})",
        differing.len(),
        sealed.blocks(),
        span.start,
        span.end
    ))
}

/// Which hashes to compute of a file: of the whole, or of each block of so many bytes.
#[derive(Clone, Copy)]
enum Kind {
    Whole,
    Blocks(u64),
}

/// A file's length and its hash: of the whole file (hex) or of each block.
#[derive(Default)]
struct Digested {
    bytes: u64,
    whole: String,
    blocks: Vec<BlockHash>,
}

/// What a hashing worker reports: bytes read, or a file's hash by its place in the list.
enum Hashed {
    Read(u64),
    Done(usize, Result<Digested, StoreError>),
}

/// The hashes of each listed file, in list order, hashed by one worker per core (files are
/// handed out one at a time, so a generation of many files is hashed in a fraction of the
/// serial time); `progress` hears of every MiB read, on the calling thread.
fn hash_files(
    dir: &Path,
    files: &[&str],
    kind: Kind,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<Digested>, StoreError> {
    let (sender, receiver) = mpsc::channel();
    let mut hashes: Vec<Option<Result<Digested, StoreError>>> =
        files.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            try_each_on_cores(files, |i, file| {
                let hashed = hash_file(&dir.join(file), kind, &mut |read| {
                    let _ = sender.send(Hashed::Read(read));
                });
                sender.send(Hashed::Done(i, hashed))
            })
        });
        for message in receiver {
            match message {
                Hashed::Read(read) => progress(read),
                Hashed::Done(i, hashed) => hashes[i] = Some(hashed),
            }
        }
    });
    hashes
        .into_iter()
        .map(|hashed| hashed.expect("every listed file is hashed by some worker"))
        .collect()
}

/// Checks `dir` against whole-file checksums (a generation sealed before block hashes); the
/// first difference is an error naming the file.
pub(super) fn verify_whole(dir: &Path, expected: Checksums) -> Result<(), StoreError> {
    let mismatches = compare(dir, &Recorded::Whole(expected), &mut |_| {})?;
    match mismatches.into_iter().next() {
        None => Ok(()),
        Some(first) => Err(StoreError::Corrupt {
            path: dir.join(&first.file).display().to_string(),
            reason: format!(
                "{} {}: the index was altered or damaged; run `drugcite check`, then re-ingest",
                first.file, first.problem
            ),
        }),
    }
}

fn mismatch(file: &str, problem: String) -> FileMismatch {
    FileMismatch {
        file: file.to_owned(),
        problem,
    }
}

/// Files under `dir`, relative, sorted; without the manifest and tantivy's lock files (empty,
/// and taken by every reader).
pub(super) fn list_files(dir: &Path) -> Result<Vec<String>, StoreError> {
    let mut files = Vec::new();
    let mut pending = vec![(dir.to_path_buf(), String::new())];
    while let Some((path, prefix)) = pending.pop() {
        let entries =
            fs::read_dir(&path).map_err(io_error(format!("listing {}", path.display())))?;
        for entry in entries {
            let entry = entry.map_err(io_error(format!("listing {}", path.display())))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let relative = format!("{prefix}{name}");
            if entry.path().is_dir() {
                pending.push((entry.path(), format!("{relative}/")));
            } else if !is_excluded(&prefix, &name) {
                files.push(relative);
            }
        }
    }
    files.sort();
    Ok(files)
}

fn is_excluded(prefix: &str, name: &str) -> bool {
    let tantivy_lock = prefix == format!("{TANTIVY_DIR}/")
        && name.starts_with(".tantivy-")
        && name.ends_with(".lock");
    (prefix.is_empty() && name.starts_with(MANIFEST_FILE)) || tantivy_lock
}

fn hash_file(
    path: &Path,
    kind: Kind,
    progress: &mut dyn FnMut(u64),
) -> Result<Digested, StoreError> {
    let mut file = File::open(path).map_err(io_error(format!("opening {}", path.display())))?;
    let mut whole = Sha256::new();
    let mut digested = Digested::default();
    let block_bytes = match kind {
        Kind::Whole => BLOCK_BYTES,
        Kind::Blocks(block_bytes) => block_bytes,
    };
    let mut buffer = vec![0u8; block_bytes as usize];
    loop {
        let block = fill(&mut file, &mut buffer)
            .map_err(io_error(format!("reading {}", path.display())))?;
        if block.is_empty() {
            break;
        }
        match kind {
            Kind::Whole => whole.update(block),
            Kind::Blocks(_) => digested.blocks.push(hash_block(block)),
        }
        digested.bytes += block.len() as u64;
        progress(block.len() as u64);
    }
    if let Kind::Whole = kind {
        digested.whole = whole
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
    }
    Ok(digested)
}

/// Reads from `file` until `buffer` is full or the file ends; the bytes read.
fn fill<'b>(file: &mut File, buffer: &'b mut [u8]) -> std::io::Result<&'b [u8]> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..])? {
            0 => break,
            read => filled += read,
        }
    }
    Ok(&buffer[..filled])
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    fn sealed() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join(TANTIVY_DIR)).unwrap();
        fs::write(tmp.path().join("labels.jsonl"), b"{\"a\":1}\n").unwrap();
        fs::write(tmp.path().join("tantivy/x.store"), b"stored text").unwrap();
        fs::write(tmp.path().join("tantivy/.tantivy-meta.lock"), b"").unwrap();
        fs::write(tmp.path().join(MANIFEST_FILE), b"{\"labels\":1}").unwrap();
        seal(tmp.path()).unwrap();
        tmp
    }

    fn manifest(dir: &Path) -> Value {
        serde_json::from_slice(&fs::read(dir.join(MANIFEST_FILE)).unwrap()).unwrap()
    }

    fn compared(dir: &Path, manifest: &Value) -> Vec<String> {
        let expected = recorded(Path::new("m"), manifest).unwrap();
        let found = compare(dir, &expected, &mut |_| {}).unwrap();
        found
            .iter()
            .map(|m| format!("{}: {}", m.file, m.problem))
            .collect()
    }

    #[test]
    fn a_sealed_generation_compares_clean_and_keeps_its_report() {
        let dir = sealed();
        let manifest = manifest(dir.path());
        assert_eq!(manifest["labels"], 1);
        let Recorded::Blocks { files, .. } = recorded(Path::new("m"), &manifest).unwrap() else {
            panic!("sealed by blocks");
        };
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            ["labels.jsonl", "tantivy/x.store"]
        );
        assert_eq!(files["tantivy/x.store"].len(), 11);
        assert!(compared(dir.path(), &manifest).is_empty());
        fs::write(dir.path().join("tantivy/.tantivy-meta.lock"), b"x").unwrap();
        assert!(compared(dir.path(), &manifest).is_empty());
    }

    #[test]
    fn a_changed_missing_or_extra_file_is_named() {
        let dir = sealed();
        let manifest = manifest(dir.path());
        fs::write(dir.path().join("tantivy/x.store"), b"stored tExt").unwrap();
        fs::remove_file(dir.path().join("labels.jsonl")).unwrap();
        fs::write(dir.path().join("graph.json"), b"{}").unwrap();
        assert_eq!(
            compared(dir.path(), &manifest),
            [
                "graph.json: is not in the manifest",
                "labels.jsonl: is missing",
                "tantivy/x.store: 1 of its 1 blocks differ from the manifest's, the first \
                 block 0 (bytes 0..11)"
            ]
        );
        fs::write(dir.path().join("tantivy/x.store"), b"stored").unwrap();
        let found = compared(dir.path(), &manifest);
        assert!(
            found[2].ends_with("6 bytes, the manifest records 11"),
            "{found:?}"
        );
    }

    #[test]
    fn a_generation_sealed_by_whole_file_hashes_is_still_compared() {
        let dir = sealed();
        let hex = |bytes: &[u8]| -> String {
            Sha256::digest(bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        };
        let whole = json!({"checksums": {"algorithm": "sha256", "files": {
            "labels.jsonl": hex(b"{\"a\":1}\n"),
            "tantivy/x.store": hex(b"stored text"),
        }}});
        let Recorded::Whole(files) = recorded(Path::new("m"), &whole).unwrap() else {
            panic!("whole-file hashes");
        };
        verify_whole(dir.path(), files.clone()).unwrap();
        fs::write(dir.path().join("tantivy/x.store"), b"stored tExt").unwrap();
        let error = verify_whole(dir.path(), files).unwrap_err().to_string();
        assert!(error.contains("tantivy/x.store sha256"), "{error}");
    }

    #[test]
    fn a_manifest_without_checksums_is_refused_with_the_way_out() {
        let error = recorded(Path::new("m"), &json!({"labels": 1}))
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("re-ingest"), "{error}");
    }
}
