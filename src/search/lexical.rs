//! Lexical candidates: the question analysed like the label text, scored by BM25 over segment
//! text plus a boosted match on the drug's names (so a brand finds its generic's labels).
//! Ties are broken by fingerprint, so the order never depends on index layout or threads.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, Score, SegmentReader, Term};

use crate::domain::Fingerprint;
use crate::store::{Snapshot, StoreError};

/// Weight of a question word matching the drug's generic, brand or substance name.
const NAME_BOOST: Score = 1.5;

type RankKey = (Score, Reverse<u64>, Reverse<u64>);

/// The best `limit` current segments by BM25, best first, with their scores; only segments of
/// the labels (by ordinal) in `within` when given, with the same scores as unrestricted.
pub fn lexical_candidates(
    snapshot: &Snapshot,
    question: &str,
    limit: usize,
    within: Option<&BTreeSet<u32>>,
) -> Result<Vec<(Fingerprint, f32)>, StoreError> {
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
    let query = BooleanQuery::new(required);
    let collector = TopDocs::with_limit(limit.max(1)).tweak_score(rank_by_score_then_fingerprint);
    let ranked = snapshot
        .searcher()
        .search(&query, &collector)
        .map_err(|source| StoreError::Index {
            context: "searching".into(),
            source,
        })?;
    Ok(ranked
        .into_iter()
        .map(|((score, Reverse(high), Reverse(low)), _)| {
            (Fingerprint::from_halves(high, low), score)
        })
        .collect())
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

fn rank_by_score_then_fingerprint(segment: &SegmentReader) -> impl FnMut(DocId, Score) -> RankKey {
    let column = |name| {
        segment
            .fast_fields()
            .u64(name)
            .ok()
            .map(|c| c.first_or_default_col(0))
    };
    let (high, low) = (column("fp_high"), column("fp_low"));
    move |doc, score| {
        let value = |c: &Option<std::sync::Arc<dyn tantivy::columnar::ColumnValues<u64>>>| {
            c.as_ref().map_or(0, |c| c.get_val(doc))
        };
        (score, Reverse(value(&high)), Reverse(value(&low)))
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
