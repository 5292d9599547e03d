//! Folding text for comparison while remembering where each folded character came from: the
//! four normalisations a quote may differ by (whitespace, case, Unicode compatibility forms,
//! typographic punctuation). Pure functions over strings; no store, no scoring.

use serde::Serialize;
use unicode_normalization::char::decompose_compatible;

/// A difference a quote may have from the label text and still count as the same words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Normalisation {
    /// Runs of spaces, tabs and line breaks count as one space; leading and trailing ones
    /// of the quote are ignored.
    Whitespace,
    /// Upper and lower case are the same (Unicode lowercase).
    Case,
    /// Unicode compatibility forms are the same (NFKD per character: `ﬁ` = `fi`, `²` = `2`,
    /// `é` written precomposed or with a combining accent).
    Unicode,
    /// Typographic quotes, dashes and the ellipsis are the same as `'`, `"`, `-` and `...`.
    Punctuation,
}

impl Normalisation {
    pub const ALL: [Normalisation; 4] = [
        Normalisation::Whitespace,
        Normalisation::Case,
        Normalisation::Unicode,
        Normalisation::Punctuation,
    ];
}

/// Which normalisations a folding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Folding(u8);

impl Folding {
    pub const NONE: Folding = Folding(0);
    pub const ALL: Folding = Folding(0b1111);

    fn bit(normalisation: Normalisation) -> u8 {
        1 << (normalisation as u8)
    }

    pub fn applies(self, normalisation: Normalisation) -> bool {
        self.0 & Self::bit(normalisation) != 0
    }

    pub fn without(self, normalisation: Normalisation) -> Folding {
        Folding(self.0 & !Self::bit(normalisation))
    }
}

/// Text after folding, each folded character with the byte span of the original it came from.
pub struct Folded {
    pub text: String,
    /// Per folded character, in order: (start, end) bytes in the original.
    pub spans: Vec<(usize, usize)>,
}

impl Folded {
    /// The original byte span of the folded characters `from..to` (character indices).
    pub fn original_span(&self, from: usize, to: usize) -> (usize, usize) {
        (self.spans[from].0, self.spans[to - 1].1)
    }

    /// Folded characters, as a vector (for alignment).
    pub fn chars(&self) -> Vec<char> {
        self.text.chars().collect()
    }
}

/// Folds `original` under `folding`. With whitespace folding, a run of whitespace becomes one
/// space spanning the whole run, and `trim` drops leading and trailing runs.
pub fn fold(original: &str, folding: Folding, trim: bool) -> Folded {
    let mut folded = Folded {
        text: String::with_capacity(original.len()),
        spans: Vec::with_capacity(original.len()),
    };
    let mut in_space = false;
    for (start, c) in original.char_indices() {
        let end = start + c.len_utf8();
        if folding.applies(Normalisation::Whitespace) && c.is_whitespace() {
            if in_space {
                if let Some(last) = folded.spans.last_mut() {
                    last.1 = end;
                }
            } else if !(trim && folded.text.is_empty()) {
                push(&mut folded, ' ', (start, end));
                in_space = true;
            }
            continue;
        }
        in_space = false;
        for piece in fold_char(c, folding) {
            push(&mut folded, piece, (start, end));
        }
    }
    if trim && in_space {
        folded.text.pop();
        folded.spans.pop();
    }
    folded
}

fn push(folded: &mut Folded, c: char, span: (usize, usize)) {
    folded.text.push(c);
    folded.spans.push(span);
}

/// One original character folded: possibly several characters (`ﬁ` → `fi`, `…` → `...`).
fn fold_char(c: char, folding: Folding) -> Vec<char> {
    let mut pieces = Vec::with_capacity(1);
    if folding.applies(Normalisation::Unicode) {
        decompose_compatible(c, |d| pieces.push(d));
    } else {
        pieces.push(c);
    }
    if folding.applies(Normalisation::Punctuation) {
        pieces = pieces.into_iter().flat_map(plain_punctuation).collect();
    }
    if folding.applies(Normalisation::Case) {
        pieces = pieces.into_iter().flat_map(char::to_lowercase).collect();
    }
    pieces
}

fn plain_punctuation(c: char) -> Vec<char> {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => vec!['\''],
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => vec!['"'],
        '\u{2010}'..='\u{2015}' | '\u{2212}' => vec!['-'],
        '\u{2026}' => vec!['.', '.', '.'],
        other => vec![other],
    }
}

/// The normalisations without which `quote` and `passage` would differ: each one whose
/// removal from the full folding makes the folded texts unequal.
pub fn needed(quote: &str, passage: &str) -> Vec<Normalisation> {
    Normalisation::ALL
        .into_iter()
        .filter(|&n| {
            let folding = Folding::ALL.without(n);
            fold(quote, folding, true).text != fold(passage, folding, true).text
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_runs_fold_to_one_space_spanning_the_run() {
        let folded = fold("  a \n\t b ", Folding::ALL, true);
        assert_eq!(folded.text, "a b");
        assert_eq!(folded.original_span(1, 2), (3, 7));
        assert_eq!(folded.original_span(0, 3), (2, 8));
        assert_eq!(fold("a  b", Folding::NONE, true).text, "a  b");
    }

    #[test]
    fn each_normalisation_is_named_only_when_it_is_needed() {
        assert_eq!(needed("Take  it", "Take it"), [Normalisation::Whitespace]);
        assert_eq!(needed("take it", "Take it"), [Normalisation::Case]);
        assert_eq!(needed("ﬁve", "five"), [Normalisation::Unicode]);
        assert_eq!(
            needed("don’t – stop", "don't - stop"),
            [Normalisation::Punctuation]
        );
        assert_eq!(
            needed("TAKE\nit", "take it"),
            [Normalisation::Whitespace, Normalisation::Case]
        );
        assert!(needed("same", "same").is_empty());
    }

    #[test]
    fn spans_point_into_the_original_for_expanding_characters() {
        let folded = fold("a…ﬁ", Folding::ALL, true);
        assert_eq!(folded.text, "a...fi");
        assert_eq!(folded.original_span(1, 4), (1, 4));
        assert_eq!(folded.original_span(4, 6), (4, 7));
    }
}
