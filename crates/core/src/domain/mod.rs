//! Parsed request values: the only way raw input becomes something the engine accepts.
//! Each type's constructor validates once; nothing downstream re-checks or sees raw strings.

mod api_key;
mod count;
mod filters;
mod fingerprint;
mod graph_bounds;
mod invalid;
mod question;
mod relation_type;
mod set_id;
mod text_hash;
mod top_k;
mod visible;

pub use api_key::ApiKey;
pub use filters::SearchFilters;
pub use fingerprint::{Fingerprint, MAX_HAMMING_RADIUS};
pub use graph_bounds::{GraphLimit, MaxHops};
pub use invalid::InvalidInput;
pub use question::{Question, PATTERN as QUESTION_PATTERN};
pub use relation_type::RelationType;
pub use set_id::SetId;
pub use text_hash::TextHash;
pub use top_k::TopK;
pub use visible::{is_invisible, VISIBLE_PATTERN};

#[cfg(test)]
mod pattern_tests;
