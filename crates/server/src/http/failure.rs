//! What kind of failure an error answer was, and why a request was refused: left in the
//! response's extensions by the error for the metrics and the access log, which never see the
//! error itself. Kinds only.

/// What kind of failure an error answer was: left in the response's extensions for the
/// metrics and the access log, which never see the `ApiError` itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Refused before any work: no key, a bad key, a missing scope, a limit, no credit.
    Refused(Refusal),
    /// A backing store (Neo4j) failed or timed out.
    StoreUnavailable,
    Other,
}

/// Why a request was refused before any work was done for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    RateLimited,
    CreditExhausted,
    Unauthorized,
    Forbidden,
}

impl Refusal {
    pub const ALL: [Refusal; 4] = [
        Refusal::RateLimited,
        Refusal::CreditExhausted,
        Refusal::Unauthorized,
        Refusal::Forbidden,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Refusal::RateLimited => "rate_limited",
            Refusal::CreditExhausted => "credit_exhausted",
            Refusal::Unauthorized => "unauthorized",
            Refusal::Forbidden => "forbidden",
        }
    }
}
