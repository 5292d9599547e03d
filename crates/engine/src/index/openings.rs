//! The opening vectors of the current texts of `OPENING_SECTIONS` (`embed::openings`) as a
//! dense index of their own, for matching a condition to what labels are indicated for by
//! meaning (`indicated.rs`). Built at open from the vectors file; never ranked with.

use std::collections::HashMap;

use crate::embed::openings::{opening_key, OPENING_SECTIONS};
use crate::index::vectors::DenseIndex;
use drugcite_core::domain::TextHash;
use drugcite_store::{MappedVectors, SegmentCatalog, StoreError};

pub struct OpeningIndex {
    /// Rows keyed by opening key.
    openings: DenseIndex<TextHash>,
    /// The text of each opening key.
    texts: HashMap<TextHash, TextHash>,
}

impl OpeningIndex {
    /// The openings `stored` holds of the current texts of `catalog`'s opening sections;
    /// `None` when it holds none (a generation ingested before openings were embedded).
    pub fn build(
        stored: MappedVectors,
        catalog: &SegmentCatalog,
    ) -> Result<Option<Self>, StoreError> {
        let texts: HashMap<TextHash, TextHash> = catalog
            .iter()
            .filter(|(_, info)| info.current && OPENING_SECTIONS.contains(&&*info.section_key))
            .map(|(_, info)| (opening_key(info.text_hash), info.text_hash))
            .collect();
        let openings = DenseIndex::mapped(stored, |key| texts.contains_key(&key))?;
        Ok((!openings.is_empty()).then_some(Self { openings, texts }))
    }

    /// The `limit` texts whose openings are most similar to `query`, best first (every row's
    /// key is one of `texts`: `build` kept no other).
    pub fn nearest(&self, query: &[f32], limit: usize) -> Vec<(TextHash, f32)> {
        self.openings
            .nearest(query, limit)
            .into_iter()
            .map(|(key, similarity)| (self.texts[&key], similarity))
            .collect()
    }
}
