//! SHA-256 of every file of a generation, recorded in its manifest when it is published
//! (`seal`) and compared when it is opened and by `drugcite check`. Reads a published
//! generation's files; never changes them.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::builder::{MANIFEST_FILE, TANTIVY_DIR};
use super::{io_error, layout::sync_dir, StoreError};

const ALGORITHM: &str = "sha256";

/// Relative path (with `/`) → lowercase hex SHA-256, as the manifest records them.
pub type Checksums = BTreeMap<String, String>;

/// A file whose content is not what the manifest recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileMismatch {
    pub file: String,
    pub problem: String,
}

/// Records the checksum of every file under `dir` (but the manifest and tantivy's empty lock
/// files) in the manifest, replaced by rename. Called on a draft, before it is published.
pub(super) fn seal(dir: &Path) -> Result<(), StoreError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    let mut manifest = match fs::read(&manifest_path) {
        Ok(body) => parse_manifest(&manifest_path, &body)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(io_error(format!("reading {}", manifest_path.display()))(e)),
    };
    let present = list_files(dir)?;
    let names: Vec<&str> = present.iter().map(String::as_str).collect();
    let hashes = hash_files(dir, &names, &mut |_| {})?;
    let files: Checksums = present.iter().cloned().zip(hashes).collect();
    manifest["checksums"] = json!({ "algorithm": ALGORITHM, "files": files });
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

/// The checksums a manifest records; a manifest without them is refused.
pub(super) fn recorded(manifest_path: &Path, manifest: &Value) -> Result<Checksums, StoreError> {
    let corrupt = |reason: &str| StoreError::Corrupt {
        path: manifest_path.display().to_string(),
        reason: reason.to_owned(),
    };
    let Some(checksums) = manifest.get("checksums") else {
        return Err(corrupt(
            "records no file checksums (the index was built by an older drugcite): \
             re-ingest it with `drugcite ingest`",
        ));
    };
    if checksums.get("algorithm").and_then(Value::as_str) != Some(ALGORITHM) {
        return Err(corrupt("checksums are not sha256"));
    }
    serde_json::from_value(checksums.get("files").cloned().unwrap_or(Value::Null))
        .map_err(|e| corrupt(&format!("checksums unreadable: {e}")))
}

/// Every difference between `dir`'s files and `expected`: changed, missing or unlisted files.
/// `progress` is told how many bytes were hashed.
pub fn compare(
    dir: &Path,
    expected: &Checksums,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<FileMismatch>, StoreError> {
    let present = list_files(dir)?;
    let mut mismatches: Vec<FileMismatch> = present
        .iter()
        .filter(|file| !expected.contains_key(*file))
        .map(|file| mismatch(file, "is not in the manifest".into()))
        .collect();
    let listed: Vec<&str> = expected
        .keys()
        .filter(|file| present.contains(file))
        .map(String::as_str)
        .collect();
    let hashes = hash_files(dir, &listed, progress)?;
    let actual: BTreeMap<&str, String> = listed.into_iter().zip(hashes).collect();
    for (file, recorded) in expected {
        match actual.get(file.as_str()) {
            None => mismatches.push(mismatch(file, "is missing".into())),
            Some(actual) if actual != recorded => {
                let problem = format!("sha256 {actual}, the manifest records {recorded}");
                mismatches.push(mismatch(file, problem));
            }
            Some(_) => {}
        }
    }
    Ok(mismatches)
}

/// What a hashing worker reports: bytes read, or a file's hash by its place in the list.
enum Hashed {
    Read(u64),
    Done(usize, Result<String, StoreError>),
}

/// SHA-256 of each listed file, in list order, hashed by one worker per core (files are
/// handed out one at a time, so a generation of many files opens in a fraction of the
/// serial time); `progress` hears of every MiB read, on the calling thread.
fn hash_files(
    dir: &Path,
    files: &[&str],
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<String>, StoreError> {
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut hashes: Vec<Option<Result<String, StoreError>>> = files.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers.min(files.len()) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                let hashed = hash_file(&dir.join(file), &mut |read| {
                    let _ = sender.send(Hashed::Read(read));
                });
                let _ = sender.send(Hashed::Done(i, hashed));
            });
        }
        drop(sender);
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

/// Checks `dir` against its manifest; the first difference is an error naming the file.
pub(super) fn verify(dir: &Path, manifest: &Value) -> Result<(), StoreError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    let expected = recorded(&manifest_path, manifest)?;
    let mismatches = compare(dir, &expected, &mut |_| {})?;
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

pub(super) fn parse_manifest(path: &Path, body: &[u8]) -> Result<Value, StoreError> {
    let manifest: Value = serde_json::from_slice(body).map_err(|e| StoreError::Corrupt {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    if !manifest.is_object() {
        return Err(StoreError::Corrupt {
            path: path.display().to_string(),
            reason: "not a JSON object".into(),
        });
    }
    Ok(manifest)
}

fn mismatch(file: &str, problem: String) -> FileMismatch {
    FileMismatch {
        file: file.to_owned(),
        problem,
    }
}

/// Files under `dir`, relative, sorted; without the manifest and tantivy's lock files (empty,
/// and taken by every reader).
fn list_files(dir: &Path) -> Result<Vec<String>, StoreError> {
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

fn hash_file(path: &Path, progress: &mut dyn FnMut(u64)) -> Result<String, StoreError> {
    let mut file = File::open(path).map_err(io_error(format!("opening {}", path.display())))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file
            .read(&mut buffer)
            .map_err(io_error(format!("reading {}", path.display())))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        progress(read as u64);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn a_sealed_generation_verifies_and_keeps_its_report() {
        let dir = sealed();
        let manifest = manifest(dir.path());
        assert_eq!(manifest["labels"], 1);
        let files = recorded(Path::new("m"), &manifest).unwrap();
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            ["labels.jsonl", "tantivy/x.store"]
        );
        verify(dir.path(), &manifest).unwrap();
        fs::write(dir.path().join("tantivy/.tantivy-meta.lock"), b"x").unwrap();
        verify(dir.path(), &manifest).unwrap();
    }

    #[test]
    fn a_changed_missing_or_extra_file_is_named() {
        let dir = sealed();
        let manifest = manifest(dir.path());
        fs::write(dir.path().join("tantivy/x.store"), b"stored tExt").unwrap();
        let error = verify(dir.path(), &manifest).unwrap_err().to_string();
        assert!(error.contains("tantivy/x.store"), "{error}");
        fs::remove_file(dir.path().join("labels.jsonl")).unwrap();
        fs::write(dir.path().join("graph.json"), b"{}").unwrap();
        let expected = recorded(Path::new("m"), &manifest).unwrap();
        let found = compare(dir.path(), &expected, &mut |_| {}).unwrap();
        let files: Vec<&str> = found.iter().map(|m| m.file.as_str()).collect();
        assert_eq!(files, ["graph.json", "labels.jsonl", "tantivy/x.store"]);
    }

    #[test]
    fn a_manifest_without_checksums_is_refused_with_the_way_out() {
        let error = recorded(Path::new("m"), &json!({"labels": 1}))
            .unwrap_err()
            .to_string();
        assert!(error.contains("re-ingest"), "{error}");
    }
}
