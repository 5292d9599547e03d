//! What a manifest's `checksums` record and how they are written: one SHA-256 per block of each
//! file (`sha256-blocks`), or one per file for generations sealed before blocks (`sha256`).
//! Parses and formats only; hashing files is `checksum.rs`'s.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::blocks::{BlockHash, FileBlocks, BLOCK_BYTES};
use crate::StoreError;

/// One SHA-256 per file (generations sealed before block hashes).
const WHOLE: &str = "sha256";
/// One SHA-256 per block of each file (`BLOCK_BYTES` when sealed by ingest).
const BLOCKS: &str = "sha256-blocks";

/// Relative path (with `/`) → lowercase hex SHA-256, as the manifest records them.
pub type Checksums = BTreeMap<String, String>;

/// What a manifest's checksums record.
pub(crate) enum Recorded {
    /// Per file, the SHA-256 of the whole file (generations sealed before block hashes).
    Whole(Checksums),
    /// Per file, its length and the SHA-256 of each block of `block_bytes`.
    Blocks {
        block_bytes: u64,
        files: BTreeMap<String, FileBlocks>,
    },
}

impl Recorded {
    pub fn files(&self) -> usize {
        match self {
            Self::Whole(files) => files.len(),
            Self::Blocks { files, .. } => files.len(),
        }
    }
}

/// One file in a manifest sealed by blocks: its length and its block hashes, concatenated in
/// hex (64 digits a block).
#[derive(Serialize, Deserialize)]
struct BlockRecord {
    bytes: u64,
    blocks: String,
}

impl BlockRecord {
    fn of(bytes: u64, hashes: &[BlockHash]) -> Self {
        Self {
            bytes,
            blocks: hashes
                .iter()
                .flatten()
                .map(|b| format!("{b:02x}"))
                .collect(),
        }
    }

    fn parse(self, block_bytes: u64) -> Option<FileBlocks> {
        let digits = self.blocks.as_bytes();
        if !digits.len().is_multiple_of(64) {
            return None;
        }
        let hashes = digits
            .chunks_exact(64)
            .map(|hex| {
                let mut hash = [0u8; 32];
                for (byte, pair) in hash.iter_mut().zip(hex.chunks_exact(2)) {
                    *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
                }
                Some(hash)
            })
            .collect::<Option<Vec<_>>>()?;
        FileBlocks::new(self.bytes, block_bytes, hashes)
    }
}

/// The `checksums` of a manifest sealing each `(file, length, block hashes)` in `BLOCK_BYTES`.
pub(crate) fn of_blocks<'a>(files: impl Iterator<Item = (&'a str, u64, &'a [BlockHash])>) -> Value {
    let files: BTreeMap<&str, BlockRecord> = files
        .map(|(file, bytes, hashes)| (file, BlockRecord::of(bytes, hashes)))
        .collect();
    json!({ "algorithm": BLOCKS, "block_bytes": BLOCK_BYTES, "files": files })
}

/// The checksums a manifest records; a manifest without them is refused.
pub(crate) fn recorded(manifest_path: &Path, manifest: &Value) -> Result<Recorded, StoreError> {
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
    let files = checksums.get("files").cloned().unwrap_or(Value::Null);
    let unreadable = |e: serde_json::Error| corrupt(&format!("checksums unreadable: {e}"));
    match checksums.get("algorithm").and_then(Value::as_str) {
        Some(WHOLE) => Ok(Recorded::Whole(
            serde_json::from_value(files).map_err(unreadable)?,
        )),
        Some(BLOCKS) => {
            let block_bytes = checksums.get("block_bytes").and_then(Value::as_u64);
            let block_bytes = block_bytes.ok_or_else(|| corrupt("no block size"))?;
            let records: BTreeMap<String, BlockRecord> =
                serde_json::from_value(files).map_err(unreadable)?;
            let mut sealed = BTreeMap::new();
            for (file, record) in records {
                let blocks = record.parse(block_bytes).ok_or_else(|| {
                    corrupt(&format!("the block hashes of {file} are unreadable"))
                })?;
                sealed.insert(file, blocks);
            }
            Ok(Recorded::Blocks {
                block_bytes,
                files: sealed,
            })
        }
        _ => Err(corrupt(
            "checksums are neither sha256 of each file nor sha256 of its blocks",
        )),
    }
}

pub(crate) fn parse_manifest(path: &Path, body: &[u8]) -> Result<Value, StoreError> {
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
