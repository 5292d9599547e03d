//! What a generation's label text says in words, gathered once at ingest (one pass over the
//! finished draft's segments) and stored beside them, so a server reads small files at open
//! instead of the whole document store: every word with how often it occurs, and the brands
//! the text marks beside a drug's name. Knows nothing of what reads them.

use crate::files::{BRANDS_FILE, WORDS_FILE};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use super::{encoded, io_error, Snapshot, StoreError};
use drugcite_core::label::{brand_mentions, BrandMention};
use drugcite_core::text::letter_words;

const WORDS_TAG: &[u8; 8] = b"DCWORDS1";
const BRANDS_TAG: &[u8; 8] = b"DCBRAND1";
/// Shortest word counted.
pub const SHORTEST_WORD: usize = 4;

/// Every word (ASCII letters, lowercased, `SHORTEST_WORD`+ letters) of every segment of the
/// draft `snapshot`, with its occurrences, and every distinct brand mention
/// (`label::brand_mentions`) of its text, written into its generation.
pub fn write_text_tables(snapshot: &Snapshot) -> Result<(), StoreError> {
    let mut counts: HashMap<String, u32> = HashMap::new();
    let mut brands: BTreeSet<BrandMention> = BTreeSet::new();
    snapshot.visit_segments(|segment| {
        let words = letter_words(segment.text).filter(|w| w.len() >= SHORTEST_WORD);
        for word in words.filter(|w| w.is_ascii()) {
            *counts.entry(word.to_ascii_lowercase()).or_default() += 1;
        }
        brands.extend(brand_mentions(segment.text));
    })?;
    let mut words: Vec<(String, u32)> = counts.into_iter().collect();
    words.sort();
    let brands: Vec<BrandMention> = brands.into_iter().collect();
    write(snapshot.generation(), (WORDS_FILE, WORDS_TAG), &words)?;
    write(snapshot.generation(), (BRANDS_FILE, BRANDS_TAG), &brands)
}

fn write<T: serde::Serialize>(
    generation: &Path,
    (file, tag): (&str, &[u8; 8]),
    value: &T,
) -> Result<(), StoreError> {
    let path = generation.join(file);
    encoded::write(&path, tag, value).map_err(io_error(format!("writing {}", path.display())))
}

fn read<T: serde::de::DeserializeOwned + Default>(
    generation: &Path,
    (file, tag): (&str, &[u8; 8]),
) -> Result<T, StoreError> {
    let path = generation.join(file);
    if !path.exists() {
        return Ok(T::default());
    }
    encoded::read(&path, tag).map_err(io_error(format!("reading {}", path.display())))
}

/// The label words `write_text_tables` stored in `generation`; none for a generation written
/// before them (its questions are read as typed).
pub fn label_words(generation: &Path) -> Result<Vec<(String, u32)>, StoreError> {
    read(generation, (WORDS_FILE, WORDS_TAG))
}

/// The brand mentions `write_text_tables` stored in `generation`; none for a generation
/// written before them (only its labels' own and the curated brands are known).
pub fn label_brands(generation: &Path) -> Result<Vec<BrandMention>, StoreError> {
    read(generation, (BRANDS_FILE, BRANDS_TAG))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generation_written_before_the_words_has_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(label_words(dir.path()).unwrap().is_empty());
        assert!(label_brands(dir.path()).unwrap().is_empty());
        std::fs::write(dir.path().join(WORDS_FILE), b"DCWORDS0").unwrap();
        std::fs::write(dir.path().join(BRANDS_FILE), b"DCWORDS1").unwrap();
        assert!(
            label_words(dir.path()).is_err(),
            "another format is an error"
        );
        assert!(label_brands(dir.path()).is_err());
    }

    #[test]
    fn brand_mentions_are_written_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let brands = brand_mentions("tizanidine (Zanaflex®)");
        write(dir.path(), (BRANDS_FILE, BRANDS_TAG), &brands).unwrap();
        assert_eq!(label_brands(dir.path()).unwrap(), brands);
    }
}
