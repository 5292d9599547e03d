//! Spelling-tolerant drug names: a question word that names no drug is read as the one name
//! word of the vocabulary within a small Damerau–Levenshtein distance ("clonazapam" →
//! clonazepam), when exactly one name is that close. Knows no labels; pure.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::word_tables::threshold;

/// Shortest question word tried (shorter words are too often ordinary words one edit away).
static MIN_LENGTH: LazyLock<usize> = LazyLock::new(|| threshold("spelling_min_length"));
/// Longest word allowed one edit; longer words are allowed two.
static ONE_EDIT_UP_TO: LazyLock<usize> = LazyLock::new(|| threshold("spelling_one_edit_up_to"));

/// Name words by their length in characters.
#[derive(Default)]
pub(super) struct SpellingIndex {
    by_length: BTreeMap<usize, Vec<String>>,
}

impl SpellingIndex {
    pub(super) fn new<'a>(names: impl IntoIterator<Item = &'a String>) -> Self {
        let mut by_length: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for name in names
            .into_iter()
            .filter(|n| n.chars().all(char::is_alphabetic))
        {
            by_length
                .entry(name.chars().count())
                .or_default()
                .push(name.clone());
        }
        by_length.values_mut().for_each(|names| names.sort());
        Self { by_length }
    }

    /// The one name word within the allowed distance of `word`, sharing its first letter
    /// (`None` when there is none, or several at the smallest distance).
    pub(super) fn correct(&self, word: &str) -> Option<&str> {
        let length = word.chars().count();
        if length < *MIN_LENGTH || !word.chars().all(char::is_alphabetic) {
            return None;
        }
        let allowed = if length <= *ONE_EDIT_UP_TO { 1 } else { 2 };
        let first = word.chars().next();
        let near = self
            .by_length
            .range(length - allowed..=length + allowed)
            .flat_map(|(_, names)| names)
            .filter(|name| name.chars().next() == first)
            .map(|name| (strsim::damerau_levenshtein(word, name), name.as_str()))
            .filter(|(distance, _)| *distance <= allowed);
        let mut best: Option<(usize, &str)> = None;
        let mut tied = false;
        for (distance, name) in near {
            match best {
                Some((d, _)) if distance > d => {}
                Some((d, _)) if distance == d => tied = true,
                _ => {
                    best = Some((distance, name));
                    tied = false;
                }
            }
        }
        best.filter(|_| !tied).map(|(_, name)| name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> SpellingIndex {
        let names: Vec<String> = [
            "clonazepam",
            "lorazepam",
            "amoxicillin",
            "sertraline",
            "zoloft",
        ]
        .map(String::from)
        .to_vec();
        SpellingIndex::new(&names)
    }

    #[test]
    fn a_misspelled_name_is_read_as_the_one_name_close_to_it() {
        let index = index();
        assert_eq!(index.correct("clonazapam"), Some("clonazepam"));
        assert_eq!(index.correct("amoxicilin"), Some("amoxicillin"));
        assert_eq!(index.correct("setraline"), Some("sertraline"));
        assert_eq!(index.correct("zolof"), None, "too short to guess");
        assert_eq!(index.correct("bleeding"), None);
        assert_eq!(index.correct("xlonazepam"), None, "first letter kept");
    }
}
