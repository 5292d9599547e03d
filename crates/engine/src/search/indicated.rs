//! A medicine named by the condition it treats ("gout medicine…", "migraine shot…", "what
//! treats…", "drugs for hyperkalemia"): when a question names no drug and no class (and, asking
//! for drugs in general, names what they are for), the condition its words name
//! (`understanding::medicine_condition`) selects the labels indicated for it — by BM25 over
//! Indications and Usage sections, and by meaning: the nearest opening vectors of those sections
//! and of the patient sections' answers to "What is (drug)?" (`openings.rs`) — given by the
//! routes the noun implies (a shot is injected, a pill swallowed); BM25's labels count only when one of them is also near in meaning. They then
//! stand as the question's subject, and a question asking nothing else asks for their
//! Indications; named after a joining word beside a subject ("azathioprine with gout
//! medicine"), they are its partners. Reads the index; never ranks.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, LazyLock};

use crate::embed::EmbedError;
use crate::error::EngineError;
use crate::index::Live;
use crate::search::lexical::{analyse, section_candidates};
use crate::tables::search as tables;
use crate::understand::medicine::{form_routes, JOINING_WORDS};
use crate::understand::medicine_condition::{
    condition_of_medicine, readings_of_medicine, MedicineCondition,
};
use crate::understand::{paired_sections, DrugMention, Understanding};
use drugcite_core::domain::TextHash;
use drugcite_store::StoreError;

/// The section whose text says what a drug treats (role `indications` of
/// `tables/search/section-roles.tsv`).
static INDICATIONS: LazyLock<&'static str> =
    LazyLock::new(|| tables::sections_with_role("indications")[0]);
/// Indications texts scored (a pool size).
const TEXTS: usize = 200;
/// A label is indicated when its Indications text scores at least this share of the best
/// (`indicated_share_of_best`).
static SHARE_OF_BEST: LazyLock<f32> =
    LazyLock::new(|| tables::threshold("indicated_share_of_best") as f32);
/// At most this many labels, best first (a pool size).
const MAX_LABELS: usize = 150;
/// A medicine named as a partner by its condition stands for at most this many labels; more
/// ("pain medicine") name no particular partner (`indicated_max_partner_labels`).
static MAX_PARTNER_LABELS: LazyLock<usize> =
    LazyLock::new(|| tables::threshold("indicated_max_partner_labels") as usize);
/// A label is indicated by meaning when one of its openings (an Indications text's, a patient
/// section's self-description) is at least this similar to the condition (unit vectors;
/// unrelated openings score about 0.1–0.3)…
static MEANING_FLOOR: LazyLock<f32> =
    LazyLock::new(|| tables::threshold("indicated_meaning_floor") as f32);
/// …and within this margin of the most similar opening.
static MEANING_MARGIN: LazyLock<f32> =
    LazyLock::new(|| tables::threshold("indicated_meaning_margin") as f32);

/// Gives a phrase's transformer vector (the searcher's, through its query-vector cache).
pub type EmbedPhrase<'a> = dyn Fn(&str) -> Result<Arc<Vec<f32>>, EmbedError> + 'a;

/// `understanding` with the labels indicated for the condition it names as its subject, when
/// it names no drug and no class, and asks for drugs in general only by what they are for
/// ("drugs for hyperkalemia"; not "drugs that cause hyperkalemia"); unchanged otherwise.
/// `embed` gives a phrase's transformer vector; without it (or opening vectors) the labels are
/// those BM25 finds.
pub fn with_indicated_subject(
    live: &Live,
    mut understanding: Understanding,
    embed: Option<&EmbedPhrase<'_>>,
) -> Result<Understanding, EngineError> {
    if !understanding.drugs.is_empty() {
        return Ok(understanding);
    }
    let is_word = |word: &str| !analyse(&live.snapshot, word).is_empty();
    let readings = readings_of_medicine(&understanding.topic, is_word);
    let Some(named) = likeliest_reading(live, readings, embed)? else {
        return Ok(understanding);
    };
    if understanding.subject_open && !named.by_purpose {
        return Ok(understanding);
    }
    let phrase = named.words.join(" ");
    let routes = named.noun.and_then(|noun| form_routes().get(noun));
    let labels = labels_indicated_for(live, &phrase, routes, embed)?;
    if !labels.is_empty() {
        understanding.subject_open = false;
        if named.asks_what_treats && understanding.sections.is_empty() {
            understanding.sections = vec![*INDICATIONS];
        } else {
            understanding.subject_keywords = without_phrase(&understanding.keywords, &phrase);
        }
        understanding.drugs.push(DrugMention {
            word: phrase,
            class: None,
            labels,
            combinations: BTreeSet::new(),
        });
    }
    Ok(understanding)
}

/// Of the readings of a medicine's condition, the one some label's Indications opening is
/// nearest in meaning to ("fungal eye infection", not "eye", of "eye drops for a fungal eye
/// infection"; "heartburn", not "years broken hip", of "heartburn pills for years broken
/// hip"); the first when there is one reading or no vectors to weigh them by. (On every
/// question of our files the meaning agrees with the readings' order.)
fn likeliest_reading<'a>(
    live: &Live,
    readings: Vec<MedicineCondition<'a>>,
    embed: Option<&EmbedPhrase<'_>>,
) -> Result<Option<MedicineCondition<'a>>, EngineError> {
    let (Some(embed), Some(openings), true) = (embed, &live.openings, readings.len() > 1) else {
        return Ok(readings.into_iter().next());
    };
    most_similar(readings, |reading| {
        let vector = embed(&reading.words.join(" "))?;
        let nearest = openings.nearest(&vector, 1);
        Ok(nearest
            .first()
            .map_or(f32::MIN, |(_, similarity)| *similarity))
    })
}

/// The item of `items` with the highest `similarity`, the earliest of equals; `None` when
/// there is none.
fn most_similar<T, E>(
    items: Vec<T>,
    mut similarity: impl FnMut(&T) -> Result<f32, E>,
) -> Result<Option<T>, E> {
    let mut best: Option<(f32, T)> = None;
    for item in items {
        let score = similarity(&item)?;
        if best.as_ref().is_none_or(|(top, _)| score > *top) {
            best = Some((score, item));
        }
    }
    Ok(best.map(|(_, item)| item))
}

/// `understanding` with the labels indicated for a condition as partners of its subject, when
/// it names a second medicine by that condition after a joining word ("azathioprine with gout
/// medicine", "erection pill with chest pain medicine"): the names their texts use for them
/// and their classes ("allopurinol", "xanthine oxidase inhibitors"; "nitrates"), not the
/// condition's own words, join the partner names the subject's texts are searched for, and the
/// question asks for a pair's sections; more than `MAX_PARTNER_LABELS` name none. Unchanged
/// otherwise.
pub fn with_indicated_partner(
    live: &Live,
    mut understanding: Understanding,
    embed: Option<&EmbedPhrase<'_>>,
) -> Result<Understanding, EngineError> {
    let Some(subject) = understanding.subject().cloned() else {
        return Ok(understanding);
    };
    let is_word = |word: &str| !analyse(&live.snapshot, word).is_empty();
    let Some((phrase, noun)) = joined_medicine(&understanding.topic, &subject.word, is_word) else {
        return Ok(understanding);
    };
    let routes = form_routes().get(noun);
    let mut labels = labels_indicated_for(live, &phrase, routes, embed)?;
    labels.retain(|label| !subject.labels.contains(label));
    if labels.len() > *MAX_PARTNER_LABELS {
        return Ok(understanding);
    }
    let partner = DrugMention {
        word: phrase,
        class: None,
        labels,
        combinations: BTreeSet::new(),
    };
    let mut names = live.vocabulary.names_of(&partner);
    names.remove(&partner.word);
    understanding.partner_names.extend(names);
    if understanding.subject_names.is_empty() {
        understanding.subject_names = live.vocabulary.names_of(&subject);
    }
    understanding.partner_labels.extend(partner.labels);
    understanding.sections = paired_sections(std::mem::take(&mut understanding.sections));
    Ok(understanding)
}

/// The condition words and medicine noun of a medicine named by its condition after a joining
/// word of `topic`, when they are not the subject's own (`subject_word`).
fn joined_medicine(
    topic: &str,
    subject_word: &str,
    is_word: impl Fn(&str) -> bool + Copy,
) -> Option<(String, &'static str)> {
    let words: Vec<&str> = topic.split(' ').collect();
    let joins = words
        .iter()
        .enumerate()
        .filter(|(_, w)| JOINING_WORDS.contains(w));
    joins.into_iter().find_map(|(at, _)| {
        let after = words[at + 1..].join(" ");
        let named = condition_of_medicine(&after, is_word);
        let phrase = named.words.join(" ");
        let noun = named.noun?;
        (!phrase.is_empty() && phrase != subject_word).then_some((phrase, noun))
    })
}

/// The current labels indicated for the condition `phrase`, given by one of `routes` when some
/// are named: by BM25 over Indications texts (confirmed by one near in meaning) and by the
/// nearest Indications openings; when neither finds one, by BM25 over the label wording of the
/// phrase's everyday words.
fn labels_indicated_for(
    live: &Live,
    phrase: &str,
    routes: Option<&Vec<String>>,
    embed: Option<&EmbedPhrase<'_>>,
) -> Result<BTreeSet<u32>, EngineError> {
    let condition = analyse(&live.snapshot, phrase);
    if condition.is_empty() {
        return Ok(BTreeSet::new());
    }
    let by_meaning = match (embed, &live.openings) {
        (Some(embed), Some(openings)) => openings.nearest(&embed(phrase)?, TEXTS),
        _ => Vec::new(),
    };
    let near = near_in_meaning(live, &by_meaning);
    let mut labels = corroborated(indicated_labels(live, &condition, routes)?, near.as_ref());
    let by_meaning_labels = labels_by_meaning(live, &by_meaning, routes);
    trace_indicated(live, phrase, &labels, &by_meaning, &by_meaning_labels);
    labels.extend(by_meaning_labels);
    if labels.is_empty() {
        let worded = indicated_by_label_wording(live, phrase, routes)?;
        labels = corroborated(worded, near.as_ref());
    }
    Ok(labels)
}

/// Logs (at debug) the labels a condition selected by its words and by meaning, with the
/// nearest openings: the diagnosis of a question whose described drug comes back wrong.
fn trace_indicated(
    live: &Live,
    phrase: &str,
    by_words: &BTreeSet<u32>,
    by_meaning: &[(TextHash, f32)],
    by_meaning_labels: &BTreeSet<u32>,
) {
    if !tracing::enabled!(tracing::Level::DEBUG) {
        return;
    }
    let name = |label: &u32| live.snapshot.labels()[*label as usize].drug.name.clone();
    let nearest: Vec<_> = by_meaning
        .iter()
        .take(8)
        .map(|(text, similarity)| {
            let label = live.copies.of(*text, &live.catalog).next();
            (label.map(|(_, info)| name(&info.label)), *similarity)
        })
        .collect();
    tracing::debug!(
        phrase,
        by_words = ?by_words.iter().map(name).collect::<Vec<_>>(),
        ?nearest,
        by_meaning = ?by_meaning_labels.iter().map(name).collect::<Vec<_>>(),
        "labels indicated for a medicine's condition"
    );
}

/// The labels with an opening among `nearest` (the `TEXTS` openings most similar to the
/// condition: Indications texts and patient self-descriptions); `None` without them (no model
/// or no opening vectors).
fn near_in_meaning(live: &Live, nearest: &[(TextHash, f32)]) -> Option<BTreeSet<u32>> {
    let labels = nearest
        .iter()
        .flat_map(|(text, _)| live.copies.of(*text, &live.catalog))
        .map(|(_, info)| info.label);
    (!nearest.is_empty()).then(|| labels.collect())
}

/// The labels BM25 found, unless the meaning contradicts them all: when a condition's word is
/// only mentioned in passing ("refined sugars" for "sugar"), none of the labels BM25 finds is
/// near it in meaning, and they would stand as the subject of a question about other drugs.
/// One near label confirms BM25 read the condition (an abbreviation, "PBC", is far in meaning
/// from most of the labels it names).
fn corroborated(found: BTreeSet<u32>, near: Option<&BTreeSet<u32>>) -> BTreeSet<u32> {
    match near {
        Some(near) if found.is_disjoint(near) => BTreeSet::new(),
        _ => found,
    }
}

/// `keywords` (words joined by single spaces) without the first run of words equal to `phrase`:
/// within the labels indicated for a condition, its name is in every passage, as a drug's is.
fn without_phrase(keywords: &str, phrase: &str) -> String {
    let words: Vec<&str> = keywords.split(' ').collect();
    let phrase: Vec<&str> = phrase.split(' ').collect();
    let at = words
        .windows(phrase.len())
        .position(|w| w == phrase.as_slice());
    let kept = words
        .iter()
        .enumerate()
        .filter(|(i, _)| at.is_none_or(|at| !(at..at + phrase.len()).contains(i)));
    kept.map(|(_, w)| *w).collect::<Vec<_>>().join(" ")
}

/// The labels indicated for the label wording of the everyday phrases `phrase` holds
/// ("erectile" of "erection"), read only when the question's own words find none: a label
/// names the condition in its own words.
fn indicated_by_label_wording(
    live: &Live,
    phrase: &str,
    routes: Option<&Vec<String>>,
) -> Result<BTreeSet<u32>, StoreError> {
    let wording = live.vocabulary.label_wording_of(phrase).join(" ");
    let condition = analyse(&live.snapshot, &wording);
    if condition.is_empty() {
        return Ok(BTreeSet::new());
    }
    indicated_labels(live, &condition, routes)
}

/// The current labels, given by one of `routes` when some are named, whose Indications text
/// matches `condition` by BM25 within `SHARE_OF_BEST` of the best of them, at most
/// `MAX_LABELS`, best first (then by ordinal).
fn indicated_labels(
    live: &Live,
    condition: &[String],
    routes: Option<&Vec<String>>,
) -> Result<BTreeSet<u32>, StoreError> {
    let hits = section_candidates(live, condition, *INDICATIONS, TEXTS)?;
    let given_so = |label: u32| given_by(live, label, routes);
    let mut by_label: BTreeMap<u32, f32> = BTreeMap::new();
    for hit in &hits {
        for (_, info) in live.copies.of(hit.text, &live.catalog) {
            if given_so(info.label) {
                let score = by_label.entry(info.label).or_insert(hit.score);
                *score = score.max(hit.score);
            }
        }
    }
    let best = by_label.values().copied().fold(0.0, f32::max);
    let mut ranked: Vec<(u32, f32)> = by_label
        .into_iter()
        .filter(|(_, score)| *score >= *SHARE_OF_BEST * best)
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(ranked
        .into_iter()
        .take(MAX_LABELS)
        .map(|(label, _)| label)
        .collect())
}

/// The current labels, given by one of `routes` when some are named, with an Indications
/// text in `nearest` (texts with the similarity of their opening to the condition, best
/// first) at least `MEANING_FLOOR` similar and within `MEANING_MARGIN` of the best.
fn labels_by_meaning(
    live: &Live,
    nearest: &[(TextHash, f32)],
    routes: Option<&Vec<String>>,
) -> BTreeSet<u32> {
    let Some(&(_, best)) = nearest.first() else {
        return BTreeSet::new();
    };
    let close = |similarity: f32| similarity >= MEANING_FLOOR.max(best - *MEANING_MARGIN);
    nearest
        .iter()
        .take_while(|(_, similarity)| close(*similarity))
        .flat_map(|(text, _)| live.copies.of(*text, &live.catalog))
        .map(|(_, info)| info.label)
        .filter(|label| given_by(live, *label, routes))
        .collect()
}

/// Whether `label` is given by one of `routes` (any route when none are named).
fn given_by(live: &Live, label: u32, routes: Option<&Vec<String>>) -> bool {
    routes.is_none_or(|routes| {
        let given = &live.snapshot.labels()[label as usize].drug.route;
        given
            .iter()
            .any(|r| routes.iter().any(|w| r.eq_ignore_ascii_case(w)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_medicine_named_by_its_condition_after_a_joining_word_is_a_partner() {
        let is_word = |w: &str| !["with", "for", "my", "a", "the", "can", "i", "take"].contains(&w);
        let joined = |topic, subject| joined_medicine(topic, subject, is_word);
        assert_eq!(
            joined("with gout medicine", "azathioprine"),
            Some(("gout".to_owned(), "medicine"))
        );
        assert_eq!(
            joined("for pku with parkinsons medicine", "sapropterin"),
            Some(("parkinsons".to_owned(), "medicine"))
        );
        assert_eq!(
            joined("erection pill with chest pain medicine", "erection"),
            Some(("chest pain".to_owned(), "medicine")),
            "the subject's own medicine is no partner"
        );
        assert_eq!(
            joined("gout medicine side effects", "x"),
            None,
            "nothing joined"
        );
        assert_eq!(
            joined("with grapefruit juice", "x"),
            None,
            "no medicine noun"
        );
    }

    #[test]
    fn the_reading_nearest_in_meaning_wins_and_the_first_of_equals() {
        let similarity = |reading: &&str| -> Result<f32, ()> {
            Ok(match *reading {
                "fungal eye infection" => 0.51,
                "eye" => 0.30,
                _ => 0.30,
            })
        };
        assert_eq!(
            most_similar(vec!["eye", "fungal eye infection"], similarity),
            Ok(Some("fungal eye infection")),
            "the nearer reading, though second"
        );
        assert_eq!(
            most_similar(vec!["eye", "other"], similarity),
            Ok(Some("eye")),
            "equals keep their order"
        );
        assert_eq!(most_similar(Vec::<&str>::new(), similarity), Ok(None));
    }

    #[test]
    fn the_condition_leaves_the_query_within_its_labels() {
        let keywords = "migraine shot that can cause bad constipation";
        assert_eq!(
            without_phrase(keywords, "migraine"),
            "shot that can cause bad constipation"
        );
        assert_eq!(without_phrase(keywords, "gout"), keywords);
    }

    #[test]
    fn labels_found_only_in_passing_are_dropped_when_none_is_near_in_meaning() {
        let found = BTreeSet::from([1, 2, 3]);
        let far = BTreeSet::from([7, 8]);
        assert!(corroborated(found.clone(), Some(&far)).is_empty());
        let one_near = BTreeSet::from([3, 9]);
        assert_eq!(
            corroborated(found.clone(), Some(&one_near)),
            found,
            "one near label confirms them all"
        );
        assert_eq!(
            corroborated(found.clone(), None),
            found,
            "without vectors BM25 decides"
        );
    }
}
