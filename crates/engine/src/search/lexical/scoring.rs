//! What both lexical scorers share: the BM25 query of a question's terms (with the boosted match
//! on drug names), the question analysed as the index analyses text, ranking order and the
//! fast-field columns. Builds queries and orders hits; runs no search itself.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, LazyLock};

use tantivy::columnar::ColumnValues;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Score, SegmentReader, Term};

use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_store::prehashed::Prehashed;
use drugcite_store::{Snapshot, StoreError};

/// Weight of a question word matching the drug's generic, brand or substance name
/// (`name_boost` of `tables/search/thresholds.tsv`).
static NAME_BOOST: LazyLock<Score> =
    LazyLock::new(|| crate::tables::search::threshold("name_boost") as Score);

/// A distinct text among the lexical candidates: its best-scoring copy and that copy's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LexicalHit {
    pub text: TextHash,
    pub best: Fingerprint,
    pub score: f32,
}

/// The copies that may answer, besides being current.
#[derive(Clone, Copy, Debug)]
pub(super) enum Scope<'a> {
    All,
    /// Copies in the labels of these ordinals of `snapshot.labels()` (by set id).
    Labels(&'a BTreeSet<u32>),
    /// Copies in this section.
    Section(&'a str),
}

pub(super) fn searching(source: tantivy::TantivyError) -> StoreError {
    StoreError::Index {
        context: "searching".into(),
        source,
    }
}

/// BM25 of `terms` over `text`, plus boosted over `names` when given: one should-clause per
/// term and field, in term order (both indexes build it alike, so scores sum alike).
pub(super) fn terms_query(terms: &[String], text: Field, names: Option<Field>) -> Box<dyn Query> {
    let term = |field, token: &String| -> Box<dyn Query> {
        Box::new(TermQuery::new(
            Term::from_field_text(field, token),
            IndexRecordOption::WithFreqs,
        ))
    };
    let clauses = terms
        .iter()
        .flat_map(|token| {
            let name = names.map(|names| {
                let boosted = BoostQuery::new(term(names, token), *NAME_BOOST);
                (Occur::Should, Box::new(boosted) as Box<dyn Query>)
            });
            std::iter::once((Occur::Should, term(text, token))).chain(name)
        })
        .collect();
    Box::new(BooleanQuery::new(clauses))
}

/// A filter that adds nothing to the score.
pub(super) fn unscored(query: Box<dyn Query>) -> (Occur, Box<dyn Query>) {
    (Occur::Must, Box::new(BoostQuery::new(query, 0.0)))
}

/// Whether `a` ranks before `b`: higher score, then smaller fingerprint.
pub(super) fn before(a: (Score, Fingerprint), b: (Score, Fingerprint)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// The best `limit` hits (at least one), best first.
pub(super) fn best_hits(mut hits: Vec<LexicalHit>, limit: usize) -> Vec<LexicalHit> {
    let order =
        |a: &LexicalHit, b: &LexicalHit| b.score.total_cmp(&a.score).then(a.best.cmp(&b.best));
    let limit = limit.max(1);
    if hits.len() > limit {
        hits.select_nth_unstable_by(limit - 1, order);
        hits.truncate(limit);
    }
    hits.sort_by(order);
    hits
}

/// A u64 fast-field column of one tantivy segment.
pub(super) type Column = Arc<dyn ColumnValues<u64>>;

/// The u64 fast field `name` of `reader` (its first value per doc, 0 where it has none).
pub(super) fn column(reader: &SegmentReader, name: &str) -> Option<Column> {
    drugcite_store::u64_column(reader, name)
}

/// A map keyed by text hashes (as stored, `u64`).
pub(super) type ByText<V> = HashMap<u64, V, Prehashed>;

/// The question's terms after the index's analyzer, first occurrence order, no repeats.
pub fn analyse(snapshot: &Snapshot, question: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for (_, term) in analysed_tokens(snapshot, question) {
        if !terms.contains(&term) {
            terms.push(term);
        }
    }
    terms
}

/// Every token of `text` after the index's analyzer, with the bytes of `text` it was read
/// from, in order; empty when the index has no analyzer for its text.
pub fn analysed_spans(snapshot: &Snapshot, text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let Ok(mut analyzer) = snapshot.index().tokenizer_for_field(snapshot.fields().text) else {
        return Vec::new();
    };
    let mut stream = analyzer.token_stream(text);
    let mut tokens = Vec::new();
    while let Some(token) = stream.next() {
        tokens.push((token.offset_from..token.offset_to, token.text.clone()));
    }
    tokens
}

/// Every token of `text` after the index's analyzer, with its position (stop words leave
/// gaps), in order; empty when the index has no analyzer for its text.
pub(super) fn analysed_tokens(snapshot: &Snapshot, text: &str) -> Vec<(usize, String)> {
    let Ok(mut analyzer) = snapshot.index().tokenizer_for_field(snapshot.fields().text) else {
        return Vec::new();
    };
    let mut stream = analyzer.token_stream(text);
    let mut tokens = Vec::new();
    while let Some(token) = stream.next() {
        tokens.push((token.position, token.text.clone()));
    }
    tokens
}
