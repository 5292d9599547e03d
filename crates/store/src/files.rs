//! The names of a generation's files and directories, and the file helpers every part of the
//! store shares (a directory synced to disk, JSON Lines read back). Names only; what a file
//! holds is its owner's business.

use std::fs::File;
use std::path::Path;

use crate::error::{io_error, StoreError};

/// The segment index (tantivy), one doc per fingerprint.
pub const TANTIVY_DIR: &str = "tantivy";
/// The distinct-text index (tantivy), one doc per (text, section, names).
pub const TEXTS_DIR: &str = "tantivy-texts";
/// Every label version of the generation, one JSON object per line.
pub const LABELS_FILE: &str = "labels.jsonl";
/// The ingest report and the block hashes of every other file.
pub const MANIFEST_FILE: &str = "manifest.json";
/// Per set id: its versions, the fingerprints of each, withdrawal.
pub const HISTORY_FILE: &str = "history.bin";
/// The history as an older drugcite wrote it.
pub const HISTORY_JSONL_FILE: &str = "history.jsonl";
/// Segment embeddings, when ingested with a model.
pub const VECTORS_FILE: &str = "vectors.bin";
/// The words the labels use, for reading misspelled question words.
pub const WORDS_FILE: &str = "label-words.bin";
/// The brands the label texts name beside their drugs.
pub const BRANDS_FILE: &str = "label-brands.bin";
/// Per fingerprint: address, label, section, text hash (mapped at open).
pub const CATALOG_FILE: &str = "catalog.cols";
/// The searchable copies of each distinct text.
pub const COPIES_FILE: &str = "copies.cols";
/// Per fingerprint: the newest label version holding it.
pub const HOLDERS_FILE: &str = "holders.cols";
/// The current documents of each tantivy segment.
pub const CURRENT_FILE: &str = "current.bin";

pub fn sync_dir(path: &Path) -> Result<(), StoreError> {
    File::open(path)
        .and_then(|d| d.sync_all())
        .map_err(io_error(format!("syncing {}", path.display())))
}

/// The JSON value of each line of the file at `path`; a line that is not one is `Corrupt`,
/// naming the file and the line.
pub fn read_json_lines<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, StoreError> {
    use std::io::BufRead;
    let file =
        std::fs::File::open(path).map_err(io_error(format!("opening {}", path.display())))?;
    let mut values = Vec::new();
    for (number, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io_error(format!("reading {}", path.display())))?;
        let value = serde_json::from_str(&line).map_err(|e| StoreError::Corrupt {
            path: path.display().to_string(),
            reason: format!("line {}: {e}", number + 1),
        })?;
        values.push(value);
    }
    Ok(values)
}
