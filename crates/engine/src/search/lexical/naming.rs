//! Which current texts of some labels name any of a set of phrases (a drug's or class's
//! names): each phrase analysed like the label text and matched as a phrase on the segment
//! index, bounded by the labels' segments. A set, not a ranking: nothing is scored.

use std::collections::{BTreeSet, HashSet};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::query::{BooleanQuery, Occur, PhraseQuery, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader, Term};

use super::scoring::{analysed_tokens, column, searching, Column};
use super::segments::labels_current_query;
use crate::index::Live;
use drugcite_core::domain::TextHash;
use drugcite_store::{Snapshot, StoreError};

/// The distinct current texts among the copies in `labels` (ordinals of `snapshot.labels()`)
/// whose text holds any of `phrases` (after the index's analyzer, in order, stop words
/// skipped as in the text); empty when no phrase has a word the index keeps.
pub fn labels_texts_naming(
    live: &Live,
    phrases: &BTreeSet<String>,
    labels: &BTreeSet<u32>,
) -> Result<HashSet<TextHash>, StoreError> {
    let snapshot = &live.snapshot;
    let field = snapshot.fields().text;
    let named: Vec<(Occur, Box<dyn Query>)> = phrases
        .iter()
        .filter_map(|phrase| phrase_query(snapshot, field, phrase))
        .map(|query| (Occur::Should, query))
        .collect();
    if named.is_empty() || labels.is_empty() {
        return Ok(HashSet::new());
    }
    let query = BooleanQuery::new(vec![
        (
            Occur::Must,
            Box::new(BooleanQuery::new(named)) as Box<dyn Query>,
        ),
        (Occur::Must, labels_current_query(live, labels)),
    ]);
    snapshot
        .searcher()
        .search(&query, &TextHashes)
        .map_err(searching)
}

/// A term query for a one-word phrase, a phrase query (with the analyzer's positions) for more.
fn phrase_query(snapshot: &Snapshot, field: Field, phrase: &str) -> Option<Box<dyn Query>> {
    let terms: Vec<(usize, Term)> = analysed_tokens(snapshot, phrase)
        .into_iter()
        .map(|(at, text)| (at, Term::from_field_text(field, &text)))
        .collect();
    let first = terms.first()?.0;
    Some(match terms.as_slice() {
        [(_, term)] => Box::new(TermQuery::new(term.clone(), IndexRecordOption::Basic)),
        _ => {
            let offsets = terms.into_iter().map(|(at, term)| (at - first, term));
            Box::new(PhraseQuery::new_with_offset(offsets.collect()))
        }
    })
}

/// Collects the text hashes of the matching docs.
struct TextHashes;

impl Collector for TextHashes {
    type Fruit = HashSet<TextHash>;
    type Child = TextHashesInSegment;

    fn for_segment(
        &self,
        _segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<Self::Child> {
        Ok(TextHashesInSegment {
            text_hash: column(reader, "text_hash"),
            found: HashSet::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, segments: Vec<HashSet<TextHash>>) -> tantivy::Result<Self::Fruit> {
        Ok(segments.into_iter().flatten().collect())
    }
}

struct TextHashesInSegment {
    text_hash: Option<Column>,
    found: HashSet<TextHash>,
}

impl SegmentCollector for TextHashesInSegment {
    type Fruit = HashSet<TextHash>;

    fn collect(&mut self, doc: DocId, _score: Score) {
        if let Some(column) = &self.text_hash {
            self.found
                .insert(TextHash::from_stored(column.get_val(doc)));
        }
    }

    fn harvest(self) -> HashSet<TextHash> {
        self.found
    }
}
