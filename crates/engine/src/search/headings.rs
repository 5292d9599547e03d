//! Passages that are only headings ("8.1 Pregnancy", "5. WARNINGS AND PRECAUTIONS"): the
//! segmenter keeps them so every label stays verifiable whole, but they state nothing a search
//! could answer with. Decides from a passage's own text; never reads the index.

use std::collections::HashSet;
use std::sync::LazyLock;

use drugcite_core::label::{section_keys, section_name};
use drugcite_core::text::letter_words;

/// Whether every word of `text` is a word of some section's heading (numbering and
/// punctuation ignored): "Pregnancy" and "8 USE IN SPECIFIC POPULATIONS 8.1 Pregnancy" are,
/// "Pregnancy Category C" and "CONTRAINDICATIONS None known." are not (they say something).
/// A text without words is no heading.
pub fn is_heading_only(text: &str) -> bool {
    static HEADING_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| {
        section_keys()
            .flat_map(|key| {
                let name = section_name(key).to_lowercase();
                letter_words(&name).map(str::to_owned).collect::<Vec<_>>()
            })
            .collect()
    });
    let lower = text.to_lowercase();
    let mut words = letter_words(&lower).peekable();
    words.peek().is_some() && words.all(|word| HEADING_WORDS.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passage_of_headings_alone_is_heading_only() {
        assert!(is_heading_only("Pregnancy"));
        assert!(is_heading_only(
            "8 USE IN SPECIFIC POPULATIONS 8.1 Pregnancy"
        ));
        assert!(is_heading_only("5. WARNINGS AND PRECAUTIONS"));
    }

    #[test]
    fn a_passage_that_says_something_is_not() {
        assert!(!is_heading_only("Pregnancy Category C"));
        assert!(!is_heading_only("CONTRAINDICATIONS None known."));
        assert!(!is_heading_only("Pregnancy See WARNINGS section."));
        assert!(!is_heading_only("8.1"), "no word at all");
        assert!(!is_heading_only(""));
    }
}
