//! The seal of one opened generation: its recorded block hashes, which files are checked at
//! open and which block by block when read, and whether a block has failed. See `seal`.

use crate::files::{TANTIVY_DIR, TEXTS_DIR};
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::blocks::{BlockError, FileBlocks};
use crate::cores::try_each_on_cores;
use crate::{io_error, StoreError};

/// The tantivy directories of a generation: their files are read in parts, through
/// `SealedDirectory`, and checked block by block when read. Every other file is read whole
/// when a generation is opened and is checked whole then.
const CHECKED_ON_READ: [&str; 2] = [TANTIVY_DIR, TEXTS_DIR];

/// Which files an open checks before it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtOpen {
    /// The files read whole at open (a server: tantivy's are checked as they are read).
    ReadWhole,
    /// Every file (an ingest that reuses the generation's files, a sync to Neo4j).
    Everything,
}

impl AtOpen {
    fn covers(self, file: &str) -> bool {
        let in_dir = |dir: &&str| file.strip_prefix(dir).is_some_and(|r| r.starts_with('/'));
        self == Self::Everything || !CHECKED_ON_READ.iter().any(in_dir)
    }
}

/// The blocks of every file of one opened generation and whether one of them failed.
#[derive(Debug)]
pub(crate) struct Seal {
    generation: PathBuf,
    /// Relative path → its blocks; `None` when reads need no check: a draft (its own ingest
    /// reads it), `drugcite check`'s own reads, or a generation sealed by whole-file hashes,
    /// which is hashed whole when it is opened.
    files: Option<HashMap<String, Arc<FileBlocks>>>,
    /// The first failed block: the generation is bad from then on.
    failure: OnceLock<String>,
}

impl Seal {
    /// A seal whose reads are not checked (see `files`).
    pub fn unchecked(generation: &Path) -> Self {
        Self {
            generation: generation.to_path_buf(),
            files: None,
            failure: OnceLock::new(),
        }
    }

    /// The seal of `generation` from the block hashes its manifest records.
    pub fn of_blocks(generation: &Path, files: BTreeMap<String, FileBlocks>) -> Self {
        Self {
            generation: generation.to_path_buf(),
            files: Some(files.into_iter().map(|(f, b)| (f, Arc::new(b))).collect()),
            failure: OnceLock::new(),
        }
    }

    /// Why the generation is bad, once a block failed.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// The blocks of `file` (relative, with `/`); `None` when reads are not checked; an error
    /// when the seal does not cover the file or the generation is already bad.
    pub fn blocks_of(&self, file: &str) -> Result<Option<Arc<FileBlocks>>, StoreError> {
        self.fail_fast()?;
        let Some(files) = &self.files else {
            return Ok(None);
        };
        match files.get(file) {
            Some(blocks) => Ok(Some(Arc::clone(blocks))),
            None => Err(self.corrupt(file, "is not in the manifest".into())),
        }
    }

    /// Checks the blocks `range` of `file` touches (reading each with `read`) unless they
    /// were checked before. A block that fails is logged, marks the generation bad and is
    /// the error; once bad, every call is the error.
    pub fn check_read<B: AsRef<[u8]>>(
        &self,
        file: &str,
        blocks: &FileBlocks,
        range: Range<u64>,
        read: impl FnMut(Range<u64>) -> std::io::Result<B>,
    ) -> Result<(), StoreError> {
        self.fail_fast()?;
        blocks
            .check(range, read)
            .map_err(|e| self.block_error(file, blocks, e))
    }

    fn block_error(&self, file: &str, blocks: &FileBlocks, error: BlockError) -> StoreError {
        match error {
            BlockError::Io(e) => io_error(format!("reading {file}"))(e),
            BlockError::Mismatch { block } => {
                let span = blocks.block_range(block);
                let reason = format!(
                    "block {block} (bytes {}..{}) does not hash to what the manifest records",
                    span.start, span.end
                );
                self.altered(file, &reason)
            }
        }
    }

    /// Marks the generation bad because `file` is altered, logs it, and makes it the error.
    pub fn altered(&self, file: &str, reason: &str) -> StoreError {
        let generation = self.generation.display().to_string();
        tracing::error!(%generation, file, reason, "ALTERED OR CORRUPT INDEX FILE: not served");
        let _ = self.failure.set(format!("{file}: {reason}"));
        self.corrupt(
            file,
            format!(
                "{reason}: the index was altered or damaged; run `drugcite check`, then re-ingest"
            ),
        )
    }

    /// The error once the generation is bad (a block failed), else nothing.
    pub fn fail_fast(&self) -> Result<(), StoreError> {
        match self.failure() {
            None => Ok(()),
            Some(failure) => Err(StoreError::Corrupt {
                path: self.generation.display().to_string(),
                reason: format!("an earlier read found {failure}; run `drugcite check`"),
            }),
        }
    }

    fn corrupt(&self, file: &str, reason: String) -> StoreError {
        StoreError::Corrupt {
            path: self.generation.join(file).display().to_string(),
            reason,
        }
    }

    /// Checks the listing (no file missing, none unlisted, each of its sealed length), then
    /// every block of the files `at_open` covers, one worker per core.
    pub fn check_at_open(&self, present: &[String], at_open: AtOpen) -> Result<(), StoreError> {
        let Some(files) = &self.files else {
            return Ok(());
        };
        let sealed: BTreeMap<&str, &Arc<FileBlocks>> =
            files.iter().map(|(f, b)| (f.as_str(), b)).collect();
        if let Some(extra) = present.iter().find(|f| !sealed.contains_key(f.as_str())) {
            return Err(self.altered(extra, "is not in the manifest"));
        }
        for (file, blocks) in &sealed {
            let len = std::fs::metadata(self.generation.join(file)).map(|m| m.len());
            match len {
                Ok(len) if len == blocks.len() => {}
                Ok(_) => return Err(self.altered(file, "its length differs from the manifest's")),
                Err(_) => return Err(self.altered(file, "is missing")),
            }
        }
        let mut parts = Vec::new();
        for (file, blocks) in sealed.into_iter().filter(|(f, _)| at_open.covers(f)) {
            let per_part = (PART_BYTES / blocks.block_bytes()).max(1) as usize;
            for first in (0..blocks.blocks()).step_by(per_part) {
                parts.push((file, blocks, first..(first + per_part).min(blocks.blocks())));
            }
        }
        try_each_on_cores(&parts, |_, (file, blocks, part)| {
            self.check_part(file, blocks, part.clone())
        })
    }

    /// Checks the blocks `part` of `file`.
    fn check_part(
        &self,
        file: &str,
        blocks: &FileBlocks,
        part: Range<usize>,
    ) -> Result<(), StoreError> {
        let path = self.generation.join(file);
        let handle = File::open(&path).map_err(io_error(format!("opening {}", path.display())))?;
        let range = blocks.block_range(part.start).start..blocks.block_range(part.end - 1).end;
        self.check_read(file, blocks, range, |block| read_range(&handle, block))
    }

    /// Bytes hashed and found intact since the generation was opened.
    pub fn checked_bytes(&self) -> u64 {
        self.files
            .iter()
            .flatten()
            .map(|(_, b)| b.checked_bytes())
            .sum()
    }

    /// Bytes of all the sealed files.
    pub fn sealed_bytes(&self) -> u64 {
        self.files.iter().flatten().map(|(_, b)| b.len()).sum()
    }
}

/// Reads `range` of `file` with `pread`, not through a map: checking a block leaves its pages
/// out of the process (its RSS counts only the pages tantivy itself touches).
pub(crate) fn read_range(file: &File, range: Range<u64>) -> std::io::Result<Vec<u8>> {
    let mut bytes = vec![0; (range.end - range.start) as usize];
    file.read_exact_at(&mut bytes, range.start)?;
    Ok(bytes)
}

/// Bytes one worker checks at a time when a generation is opened: a large file is shared
/// among the cores like many small ones.
const PART_BYTES: u64 = 64 << 20;
