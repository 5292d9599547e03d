//! A published generation's tantivy files, opened through the seal: every byte range tantivy
//! reads (a posting list, a block of stored text, a column) is handed out only once each
//! block it touches matched the manifest. Reads only; writes pass through to the files.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, MmapDirectory, OwnedBytes, WatchCallback,
    WatchHandle, WritePtr,
};
use tantivy::HasLen;

use super::blocks::FileBlocks;
use super::checks::{read_range, Seal};
use crate::StoreError;

/// The tantivy directory `name` of a generation, its files checked against `seal`.
#[derive(Clone, Debug)]
pub(crate) struct SealedDirectory {
    inner: MmapDirectory,
    dir: PathBuf,
    seal: Arc<Seal>,
    prefix: String,
}

impl SealedDirectory {
    pub fn open(generation: &Path, name: &str, seal: Arc<Seal>) -> Result<Self, StoreError> {
        let dir = generation.join(name);
        let inner = MmapDirectory::open(&dir).map_err(|e| StoreError::Corrupt {
            path: dir.display().to_string(),
            reason: e.to_string(),
        })?;
        Ok(Self {
            inner,
            dir,
            seal,
            prefix: format!("{name}/"),
        })
    }

    /// The file's blocks (`None`: nothing to check), or an error if the seal does not cover it.
    fn blocks(&self, path: &Path) -> Result<Option<(String, Arc<FileBlocks>)>, StoreError> {
        let name = format!("{}{}", self.prefix, path.display());
        Ok(self.seal.blocks_of(&name)?.map(|blocks| (name, blocks)))
    }
}

/// One tantivy file whose ranges are checked on first touch (the blocks read from `file`).
#[derive(Debug)]
struct SealedHandle {
    inner: Arc<dyn FileHandle>,
    file: File,
    seal: Arc<Seal>,
    name: String,
    blocks: Arc<FileBlocks>,
}

impl HasLen for SealedHandle {
    fn len(&self) -> usize {
        self.inner.len()
    }
}

impl FileHandle for SealedHandle {
    fn read_bytes(&self, range: Range<usize>) -> io::Result<OwnedBytes> {
        let wanted = range.start as u64..range.end as u64;
        self.seal
            .check_read(&self.name, &self.blocks, wanted, |block| {
                read_range(&self.file, block)
            })
            .map_err(io::Error::other)?;
        self.inner.read_bytes(range)
    }
}

fn unreadable(path: &Path, error: StoreError) -> OpenReadError {
    OpenReadError::wrap_io_error(io::Error::other(error), path.to_path_buf())
}

impl Directory for SealedDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        let inner = self.inner.get_file_handle(path)?;
        let Some((name, blocks)) = self.blocks(path).map_err(|e| unreadable(path, e))? else {
            return Ok(inner);
        };
        if inner.len() as u64 != blocks.len() {
            let error = self
                .seal
                .altered(&name, "its length differs from the manifest's");
            return Err(unreadable(path, error));
        }
        let file = File::open(self.dir.join(path))
            .map_err(|e| OpenReadError::wrap_io_error(e, path.to_path_buf()))?;
        Ok(Arc::new(SealedHandle {
            inner,
            file,
            seal: Arc::clone(&self.seal),
            name,
            blocks,
        }))
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        let bytes = self.inner.atomic_read(path)?;
        if let Some((name, blocks)) = self.blocks(path).map_err(|e| unreadable(path, e))? {
            let whole = 0..bytes.len() as u64;
            let read = |block: Range<u64>| {
                bytes
                    .get(block.start as usize..block.end as usize)
                    .ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))
            };
            if whole.end != blocks.len() {
                let error = self
                    .seal
                    .altered(&name, "its length differs from the manifest's");
                return Err(unreadable(path, error));
            }
            self.seal
                .check_read(&name, &blocks, whole, read)
                .map_err(|e| unreadable(path, e))?;
        }
        Ok(bytes)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.inner.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        self.inner.open_write(path)
    }

    fn atomic_write(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        self.inner.atomic_write(path, data)
    }

    fn sync_directory(&self) -> io::Result<()> {
        self.inner.sync_directory()
    }

    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        self.inner.acquire_lock(lock)
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.inner.watch(watch_callback)
    }
}
