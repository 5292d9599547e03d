//! Leases on published generations: whoever has a generation open holds a shared OS lock on
//! `DIR/leases/<generation>.lease` (dropped by the OS if the process dies); pruning removes a
//! generation only while holding that lock exclusively. Decides nothing about which to prune.

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use super::generation::GenerationName;
use super::{io_error, StoreError};

const LEASES: &str = "leases";
const SUFFIX: &str = ".lease";

/// Held for as long as a generation is open; released on drop.
#[derive(Debug)]
pub struct Lease {
    _file: File,
}

impl Lease {
    /// Leases `name` in the data directory `root`. Fails while a pruner is removing it.
    pub fn take(root: &Path, name: &GenerationName) -> Result<Self, StoreError> {
        let (file, path) = open_lease_file(root, name)?;
        match file.try_lock_shared() {
            Ok(()) => Ok(Self { _file: file }),
            Err(TryLockError::WouldBlock) => Err(StoreError::Corrupt {
                path: path.display().to_string(),
                reason: format!("generation {name} is being removed by an ingest"),
            }),
            Err(TryLockError::Error(e)) => Err(io_error(format!("locking {}", path.display()))(e)),
        }
    }
}

/// Removes the generation directory `dir` named `name` unless someone leases it; returns
/// whether it was removed.
pub(super) fn remove_unleased(
    root: &Path,
    name: &GenerationName,
    dir: &Path,
) -> Result<bool, StoreError> {
    let (file, path) = open_lease_file(root, name)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Ok(false),
        Err(TryLockError::Error(e)) => {
            return Err(io_error(format!("locking {}", path.display()))(e))
        }
    }
    fs::remove_dir_all(dir).map_err(io_error(format!("removing {}", dir.display())))?;
    fs::remove_file(&path).map_err(io_error(format!("removing {}", path.display())))?;
    Ok(true)
}

/// Removes lease files of generations that no longer exist and that nobody holds.
pub(super) fn sweep(root: &Path, existing: &HashSet<GenerationName>) -> Result<(), StoreError> {
    let dir = root.join(LEASES);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Ok(());
    };
    for path in entries.filter_map(Result::ok).map(|e| e.path()) {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(SUFFIX))
            .and_then(GenerationName::parse);
        let Some(name) = name.filter(|n| !existing.contains(n)) else {
            continue;
        };
        let (file, path) = open_lease_file(root, &name)?;
        if file.try_lock().is_ok() {
            fs::remove_file(&path).map_err(io_error(format!("removing {}", path.display())))?;
        }
    }
    Ok(())
}

fn open_lease_file(root: &Path, name: &GenerationName) -> Result<(File, PathBuf), StoreError> {
    let dir = root.join(LEASES);
    fs::create_dir_all(&dir).map_err(io_error(format!("creating {}", dir.display())))?;
    let path = dir.join(format!("{name}{SUFFIX}"));
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .map_err(io_error(format!("opening {}", path.display())))?;
    Ok((file, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leased_generation_is_not_removed_until_released() {
        let tmp = tempfile::tempdir().unwrap();
        let name = GenerationName::fresh();
        let dir = tmp.path().join(name.as_str());
        fs::create_dir_all(&dir).unwrap();
        let lease = Lease::take(tmp.path(), &name).unwrap();
        let second = Lease::take(tmp.path(), &name).unwrap();
        assert!(!remove_unleased(tmp.path(), &name, &dir).unwrap());
        drop(lease);
        assert!(!remove_unleased(tmp.path(), &name, &dir).unwrap());
        assert!(dir.exists());
        drop(second);
        assert!(remove_unleased(tmp.path(), &name, &dir).unwrap());
        assert!(!dir.exists());
    }

    #[test]
    fn stale_lease_files_are_swept_held_ones_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let (gone, held) = (GenerationName::fresh(), GenerationName::fresh());
        drop(Lease::take(tmp.path(), &gone).unwrap());
        let _held = Lease::take(tmp.path(), &held).unwrap();
        sweep(tmp.path(), &HashSet::new()).unwrap();
        let lease_dir = tmp.path().join(LEASES);
        assert!(!lease_dir.join(format!("{gone}{SUFFIX}")).exists());
        assert!(lease_dir.join(format!("{held}{SUFFIX}")).exists());
    }
}
