//! Lexical candidates: the question analysed like the label text, scored by BM25 over segment
//! text plus a boosted match on the drug's names (so a brand finds its generic's labels).
//! Collapsed by text inside retrieval (`DistinctTexts`, on the `text_hash` fast field): a
//! paragraph repeated by hundreds of labels takes one place among the candidates. Ties are
//! broken by fingerprint, so the order never depends on index layout or threads.

use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::ColumnValues;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader, Term};

use crate::domain::{Fingerprint, TextHash};
use crate::store::{Snapshot, StoreError};

/// Weight of a question word matching the drug's generic, brand or substance name.
const NAME_BOOST: Score = 1.5;

/// A distinct text among the lexical candidates: its best-scoring copy and that copy's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LexicalHit {
    pub text: TextHash,
    pub best: Fingerprint,
    pub score: f32,
}

/// The best `limit` distinct current texts by BM25, best first, each with its best copy; only
/// segments of the labels (by ordinal) in `within` when given, with the same scores as
/// unrestricted.
pub fn lexical_candidates(
    snapshot: &Snapshot,
    question: &str,
    limit: usize,
    within: Option<&BTreeSet<u32>>,
) -> Result<Vec<LexicalHit>, StoreError> {
    let terms = analyse(snapshot, question);
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let fields = snapshot.fields();
    let clauses: Vec<(Occur, Box<dyn Query>)> = terms
        .iter()
        .flat_map(|token| {
            let text = TermQuery::new(
                Term::from_field_text(fields.text, token),
                IndexRecordOption::WithFreqs,
            );
            let name = TermQuery::new(
                Term::from_field_text(fields.names, token),
                IndexRecordOption::WithFreqs,
            );
            [
                (Occur::Should, Box::new(text) as Box<dyn Query>),
                (
                    Occur::Should,
                    Box::new(BoostQuery::new(Box::new(name), NAME_BOOST)),
                ),
            ]
        })
        .collect();
    let mut required: Vec<(Occur, Box<dyn Query>)> = vec![
        (Occur::Must, Box::new(BooleanQuery::new(clauses))),
        (Occur::Must, snapshot.current_query()),
    ];
    if let Some(labels) = within {
        let only_labels = BoostQuery::new(labels_query(snapshot, labels), 0.0);
        required.push((Occur::Must, Box::new(only_labels)));
    }
    distinct_texts(snapshot, &BooleanQuery::new(required), limit)
}

/// The best `limit` distinct current texts of the section `section_key` by BM25 of `terms`
/// (analysed already) over their text alone, best first.
pub fn section_candidates(
    snapshot: &Snapshot,
    terms: &[String],
    section_key: &str,
    limit: usize,
) -> Result<Vec<LexicalHit>, StoreError> {
    let text = snapshot.fields().text;
    let clauses: Vec<(Occur, Box<dyn Query>)> = terms
        .iter()
        .map(|token| {
            let term = Term::from_field_text(text, token);
            let query = TermQuery::new(term, IndexRecordOption::WithFreqs);
            (Occur::Should, Box::new(query) as Box<dyn Query>)
        })
        .collect();
    let query = BooleanQuery::new(vec![
        (
            Occur::Must,
            Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>,
        ),
        (Occur::Must, snapshot.current_query()),
        (
            Occur::Must,
            Box::new(BoostQuery::new(section_query(snapshot, section_key), 0.0)),
        ),
    ]);
    distinct_texts(snapshot, &query, limit)
}

fn section_query(snapshot: &Snapshot, section_key: &str) -> Box<dyn Query> {
    let term = Term::from_field_text(snapshot.fields().section_key, section_key);
    Box::new(TermQuery::new(term, IndexRecordOption::Basic))
}

fn distinct_texts(
    snapshot: &Snapshot,
    query: &dyn Query,
    limit: usize,
) -> Result<Vec<LexicalHit>, StoreError> {
    snapshot
        .searcher()
        .search(query, &DistinctTexts { limit })
        .map_err(|source| StoreError::Index {
            context: "searching".into(),
            source,
        })
}

/// Matches the segments of the labels `labels` (ordinals of `snapshot.labels()`), by set id: a
/// segment's doc names the version that first held it.
fn labels_query(snapshot: &Snapshot, labels: &BTreeSet<u32>) -> Box<dyn Query> {
    let field = snapshot.fields().set_id;
    let clauses = labels
        .iter()
        .filter_map(|&label| snapshot.labels().get(label as usize))
        .map(|meta| {
            let term = Term::from_field_text(field, &meta.set_id);
            let query = TermQuery::new(term, IndexRecordOption::Basic);
            (Occur::Should, Box::new(query) as Box<dyn Query>)
        })
        .collect();
    Box::new(BooleanQuery::new(clauses))
}

/// Collects the best `limit` distinct texts: per text hash, the copy with the highest score
/// (the smaller fingerprint on a tie), then the texts by that score.
struct DistinctTexts {
    limit: usize,
}

type Columns = Option<Arc<dyn ColumnValues<u64>>>;

/// Text hashes are SHA-256 bytes already: the map uses them as they are, no second hash.
#[derive(Default)]
struct AlreadyHashed(u64);

impl Hasher for AlreadyHashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 << 8) | u64::from(*byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type ByText<V> = HashMap<u64, V, BuildHasherDefault<AlreadyHashed>>;

struct DistinctTextsInSegment {
    text_hash: Columns,
    fp_high: Columns,
    fp_low: Columns,
    best: ByText<(Score, Fingerprint)>,
}

/// Whether `a` ranks before `b`: higher score, then smaller fingerprint.
fn before(a: (Score, Fingerprint), b: (Score, Fingerprint)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl Collector for DistinctTexts {
    type Fruit = Vec<LexicalHit>;
    type Child = DistinctTextsInSegment;

    fn for_segment(
        &self,
        _segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<Self::Child> {
        let column = |name| {
            reader
                .fast_fields()
                .u64(name)
                .ok()
                .map(|c| c.first_or_default_col(0))
        };
        Ok(DistinctTextsInSegment {
            text_hash: column("text_hash"),
            fp_high: column("fp_high"),
            fp_low: column("fp_low"),
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
        let mut hits: Vec<LexicalHit> = best.into_values().collect();
        let order =
            |a: &LexicalHit, b: &LexicalHit| b.score.total_cmp(&a.score).then(a.best.cmp(&b.best));
        let limit = self.limit.max(1);
        if hits.len() > limit {
            hits.select_nth_unstable_by(limit - 1, order);
            hits.truncate(limit);
        }
        hits.sort_by(order);
        Ok(hits)
    }
}

impl SegmentCollector for DistinctTextsInSegment {
    type Fruit = Vec<LexicalHit>;

    fn collect(&mut self, doc: DocId, score: Score) {
        let value = |c: &Columns| c.as_ref().map_or(0, |c| c.get_val(doc));
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

/// The question's terms after the index's analyzer, first occurrence order, no repeats.
pub fn analyse(snapshot: &Snapshot, question: &str) -> Vec<String> {
    let Ok(mut analyzer) = snapshot.index().tokenizer_for_field(snapshot.fields().text) else {
        return Vec::new();
    };
    let mut stream = analyzer.token_stream(question);
    let mut terms: Vec<String> = Vec::new();
    while let Some(token) = stream.next() {
        if !terms.contains(&token.text) {
            terms.push(token.text.clone());
        }
    }
    terms
}
