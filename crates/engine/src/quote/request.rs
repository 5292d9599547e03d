//! A quote check request, parsed: one quote (with an optional fingerprint citation), a whole
//! answer text whose quoted passages are checked, both or neither (nothing to check), and an optional drug that narrows
//! the search for quotes cited without a fingerprint. The bounds on input sizes live here.

use super::answer::{quoted_passages, QuotedPassage};
use drugcite_core::domain::{is_invisible, Fingerprint, InvalidInput, SearchFilters};

/// Longest quote, in characters.
pub const MAX_QUOTE_CHARS: usize = 2_000;
/// Longest answer text, in characters.
pub const MAX_ANSWER_CHARS: usize = 20_000;
/// Most quoted passages checked in one answer.
pub const MAX_QUOTES: usize = 20;

#[derive(Debug, thiserror::Error)]
pub enum QuoteInputError {
    #[error("answer must not be empty")]
    AnswerEmpty,
    #[error("quote must contain visible characters")]
    QuoteBlank,
    #[error("quote is longer than {MAX_QUOTE_CHARS} characters")]
    QuoteTooLong,
    #[error("answer is longer than {MAX_ANSWER_CHARS} characters")]
    AnswerTooLong,
    #[error("answer has more than {MAX_QUOTES} quoted passages")]
    TooManyQuotes,
    #[error("a quoted passage of the answer is longer than {MAX_QUOTE_CHARS} characters")]
    AnswerQuoteTooLong,
    #[error(transparent)]
    Invalid(#[from] InvalidInput),
}

/// What to check, parsed; the only way to build one is `parse`.
#[derive(Clone, Debug)]
pub struct CheckRequest {
    passages: Vec<QuotedPassage>,
    filters: SearchFilters,
}

impl CheckRequest {
    pub fn parse(
        quote: Option<String>,
        answer: Option<String>,
        fingerprint: Option<String>,
        drug: Option<String>,
    ) -> Result<Self, QuoteInputError> {
        let filters = SearchFilters::parse(drug, None, None)?;
        let fingerprint = fingerprint.map(|fp| Fingerprint::parse(&fp)).transpose()?;
        let mut passages = Vec::new();
        match (quote, answer) {
            (None, None) => {}
            (Some(quote), answer) => {
                passages.push(one_quote(quote, fingerprint)?);
                if let Some(answer) = answer {
                    passages.extend(answer_quotes(&answer, None)?);
                }
            }
            (None, Some(answer)) => passages.extend(answer_quotes(&answer, fingerprint)?),
        }
        if passages.len() > MAX_QUOTES {
            return Err(QuoteInputError::TooManyQuotes);
        }
        Ok(Self { passages, filters })
    }

    pub fn passages(&self) -> &[QuotedPassage] {
        &self.passages
    }

    /// The drug filter for quotes without a citation.
    pub fn filters(&self) -> &SearchFilters {
        &self.filters
    }
}

fn one_quote(
    quote: String,
    fingerprint: Option<Fingerprint>,
) -> Result<QuotedPassage, QuoteInputError> {
    if quote.chars().count() > MAX_QUOTE_CHARS {
        return Err(QuoteInputError::QuoteTooLong);
    }
    if quote.chars().all(is_invisible) {
        return Err(QuoteInputError::QuoteBlank);
    }
    Ok(QuotedPassage {
        quote,
        fingerprint,
        at: 0,
    })
}

/// The quoted passages of `answer` (none is not an error: the report then counts none); those
/// without a citation of their own take `cited`, the request's fingerprint, when given.
fn answer_quotes(
    answer: &str,
    cited: Option<Fingerprint>,
) -> Result<Vec<QuotedPassage>, QuoteInputError> {
    if answer.is_empty() {
        return Err(QuoteInputError::AnswerEmpty);
    }
    if answer.chars().count() > MAX_ANSWER_CHARS {
        return Err(QuoteInputError::AnswerTooLong);
    }
    let mut passages = quoted_passages(answer);
    for passage in passages.iter_mut().filter(|p| p.fingerprint.is_none()) {
        passage.fingerprint = cited;
    }
    if passages.len() > MAX_QUOTES {
        return Err(QuoteInputError::TooManyQuotes);
    }
    if passages
        .iter()
        .any(|p| p.quote.chars().count() > MAX_QUOTE_CHARS)
    {
        return Err(QuoteInputError::AnswerQuoteTooLong);
    }
    Ok(passages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(
        q: Option<&str>,
        a: Option<&str>,
        fp: Option<&str>,
    ) -> Result<CheckRequest, QuoteInputError> {
        CheckRequest::parse(
            q.map(Into::into),
            a.map(Into::into),
            fp.map(Into::into),
            None,
        )
    }

    #[test]
    fn quote_answer_or_both_with_bounded_sizes() {
        assert!(parse(None, None, None).unwrap().passages().is_empty());
        assert!(matches!(
            parse(None, Some(""), None),
            Err(QuoteInputError::AnswerEmpty)
        ));
        let both = parse(Some("a"), Some("\"b\" and \"c\""), None).unwrap();
        let quotes: Vec<&str> = both.passages().iter().map(|p| p.quote.as_str()).collect();
        assert_eq!(quotes, ["a", "b", "c"]);
        assert!(matches!(
            parse(Some(" \n"), None, None),
            Err(QuoteInputError::QuoteBlank)
        ));
        assert!(matches!(
            parse(Some("\u{85}\u{feff}"), None, None),
            Err(QuoteInputError::QuoteBlank)
        ));
        let long = "x".repeat(MAX_QUOTE_CHARS + 1);
        assert!(matches!(
            parse(Some(&long), None, None),
            Err(QuoteInputError::QuoteTooLong)
        ));
        assert!(parse(None, Some("no quotes"), None)
            .unwrap()
            .passages()
            .is_empty());
        let many = "\"a\" ".repeat(MAX_QUOTES + 1);
        assert!(matches!(
            parse(None, Some(&many), None),
            Err(QuoteInputError::TooManyQuotes)
        ));
        let fp = "0".repeat(128);
        let cited = parse(None, Some("\"a\""), Some(&fp)).unwrap();
        assert_eq!(
            cited.passages()[0].fingerprint,
            Some(Fingerprint::parse(&fp).unwrap()),
            "an answer's uncited quotes take the request's fingerprint"
        );
        assert!(matches!(
            parse(Some("a"), None, Some("01")),
            Err(QuoteInputError::Invalid(_))
        ));
        let one = parse(Some("a"), None, Some(&fp)).unwrap();
        assert_eq!(
            one.passages()[0].fingerprint,
            Some(Fingerprint::parse(&fp).unwrap())
        );
    }
}
