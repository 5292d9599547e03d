//! Which words of a question name a medicine by its condition ("gout medicine…", "drug for
//! pulmonary arterial hypertension", "what treats tardive dyskinesia"), the noun naming it,
//! whether the words are what it is for, and whether the question asks nothing but what treats
//! the condition. Pure word work; selecting the labels for the condition is
//! `search::indicated`'s.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::LazyLock;

use super::form::AUXILIARY_VERBS;
use super::medicine::medicine_noun;
use crate::conditions::lexicon::curated_terms;
use crate::text::name_words;

/// Words taken as the condition, at most: before a medicine noun, after its "for" or after a
/// treating verb.
const MAX_MODIFIERS: usize = 3;

/// Verbs whose object is the condition a medicine treats ("what treats tardive dyskinesia").
const TREATING_VERBS: &[&str] = &["treat", "treats", "treating"];
/// Nouns for a medicine by what it does, read as a medicine noun is ("treatment for PNH",
/// "hepatitis C treatment"); they imply no route.
const TREATMENT_NOUNS: &[&str] = &["treatment", "therapy", "therapies"];

/// The condition a question names a medicine by, the medicine noun (singular; `None` after a
/// treating verb), whether the condition is what the medicine is for — its "for" phrase or a
/// treating verb's object, not words before the noun — and whether the question asks nothing
/// but what treats the condition.
#[derive(Debug, PartialEq)]
pub struct MedicineCondition<'a> {
    pub words: Vec<&'a str>,
    pub noun: Option<&'static str>,
    pub by_purpose: bool,
    pub asks_what_treats: bool,
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
pub fn condition_of_medicine(text: &str, is_word: impl Fn(&str) -> bool) -> MedicineCondition<'_> {
    let words: Vec<&str> = name_words(text).collect();
    let Some((at, anchor)) = words
        .iter()
        .enumerate()
        .find_map(|(at, w)| Some((at, anchor(w)?)))
    else {
        return MedicineCondition {
            words: Vec::new(),
            noun: None,
            by_purpose: false,
            asks_what_treats: false,
        };
    };
    let modifier = |word: &&str| is_word(word) && !AUXILIARY_VERBS.contains(word);
    let (condition, span, noun, by_purpose) = match anchor {
        Anchor::Verb => {
            let object = object_of(&words[at + 1..], modifier);
            let span = at..at + 1 + object.len();
            (object, span, None, true)
        }
        Anchor::Noun(noun) => {
            let (condition, span, by_purpose) = condition_of_noun(&words, at, &modifier);
            (condition, span, Some(noun), by_purpose)
        }
    };
    let asks_nothing_else = words
        .iter()
        .enumerate()
        .filter(|(i, _)| !span.contains(i))
        .all(|(_, w)| !modifier(w) || CHOICE_WORDS.contains(w));
    MedicineCondition {
        asks_what_treats: !condition.is_empty() && asks_nothing_else,
        by_purpose: by_purpose && !condition.is_empty(),
        words: condition,
        noun,
    }
}

/// The condition of the medicine noun at `at` in `words` (see `condition_of_medicine`), the
/// positions of the noun and the condition's words, and whether it is the noun's purpose
/// phrase. The phrase follows "for", also after a choice word ("treatment options for …"); it
/// wins over the words before the noun when they are no condition term and it holds one
/// ("prescription treatments for chronic idiopathic constipation").
fn condition_of_noun<'a>(
    words: &[&'a str],
    at: usize,
    modifier: &impl Fn(&&str) -> bool,
) -> (Vec<&'a str>, Range<usize>, bool) {
    let (opening, after) = match &words[at + 1..] {
        ["for", rest @ ..] => (1, rest),
        [choice, "for", rest @ ..] if CHOICE_WORDS.contains(choice) => (2, rest),
        _ => (0, &[][..]),
    };
    let run = leading_run(after, modifier);
    let purpose = curated_prefix(&run);
    if !purpose.is_empty() {
        let span = at..at + 1 + opening + purpose.len();
        return (purpose, span, true);
    }
    let mut start = at;
    while start > 0 && at - start < MAX_MODIFIERS && modifier(&words[start - 1]) {
        start -= 1;
    }
    let before = &words[start..at];
    let run_names_one = run
        .iter()
        .any(|word| names_condition(std::slice::from_ref(word)));
    if !before.is_empty() && (names_condition(before) || !run_names_one) {
        return (before.to_vec(), start..at + 1, false);
    }
    let opened = if run.is_empty() { 0 } else { opening };
    let span = at..at + 1 + opened + run.len();
    (run, span, true)
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

#[cfg(test)]
mod tests {
    use super::super::medicine::form_routes;
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
            (options.words, options.by_purpose, options.asks_what_treats),
            (vec!["pbc"], false, true)
        );
        let choices = named("treatment options for hyperkalemia");
        assert_eq!(
            (choices.words, choices.by_purpose, choices.asks_what_treats),
            (vec!["hyperkalemia"], true, true),
            "a choice word between the noun and its purpose"
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
        assert!(named.asks_what_treats && named.by_purpose);
        let gout = condition_of_medicine("gout medicine for a while", |w| w != "a");
        assert_eq!(
            (gout.words, gout.by_purpose, gout.asks_what_treats),
            (vec!["gout"], false, false)
        );
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
            modifiers("prescription treatments for chronic idiopathic constipation"),
            ["chronic", "idiopathic", "constipation"],
            "words before the noun that name no condition yield to a purpose that holds one"
        );
        assert_eq!(
            modifiers("medicine for seizures liver enzymes"),
            ["seizures"],
            "the condition ends where the curated term does"
        );
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
