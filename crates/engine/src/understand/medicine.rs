//! Nouns that refer to a medicine ("pill", "shot", "medicine") with the routes a form noun
//! implies, and whether a question names a second medicine by such a noun ("viagra with nitro
//! pills"). Word rules over the curated tables; knows nothing of labels or ranking.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::LazyLock;

use super::word_tables::{threshold, words, WordClass};
use drugcite_core::text::name_words;

/// Words joining a second thing to the subject: "X with …", "X while on …", "X and …"
/// (`function-words.tsv`, class `joining`).
pub static JOINING_WORDS: LazyLock<&'static [&'static str]> =
    LazyLock::new(|| words(WordClass::Joining));

/// Nouns that refer to a medicine: the last words of the curated class phrases people use
/// ("cholesterol medicine", "sleeping pill", "water pill"), those that end `class_phrase_nouns`
/// phrases or more, and the nouns of `graph/medicine-forms.tsv` ("shot", "inhaler").
pub fn medicine_nouns() -> &'static BTreeSet<String> {
    static NOUNS: LazyLock<BTreeSet<String>> = LazyLock::new(|| {
        let mut ending: BTreeMap<String, usize> = BTreeMap::new();
        for class in crate::curated::drug_classes() {
            for term in &class.terms {
                let words: Vec<&str> = name_words(term).collect();
                if let [_, .., last] = words.as_slice() {
                    *ending.entry((*last).to_owned()).or_default() += 1;
                }
            }
        }
        let heads = ending
            .into_iter()
            .filter(|(_, phrases)| *phrases >= threshold("class_phrase_nouns"))
            .map(|(noun, _)| noun);
        heads.chain(form_routes().keys().cloned()).collect()
    });
    &NOUNS
}

/// The routes (lowercase) each form noun implies.
pub fn form_routes() -> &'static BTreeMap<String, Vec<String>> {
    static ROUTES: LazyLock<BTreeMap<String, Vec<String>>> = LazyLock::new(|| {
        crate::curated::medicine_forms()
            .into_iter()
            .map(|form| (form.noun, form.routes))
            .collect()
    });
    &ROUTES
}

/// The medicine noun `word` is, in the singular ("pills" is "pill").
pub fn medicine_noun(word: &str) -> Option<&'static str> {
    let nouns = medicine_nouns();
    nouns
        .get(word)
        .or_else(|| nouns.get(word.strip_suffix('s')?))
        .map(String::as_str)
}

/// The routes of every form noun among `tokens` ("pills" → oral, "drops" → ophthalmic, otic,
/// nasal).
pub(super) fn named_form_routes(tokens: &[&str]) -> BTreeSet<String> {
    let routes = tokens
        .iter()
        .filter_map(|t| form_routes().get(medicine_noun(t)?));
    routes.flatten().cloned().collect()
}

/// Whether `tokens` name a medicine besides the subject at `subject` by a medicine noun outside
/// every span of `mentions`: before the subject ("my other pills … X"), or after it past a
/// joining word ("X with nitro pills", "X while on pain pills"). A noun right after the name
/// without one is the subject's own form ("dantrolene capsules", "timolol eye drops").
pub(super) fn names_another_medicine(
    tokens: &[&str],
    subject: &Range<usize>,
    mentions: &[Range<usize>],
) -> bool {
    let outside = |at: usize| !mentions.iter().any(|span| span.contains(&at));
    let joined = |at: usize| {
        tokens[subject.end..at]
            .iter()
            .any(|w| JOINING_WORDS.contains(w))
    };
    (0..tokens.len()).any(|at| {
        let other = at < subject.start || (at >= subject.end && joined(at));
        other && outside(at) && medicine_noun(tokens[at]).is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_another(question: &str, subject: Range<usize>) -> bool {
        let tokens: Vec<&str> = question.split(' ').collect();
        names_another_medicine(&tokens, &subject, std::slice::from_ref(&subject))
    }

    #[test]
    fn medicine_nouns_come_from_class_phrases_and_forms() {
        assert!(medicine_nouns().contains("medicine"));
        assert_eq!(medicine_noun("pills"), Some("pill"));
        assert_eq!(medicine_noun("pill"), Some("pill"));
        assert_eq!(medicine_noun("pillow"), None);
        assert!(form_routes()["shot"].contains(&"subcutaneous".to_owned()));
        assert_eq!(form_routes()["pill"], ["oral"]);
    }

    #[test]
    fn a_joined_or_earlier_medicine_noun_names_another_medicine() {
        assert!(names_another(
            "viagra with nitro pills for chest pain",
            0..1
        ));
        assert!(names_another("naltrexone while on pain pills", 0..1));
        assert!(names_another("sertraline with other medicines", 0..1));
        assert!(names_another(
            "how far apart from my other pills should I take lokelma",
            10..11
        ));
    }

    #[test]
    fn the_subjects_own_form_names_no_other_medicine() {
        assert!(!names_another("dantrolene capsules uses", 0..1));
        assert!(!names_another("timolol eye drops blurry vision", 0..1));
        assert!(!names_another("metformin kidney function", 0..1));
        assert!(
            !names_another("zolpidem with alcohol", 0..1),
            "no medicine noun"
        );
    }
}
