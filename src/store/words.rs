//! The words of a generation's label text and how often each occurs, counted once at ingest
//! (one pass over the finished draft's segments) and stored beside them, so a server reads a
//! small file at open instead of the whole document store. Knows nothing of what reads them.

use std::collections::HashMap;
use std::path::Path;

use super::{encoded, io_error, Snapshot, StoreError};
use crate::text::letter_words;

const WORDS_FILE: &str = "label-words.bin";
const WORDS_TAG: &[u8; 8] = b"DCWORDS1";
/// Shortest word counted.
pub const SHORTEST_WORD: usize = 4;

/// Every word (ASCII letters, lowercased, `SHORTEST_WORD`+ letters) of every segment of the
/// draft `snapshot`, with its occurrences, written into its generation.
pub(crate) fn write_label_words(snapshot: &Snapshot) -> Result<(), StoreError> {
    let mut counts: HashMap<String, u32> = HashMap::new();
    snapshot.visit_segments(|segment| {
        let words = letter_words(segment.text).filter(|w| w.len() >= SHORTEST_WORD);
        for word in words.filter(|w| w.is_ascii()) {
            *counts.entry(word.to_ascii_lowercase()).or_default() += 1;
        }
    })?;
    let mut words: Vec<(String, u32)> = counts.into_iter().collect();
    words.sort();
    let path = snapshot.generation().join(WORDS_FILE);
    encoded::write(&path, WORDS_TAG, &words)
        .map_err(io_error(format!("writing {}", path.display())))
}

/// The label words `write_label_words` stored in `generation`; none for a generation written
/// before them (its questions are read as typed).
pub fn label_words(generation: &Path) -> Result<Vec<(String, u32)>, StoreError> {
    let path = generation.join(WORDS_FILE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    encoded::read(&path, WORDS_TAG).map_err(io_error(format!("reading {}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generation_written_before_the_words_has_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(label_words(dir.path()).unwrap().is_empty());
        std::fs::write(dir.path().join(WORDS_FILE), b"DCWORDS0").unwrap();
        assert!(
            label_words(dir.path()).is_err(),
            "another format is an error"
        );
    }
}
