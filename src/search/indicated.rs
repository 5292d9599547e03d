//! A medicine named by the condition it treats ("gout medicine…", "migraine shot…", "medicine
//! for seizures…"): when a question names no drug and no class, the condition of a noun that
//! refers to a medicine (its purpose phrase, else the words right before it) selects the labels
//! indicated for it — by BM25 over Indications and Usage sections, and by meaning: the nearest
//! opening vectors of those sections (`openings.rs`) — given by the routes the noun implies (a
//! shot is injected, a pill swallowed); they then stand as the question's subject. Reads the
//! index; never ranks.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use crate::conditions::lexicon::curated_terms;
use crate::domain::TextHash;
use crate::embed::EmbedError;
use crate::engine::EngineError;
use crate::live::Live;
use crate::search::lexical::{analyse, section_candidates};
use crate::search::understanding::form::AUXILIARY_VERBS;
use crate::search::understanding::medicine::{form_routes, medicine_noun};
use crate::search::understanding::{DrugMention, Understanding};
use crate::store::StoreError;
use crate::text::name_words;

/// The section whose text says what a drug treats.
const INDICATIONS: &str = "indications_and_usage";
/// Words before the medicine noun taken as the condition, at most.
const MAX_MODIFIERS: usize = 3;
/// Indications texts scored.
const TEXTS: usize = 200;
/// A label is indicated when its Indications text scores at least this share of the best.
const SHARE_OF_BEST: f32 = 0.5;
/// At most this many labels, best first.
const MAX_LABELS: usize = 150;
/// A label is indicated by meaning when the opening of one of its Indications texts is at
/// least this similar to the condition (unit vectors; unrelated openings score about 0.1–0.3)…
const MEANING_FLOOR: f32 = 0.4;
/// …and within this margin of the most similar opening.
const MEANING_MARGIN: f32 = 0.05;

/// Gives a phrase's transformer vector (the searcher's, through its query-vector cache).
pub type EmbedPhrase<'a> = dyn Fn(&str) -> Result<Arc<Vec<f32>>, EmbedError> + 'a;

/// `understanding` with the labels indicated for the condition it names as its subject, when
/// it names no drug, no class and does not ask for drugs in general; unchanged otherwise.
/// `embed` gives a phrase's transformer vector; without it (or opening vectors) the labels are
/// those BM25 finds.
pub fn with_indicated_subject(
    live: &Live,
    mut understanding: Understanding,
    embed: Option<&EmbedPhrase<'_>>,
) -> Result<Understanding, EngineError> {
    if !understanding.drugs.is_empty() || understanding.subject_open {
        return Ok(understanding);
    }
    let is_word = |word: &str| !analyse(&live.snapshot, word).is_empty();
    let named = condition_of_medicine(&understanding.topic, is_word);
    let condition = analyse(&live.snapshot, &named.words.join(" "));
    if condition.is_empty() {
        return Ok(understanding);
    }
    let routes = named.noun.and_then(|noun| form_routes().get(noun));
    let phrase = named.words.join(" ");
    let by_meaning = match (embed, &live.openings) {
        (Some(embed), Some(openings)) => openings.nearest(&embed(&phrase)?, TEXTS),
        _ => Vec::new(),
    };
    let mut labels = indicated_labels(live, &condition, routes)?;
    labels.extend(labels_by_meaning(live, &by_meaning, routes));
    if !labels.is_empty() {
        let condition = phrase;
        if named.asks_what_treats && understanding.sections.is_empty() {
            understanding.sections = vec![INDICATIONS];
        } else {
            understanding.subject_keywords = without_phrase(&understanding.keywords, &condition);
        }
        understanding.drugs.push(DrugMention {
            word: condition,
            class: None,
            labels,
            combinations: BTreeSet::new(),
        });
    }
    Ok(understanding)
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

/// Verbs whose object is the condition a medicine treats ("what treats tardive dyskinesia").
const TREATING_VERBS: &[&str] = &["treat", "treats", "treating"];
/// Nouns for a medicine by what it does, read as a medicine noun is ("treatment for PNH",
/// "hepatitis C treatment"); they imply no route.
const TREATMENT_NOUNS: &[&str] = &["treatment", "therapy", "therapies"];

/// The condition a question names a medicine by, the medicine noun (singular; `None` after a
/// treating verb), and whether the question asks nothing but what treats the condition.
#[derive(Debug, PartialEq)]
struct MedicineCondition<'a> {
    words: Vec<&'a str>,
    noun: Option<&'static str>,
    asks_what_treats: bool,
}

impl<'a> MedicineCondition<'a> {
    fn of(words: Vec<&'a str>, noun: Option<&'static str>, asks_what_treats: bool) -> Self {
        Self {
            words,
            noun,
            asks_what_treats,
        }
    }
}

/// Words asking for the medicines there are, not about one ("PBC treatment options"): a
/// question of a condition, a medicine noun and these asks what treats the condition.
const CHOICE_WORDS: &[&str] = &["option", "options", "choice", "choices", "available"];

/// What names the medicine in a question: a treating verb, or a medicine noun (singular).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Anchor {
    Verb,
    Noun(&'static str),
}

fn anchor(word: &str) -> Option<Anchor> {
    if TREATING_VERBS.contains(&word) {
        return Some(Anchor::Verb);
    }
    let treatment = || {
        let singular = word.strip_suffix('s').unwrap_or(word);
        TREATMENT_NOUNS
            .iter()
            .find(|noun| **noun == word || **noun == singular)
            .copied()
    };
    medicine_noun(word).or_else(treatment).map(Anchor::Noun)
}

/// The condition of the first medicine noun or treating verb of `text`. A verb's condition is
/// its object ("tardive dyskinesia" of "what treats tardive dyskinesia"). A noun's is its
/// purpose phrase when that is a curated condition term ("constipation" of "pill for
/// constipation from…"), else the words right before it ("gout" of "gout medicine that…"), else
/// its whole purpose phrase ("pulmonary arterial hypertension" of "drug for pulmonary arterial
/// hypertension"). Each is at most `MAX_MODIFIERS` words and stops at a word `is_word` rejects
/// (a stop word) or a verb opening a yes/no question ("can"). The question asks what treats the
/// condition when its other words are stop words or `CHOICE_WORDS` ("rls medication", "PBC
/// treatment options"; not "antibiotic for uti and now my tendon hurts"). No words and no noun
/// without an anchor.
fn condition_of_medicine(text: &str, is_word: impl Fn(&str) -> bool) -> MedicineCondition<'_> {
    let words: Vec<&str> = name_words(text).collect();
    let Some((at, anchor)) = words
        .iter()
        .enumerate()
        .find_map(|(at, w)| Some((at, anchor(w)?)))
    else {
        return MedicineCondition::of(Vec::new(), None, false);
    };
    let modifier = |word: &&str| is_word(word) && !AUXILIARY_VERBS.contains(word);
    let (condition, span, noun) = match anchor {
        Anchor::Verb => {
            let object = object_of(&words[at + 1..], modifier);
            let span = at..at + 1 + object.len();
            (object, span, None)
        }
        Anchor::Noun(noun) => {
            let (condition, span) = condition_of_noun(&words, at, &modifier);
            (condition, span, Some(noun))
        }
    };
    let asks_nothing_else = words
        .iter()
        .enumerate()
        .filter(|(i, _)| !span.contains(i))
        .all(|(_, w)| !modifier(w) || CHOICE_WORDS.contains(w));
    let asks_what_treats = !condition.is_empty() && asks_nothing_else;
    MedicineCondition::of(condition, noun, asks_what_treats)
}

/// The condition of the medicine noun at `at` in `words` (see `condition_of_medicine`) and the
/// positions of the noun and the condition's words.
fn condition_of_noun<'a>(
    words: &[&'a str],
    at: usize,
    modifier: &impl Fn(&&str) -> bool,
) -> (Vec<&'a str>, Range<usize>) {
    let after = match &words[at + 1..] {
        ["for", rest @ ..] => rest,
        _ => &[],
    };
    let run = leading_run(after, modifier);
    let purpose = curated_prefix(&run);
    if !purpose.is_empty() {
        let span = at..at + 2 + purpose.len();
        return (purpose, span);
    }
    let mut start = at;
    while start > 0 && at - start < MAX_MODIFIERS && modifier(&words[start - 1]) {
        start -= 1;
    }
    if start < at {
        return (words[start..at].to_vec(), start..at + 1);
    }
    let span = at..at + 2 + run.len();
    (run, span)
}

/// A treating verb's object: the longest curated condition term opening `after`, else the
/// whole run of modifier words there.
fn object_of<'a>(after: &[&'a str], modifier: impl Fn(&&str) -> bool) -> Vec<&'a str> {
    let run = leading_run(after, &modifier);
    let curated = curated_prefix(&run);
    if curated.is_empty() {
        run
    } else {
        curated
    }
}

/// At most `MAX_MODIFIERS` words opening `words` that `modifier` accepts.
fn leading_run<'a>(words: &[&'a str], modifier: &impl Fn(&&str) -> bool) -> Vec<&'a str> {
    words
        .iter()
        .take(MAX_MODIFIERS)
        .take_while(|w| modifier(w))
        .copied()
        .collect()
}

/// The longest opening of `run` that is a curated condition term from a vocabulary or the
/// annotations (plural "s" ignored; terms only mined from reaction lists hold words like
/// "trial" and "hand"); empty without one: "for years" says how long, and in "for seizures
/// liver enzymes" the condition ends at "seizures".
fn curated_prefix<'a>(run: &[&'a str]) -> Vec<&'a str> {
    (1..=run.len())
        .rev()
        .map(|length| &run[..length])
        .find(|phrase| names_condition(phrase))
        .map(<[&str]>::to_vec)
        .unwrap_or_default()
}

/// Whether `words` are a curated condition term, the last word's plural "s" ignored.
fn names_condition(words: &[&str]) -> bool {
    static TERMS: LazyLock<HashSet<String>> = LazyLock::new(|| {
        curated_terms()
            .into_iter()
            .filter(|term| term.origins.vocabulary || term.origins.annotated)
            .map(|term| term.term)
            .collect()
    });
    let phrase = words.join(" ");
    TERMS.contains(&phrase)
        || phrase
            .strip_suffix('s')
            .is_some_and(|singular| TERMS.contains(singular))
}

/// The current labels, given by one of `routes` when some are named, whose Indications text
/// matches `condition` by BM25 within `SHARE_OF_BEST` of the best of them, at most
/// `MAX_LABELS`, best first (then by ordinal).
fn indicated_labels(
    live: &Live,
    condition: &[String],
    routes: Option<&Vec<String>>,
) -> Result<BTreeSet<u32>, StoreError> {
    let hits = section_candidates(live, condition, INDICATIONS, TEXTS)?;
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
        .filter(|(_, score)| *score >= SHARE_OF_BEST * best)
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
    let close = |similarity: f32| similarity >= MEANING_FLOOR.max(best - MEANING_MARGIN);
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

    fn modifiers(text: &str) -> Vec<&str> {
        let stop = ["that", "and", "the", "my", "a", "from"];
        condition_of_medicine(text, |w| !stop.contains(&w)).words
    }

    #[test]
    fn a_treating_verb_or_treatment_noun_names_the_condition_it_is_for() {
        let stop = ["what", "can", "the", "my", "a", "of", "with", "that", "and"];
        let named = |text| condition_of_medicine(text, |w| !stop.contains(&w));
        let verb = named("what treats tardive dyskinesia");
        assert_eq!(
            (verb.words, verb.noun, verb.asks_what_treats),
            (vec!["tardive", "dyskinesia"], None, true)
        );
        let noun = named("treatment for paroxysmal nocturnal hemoglobinuria");
        assert_eq!(noun.words, ["paroxysmal", "nocturnal", "hemoglobinuria"]);
        assert_eq!(
            (noun.noun, noun.asks_what_treats),
            (Some("treatment"), true)
        );
        let before = named("hepatitis c treatment with a statin");
        assert_eq!(
            (before.words, before.asks_what_treats),
            (vec!["hepatitis", "c"], false)
        );
        let options = named("pbc treatment options");
        assert_eq!(
            (options.words, options.asks_what_treats),
            (vec!["pbc"], true)
        );
        let alone = named("rls medication");
        assert_eq!((alone.words, alone.asks_what_treats), (vec!["rls"], true));
        let concern = named("antibiotic for uti and now my heel tendon hurts");
        assert_eq!(
            (concern.words, concern.asks_what_treats),
            (vec!["uti"], false)
        );
    }

    #[test]
    fn a_purpose_phrase_names_the_condition_when_no_words_precede_the_noun() {
        let named = condition_of_medicine("drug for pulmonary arterial hypertension", |w| w != "a");
        assert_eq!(named.words, ["pulmonary", "arterial", "hypertension"]);
        assert!(named.asks_what_treats);
        let gout = condition_of_medicine("gout medicine for a while", |w| w != "a");
        assert_eq!((gout.words, gout.asks_what_treats), (vec!["gout"], false));
    }

    #[test]
    fn the_condition_is_the_words_before_a_medicine_noun() {
        assert_eq!(modifiers("gout medicine that raises the risk"), ["gout"]);
        assert_eq!(
            modifiers("menopause hormone pills and memory loss"),
            ["menopause", "hormone"]
        );
        assert_eq!(modifiers("does my medicine cause rash"), Vec::<&str>::new());
        assert_eq!(
            modifiers("can fish oil pills cause afib"),
            ["fish", "oil"],
            "the verb opening a yes/no question is no condition"
        );
        assert_eq!(modifiers("drug-induced lupus"), Vec::<&str>::new());
        assert_eq!(modifiers("tumor lysis syndrome risk"), Vec::<&str>::new());
    }

    #[test]
    fn a_purpose_phrase_after_the_noun_names_the_condition() {
        assert_eq!(
            modifiers("pill for constipation from pain meds"),
            ["constipation"]
        );
        assert_eq!(
            modifiers("water pill for high blood pressure gout"),
            ["high", "blood", "pressure"]
        );
        assert_eq!(
            modifiers("heartburn pills for years broken hip"),
            ["heartburn"],
            "a length of time is no purpose"
        );
        assert_eq!(modifiers("gout medicine for a while"), ["gout"]);
        assert_eq!(
            modifiers("medicine for seizures liver enzymes"),
            ["seizures"],
            "the condition ends where the curated term does"
        );
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
    fn a_form_noun_names_the_condition_and_the_routes() {
        let is_word = |w: &str| w != "that";
        let named = condition_of_medicine("migraine shots that constipate", is_word);
        assert_eq!((named.words, named.noun), (vec!["migraine"], Some("shot")));
        assert!(form_routes()["shot"].contains(&"subcutaneous".to_owned()));
        assert_eq!(form_routes()["pill"], ["oral"]);
        let noun = condition_of_medicine("gout medicine", is_word).noun;
        assert!(noun.is_some_and(|n| !form_routes().contains_key(n)));
    }
}
