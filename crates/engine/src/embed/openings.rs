//! Which texts also get the transformer's vector of their opening words, and the row key that
//! vector is stored under in `vectors.bin` beside the text's own (distilled) row. Definitions
//! only: ingest computes these vectors, search reads them; neither ranks with them here.

use std::sync::LazyLock;

use crate::tables::search as tables;
use drugcite_core::domain::TextHash;

/// Sections whose texts get an opening vector: an Indications text names what a drug treats
/// in its first words, and a condition named in lay words ("overactive thyroid") matches it
/// by meaning where BM25 and the distilled table, a bag of token vectors, cannot (role
/// `opening` of `tables/search/section-roles.tsv`).
pub static OPENING_SECTIONS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| tables::sections_with_role("opening"));

/// Words of a text that make its opening (Indications name their conditions first; fewer
/// tokens keep the transformer's cost at ingest low; `opening_words`).
pub static OPENING_WORDS: LazyLock<usize> =
    LazyLock::new(|| tables::threshold("opening_words") as usize);

/// Tag hashed with a text's hash into its opening's row key, so no text's own row can collide.
const OPENING_TAG: &str = "drugcite.opening.v1";

/// The row key of the opening vector of the text hashed `text`.
pub fn opening_key(text: TextHash) -> TextHash {
    TextHash::of(&format!("{OPENING_TAG}:{text}"))
}

/// The opening words of `text`, joined by single spaces.
pub fn opening_of(text: &str) -> String {
    text.split_whitespace()
        .take(*OPENING_WORDS)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opening_has_its_own_key_and_at_most_its_words() {
        let text = TextHash::of("indicated for hyperthyroidism");
        assert_ne!(opening_key(text), text);
        assert_eq!(opening_key(text), opening_key(text));
        let long = "word ".repeat(*OPENING_WORDS + 5);
        assert_eq!(opening_of(&long).split(' ').count(), *OPENING_WORDS);
        assert_eq!(opening_of(" a  b\nc "), "a b c");
    }
}
