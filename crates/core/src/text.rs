//! Words of text, one place for every part of drugcite that reads words: the condition
//! matchers' normalised words with byte spans, name words, whitespace-separated words, and
//! whole-word occurrence tests. Pure functions over `&str`; its only English is the plural
//! endings and negative contractions of `tables/`. No vocabulary, no I/O.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::tables;

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

/// "reactions" → "reaction", "neuropathies" → "neuropathy"; words in -ss, -us, -is stay
/// (`tables/plural-endings.tsv`, tried in order).
pub fn fold_plural(word: &str) -> String {
    let long = word.chars().count();
    let rule = PLURAL_ENDINGS
        .iter()
        .find(|rule| long >= rule.min_chars && word.ends_with(&rule.ending));
    match rule {
        Some(rule) => format!(
            "{}{}",
            &word[..word.len() - rule.ending.len()],
            rule.singular
        ),
        None => word.to_owned(),
    }
}

/// One row of `tables/plural-endings.tsv`.
struct PluralEnding {
    ending: String,
    singular: String,
    min_chars: usize,
}

static PLURAL_ENDINGS: LazyLock<Vec<PluralEnding>> = LazyLock::new(|| {
    let table = tables::PLURAL_ENDINGS.rows();
    let columns = ["ending", "singular", "min_chars"].map(|c| table.column(c));
    let rule = |row: &crate::table::Row| {
        let min_chars = row.cell(columns[2]).parse().unwrap_or_else(|_| {
            let file = tables::PLURAL_ENDINGS.file;
            panic!("{file}:{}: min_chars is not a count", row.line())
        });
        PluralEnding {
            ending: row.cell(columns[0]).to_owned(),
            singular: row.cell(columns[1]).to_owned(),
            min_chars,
        }
    };
    table.rows().iter().map(rule).collect()
});

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
/// between them (at most `term_gap_chars` of `tables/thresholds.tsv`), or one line break with
/// at most a space each side. Punctuation, table gaps and paragraph breaks end a term.
pub fn joinable(gap: &str) -> bool {
    static TERM_GAP_CHARS: LazyLock<usize> =
        LazyLock::new(|| tables::THRESHOLDS.rows().number("term_gap_chars") as usize);
    let inline = !gap.is_empty()
        && gap.len() <= *TERM_GAP_CHARS
        && gap.chars().all(|c| matches!(c, ' ' | '\t' | '-' | '/'));
    let line_break = matches!(gap, "\n" | " \n" | "\n " | " \n ");
    inline || line_break
}

/// Character offset of byte offset `at` in `text` (mentions report character offsets).
pub fn char_offset(text: &str, at: usize) -> usize {
    text[..at].chars().count()
}

/// Runs of letters, digits and hyphens in order, as written (a leading or trailing hyphen
/// kept): the words negation and severity rules count.
pub fn hyphenated_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
}

/// `hyphenated_words` without hyphens at their ends: the words a drug name is made of
/// ("carbidopa-levodopa", "l-").
pub fn name_words(text: &str) -> impl Iterator<Item = &str> {
    hyphenated_words(text)
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
}

/// Runs of letters and digits, as written, where the index's tokenizer splits a text
/// ("somapacitan-beco" → "somapacitan", "beco").
pub fn alphanumeric_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Runs of letters only ("you're" → "you", "re").
pub fn letter_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
}

/// Byte spans of the whitespace-separated words of `text`, in order.
pub fn whitespace_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (at, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                spans.push((s, at));
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

/// What must surround an occurrence of a needle for it to count as words of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordEdge {
    /// No letter or digit on either side.
    Whole,
    /// As `Whole`, but an `s` may follow (a plural).
    WholeOrPlural,
    /// No letter or digit before; anything after (a word prefix).
    Start,
}

/// Byte ranges where `needle` occurs in `text` with the given edges.
pub fn occurrences<'a>(
    text: &'a str,
    needle: &'a str,
    edge: WordEdge,
) -> impl Iterator<Item = Range<usize>> + 'a {
    text.match_indices(needle)
        .map(move |(at, _)| at..at + needle.len())
        .filter(move |r| {
            let before = text[..r.start].chars().next_back();
            let after = text[r.end..].chars().next();
            let after_ok = match edge {
                WordEdge::Whole => !after.is_some_and(char::is_alphanumeric),
                WordEdge::WholeOrPlural => !after.is_some_and(|c| c.is_alphanumeric() && c != 's'),
                WordEdge::Start => true,
            };
            !before.is_some_and(char::is_alphanumeric) && after_ok
        })
}

/// Whether `text` holds any of `needles` as whole words.
pub fn contains_any_word(text: &str, needles: &[&str]) -> bool {
    needles
        .iter()
        .any(|n| occurrences(text, n, WordEdge::Whole).next().is_some())
}

/// Whether the normalised words of `phrase` occur consecutively in the normalised `key`
/// (both as `key_of` makes them).
pub fn key_contains(key: &str, phrase: &str) -> bool {
    if phrase.is_empty() {
        return false;
    }
    let padded = format!(" {key} ");
    padded.contains(&format!(" {phrase} "))
}

/// `lower` (lowercase) with its negative contractions written out ("shouldn't" is "should
/// not", "can't" "cannot", "won't" "will not"; straight or curly apostrophe): the cue phrases
/// that read a question ("should not take") are written out, as labels write them. A stem of
/// `tables/contractions.tsv` is written as it says, any other as the verb and "not".
pub fn expand_contractions(lower: &str) -> String {
    static CONTRACTION: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b([a-z]+)n['’]t\b").expect("contraction pattern"));
    static IRREGULAR: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
        let table = tables::CONTRACTIONS.rows();
        let (stem, written) = (table.column("stem"), table.column("written_out"));
        let pair =
            |row: &crate::table::Row| (row.cell(stem).to_owned(), row.cell(written).to_owned());
        table.rows().iter().map(pair).collect()
    });
    CONTRACTION
        .replace_all(lower, |caps: &regex::Captures| {
            match IRREGULAR.iter().find(|(stem, _)| *stem == caps[1]) {
                Some((_, written)) => written.clone(),
                None => format!("{} not", &caps[1]),
            }
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_contractions_are_written_out() {
        assert_eq!(
            expand_contractions("who shouldn't take it, can't i? it won’t work, don't"),
            "who should not take it, cannot i? it will not work, do not"
        );
        assert_eq!(expand_contractions("grandma's pills"), "grandma's pills");
    }

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
    fn the_first_plural_ending_a_word_has_and_is_long_enough_for_decides() {
        let folded = [
            "ties",
            "pies",
            "cats",
            "virus",
            "hodgkin's",
            "bus",
            "is",
            "ies",
        ]
        .map(fold_plural);
        assert_eq!(
            folded,
            [
                "tie",
                "pie",
                "cat",
                "virus",
                "hodgkin's",
                "bus",
                "is",
                "ies"
            ]
        );
        assert_eq!(fold_plural("allergies"), "allergy");
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
    #[test]
    fn word_edges_decide_what_counts_as_an_occurrence() {
        let text = "ulcers, ulcerative colitis; peptic ulcer";
        let whole: Vec<_> = occurrences(text, "ulcer", WordEdge::Whole).collect();
        assert_eq!(whole, vec![35..40]);
        let plural: Vec<_> = occurrences(text, "ulcer", WordEdge::WholeOrPlural).collect();
        assert_eq!(plural, [0..5, 35..40]);
        assert_eq!(occurrences(text, "ulcer", WordEdge::Start).count(), 3);
        assert!(!contains_any_word("fatality", &["fatal"]));
        assert!(contains_any_word("may be fatal.", &["rare", "fatal"]));
    }

    #[test]
    fn the_word_splitters_differ_only_where_documented() {
        let text = "-- non-Hodgkin's  lymphoma-";
        assert_eq!(
            hyphenated_words(text).collect::<Vec<_>>(),
            ["--", "non-Hodgkin", "s", "lymphoma-"]
        );
        assert_eq!(
            name_words(text).collect::<Vec<_>>(),
            ["non-Hodgkin", "s", "lymphoma"]
        );
        assert_eq!(
            letter_words("you're 2x").collect::<Vec<_>>(),
            ["you", "re", "x"]
        );
        assert_eq!(whitespace_spans(" a  bc\n"), [(1, 2), (4, 6)]);
    }

    #[test]
    fn keys_contain_whole_normalised_words_only() {
        assert!(key_contains("non hodgkin's lymphoma", "hodgkin's lymphoma"));
        assert!(!key_contains("non hodgkin's lymphoma", "hodgkin"));
        assert!(!key_contains("nausea", ""));
    }
}
