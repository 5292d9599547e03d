//! Drug-name morphology: the word endings the USAN Council assigns to drug classes (stems such
//! as "-pril", "-sartan", "-mab"), so that a question naming a drug no label of the index
//! carries can be told it is not indexed. Pure; no vocabulary.

use std::sync::LazyLock;

use super::word_tables::{column, threshold};
use crate::tables::understand as tables;

/// USAN stems used as word endings (`usan-stems.tsv`, from the USAN Council's "USAN Stem
/// List"), the shortest 4 letters so that ordinary English words rarely end in one.
static STEMS: LazyLock<Vec<&'static str>> = LazyLock::new(|| column(&tables::USAN_STEMS, "stem"));
/// Shortest word taken for a drug name by its ending.
static MIN_LENGTH: LazyLock<usize> = LazyLock::new(|| threshold("min_stem_word"));

/// Whether `word` (lowercase) is shaped like a drug name: long enough and ending in a stem.
pub(super) fn has_drug_stem(word: &str) -> bool {
    word.len() >= *MIN_LENGTH
        && word.chars().all(|c| c.is_ascii_lowercase())
        && STEMS.iter().any(|stem| word.ends_with(stem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drug_names_are_told_by_their_stem_and_ordinary_words_are_not() {
        for name in [
            "lisinopril",
            "losartan",
            "adalimumab",
            "omeprazole",
            "ibuprofen",
        ] {
            assert!(has_drug_stem(name), "{name}");
        }
        for word in ["bleeding", "pressure", "interaction", "control", "statin"] {
            assert!(!has_drug_stem(word), "{word}");
        }
    }
}
