//! Paths inside the data directory, the ingest lock, and publishing a finished generation:
//! checksums sealed into its manifest, renamed into place, `CURRENT` replaced by rename, then
//! pruning of generations that are neither live, previous nor leased. Never follows a
//! `CURRENT` that does not hold a generation name.

use std::collections::HashSet;
use std::fs::{self, File};
use std::path::{Path, PathBuf};

use super::generation::GenerationName;
use super::{checksum, io_error, lease, StoreError};
use crate::files::sync_dir;

const CURRENT: &str = "CURRENT";
const INDEXES: &str = "indexes";
const BUILDING_SUFFIX: &str = ".building";

#[derive(Clone, Debug)]
pub struct DataDir {
    root: PathBuf,
}

/// A generation being built. Dropped without `publish` (a failed ingest), it is deleted; if
/// the process dies instead, the next ingest deletes it.
pub struct GenerationDraft {
    data_dir: DataDir,
    name: GenerationName,
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

    pub(super) fn generation_path(&self, name: &GenerationName) -> PathBuf {
        self.indexes().join(name.as_str())
    }

    /// Path of the live generation, or `NoIndex`.
    pub fn current_generation(&self) -> Result<PathBuf, StoreError> {
        Ok(self.generation_path(&self.current_name()?))
    }

    /// The generation `CURRENT` names: a generation name (nothing else is followed) of a
    /// directory directly under `indexes/`.
    pub(super) fn current_name(&self) -> Result<GenerationName, StoreError> {
        let pointer = self.root.join(CURRENT);
        let text = match fs::read_to_string(&pointer) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::NoIndex(self.root.display().to_string()))
            }
            Err(e) => return Err(io_error(format!("reading {}", pointer.display()))(e)),
        };
        let corrupt = |reason: String| StoreError::Corrupt {
            path: pointer.display().to_string(),
            reason,
        };
        let name = GenerationName::parse(text.trim()).ok_or_else(|| {
            corrupt(format!(
                "holds {:?}, which is not a generation name",
                text.trim()
            ))
        })?;
        if !self.generation_path(&name).is_dir() {
            return Err(corrupt(format!(
                "names generation {name}, which does not exist"
            )));
        }
        Ok(name)
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
        for leftover in self.unfinished_dirs()? {
            fs::remove_dir_all(&leftover)
                .map_err(io_error(format!("removing {}", leftover.display())))?;
        }
        let name = GenerationName::fresh();
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

    fn index_entries(&self) -> Result<Vec<(String, PathBuf)>, StoreError> {
        let indexes = self.indexes();
        let entries =
            fs::read_dir(&indexes).map_err(io_error(format!("listing {}", indexes.display())))?;
        Ok(entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .filter_map(|p| Some((p.file_name()?.to_str()?.to_owned(), p)))
            .collect())
    }

    /// Directories of builds that never finished.
    fn unfinished_dirs(&self) -> Result<Vec<PathBuf>, StoreError> {
        let entries = self.index_entries()?;
        Ok(entries
            .into_iter()
            .filter(|(name, _)| name.ends_with(BUILDING_SUFFIX))
            .map(|(_, path)| path)
            .collect())
    }

    /// Published generations (directories with a generation name).
    fn published(&self) -> Result<Vec<(GenerationName, PathBuf)>, StoreError> {
        let entries = self.index_entries()?;
        Ok(entries
            .into_iter()
            .filter_map(|(name, path)| Some((GenerationName::parse(&name)?, path)))
            .collect())
    }

    /// Removes every published generation that is not in `keep`, not the one `CURRENT` names
    /// now, and not leased by a process that has it open.
    fn prune(&self, keep: &[&GenerationName]) -> Result<(), StoreError> {
        let current = self.current_name()?;
        let mut remaining = HashSet::new();
        for (name, path) in self.published()? {
            let kept = name == current || keep.contains(&&name);
            if kept || !lease::remove_unleased(&self.root, &name, &path)? {
                if !kept {
                    tracing::info!(generation = %name, "kept: a process still has it open");
                }
                remaining.insert(name);
            }
        }
        lease::sweep(&self.root, &remaining)
    }

    fn point_current_at(&self, name: &GenerationName) -> Result<(), StoreError> {
        let staged = self.root.join("CURRENT.new");
        fs::write(&staged, name.as_str())
            .map_err(io_error(format!("writing {}", staged.display())))?;
        File::open(&staged)
            .and_then(|f| f.sync_all())
            .map_err(io_error(format!("syncing {}", staged.display())))?;
        fs::rename(&staged, self.root.join(CURRENT)).map_err(io_error("replacing CURRENT"))?;
        sync_dir(&self.root)
    }
}

impl GenerationDraft {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The name the generation will be published under.
    pub fn name(&self) -> &GenerationName {
        &self.name
    }

    /// Makes the generation live: checksums into its manifest, rename into place, fsync,
    /// replace `CURRENT` by rename, then prune what is neither live, previous nor leased (a
    /// pruning failure is logged: the publish has happened). A crash or failure at any point
    /// leaves the old or the new generation live, never a half-written one, and never
    /// removes the live one.
    pub fn publish(mut self) -> Result<PathBuf, StoreError> {
        checksum::seal(&self.path)?;
        let previous = self.data_dir.current_name();
        let final_path = self.data_dir.generation_path(&self.name);
        fs::rename(&self.path, &final_path)
            .map_err(io_error(format!("publishing {}", final_path.display())))?;
        self.published = true;
        sync_dir(&self.data_dir.indexes())?;
        self.data_dir.point_current_at(&self.name)?;
        let pruned = match previous {
            Ok(previous) => self.data_dir.prune(&[&self.name, &previous]),
            Err(StoreError::NoIndex(_)) => self.data_dir.prune(&[&self.name]),
            Err(e) => Err(e),
        };
        if let Err(e) = pruned {
            tracing::warn!(generation = %self.name, "published; old generations not pruned: {e}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lease::Lease;

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
            live.push(draft.publish().unwrap());
            assert_eq!(dir.current_generation().unwrap(), *live.last().unwrap());
        }
        assert!(!live[0].exists(), "oldest generation pruned");
        assert!(live[1].exists() && live[2].exists());
    }

    #[test]
    fn a_failed_current_replacement_never_removes_the_live_generation() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path());
        let live = dir.begin_generation().unwrap().publish().unwrap();
        std::fs::create_dir(tmp.path().join("CURRENT.new")).unwrap();
        assert!(dir.begin_generation().unwrap().publish().is_err());
        assert_eq!(dir.current_generation().unwrap(), live);
        std::fs::remove_dir(tmp.path().join("CURRENT.new")).unwrap();
        let next = dir.begin_generation().unwrap().publish().unwrap();
        assert_eq!(dir.current_generation().unwrap(), next);
        assert!(
            live.exists(),
            "the generation that was live is kept as the previous one"
        );
        let published = dir.published().unwrap();
        assert_eq!(
            published.len(),
            2,
            "the orphan of the failed publish is pruned"
        );
    }

    #[test]
    fn a_leased_generation_survives_pruning_until_released() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path());
        let first = dir.begin_generation().unwrap().publish().unwrap();
        let first_name = dir.current_name().unwrap();
        let lease = Lease::take(tmp.path(), &first_name).unwrap();
        let second = dir.begin_generation().unwrap().publish().unwrap();
        let third = dir.begin_generation().unwrap().publish().unwrap();
        assert!(first.exists() && second.exists() && third.exists());
        drop(lease);
        let fourth = dir.begin_generation().unwrap().publish().unwrap();
        assert!(!first.exists() && !second.exists());
        assert!(third.exists() && fourth.exists());
        let leases = std::fs::read_dir(tmp.path().join("leases"))
            .unwrap()
            .count();
        assert_eq!(leases, 0, "lease files of removed generations are swept");
    }

    #[test]
    fn current_must_hold_a_generation_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path());
        dir.begin_generation().unwrap().publish().unwrap();
        std::fs::create_dir_all(tmp.path().join("x")).unwrap();
        let outside = tmp.path().join("x").display().to_string();
        for bad in ["../x", outside.as_str(), "", "indexes", "g1/../../x"] {
            std::fs::write(tmp.path().join(CURRENT), bad).unwrap();
            let error = dir.current_generation().unwrap_err();
            assert!(
                matches!(error, StoreError::Corrupt { .. }),
                "{bad:?}: {error}"
            );
        }
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
