//! The generation being served and everything a search, verify or graph answer reads from it:
//! opened whole, swapped whole (`live.rs`), with its read structures — passage vectors
//! (`vectors.rs`, `quantized/`), Indications opening vectors, named effects, the fingerprint
//! index and the distinct texts that are live. Data and lookups only; answers no question.

pub mod effects;
pub mod fingerprints;
mod live;
mod live_texts;
pub mod openings;
pub mod quantized;
pub mod vectors;

pub use live::{Live, LiveIndex, OpenOptions};
pub use live_texts::LiveTexts;
