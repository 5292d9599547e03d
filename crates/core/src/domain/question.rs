//! A search or reasoning question: present, not blank, and of bounded length. The rule is
//! the OpenAPI document's too (`PATTERN`, `maxLength`), so a client can check it before sending.

use super::invalid::InvalidInput;
use super::visible::is_invisible;

/// Longest question accepted, in characters; longer input is a client error, not a slow query.
pub const MAX_QUESTION_CHARS: usize = 2_000;

/// What a question must contain somewhere, as a JSON Schema pattern: a character that is
/// neither invisible (`visible::VISIBLE_PATTERN`'s set) nor ASCII punctuation (`is_content`).
pub const PATTERN: &str = r"[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]";

/// The characters `PATTERN` looks for.
pub(super) fn is_content(c: char) -> bool {
    !(is_invisible(c) || c.is_ascii_punctuation())
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question(String);

impl Question {
    pub fn parse(raw: Option<String>) -> Result<Self, InvalidInput> {
        let raw = raw.ok_or(InvalidInput::QuestionMissing)?;
        if raw.chars().count() > MAX_QUESTION_CHARS {
            return Err(InvalidInput::QuestionTooLong {
                max: MAX_QUESTION_CHARS,
            });
        }
        if !raw.chars().any(is_content) {
            return Err(InvalidInput::QuestionBlank);
        }
        Ok(Self(raw))
    }

    /// The question exactly as submitted (the spec echoes it back).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_text_and_keeps_it_verbatim() {
        let q = Question::parse(Some("  Zoloft and pimozide? ".into())).unwrap();
        assert_eq!(q.as_str(), "  Zoloft and pimozide? ");
    }

    #[test]
    fn rejects_missing_blank_and_oversized() {
        assert_eq!(Question::parse(None), Err(InvalidInput::QuestionMissing));
        assert_eq!(
            Question::parse(Some(" \t\n?! ".into())),
            Err(InvalidInput::QuestionBlank)
        );
        assert!(matches!(
            Question::parse(Some("a".repeat(MAX_QUESTION_CHARS + 1))),
            Err(InvalidInput::QuestionTooLong { .. })
        ));
        assert!(Question::parse(Some("é".repeat(MAX_QUESTION_CHARS))).is_ok());
        assert!(Question::parse(Some("\u{1c}_-\u{7f}\u{a0}".into())).is_err());
        assert!(Question::parse(Some("¿💊?".into())).is_ok());
    }
}
