//! Paths inside the data directory, the ingest lock, and publishing a finished generation by
//! renaming it into place and then atomically replacing `CURRENT`.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::{io_error, StoreError};

const CURRENT: &str = "CURRENT";
const INDEXES: &str = "indexes";
const BUILDING_SUFFIX: &str = ".building";
/// Published generations kept on disk: the live one and the one before it, so that a server
/// still reading the previous generation is never pulled from under its feet.
const KEEP_GENERATIONS: usize = 2;

#[derive(Clone, Debug)]
pub struct DataDir {
    root: PathBuf,
}

/// A generation being built. Dropped without `publish` (a failed ingest), it is deleted; if
/// the process dies instead, the next ingest deletes it.
pub struct GenerationDraft {
    data_dir: DataDir,
    name: String,
    path: PathBuf,
    published: bool,
    _lock: File,
}

impl DataDir {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn keys_path(&self) -> PathBuf {
        self.root.join("keys.json")
    }

    fn indexes(&self) -> PathBuf {
        self.root.join(INDEXES)
    }

    /// Path of the live generation, or `NoIndex`.
    pub fn current_generation(&self) -> Result<PathBuf, StoreError> {
        let pointer = self.root.join(CURRENT);
        let name = match fs::read_to_string(&pointer) {
            Ok(name) => name,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::NoIndex(self.root.display().to_string()))
            }
            Err(e) => return Err(io_error(format!("reading {}", pointer.display()))(e)),
        };
        let path = self.indexes().join(name.trim());
        if name.trim().is_empty() || !path.is_dir() {
            return Err(StoreError::Corrupt {
                path: pointer.display().to_string(),
                reason: format!("names generation {:?}, which does not exist", name.trim()),
            });
        }
        Ok(path)
    }

    /// Takes the ingest lock, removes leftovers of interrupted ingests, and makes a fresh
    /// directory for the new generation.
    pub fn begin_generation(&self) -> Result<GenerationDraft, StoreError> {
        let indexes = self.indexes();
        fs::create_dir_all(&indexes)
            .map_err(io_error(format!("creating {}", indexes.display())))?;
        let lock_path = self.root.join("ingest.lock");
        let lock = File::create(&lock_path)
            .map_err(io_error(format!("opening {}", lock_path.display())))?;
        lock.try_lock()
            .map_err(|_| StoreError::IngestRunning(lock_path.display().to_string()))?;
        for leftover in self.generation_dirs(true)? {
            fs::remove_dir_all(&leftover)
                .map_err(io_error(format!("removing {}", leftover.display())))?;
        }
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let name = format!("g{millis:015}-{:08x}", rand::random::<u32>());
        let path = indexes.join(format!("{name}{BUILDING_SUFFIX}"));
        fs::create_dir_all(&path).map_err(io_error(format!("creating {}", path.display())))?;
        Ok(GenerationDraft {
            data_dir: self.clone(),
            name,
            path,
            published: false,
            _lock: lock,
        })
    }

    /// Generation directories: the unfinished ones, or the published ones oldest first.
    fn generation_dirs(&self, building: bool) -> Result<Vec<PathBuf>, StoreError> {
        let indexes = self.indexes();
        let entries =
            fs::read_dir(&indexes).map_err(io_error(format!("listing {}", indexes.display())))?;
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(BUILDING_SUFFIX) == building)
            })
            .collect();
        dirs.sort();
        Ok(dirs)
    }
}

impl GenerationDraft {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes the generation live: rename into place, fsync, replace `CURRENT` by rename, then
    /// prune generations older than the previous one. A crash at any point leaves either the
    /// old or the new generation live, never a half-written one.
    pub fn publish(mut self) -> Result<PathBuf, StoreError> {
        let indexes = self.data_dir.indexes();
        let final_path = indexes.join(&self.name);
        fs::rename(&self.path, &final_path)
            .map_err(io_error(format!("publishing {}", final_path.display())))?;
        self.published = true;
        sync_dir(&indexes)?;
        let root = self.data_dir.root();
        let staged = root.join("CURRENT.new");
        fs::write(&staged, &self.name)
            .map_err(io_error(format!("writing {}", staged.display())))?;
        File::open(&staged)
            .and_then(|f| f.sync_all())
            .map_err(io_error(format!("syncing {}", staged.display())))?;
        fs::rename(&staged, root.join(CURRENT)).map_err(io_error("replacing CURRENT"))?;
        sync_dir(root)?;
        let published = self.data_dir.generation_dirs(false)?;
        for old in published.iter().rev().skip(KEEP_GENERATIONS) {
            fs::remove_dir_all(old).map_err(io_error(format!("removing {}", old.display())))?;
        }
        Ok(final_path)
    }
}

impl Drop for GenerationDraft {
    fn drop(&mut self) {
        if !self.published {
            if let Err(e) = fs::remove_dir_all(&self.path) {
                tracing::warn!(
                    "could not remove unfinished index {}: {e}",
                    self.path.display()
                );
            }
        }
    }
}

pub(super) fn sync_dir(path: &Path) -> Result<(), StoreError> {
    File::open(path)
        .and_then(|d| d.sync_all())
        .map_err(io_error(format!("syncing {}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_swaps_current_and_prunes_old_generations() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path());
        assert!(matches!(
            dir.current_generation(),
            Err(StoreError::NoIndex(_))
        ));
        let mut live = Vec::new();
        for _ in 0..3 {
            let draft = dir.begin_generation().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(2));
            live.push(draft.publish().unwrap());
            assert_eq!(dir.current_generation().unwrap(), *live.last().unwrap());
        }
        assert!(!live[0].exists(), "oldest generation pruned");
        assert!(live[1].exists() && live[2].exists());
    }

    #[test]
    fn an_abandoned_build_never_becomes_live_and_is_cleaned_up() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path());
        let first = dir.begin_generation().unwrap().publish().unwrap();
        let abandoned = dir.begin_generation().unwrap();
        let abandoned_path = abandoned.path().to_path_buf();
        drop(abandoned);
        assert_eq!(dir.current_generation().unwrap(), first);
        assert!(!abandoned_path.exists(), "removed when dropped");
    }

    #[test]
    fn leftovers_of_a_killed_ingest_are_removed_by_the_next_one() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path());
        let live = dir.begin_generation().unwrap().publish().unwrap();
        let killed_path = tmp
            .path()
            .join(INDEXES)
            .join(format!("g000000000000001-dead{BUILDING_SUFFIX}"));
        std::fs::create_dir_all(&killed_path).unwrap();
        std::fs::write(killed_path.join("partial"), b"half-written").unwrap();
        assert_eq!(dir.current_generation().unwrap(), live);
        let _next = dir.begin_generation().unwrap();
        assert!(!killed_path.exists());
    }

    #[test]
    fn a_second_concurrent_ingest_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path());
        let _held = dir.begin_generation().unwrap();
        assert!(matches!(
            dir.begin_generation(),
            Err(StoreError::IngestRunning(_))
        ));
    }
}
