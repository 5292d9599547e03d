//! What retrieval gathers for one question before ranking: BM25 candidates over the whole
//! index and within the subject's labels, the subject's texts nearest the question, and its
//! texts naming the question's partners. Reads the live generation; never ranks.

use std::collections::{HashMap, HashSet};

use super::features::NamedTexts;
use super::lexical::{
    analyse, labels_candidates, labels_texts, labels_texts_naming, lexical_candidates,
    lexical_candidates_and_within, LexicalHit,
};
use crate::index::effects::{EffectIndex, EFFECT_SECTIONS};
use crate::index::vectors::DenseIndex;
use crate::index::Live;
use crate::understand::Understanding;
use drugcite_core::domain::TextHash;
use drugcite_store::StoreError;

/// Dense candidates: texts and their similarity to the question.
type DenseCandidates = Vec<(TextHash, f32)>;

/// Extra BM25 candidates taken from the subject drug's (or class's) own labels (a pool size).
const SUBJECT_CANDIDATES: usize = 100;
/// Dense candidates from the subject's own texts: of the first asked section, of all its
/// sections, and the most of its texts read to choose them (pool sizes).
const SECTION_CANDIDATES: usize = 20;
const SUBJECT_NEAREST: usize = 30;
const SUBJECT_TEXTS_READ: usize = 5_000;

/// BM25 candidates for `text` over the whole index, joined by the best ones within the
/// subject's labels (a class or brand the text rarely spells out still reaches its labels).
/// When the subject is a drug, its labels are searched for `subject_text` (the text without
/// its name): there the name says nothing about a passage but how often it repeats it. Those
/// scores are set on the whole-index scale (the subject's best text scores what the subject's
/// best scored there), and the subject's texts found only by their name keep no BM25 score.
pub(super) fn lexical_pool(
    live: &Live,
    (text, subject_text): (&str, &str),
    pool: usize,
    understanding: &Understanding,
) -> Result<Vec<LexicalHit>, StoreError> {
    let Some(subject) = understanding.subject() else {
        return lexical_candidates(live, text, pool, None);
    };
    let labels = &subject.labels;
    if subject_text == text || analyse(&live.snapshot, subject_text).is_empty() {
        let subject = (labels, SUBJECT_CANDIDATES);
        let (lexical, within) = lexical_candidates_and_within(live, text, pool, subject)?;
        return Ok(joined(lexical, within));
    }
    let mut everywhere = lexical_candidates(live, text, pool, None)?;
    let mut within = labels_candidates(live, subject_text, labels, SUBJECT_CANDIDATES)?;
    let in_subject = |hit: &LexicalHit| {
        live.copies
            .of(hit.text, &live.catalog)
            .any(|(_, info)| labels.contains(&info.label))
    };
    let mut anchor = None;
    for hit in everywhere.iter_mut().filter(|hit| in_subject(hit)) {
        anchor.get_or_insert(hit.score);
        hit.score = 0.0;
    }
    let anchor = anchor.or(everywhere.first().map(|hit| hit.score));
    let best_within = within
        .first()
        .map_or(1.0, |hit| hit.score)
        .max(f32::EPSILON);
    let scale = anchor.unwrap_or(best_within) / best_within;
    within.iter_mut().for_each(|hit| hit.score *= scale);
    Ok(joined(within, everywhere))
}

/// The subject's texts nearest to the question: the `SECTION_CANDIDATES` of the section it
/// asks for first and the `SUBJECT_NEAREST` of all its sections (`subject_texts`). A label's
/// words need not be the question's ("overdose" and "overdosage" stem apart), so BM25 alone can
/// miss what the subject's label says about the question.
pub(super) fn subject_nearest(
    live: &Live,
    understanding: &Understanding,
    (dense, vector): (&DenseIndex<TextHash>, &[f32]),
    subject_texts: &[TextHash],
) -> Result<Vec<(TextHash, f32)>, StoreError> {
    let Some(subject) = understanding.subject() else {
        return Ok(Vec::new());
    };
    let similarity = |text| dense.similarity(text, vector);
    let asked = match understanding.sections.first() {
        Some(section) => {
            let texts = labels_texts(live, &subject.labels, Some(section), SUBJECT_TEXTS_READ)?;
            let texts = texts.iter().map(|hit| hit.text);
            most_similar(texts, similarity, SECTION_CANDIDATES)
        }
        None => Vec::new(),
    };
    let all = most_similar(subject_texts.iter().copied(), similarity, SUBJECT_NEAREST);
    Ok(with_missing(asked, all))
}

/// The texts of the subject's labels, of every section (at most `SUBJECT_TEXTS_READ`); none
/// without a subject.
pub(super) fn subject_texts(
    live: &Live,
    understanding: &Understanding,
) -> Result<Vec<TextHash>, StoreError> {
    let Some(subject) = understanding.subject() else {
        return Ok(Vec::new());
    };
    let texts = labels_texts(live, &subject.labels, None, SUBJECT_TEXTS_READ)?;
    Ok(texts.into_iter().map(|hit| hit.text).collect())
}

/// The subject's texts naming the effects nearest the question (`effects.rs`; compared with
/// `effect_vector`, the question without its subject's words) — the label's own words for what
/// the question says in its own ("bad constipation" → "constipation with serious
/// complications") — as dense candidates (with their similarity to `vector`, the topic's, most
/// similar first) and with the similarity of the effect each names. None without a subject.
pub(super) fn effect_texts(
    live: &Live,
    understanding: &Understanding,
    subject_texts: &[TextHash],
    (effect_vector, vector): (&[f32], &[f32]),
) -> (DenseCandidates, HashMap<TextHash, f32>) {
    let (Some(subject), Some(effects), Some(dense)) =
        (understanding.subject(), &live.effects, &live.dense)
    else {
        return Default::default();
    };
    let own_word = |name: &str| EffectIndex::shares_a_word(name, &subject.word);
    let texts = subject_texts.iter().copied();
    let Some(named) = effects.nearest(texts, effect_vector, &own_word) else {
        return Default::default();
    };
    tracing::debug!(effects = ?named.names, similarity = named.similarity, texts = named.texts.len(), "effect named");
    let similarity = |text| dense.similarity(text, vector);
    let candidates = most_similar(named.texts.keys().copied(), similarity, usize::MAX);
    (candidates, named.texts)
}

/// Whether the question may ask what its subject causes: it has a subject whose texts'
/// effects can be compared with it, and it asks first for no section or for one stating
/// effects (`EFFECT_SECTIONS`; "valsartan while pregnant" or "alectinib severe renal
/// impairment" name the patient's condition, not an effect).
pub(super) fn asks_about_effect(live: &Live, understanding: &Understanding) -> bool {
    let first = understanding.sections.first();
    live.effects.is_some()
        && understanding.subject().is_some()
        && first.is_none_or(|section| EFFECT_SECTIONS.contains(section))
}

/// The `keep` texts of `texts` most similar by `similarity` (those without one left out),
/// best first, ties to the smaller hash.
fn most_similar(
    texts: impl Iterator<Item = TextHash>,
    similarity: impl Fn(TextHash) -> Option<f32>,
    keep: usize,
) -> Vec<(TextHash, f32)> {
    let mut scored: Vec<(TextHash, f32)> = texts
        .filter_map(|text| Some((text, similarity(text)?)))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(keep);
    scored
}

/// `found` and the texts of `more` it lacks.
pub(super) fn with_missing(
    found: Vec<(TextHash, f32)>,
    more: Vec<(TextHash, f32)>,
) -> Vec<(TextHash, f32)> {
    with_missing_by(found, more, |(text, _)| *text)
}

/// `found` and the items of `more` whose text (`text_of`) it lacks, in that order.
fn with_missing_by<T>(mut found: Vec<T>, more: Vec<T>, text_of: impl Fn(&T) -> TextHash) -> Vec<T> {
    let known: HashSet<TextHash> = found.iter().map(&text_of).collect();
    found.extend(
        more.into_iter()
            .filter(|item| !known.contains(&text_of(item))),
    );
    found
}

/// The texts of the subject's labels that name a partner and of the partners' labels that name
/// the subject (none without a partner).
pub(super) fn partner_texts(
    live: &Live,
    understanding: &Understanding,
) -> Result<NamedTexts, StoreError> {
    let names = &understanding.partner_names;
    let (Some(subject), false) = (understanding.drugs.first(), names.is_empty()) else {
        return Ok(NamedTexts::default());
    };
    let naming_partner = labels_texts_naming(live, names, &subject.labels)?;
    let naming_subject = labels_texts_naming(
        live,
        &understanding.subject_names,
        &understanding.partner_labels,
    )?;
    Ok(NamedTexts {
        naming_partner,
        naming_subject,
        ..NamedTexts::default()
    })
}

/// `first` and the texts of `then` it lacks, best first.
fn joined(first: Vec<LexicalHit>, then: Vec<LexicalHit>) -> Vec<LexicalHit> {
    let mut joined = with_missing_by(first, then, |hit| hit.text);
    joined.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.best.cmp(&b.best)));
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subjects_nearest_texts_join_the_dense_candidates() {
        let text = TextHash::from_stored;
        let everywhere = vec![(text(1), 0.9), (text(2), 0.8)];
        let similarity = |t: TextHash| (t != text(5)).then_some(0.1 * t.get() as f32);
        let subject = most_similar([3, 4, 5, 1].map(text).into_iter(), similarity, 2);
        assert_eq!(
            subject,
            [(text(4), 0.4), (text(3), 0.3)],
            "no vector: left out"
        );
        let joined = with_missing(everywhere, subject);
        assert_eq!(
            joined.len(),
            4,
            "texts the nearest overall did not reach join them"
        );
        assert_eq!(
            with_missing(joined.clone(), vec![(text(1), 0.1)]),
            joined,
            "a text already found keeps its place and similarity"
        );
    }
}
