//! Lexical candidates: the question analysed like the label text, scored by BM25 over segment
//! text plus a boosted match on the drug's names (so a brand finds its generic's labels), one
//! candidate per distinct current text with its best copy. Scored over the distinct-text index
//! (`texts.rs`: each text once, with the segment index's statistics, so the same scores) or, in
//! a generation written before that index, over every segment (`segments.rs`). Ties go to the
//! smaller fingerprint, so the order never depends on index layout or threads.

mod naming;
mod scoring;
mod segments;
mod texts;
mod top_texts;

pub use naming::labels_texts_naming;

use std::collections::BTreeSet;

use crate::index::Live;
use drugcite_store::StoreError;
use scoring::{searching, Scope};

pub use scoring::{analyse, analysed_spans, LexicalHit};

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
    segments::candidates(live, &terms, true, Scope::Labels(labels), limit).map_err(searching)
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
    segments::labels_texts(live, labels, section_key, limit).map_err(searching)
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
        None => segments::candidates(live, terms, with_names, scope, limit),
    };
    found.map_err(searching)
}

/// The share of the index's segments (every copy, current or not) that hold the rarest term
/// `word` is analysed into: how specific the word is to a few texts. 1 for a word the
/// analyzer drops.
pub fn word_share(live: &Live, word: &str) -> Result<f64, StoreError> {
    let snapshot = &live.snapshot;
    let searcher = snapshot.searcher();
    let total = searcher.num_docs().max(1) as f64;
    let field = snapshot.fields().text;
    let mut share: f64 = 1.0;
    for term in analyse(snapshot, word) {
        let term = tantivy::Term::from_field_text(field, &term);
        let holding = searcher.doc_freq(&term).map_err(searching)?;
        share = share.min(holding as f64 / total);
    }
    Ok(share)
}
