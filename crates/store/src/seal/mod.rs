//! What a generation's seal promises at run time: per file, the SHA-256 of each block
//! (`blocks`), checked before the bytes are used — files read whole at open all at once,
//! tantivy's files block by block on first touch (`directory`). A block that fails marks the
//! generation bad: that read and every later one is an error. Never changes a file.

mod blocks;
mod checks;
mod directory;
pub(crate) mod record;

pub(crate) use blocks::{hash_block, BlockHash, FileBlocks, BLOCK_BYTES};
pub(crate) use checks::{AtOpen, Seal};
pub(crate) use directory::SealedDirectory;
