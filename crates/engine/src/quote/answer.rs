//! The quoted passages of an answer text: each text between double quotes (`"…"` or curly
//! `“…”`), with the fingerprint citation that may follow it (`[fp:0101…]` or `[0101…]`,
//! 128 binary digits). Parsing only; checking each passage is `QuoteChecker`'s.

use std::sync::LazyLock;

use regex::Regex;

use drugcite_core::domain::Fingerprint;

/// A passage quoted in an answer, and the fingerprint cited for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotedPassage {
    pub quote: String,
    pub fingerprint: Option<Fingerprint>,
    /// Byte offset of the quote's text in the answer.
    pub at: usize,
}

/// A quote: straight or curly double quotes around at least one character that is not a
/// quote mark, then optionally (after spaces) a bracketed citation.
static QUOTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:"([^"“”]+)"|“([^"“”]+)”)(?:[ \t]*[\[(](?:fp:[ \t]*)?([01]{128})[\])])?"#)
        .expect("the quote pattern compiles")
});

/// Every quoted passage of `answer` in order, blank ones left out.
pub fn quoted_passages(answer: &str) -> Vec<QuotedPassage> {
    QUOTED
        .captures_iter(answer)
        .filter_map(|captures| {
            let quote = captures.get(1).or_else(|| captures.get(2))?;
            if quote.as_str().trim().is_empty() {
                return None;
            }
            let fingerprint = captures
                .get(3)
                .and_then(|fp| Fingerprint::parse(fp.as_str()).ok());
            Some(QuotedPassage {
                quote: quote.as_str().to_owned(),
                fingerprint,
                at: quote.start(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_straight_and_curly_with_and_without_citations() {
        let fp = "01".repeat(64);
        let answer = format!(
            "The label says \"Avoid alcohol.\" [fp:{fp}] and “may cause dizziness” ({fp}); also \"x\"."
        );
        let passages = quoted_passages(&answer);
        let quotes: Vec<_> = passages.iter().map(|p| p.quote.as_str()).collect();
        assert_eq!(quotes, ["Avoid alcohol.", "may cause dizziness", "x"]);
        let cited = Fingerprint::parse(&fp).unwrap();
        assert_eq!(passages[0].fingerprint, Some(cited));
        assert_eq!(passages[1].fingerprint, Some(cited));
        assert_eq!(passages[2].fingerprint, None);
        assert_eq!(&answer[passages[0].at..passages[0].at + 5], "Avoid");
    }

    #[test]
    fn a_citation_of_the_wrong_length_is_no_citation() {
        let answer = format!("\"Avoid alcohol.\" [fp:{}]", "0".repeat(127));
        assert_eq!(quoted_passages(&answer)[0].fingerprint, None);
        assert!(quoted_passages("no quotes here; \"  \" is blank").is_empty());
    }
}
