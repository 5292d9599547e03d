//! Lexical candidates: the question analysed like the label text, scored by BM25 over segment
//! text plus a boosted match on the drug's names (so a brand finds its generic's labels), one
//! candidate per distinct current text with its best copy. Scored over the distinct-text index
//! (`texts.rs`: each text once, with the segment index's statistics, so the same scores) or, in
//! a generation written before that index, over every segment (`segments.rs`). Ties go to the
//! smaller fingerprint, so the order never depends on index layout or threads.

mod naming;
mod segments;
mod texts;
mod top_texts;

pub use naming::labels_texts_naming;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, LazyLock};

use tantivy::columnar::ColumnValues;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Score, SegmentReader, Term};

use crate::index::Live;
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
enum Scope<'a> {
    All,
    /// Copies in the labels of these ordinals of `snapshot.labels()` (by set id).
    Labels(&'a BTreeSet<u32>),
    /// Copies in this section.
    Section(&'a str),
}

/// The best `limit` distinct current texts by BM25, best first, each with its best copy; only
/// copies in the labels (by ordinal) in `within` when given, with the same scores as
/// unrestricted.
pub fn lexical_candidates(
    live: &Live,
    question: &str,
    limit: usize,
    within: Option<&BTreeSet<u32>>,
) -> Result<Vec<LexicalHit>, StoreError> {
    let terms = analyse(&live.snapshot, question);
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let scope = within.map_or(Scope::All, Scope::Labels);
    candidates(live, &terms, true, scope, limit)
}

/// `lexical_candidates` of `question` over the whole index (`limit`), and within the labels
/// `subject.0` (`subject.1`): over the distinct-text index both come from one query.
pub fn lexical_candidates_and_within(
    live: &Live,
    question: &str,
    limit: usize,
    subject: (&BTreeSet<u32>, usize),
) -> Result<(Vec<LexicalHit>, Vec<LexicalHit>), StoreError> {
    let terms = analyse(&live.snapshot, question);
    if terms.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let (labels, subject_limit) = subject;
    let Some(index) = live.snapshot.texts() else {
        let all = candidates(live, &terms, true, Scope::All, limit)?;
        let within = candidates(live, &terms, true, Scope::Labels(labels), subject_limit)?;
        return Ok((all, within));
    };
    texts::candidates_and_within(live, index, &terms, (limit, labels, subject_limit))
        .map_err(searching)
}

/// The best `limit` distinct current texts among the copies in the labels `labels` (ordinals of
/// `snapshot.labels()`), by BM25 of `question` with the index's statistics. Scored copy by copy
/// on the segment index, which the labels' few segments bound (the distinct-text index would
/// score every text matching anywhere, then keep those in the labels).
pub fn labels_candidates(
    live: &Live,
    question: &str,
    labels: &BTreeSet<u32>,
    limit: usize,
) -> Result<Vec<LexicalHit>, StoreError> {
    let terms = analyse(&live.snapshot, question);
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    segments::candidates(&live.snapshot, &terms, true, Scope::Labels(labels), limit)
        .map_err(searching)
}

/// The distinct current texts within the labels `labels` (ordinals of `snapshot.labels()`),
/// of the section `section_key` when given, at most `limit`, each with score 0 and its
/// smallest fingerprint: what the subject's labels say, whatever the question's words.
pub fn labels_texts(
    live: &Live,
    labels: &BTreeSet<u32>,
    section_key: Option<&str>,
    limit: usize,
) -> Result<Vec<LexicalHit>, StoreError> {
    segments::labels_texts(&live.snapshot, labels, section_key, limit).map_err(searching)
}

/// The best `limit` distinct current texts of the section `section_key` by BM25 of `terms`
/// (analysed already) over their text alone, best first.
pub fn section_candidates(
    live: &Live,
    terms: &[String],
    section_key: &str,
    limit: usize,
) -> Result<Vec<LexicalHit>, StoreError> {
    candidates(live, terms, false, Scope::Section(section_key), limit)
}

fn candidates(
    live: &Live,
    terms: &[String],
    with_names: bool,
    scope: Scope,
    limit: usize,
) -> Result<Vec<LexicalHit>, StoreError> {
    let found = match live.snapshot.texts() {
        Some(index) => texts::candidates(live, index, terms, with_names, scope, limit),
        None => segments::candidates(&live.snapshot, terms, with_names, scope, limit),
    };
    found.map_err(searching)
}

fn searching(source: tantivy::TantivyError) -> StoreError {
    StoreError::Index {
        context: "searching".into(),
        source,
    }
}

/// BM25 of `terms` over `text`, plus boosted over `names` when given: one should-clause per
/// term and field, in term order (both indexes build it alike, so scores sum alike).
fn terms_query(terms: &[String], text: Field, names: Option<Field>) -> Box<dyn Query> {
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
fn unscored(query: Box<dyn Query>) -> (Occur, Box<dyn Query>) {
    (Occur::Must, Box::new(BoostQuery::new(query, 0.0)))
}

/// Whether `a` ranks before `b`: higher score, then smaller fingerprint.
fn before(a: (Score, Fingerprint), b: (Score, Fingerprint)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// The best `limit` hits (at least one), best first.
fn best_hits(mut hits: Vec<LexicalHit>, limit: usize) -> Vec<LexicalHit> {
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
type Column = Arc<dyn ColumnValues<u64>>;

/// The u64 fast field `name` of `reader` (its first value per doc, 0 where it has none).
fn column(reader: &SegmentReader, name: &str) -> Option<Column> {
    drugcite_store::u64_column(reader, name)
}

/// A map keyed by text hashes (as stored, `u64`).
type ByText<V> = HashMap<u64, V, Prehashed>;

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

/// Every token of `text` after the index's analyzer, with its position (stop words leave
/// gaps), in order; empty when the index has no analyzer for its text.
fn analysed_tokens(snapshot: &Snapshot, text: &str) -> Vec<(usize, String)> {
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
