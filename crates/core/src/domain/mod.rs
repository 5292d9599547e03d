//! Parsed request values: the only way raw input becomes something the engine accepts.
//! Each type's constructor validates once; nothing downstream re-checks or sees raw strings.

mod api_key;
mod filters;
mod fingerprint;
mod graph_bounds;
mod question;
mod relation_type;
mod set_id;
mod text_hash;
mod top_k;

pub use api_key::ApiKey;
pub use filters::SearchFilters;
pub use fingerprint::{Fingerprint, MAX_HAMMING_RADIUS};
pub use graph_bounds::{GraphLimit, MaxHops};
pub use question::{Question, PATTERN as QUESTION_PATTERN};
pub use relation_type::RelationType;
pub use set_id::SetId;
pub use text_hash::TextHash;
pub use top_k::TopK;

#[cfg(test)]
mod pattern_tests;

/// `requested` if it lies in `1..=max`, `default` if absent; `None` if out of range.
fn count_within(requested: Option<i64>, max: i64, default: usize) -> Option<usize> {
    match requested {
        None => Some(default),
        Some(n) if (1..=max).contains(&n) => Some(n as usize),
        Some(_) => None,
    }
}

/// What a free-text field other than the question (a quote, a filter) must contain somewhere,
/// as a JSON Schema pattern: a character that is not `is_invisible`. The class is spelled out
/// rather than written `\S`, whose meaning differs between regex engines (ECMA counts U+FEFF as
/// space, Python and Rust U+0085), so every schema checker and the server agree on what is blank.
pub const VISIBLE_PATTERN: &str =
    r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]";

/// The characters nobody can see: Unicode controls and white space, U+200B and U+FEFF.
pub fn is_invisible(c: char) -> bool {
    c.is_control() || c.is_whitespace() || matches!(c, '\u{200b}' | '\u{feff}')
}

/// Why a piece of client input was refused. The HTTP layer turns every variant into a 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidInput {
    #[error("fingerprint must be exactly 128 characters, got {0}")]
    FingerprintLength(usize),
    #[error("fingerprint may contain only '0' and '1'")]
    FingerprintAlphabet,
    #[error("question is required")]
    QuestionMissing,
    #[error("question must contain visible characters")]
    QuestionBlank,
    #[error("question is longer than {max} characters")]
    QuestionTooLong { max: usize },
    #[error("top_k must be between {min} and {max}")]
    TopKOutOfRange { min: i64, max: i64 },
    #[error("filter {field} must be 1 to {max} characters")]
    Filter { field: &'static str, max: usize },
    #[error("max_hops must be between 1 and {max}")]
    MaxHopsOutOfRange { max: i64 },
    #[error("limit must be between 1 and {max}")]
    LimitOutOfRange { max: i64 },
    #[error("API key is malformed")]
    ApiKeyFormat,
    #[error("set id must be a UUID (8-4-4-4-12 hexadecimal digits)")]
    SetId,
}
