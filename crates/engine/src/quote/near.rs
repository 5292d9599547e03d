//! Near misses: the passage of a segment closest to a quote (approximate substring match by
//! edit distance over folded text) and the character diff between the quote and that exact
//! passage. Pure functions; deciding what counts as near is the caller's.

use std::time::Duration;

use serde::Serialize;
use similar::{Algorithm, ChangeTag, TextDiff};

use super::fold::{fold, Folded, Folding};

/// Longest a character diff may compute before it settles for a coarser answer.
const DIFF_DEADLINE: Duration = Duration::from_millis(50);

/// The closest passage of a text to a quote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    /// Byte span of the passage in the original text.
    pub start: usize,
    pub end: usize,
    /// 1 − edit distance / quote length, over the folded texts (whitespace, case, Unicode and
    /// punctuation differences cost nothing); 1.0 only for an equal passage.
    pub similarity: f64,
}

/// The passage of `text` with the least edit distance to `quote` (both folded), found by
/// semi-global alignment: the passage may start and end anywhere in the text.
pub fn closest_passage(quote: &str, text: &str) -> Option<Closest> {
    let quote = fold(quote, Folding::ALL, true).chars();
    let folded_text = fold(text, Folding::ALL, false);
    let text_chars = folded_text.chars();
    if quote.is_empty() || text_chars.is_empty() {
        return None;
    }
    let (from, to, distance) = align(&quote, &text_chars);
    if from == to {
        return None;
    }
    let (start, end) = trimmed_span(&folded_text, from, to);
    Some(Closest {
        start,
        end,
        similarity: 1.0 - distance as f64 / quote.len() as f64,
    })
}

/// The original span of folded characters `from..to`, without a space at either end.
fn trimmed_span(folded: &Folded, mut from: usize, mut to: usize) -> (usize, usize) {
    let chars = folded.chars();
    while from + 1 < to && chars[from] == ' ' {
        from += 1;
    }
    while to > from + 1 && chars[to - 1] == ' ' {
        to -= 1;
    }
    folded.original_span(from, to)
}

/// Sellers' algorithm: (start, end, distance) of the substring of `text` closest to `quote`.
fn align(quote: &[char], text: &[char]) -> (usize, usize, usize) {
    let n = text.len();
    let mut previous: Vec<(usize, usize)> = (0..=n).map(|j| (0, j)).collect();
    let mut current = vec![(0, 0); n + 1];
    for (i, &q) in quote.iter().enumerate() {
        current[0] = (i + 1, 0);
        for j in 1..=n {
            let substitute = (
                previous[j - 1].0 + usize::from(q != text[j - 1]),
                previous[j - 1].1,
            );
            let skip_quote = (previous[j].0 + 1, previous[j].1);
            let skip_text = (current[j - 1].0 + 1, current[j - 1].1);
            current[j] = [skip_quote, skip_text]
                .into_iter()
                .fold(
                    substitute,
                    |best, other| if other.0 < best.0 { other } else { best },
                );
        }
        std::mem::swap(&mut previous, &mut current);
    }
    let (end, &(distance, start)) = previous
        .iter()
        .enumerate()
        .min_by_key(|(j, (distance, _))| (*distance, *j))
        .expect("the row has n + 1 cells");
    (start, end, distance)
}

/// One run of a character diff from the quote to the label passage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiffPart {
    /// `same`: in both; `quote_only`: in the quote, not in the label; `label_only`: in the
    /// label, missing from the quote.
    pub op: DiffOp,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DiffOp {
    Same,
    QuoteOnly,
    LabelOnly,
}

/// The character diff turning `quote` into `passage`, runs of one kind merged.
pub fn char_diff(quote: &str, passage: &str) -> Vec<DiffPart> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .deadline(std::time::Instant::now() + DIFF_DEADLINE)
        .diff_chars(quote, passage);
    let mut parts: Vec<DiffPart> = Vec::new();
    for change in diff.iter_all_changes() {
        let op = match change.tag() {
            ChangeTag::Equal => DiffOp::Same,
            ChangeTag::Delete => DiffOp::QuoteOnly,
            ChangeTag::Insert => DiffOp::LabelOnly,
        };
        match parts.last_mut() {
            Some(last) if last.op == op => last.text.push_str(change.value()),
            _ => parts.push(DiffPart {
                op,
                text: change.value().to_owned(),
            }),
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "Patients should be advised that dizziness may occur. Avoid alcohol.";

    #[test]
    fn the_closest_passage_is_the_changed_sentence() {
        let closest = closest_passage("dizziness can occur", TEXT).unwrap();
        assert_eq!(&TEXT[closest.start..closest.end], "dizziness may occur");
        assert!((closest.similarity - (1.0 - 2.0 / 19.0)).abs() < 1e-9);
    }

    #[test]
    fn an_equal_passage_has_similarity_one() {
        let closest = closest_passage("AVOID  alcohol", TEXT).unwrap();
        assert_eq!(&TEXT[closest.start..closest.end], "Avoid alcohol");
        assert_eq!(closest.similarity, 1.0);
    }

    #[test]
    fn the_diff_names_what_each_side_has() {
        let parts = char_diff("may cause", "can cause");
        let rebuilt_label: String = parts
            .iter()
            .filter(|p| p.op != DiffOp::QuoteOnly)
            .map(|p| p.text.as_str())
            .collect();
        let rebuilt_quote: String = parts
            .iter()
            .filter(|p| p.op != DiffOp::LabelOnly)
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(
            (rebuilt_quote.as_str(), rebuilt_label.as_str()),
            ("may cause", "can cause")
        );
        assert_eq!(
            parts.last().unwrap(),
            &DiffPart {
                op: DiffOp::Same,
                text: " cause".into()
            }
        );
    }
}
