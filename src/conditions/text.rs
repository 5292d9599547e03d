//! Words of label text as the condition matchers see them: byte spans into the original text,
//! a normalised form (lowercase, a plural folded to its singular), and which gaps a multi-word
//! term may span. No vocabulary here.

use std::ops::Range;

/// One word of a text: where it is and its normalised form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub span: Range<usize>,
    pub norm: String,
}

/// The words of `text` in order: runs of letters and digits (an inner apostrophe kept, as in
/// "hodgkin's"), lowercased, with a regular plural folded.
pub fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut start = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let inner_apostrophe = c == '\''
            && start.is_some()
            && chars.peek().is_some_and(|(_, next)| next.is_alphanumeric());
        if c.is_alphanumeric() || inner_apostrophe {
            start.get_or_insert(at);
            continue;
        }
        if let Some(begin) = start.take() {
            out.push(word(text, begin..at));
        }
    }
    if let Some(begin) = start {
        out.push(word(text, begin..text.len()));
    }
    out
}

fn word(text: &str, span: Range<usize>) -> Word {
    let norm = fold_plural(&text[span.clone()].to_lowercase());
    Word { span, norm }
}

/// "reactions" → "reaction", "neuropathies" → "neuropathy"; words in -ss, -us, -is stay.
pub fn fold_plural(word: &str) -> String {
    let long = word.chars().count();
    if long > 4 && word.ends_with("ies") {
        return format!("{}y", &word[..word.len() - 3]);
    }
    let keeps = ["ss", "us", "is", "'s"]
        .iter()
        .any(|end| word.ends_with(end));
    if long > 3 && word.ends_with('s') && !keeps {
        return word[..word.len() - 1].to_owned();
    }
    word.to_owned()
}

/// The normalised key of a phrase: its words' normal forms joined by one space.
pub fn key_of(phrase: &str) -> String {
    join(&words(phrase))
}

pub fn join(words: &[Word]) -> String {
    let mut key = String::new();
    for w in words {
        if !key.is_empty() {
            key.push(' ');
        }
        key.push_str(&w.norm);
    }
    key
}

/// Whether two neighbouring words can belong to one term: only spaces, a hyphen or a slash
/// between them (at most three characters), or one line break with at most a space each side.
/// Punctuation, table gaps and paragraph breaks end a term.
pub fn joinable(gap: &str) -> bool {
    let inline = !gap.is_empty()
        && gap.len() <= 3
        && gap.chars().all(|c| matches!(c, ' ' | '\t' | '-' | '/'));
    let line_break = matches!(gap, "\n" | " \n" | "\n " | " \n ");
    inline || line_break
}

/// Character offset of byte offset `at` in `text` (mentions report character offsets).
pub fn char_offset(text: &str, at: usize) -> usize {
    text[..at].chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_byte_spans_of_the_original_text() {
        let text = "Severe  Neuropathies, non-Hodgkin's lymphoma";
        let found = words(text);
        let norms: Vec<&str> = found.iter().map(|w| w.norm.as_str()).collect();
        assert_eq!(
            norms,
            ["severe", "neuropathy", "non", "hodgkin's", "lymphoma"]
        );
        assert_eq!(&text[found[1].span.clone()], "Neuropathies");
    }

    #[test]
    fn plurals_fold_but_latin_and_greek_endings_stay() {
        assert_eq!(fold_plural("infections"), "infection");
        assert_eq!(fold_plural("abscess"), "abscess");
        assert_eq!(fold_plural("stomatitis"), "stomatitis");
        assert_eq!(fold_plural("gas"), "gas");
    }

    #[test]
    fn terms_do_not_span_punctuation_or_table_gaps() {
        assert!(joinable(" "));
        assert!(joinable("-"));
        assert!(joinable(" \n"));
        assert!(!joinable(", "));
        assert!(!joinable("      "));
        assert!(!joinable("\n\n"));
        assert!(!joinable(") "));
    }

    #[test]
    fn character_offsets_count_characters_not_bytes() {
        let text = "café nausea";
        assert_eq!(char_offset(text, text.find("nausea").unwrap()), 5);
    }
}
