//! Opening a snapshot: the live generation for serving (its files checked beside the reading,
//! nothing returned before they matched), for an ingest or sync (every block checked), a draft
//! being built, or a generation for `drugcite check`. Reads only.

use crate::files::MANIFEST_FILE;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

use super::files::read_manifest;
use super::Snapshot;
use crate::checksum::{self, Recorded};
use crate::lease::Lease;
use crate::seal::{AtOpen, Seal};
use crate::timing::open_phase;
use crate::{DataDir, StoreError};

impl Snapshot {
    /// Opens the live generation of `data_dir`, leased while open, once every block of every
    /// file matched the manifest (for an ingest that reuses its files, or a sync that reads
    /// them by path).
    pub fn open_current(data_dir: &DataDir) -> Result<Self, StoreError> {
        Self::open_checked(data_dir, AtOpen::Everything, Ok)
    }

    /// Opens the live generation of `data_dir` to serve it and hands it to `build` while the
    /// files read whole at open are hashed alongside (the hashing and the reading share the
    /// cores); returns what `build` made only once those files matched the manifest. A
    /// mismatch is the error whatever `build` did (a panic of `build` is an error too), so
    /// nothing built from a generation leaves here unchecked. Tantivy's files are checked
    /// block by block as they are read (`seal`), before tantivy sees the bytes.
    pub fn open_current_with<T: Send>(
        data_dir: &DataDir,
        build: impl FnOnce(Self) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        Self::open_checked(data_dir, AtOpen::ReadWhole, build)
    }

    /// Opens the live generation, checking what `at_open` says beside `build`. A generation
    /// sealed before block hashes is hashed whole, file by file, whatever `at_open` says.
    fn open_checked<T: Send>(
        data_dir: &DataDir,
        at_open: AtOpen,
        build: impl FnOnce(Self) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let name = data_dir.current_name()?;
        let lease = Lease::take(data_dir.root(), &name)?;
        let generation = data_dir.generation_path(&name);
        let manifest_path = generation.join(MANIFEST_FILE);
        let manifest = read_manifest(&manifest_path)?;
        let (seal, whole) = match checksum::recorded(&manifest_path, &manifest)? {
            Recorded::Whole(files) => (Seal::unchecked(&generation), Some(files)),
            Recorded::Blocks { files, .. } => (Seal::of_blocks(&generation, files), None),
        };
        let seal = Arc::new(seal);
        let present = checksum::list_files(&generation)?;
        std::thread::scope(|scope| {
            let checked = scope.spawn(|| {
                open_phase("checksums", || match whole {
                    Some(files) => checksum::verify_whole(&generation, files),
                    None => seal.check_at_open(&present, at_open),
                })
            });
            let built = catch_unwind(AssertUnwindSafe(|| {
                let files = Self::open_files(&generation, manifest.clone(), &seal, Some(lease));
                build(files?)
            }));
            checked.join().map_err(|_| StoreError::Corrupt {
                path: generation.display().to_string(),
                reason: "hashing the files failed".into(),
            })??;
            if seal.sealed_bytes() > 0 {
                let mib = |bytes: u64| bytes >> 20;
                tracing::info!(
                    checked_mib = mib(seal.checked_bytes()),
                    sealed_mib = mib(seal.sealed_bytes()),
                    "opened: the blocks read so far matched; the others are checked when read"
                );
            }
            built.map_err(|_| StoreError::Corrupt {
                path: generation.display().to_string(),
                reason: "the generation could not be read: run `drugcite check`".into(),
            })?
        })
    }

    /// Opens a generation being built, by the ingest building it (no checksums yet).
    pub fn open_draft(generation: &Path) -> Result<Self, StoreError> {
        let manifest = read_manifest(&generation.join(MANIFEST_FILE))?;
        let seal = Arc::new(Seal::unchecked(generation));
        Self::open_files(generation, manifest, &seal, None)
    }

    /// Opens a leased generation whatever its checksums say, for `drugcite check`.
    pub(crate) fn open_unverified(generation: &Path, lease: Lease) -> Result<Self, StoreError> {
        let manifest = read_manifest(&generation.join(MANIFEST_FILE))?;
        let seal = Arc::new(Seal::unchecked(generation));
        Self::open_files(generation, manifest, &seal, Some(lease))
    }
}
