//! The segments search may return: those in the current version of a label still published.
//! A tantivy query over a per-segment doc list computed when a generation is opened, so a
//! superseded or withdrawn segment is never a BM25 candidate; and the same over a list of
//! current segments a search chose (its labels'). Knows nothing of ranking.

use std::collections::HashMap;
use std::sync::Arc;

use tantivy::index::SegmentId;
use tantivy::query::{ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, TERMINATED};

use crate::SegmentAddress;

/// Per tantivy segment: its current documents, ascending.
#[derive(Clone, Debug, Default)]
pub struct CurrentDocs {
    by_segment: Arc<HashMap<SegmentId, Arc<[DocId]>>>,
}

impl CurrentDocs {
    pub fn new(by_segment: HashMap<SegmentId, Vec<DocId>>) -> Self {
        let by_segment = by_segment
            .into_iter()
            .map(|(segment, mut docs)| {
                docs.sort_unstable();
                (segment, Arc::from(docs))
            })
            .collect();
        Self {
            by_segment: Arc::new(by_segment),
        }
    }

    /// The documents at `addresses` (in the order of `searcher`'s segments).
    pub(crate) fn at(searcher: &Searcher, addresses: &[SegmentAddress]) -> Self {
        let readers = searcher.segment_readers();
        let mut by_segment: HashMap<SegmentId, Vec<DocId>> = HashMap::new();
        for address in addresses {
            if let Some(reader) = readers.get(address.0.segment_ord as usize) {
                by_segment
                    .entry(reader.segment_id())
                    .or_default()
                    .push(address.0.doc_id);
            }
        }
        Self::new(by_segment)
    }

    /// Matches exactly the current documents, each with score 0.
    pub fn query(&self) -> Box<dyn Query> {
        Box::new(CurrentQuery(self.clone()))
    }

    pub(crate) fn docs_of(&self, segment: SegmentId) -> Arc<[DocId]> {
        self.by_segment
            .get(&segment)
            .cloned()
            .unwrap_or_else(|| Arc::from(Vec::new()))
    }
}

#[derive(Clone, Debug)]
struct CurrentQuery(CurrentDocs);

impl Query for CurrentQuery {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for CurrentQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let docs = ListedDocs::new(self.0.docs_of(reader.segment_id()));
        Ok(Box::new(ConstScorer::new(docs, boost * 0.0)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let current = self
            .0
            .docs_of(reader.segment_id())
            .binary_search(&doc)
            .is_ok();
        let what = if current { "current" } else { "not current" };
        Ok(Explanation::new(what, 0.0))
    }
}

/// A sorted doc list as a tantivy `DocSet`.
struct ListedDocs {
    docs: Arc<[DocId]>,
    at: usize,
}

impl ListedDocs {
    fn new(docs: Arc<[DocId]>) -> Self {
        Self { docs, at: 0 }
    }
}

impl DocSet for ListedDocs {
    fn advance(&mut self) -> DocId {
        if self.at < self.docs.len() {
            self.at += 1;
        }
        self.doc()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        let rest = &self.docs[self.at..];
        self.at += rest.partition_point(|&d| d < target);
        self.doc()
    }

    fn doc(&self) -> DocId {
        self.docs.get(self.at).copied().unwrap_or(TERMINATED)
    }

    fn size_hint(&self) -> u32 {
        (self.docs.len() - self.at) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_doc_set_walks_and_seeks_in_order() {
        let mut docs = ListedDocs::new(Arc::from(vec![2, 5, 9]));
        assert_eq!(docs.doc(), 2);
        assert_eq!(docs.advance(), 5);
        assert_eq!(docs.seek(6), 9);
        assert_eq!(docs.seek(9), 9);
        assert_eq!(docs.advance(), TERMINATED);
        assert_eq!(docs.advance(), TERMINATED);
        assert_eq!(ListedDocs::new(Arc::from(Vec::new())).doc(), TERMINATED);
    }
}
