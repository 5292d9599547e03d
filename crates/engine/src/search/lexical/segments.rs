//! Lexical candidates over every segment, for a generation written before the distinct-text
//! index: BM25 scores each copy, and the collector keeps per text hash its best-scoring copy.
//! Its cost grows with the copies of each text; `texts.rs` is the path for newer generations.

use std::collections::BTreeSet;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader, Term};

use super::scoring::{
    before, best_hits, column, terms_query, unscored, ByText, Column, LexicalHit, Scope,
};
use crate::index::Live;
use drugcite_core::domain::{Fingerprint, TextHash};

pub(super) fn candidates(
    live: &Live,
    terms: &[String],
    with_names: bool,
    scope: Scope,
    limit: usize,
) -> tantivy::Result<Vec<LexicalHit>> {
    let snapshot = &live.snapshot;
    let fields = snapshot.fields();
    let names = with_names.then_some(fields.names);
    let mut required: Vec<(Occur, Box<dyn Query>)> =
        vec![(Occur::Must, terms_query(terms, fields.text, names))];
    match scope {
        Scope::All => required.push((Occur::Must, snapshot.current_query())),
        Scope::Labels(labels) => required.push(unscored(labels_current_query(live, labels))),
        Scope::Section(key) => {
            required.push((Occur::Must, snapshot.current_query()));
            let term = Term::from_field_text(fields.section_key, key);
            let section = TermQuery::new(term, IndexRecordOption::Basic);
            required.push(unscored(Box::new(section)));
        }
    }
    snapshot
        .searcher()
        .search(&BooleanQuery::new(required), &DistinctTexts { limit })
}

/// Every distinct current text within the labels `labels` (ordinals of `snapshot.labels()`),
/// of the section `section_key` when given, at most `limit`, unscored (score 0), smaller
/// fingerprint first.
pub(super) fn labels_texts(
    live: &Live,
    labels: &BTreeSet<u32>,
    section_key: Option<&str>,
    limit: usize,
) -> tantivy::Result<Vec<LexicalHit>> {
    let snapshot = &live.snapshot;
    let mut required: Vec<(Occur, Box<dyn Query>)> =
        vec![unscored(labels_current_query(live, labels))];
    if let Some(key) = section_key {
        let term = Term::from_field_text(snapshot.fields().section_key, key);
        required.push(unscored(Box::new(TermQuery::new(
            term,
            IndexRecordOption::Basic,
        ))));
    }
    snapshot
        .searcher()
        .search(&BooleanQuery::new(required), &DistinctTexts { limit })
}

/// Matches the current segments of the labels `labels` (ordinals of `snapshot.labels()`), by
/// set id (`LabelRows`): a segment's doc names the version that first held it.
pub(super) fn labels_current_query(live: &Live, labels: &BTreeSet<u32>) -> Box<dyn Query> {
    let addresses = live.label_rows.current_addresses(labels);
    live.snapshot.docs_query(&addresses)
}

/// Collects the best `limit` distinct texts: per text hash, the copy with the highest score
/// (the smaller fingerprint on a tie), then the texts by that score.
struct DistinctTexts {
    limit: usize,
}

struct DistinctTextsInSegment {
    text_hash: Option<Column>,
    fp_high: Option<Column>,
    fp_low: Option<Column>,
    best: ByText<(Score, Fingerprint)>,
}

impl Collector for DistinctTexts {
    type Fruit = Vec<LexicalHit>;
    type Child = DistinctTextsInSegment;

    fn for_segment(
        &self,
        _segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<Self::Child> {
        Ok(DistinctTextsInSegment {
            text_hash: column(reader, "text_hash"),
            fp_high: column(reader, "fp_high"),
            fp_low: column(reader, "fp_low"),
            best: ByText::default(),
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, segments: Vec<Vec<LexicalHit>>) -> tantivy::Result<Vec<LexicalHit>> {
        let mut best: ByText<LexicalHit> = ByText::default();
        for hit in segments.into_iter().flatten() {
            let kept = best.entry(hit.text.get()).or_insert(hit);
            if before((hit.score, hit.best), (kept.score, kept.best)) {
                *kept = hit;
            }
        }
        Ok(best_hits(best.into_values().collect(), self.limit))
    }
}

impl SegmentCollector for DistinctTextsInSegment {
    type Fruit = Vec<LexicalHit>;

    fn collect(&mut self, doc: DocId, score: Score) {
        let value = |c: &Option<Column>| c.as_ref().map_or(0, |c| c.get_val(doc));
        let fingerprint = Fingerprint::from_halves(value(&self.fp_high), value(&self.fp_low));
        let kept = self
            .best
            .entry(value(&self.text_hash))
            .or_insert((score, fingerprint));
        if before((score, fingerprint), *kept) {
            *kept = (score, fingerprint);
        }
    }

    fn harvest(self) -> Vec<LexicalHit> {
        self.best
            .into_iter()
            .map(|(text, (score, best))| LexicalHit {
                text: TextHash::from_stored(text),
                best,
                score,
            })
            .collect()
    }
}
