//! Which docs of the distinct-text index have a current copy, per tantivy segment: computed
//! once when a generation is opened, so a search does not look each matching text up. Data
//! only; the lexical search that reads it is `search::lexical`.

use std::sync::Arc;

use drugcite_core::domain::TextHash;
use drugcite_store::{Copies, Snapshot};

/// Per tantivy segment of the distinct-text index, which docs have a current copy: computed
/// once when a generation is opened, so a search does not look each matching text up.
pub struct LiveTexts {
    by_segment: Vec<Arc<[bool]>>,
}

impl LiveTexts {
    /// `None` for a generation without the distinct-text index.
    pub fn build(snapshot: &Snapshot, copies: &Copies) -> Option<Self> {
        let searcher = snapshot.texts()?.searcher();
        let by_segment = searcher
            .segment_readers()
            .iter()
            .map(|reader| {
                let hashes = drugcite_store::u64_column(reader, "text_hash");
                let live = |doc| {
                    let text = hashes
                        .as_ref()
                        .map(|c| TextHash::from_stored(c.get_val(doc)));
                    text.is_some_and(|text| copies.contains(text))
                };
                (0..reader.max_doc()).map(live).collect()
            })
            .collect();
        Some(Self { by_segment })
    }

    /// Which docs of tantivy segment `segment` have a current copy (none for a segment it
    /// does not know).
    pub fn segment(&self, segment: u32) -> Option<Arc<[bool]>> {
        self.by_segment.get(segment as usize).cloned()
    }
}
