//! The SHA-256 of every fixed-size block of one sealed file and which blocks were checked:
//! a range of the file is handed out only once every block it touches matched its hash.
//! Knows nothing of where the bytes come from (a map, a read) nor of tantivy.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use sha2::{Digest, Sha256};

/// Bytes per block when a generation is sealed (the last block of a file is shorter). 256 KiB:
/// a first read of a block costs ~0.17 ms of hashing (at 1 MiB, 0.7 ms made a cold `/v1/graph`
/// request at 100× cost 40 % more CPU) for a manifest of 2 MB at 100×.
pub(crate) const BLOCK_BYTES: u64 = 1 << 18;

/// The block sizes a manifest may record: powers of two from 4 KiB (tests seal small indexes
/// in many blocks) to 64 MiB.
fn valid_block_bytes(block_bytes: u64) -> bool {
    block_bytes.is_power_of_two() && (1 << 12..=1 << 26).contains(&block_bytes)
}

pub(crate) type BlockHash = [u8; 32];

/// One file's block hashes, as the manifest records them, and a checked flag per block.
#[derive(Debug)]
pub(crate) struct FileBlocks {
    len: u64,
    block_bytes: u64,
    hashes: Vec<BlockHash>,
    checked: Box<[AtomicBool]>,
}

/// Why a range could not be handed out.
#[derive(Debug)]
pub(crate) enum BlockError {
    /// Block `block` does not hash to what the manifest records.
    Mismatch {
        block: usize,
    },
    Io(std::io::Error),
}

impl FileBlocks {
    /// A file of `len` bytes whose blocks of `block_bytes` hash to `hashes`, none checked
    /// yet; `None` unless the block size is valid and there is exactly one hash per block.
    pub fn new(len: u64, block_bytes: u64, hashes: Vec<BlockHash>) -> Option<Self> {
        let fits =
            valid_block_bytes(block_bytes) && hashes.len() as u64 == len.div_ceil(block_bytes);
        fits.then(|| Self {
            len,
            block_bytes,
            checked: hashes.iter().map(|_| AtomicBool::new(false)).collect(),
            hashes,
        })
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    /// Checks every block `range` touches that was not checked yet, reading each whole block
    /// with `read` (given the block's byte range). Two threads may hash the same block at
    /// once; both compare against the same hash.
    pub fn check<B: AsRef<[u8]>>(
        &self,
        range: Range<u64>,
        mut read: impl FnMut(Range<u64>) -> std::io::Result<B>,
    ) -> Result<(), BlockError> {
        if range.is_empty() {
            return Ok(());
        }
        let first = range.start / self.block_bytes;
        let last = (range.end - 1) / self.block_bytes;
        for block in first as usize..=last as usize {
            if self.checked[block].load(Ordering::Acquire) {
                continue;
            }
            let bytes = read(self.block_range(block)).map_err(BlockError::Io)?;
            self.check_block(block, bytes.as_ref())?;
        }
        Ok(())
    }

    /// Compares block `block` with `bytes` (the whole block) and marks it checked if equal.
    pub fn check_block(&self, block: usize, bytes: &[u8]) -> Result<(), BlockError> {
        let expected = self.block_range(block);
        if bytes.len() as u64 != expected.end - expected.start
            || hash_block(bytes) != self.hashes[block]
        {
            return Err(BlockError::Mismatch { block });
        }
        self.checked[block].store(true, Ordering::Release);
        Ok(())
    }

    /// Bytes of the blocks checked so far.
    pub fn checked_bytes(&self) -> u64 {
        let checked = |(block, flag): (usize, &AtomicBool)| {
            flag.load(Ordering::Relaxed).then(|| {
                let range = self.block_range(block);
                range.end - range.start
            })
        };
        self.checked.iter().enumerate().filter_map(checked).sum()
    }

    /// Whether block `block` was sealed with `hash`.
    pub fn matches(&self, block: usize, hash: &BlockHash) -> bool {
        self.hashes[block] == *hash
    }

    /// How many blocks the file has.
    pub fn blocks(&self) -> usize {
        self.hashes.len()
    }

    pub fn block_bytes(&self) -> u64 {
        self.block_bytes
    }

    pub fn block_range(&self, block: usize) -> Range<u64> {
        let start = block as u64 * self.block_bytes;
        start..(start + self.block_bytes).min(self.len)
    }
}

pub(crate) fn hash_block(bytes: &[u8]) -> BlockHash {
    Sha256::digest(bytes).into()
}

/// The block hashes of `bytes` (a whole file) in blocks of `BLOCK_BYTES`.
#[cfg(test)]
fn hash_blocks(bytes: &[u8]) -> Vec<BlockHash> {
    bytes.chunks(BLOCK_BYTES as usize).map(hash_block).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 % 251) as u8).collect()
    }

    fn reader(bytes: &[u8]) -> impl FnMut(Range<u64>) -> std::io::Result<Vec<u8>> + '_ {
        |range| Ok(bytes[range.start as usize..range.end as usize].to_vec())
    }

    #[test]
    fn a_range_is_checked_once_per_block_it_touches() {
        let bytes = file(2 * BLOCK_BYTES as usize + 10);
        let blocks = FileBlocks::new(bytes.len() as u64, BLOCK_BYTES, hash_blocks(&bytes)).unwrap();
        assert_eq!(blocks.blocks(), 3);
        let mut reads = Vec::new();
        let mut read = |range: Range<u64>| {
            reads.push(range.clone());
            reader(&bytes)(range)
        };
        blocks
            .check(BLOCK_BYTES - 1..BLOCK_BYTES + 1, &mut read)
            .unwrap();
        blocks.check(5..BLOCK_BYTES + 2, &mut read).unwrap();
        blocks.check(0..0, &mut read).unwrap();
        let end = bytes.len() as u64;
        blocks.check(end - 1..end, &mut read).unwrap();
        assert_eq!(
            reads,
            [
                0..BLOCK_BYTES,
                BLOCK_BYTES..2 * BLOCK_BYTES,
                2 * BLOCK_BYTES..end
            ]
        );
    }

    #[test]
    fn a_flipped_byte_fails_its_block_every_time_and_no_other() {
        let bytes = file(3 * BLOCK_BYTES as usize);
        let blocks = FileBlocks::new(bytes.len() as u64, BLOCK_BYTES, hash_blocks(&bytes)).unwrap();
        let mut altered = bytes.clone();
        altered[BLOCK_BYTES as usize + 77] ^= 1;
        for _ in 0..2 {
            let failed = blocks.check(0..3 * BLOCK_BYTES, reader(&altered));
            assert!(matches!(failed, Err(BlockError::Mismatch { block: 1 })));
        }
        blocks.check(0..BLOCK_BYTES, reader(&altered)).unwrap();
        blocks
            .check(2 * BLOCK_BYTES..3 * BLOCK_BYTES, reader(&altered))
            .unwrap();
    }

    #[test]
    fn a_short_block_or_a_wrong_count_of_hashes_is_refused() {
        let bytes = file(BLOCK_BYTES as usize + 1);
        let hashes = hash_blocks(&bytes);
        let len = bytes.len() as u64;
        assert!(FileBlocks::new(len + BLOCK_BYTES, BLOCK_BYTES, hashes.clone()).is_none());
        assert!(FileBlocks::new(len, 1000, hashes.clone()).is_none());
        assert!(FileBlocks::new(0, BLOCK_BYTES, Vec::new()).is_some_and(|b| b.blocks() == 0));
        let small: Vec<BlockHash> = bytes.chunks(4096).map(hash_block).collect();
        let in_small_blocks = FileBlocks::new(len, 4096, small).unwrap();
        in_small_blocks.check(5000..5001, reader(&bytes)).unwrap();
        assert_eq!(in_small_blocks.checked_bytes(), 4096);
        let blocks = FileBlocks::new(len, BLOCK_BYTES, hashes).unwrap();
        let cut = |_| Ok(bytes[..100].to_vec());
        assert!(matches!(
            blocks.check(0..1, cut),
            Err(BlockError::Mismatch { block: 0 })
        ));
    }
}
