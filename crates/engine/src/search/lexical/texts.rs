//! Lexical candidates over the distinct-text index: BM25 scores each (text, section, names) doc
//! once, with the segment index's statistics, then each text is answered by its best current
//! copy, found through the segment index's `copy_key` column. The work grows with the distinct
//! texts that match, not with their copies. Knows nothing of ranking.

use std::collections::BTreeSet;
use std::sync::Arc;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader, Term};

use super::scoring::{best_hits, column, terms_query, unscored, ByText, Column, LexicalHit, Scope};
use super::segments::labels_current_query;
use super::top_texts::{self, TextFilter};
use crate::index::{Live, LiveTexts};
use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_store::{SegmentAddress, SegmentInfo, SegmentStatistics, Snapshot, TextsIndex};

/// One matching distinct doc: its text, which copies it stands for, and their score.
#[derive(Clone, Copy, Debug)]
struct Matched {
    text: u64,
    key: u64,
    score: Score,
}

pub(super) fn candidates(
    live: &Live,
    index: &TextsIndex,
    terms: &[String],
    with_names: bool,
    scope: Scope,
    limit: usize,
) -> tantivy::Result<Vec<LexicalHit>> {
    let matched = matched_docs(live, index, terms, with_names, scope)?;
    hits_in_scope(live, &matched, scope, limit)
}

/// The best `limit` texts over every current copy, and the best `subject_limit` among the
/// copies in the labels `subject`: one query answers both (the same terms score alike in both).
pub(super) fn candidates_and_within(
    live: &Live,
    index: &TextsIndex,
    terms: &[String],
    (limit, subject, subject_limit): (usize, &BTreeSet<u32>, usize),
) -> tantivy::Result<(Vec<LexicalHit>, Vec<LexicalHit>)> {
    let matched = matched_docs(live, index, terms, true, Scope::All)?;
    let all = hits_in_scope(live, &matched, Scope::All, limit)?;
    let within = hits_in_scope(live, &matched, Scope::Labels(subject), subject_limit)?;
    Ok((all, within))
}

fn hits_in_scope(
    live: &Live,
    matched: &[Matched],
    scope: Scope,
    limit: usize,
) -> tantivy::Result<Vec<LexicalHit>> {
    Ok(match scope {
        Scope::Labels(labels) => within_labels(live, matched, labels, limit)?,
        Scope::All | Scope::Section(_) => over_current(live, matched, limit),
    })
}

/// Every distinct doc matching `terms` (and the section of a section scope) with a current
/// copy, with its score; a labels scope is applied by the caller.
fn matched_docs(
    live: &Live,
    index: &TextsIndex,
    terms: &[String],
    with_names: bool,
    scope: Scope,
) -> tantivy::Result<Vec<Matched>> {
    let fields = index.fields();
    let names = with_names.then_some(fields.names);
    let mut required: Vec<(Occur, Box<dyn Query>)> =
        vec![(Occur::Must, terms_query(terms, fields.text, names))];
    if let Scope::Section(key) = scope {
        let term = Term::from_field_text(fields.section_key, key);
        required.push(unscored(Box::new(TermQuery::new(
            term,
            IndexRecordOption::Basic,
        ))));
    }
    let segments = live.snapshot.searcher();
    let statistics = SegmentStatistics {
        segments: &segments,
        segment_fields: live.snapshot.fields(),
        text_fields: fields,
    };
    let Some(live_texts) = &live.live_texts else {
        return Ok(Vec::new());
    };
    index.searcher().search_with_statistics_provider(
        &BooleanQuery::new(required),
        &MatchedDocs { live: live_texts },
        &statistics,
    )
}

/// The best `limit` texts among every current copy: the texts whose best doc reaches the
/// `limit`-th best score are resolved to their copies (ties at that score included).
fn over_current(live: &Live, matched: &[Matched], limit: usize) -> Vec<LexicalHit> {
    let keys = CopyKeys::read(&live.snapshot);
    let scores: Vec<(u64, Score)> = matched.iter().map(|doc| (doc.text, doc.score)).collect();
    let threshold = top_texts::threshold(scores, limit);
    let mut wanted: ByText<Vec<(u64, Score)>> = matched
        .iter()
        .filter(|doc| doc.score >= threshold)
        .map(|doc| (doc.text, Vec::new()))
        .collect();
    let filter = TextFilter::of(wanted.keys().copied());
    for doc in matched.iter().filter(|doc| filter.may_hold(doc.text)) {
        if let Some(docs) = wanted.get_mut(&doc.text) {
            docs.push((doc.key, doc.score));
        }
    }
    let hits = wanted.into_iter().filter_map(|(text, docs)| {
        let copies = live.copies.of(TextHash::from_stored(text), &live.catalog);
        let key_of = |(fp, info): (Fingerprint, SegmentInfo)| (fp, Some(keys.at(info.address)));
        best_copy(|| copies.clone().map(key_of), &docs).map(|(best, score)| LexicalHit {
            text: TextHash::from_stored(text),
            best,
            score,
        })
    });
    best_hits(hits.collect(), limit)
}

/// The best `limit` texts among the current copies in `labels`.
fn within_labels(
    live: &Live,
    matched: &[Matched],
    labels: &BTreeSet<u32>,
    limit: usize,
) -> tantivy::Result<Vec<LexicalHit>> {
    let copies = copies_in(live, labels)?;
    let mut docs: ByText<Vec<(u64, Score)>> = ByText::default();
    for doc in matched.iter().filter(|doc| copies.contains_key(&doc.text)) {
        docs.entry(doc.text).or_default().push((doc.key, doc.score));
    }
    let hits = docs.into_iter().filter_map(|(text, docs)| {
        let held = &copies[&text];
        best_copy(|| held.iter().map(|&(fp, key)| (fp, Some(key))), &docs).map(|(best, score)| {
            LexicalHit {
                text: TextHash::from_stored(text),
                best,
                score,
            }
        })
    });
    Ok(best_hits(hits.collect(), limit))
}

/// The best copy of a text and its score: among `copies` (fingerprint order, each with its
/// doc's key), the first whose doc scored highest in `docs`. Looks no further than that copy
/// when it holds the best doc of all, as it does unless that doc's copies are all ineligible.
fn best_copy<I: Iterator<Item = (Fingerprint, Option<u64>)>>(
    copies: impl Fn() -> I,
    docs: &[(u64, Score)],
) -> Option<(Fingerprint, Score)> {
    let score_of = |key: Option<u64>| {
        let key = key?;
        docs.iter()
            .find(|(k, _)| *k == key)
            .map(|(_, score)| *score)
    };
    let top = docs
        .iter()
        .map(|(_, s)| *s)
        .fold(Score::NEG_INFINITY, Score::max);
    if let Some((fp, _)) = copies().find(|(_, key)| score_of(*key) == Some(top)) {
        return Some((fp, top));
    }
    copies()
        .filter_map(|(fp, key)| score_of(key).map(|score| (fp, score)))
        .fold(None, |best, (fp, score)| match best {
            Some((_, kept)) if kept >= score => best,
            _ => Some((fp, score)),
        })
}

/// The current copies in `labels` of each text, fingerprint order, with their doc's key.
fn copies_in(
    live: &Live,
    labels: &BTreeSet<u32>,
) -> tantivy::Result<ByText<Vec<(Fingerprint, u64)>>> {
    let query = labels_current_query(live, labels);
    let found = live.snapshot.searcher().search(&query, &CopiesCollector)?;
    let mut by_text: ByText<Vec<(Fingerprint, u64)>> = ByText::default();
    for (text, fp, key) in found {
        by_text.entry(text).or_default().push((fp, key));
    }
    by_text
        .values_mut()
        .for_each(|copies| copies.sort_unstable());
    Ok(by_text)
}

/// The segment index's `copy_key` column per tantivy segment.
struct CopyKeys {
    by_segment: Vec<Option<Column>>,
}

impl CopyKeys {
    fn read(snapshot: &Snapshot) -> Self {
        let by_segment = snapshot
            .searcher()
            .segment_readers()
            .iter()
            .map(|reader| column(reader, "copy_key"))
            .collect();
        Self { by_segment }
    }

    fn at(&self, address: SegmentAddress) -> u64 {
        let address = address.0;
        self.by_segment
            .get(address.segment_ord as usize)
            .and_then(Option::as_ref)
            .map_or(0, |c| c.get_val(address.doc_id))
    }
}

/// Every matching distinct doc with a current copy, with its score.
struct MatchedDocs<'a> {
    live: &'a LiveTexts,
}

struct MatchedInSegment {
    live: Arc<[bool]>,
    text_hash: Option<Column>,
    copy_key: Option<Column>,
    matched: Vec<Matched>,
}

impl Collector for MatchedDocs<'_> {
    type Fruit = Vec<Matched>;
    type Child = MatchedInSegment;

    fn for_segment(
        &self,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<Self::Child> {
        let live = self.live.segment(segment);
        Ok(MatchedInSegment {
            live: live.unwrap_or_else(|| Arc::from(Vec::new())),
            text_hash: column(reader, "text_hash"),
            copy_key: column(reader, "copy_key"),
            matched: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, segments: Vec<Vec<Matched>>) -> tantivy::Result<Vec<Matched>> {
        Ok(segments.into_iter().flatten().collect())
    }
}

impl SegmentCollector for MatchedInSegment {
    type Fruit = Vec<Matched>;

    fn collect(&mut self, doc: DocId, score: Score) {
        if !self.live.get(doc as usize).copied().unwrap_or(false) {
            return;
        }
        let value = |c: &Option<Column>| c.as_ref().map_or(0, |c| c.get_val(doc));
        self.matched.push(Matched {
            text: value(&self.text_hash),
            key: value(&self.copy_key),
            score,
        });
    }

    fn harvest(self) -> Vec<Matched> {
        self.matched
    }
}

/// The (text hash, fingerprint, copy key) of every matching segment.
struct CopiesCollector;

struct CopiesInSegment {
    columns: [Option<Column>; 4],
    found: Vec<(u64, Fingerprint, u64)>,
}

impl Collector for CopiesCollector {
    type Fruit = Vec<(u64, Fingerprint, u64)>;
    type Child = CopiesInSegment;

    fn for_segment(
        &self,
        _: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<Self::Child> {
        Ok(CopiesInSegment {
            columns: ["text_hash", "fp_high", "fp_low", "copy_key"]
                .map(|name| column(reader, name)),
            found: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(
        &self,
        segments: Vec<Vec<(u64, Fingerprint, u64)>>,
    ) -> tantivy::Result<Self::Fruit> {
        Ok(segments.into_iter().flatten().collect())
    }
}

impl SegmentCollector for CopiesInSegment {
    type Fruit = Vec<(u64, Fingerprint, u64)>;

    fn collect(&mut self, doc: DocId, _: Score) {
        let [text, high, low, key] = self
            .columns
            .each_ref()
            .map(|c| c.as_ref().map_or(0, |c| c.get_val(doc)));
        self.found
            .push((text, Fingerprint::from_halves(high, low), key));
    }

    fn harvest(self) -> Self::Fruit {
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(i: u32) -> Fingerprint {
        Fingerprint::of_segment(&format!("set-{i}"), "warnings", "the same text")
    }

    #[test]
    fn the_best_copy_is_the_first_holding_the_best_doc_else_the_best_eligible_one() {
        let mut copies = [
            (fp(0), Some(7)),
            (fp(1), Some(9)),
            (fp(2), Some(9)),
            (fp(3), None),
        ];
        copies.sort_by_key(|(fp, _)| *fp);
        let first_with = |key| copies.iter().find(|(_, k)| *k == Some(key)).unwrap().0;
        let docs = [(7, 1.0), (9, 2.0)];
        let found = best_copy(|| copies.iter().copied(), &docs);
        assert_eq!(
            found,
            Some((first_with(9), 2.0)),
            "the named copies score 2"
        );
        let stale = [(7, 1.0), (9, 2.0), (11, 3.0)];
        let found = best_copy(|| copies.iter().copied(), &stale);
        assert_eq!(found, Some((first_with(9), 2.0)), "no copy holds doc 11");
        let tied = [(7, 2.0), (9, 2.0)];
        let found = best_copy(|| copies.iter().copied(), &tied);
        let first_keyed = copies.iter().find(|(_, k)| k.is_some()).unwrap().0;
        assert_eq!(
            found,
            Some((first_keyed, 2.0)),
            "a tie goes to the smaller fingerprint"
        );
        assert_eq!(best_copy(|| copies.iter().copied(), &[(5, 1.0)]), None);
    }
}
