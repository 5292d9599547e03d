//! Why a piece of client input was refused: one error for every parsed request value, which
//! the HTTP layer turns into a 400. Defines the reasons only; the checks are the values' own.

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
