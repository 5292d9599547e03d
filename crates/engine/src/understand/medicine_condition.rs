//! Which words of a question name a medicine by its condition ("gout medicine…", "drug for
//! pulmonary arterial hypertension", "what treats tardive dyskinesia"), the noun naming it,
//! whether the words are what it is for, and whether the question asks nothing but what treats
//! the condition. Pure word work; selecting the labels for the condition is
//! `search::indicated`'s.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::LazyLock;

use super::medicine::{medicine_noun, JOINING_WORDS};
use super::word_tables::{self, threshold, WordClass};
use crate::conditions::lexicon::curated_terms;
use drugcite_core::text::name_words;

/// Words taken as the condition, at most: before a medicine noun, after its "for" or after a
/// treating verb.
static MAX_MODIFIERS: LazyLock<usize> = LazyLock::new(|| threshold("max_modifiers"));

// `question-words.tsv` names the verbs whose object is the condition a medicine treats ("what
// treats tardive dyskinesia", `treating-verb`) and the nouns for a medicine by what it does,
// read as a medicine noun is ("treatment for PNH", "hepatitis C treatment"; `treatment-noun`);
// they imply no route.

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

/// Words asking for the medicines there are, not about one ("PBC treatment options";
/// `question-words.tsv`, `choice`): a question of a condition, a medicine noun and these asks
/// what treats the condition.
fn is_choice_word(word: &str) -> bool {
    word_tables::words(WordClass::Choice).contains(&word)
}

/// Whether `word` is a determiner or a possessive: the words that may open a purpose phrase
/// before its condition ("for a fungal eye infection", "for my kid's warts").
fn is_determiner(word: &str) -> bool {
    word_tables::words(WordClass::Article).contains(&word)
        || word_tables::words(WordClass::Possessive).contains(&word)
}

/// What names the medicine in a question: a treating verb, or a medicine noun (singular).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Anchor {
    Verb,
    Noun(&'static str),
}

fn anchor(word: &str) -> Option<Anchor> {
    if word_tables::words(WordClass::TreatingVerb).contains(&word) {
        return Some(Anchor::Verb);
    }
    let treatment = || {
        let singular = word.strip_suffix('s').unwrap_or(word);
        word_tables::words(WordClass::TreatmentNoun)
            .iter()
            .find(|noun| **noun == word || **noun == singular)
            .copied()
    };
    medicine_noun(word).or_else(treatment).map(Anchor::Noun)
}

/// The condition of the first medicine noun or treating verb of `text`: the first of
/// `readings_of_medicine`, or no words and no noun without an anchor.
pub fn condition_of_medicine(text: &str, is_word: impl Fn(&str) -> bool) -> MedicineCondition<'_> {
    readings_of_medicine(text, is_word)
        .into_iter()
        .next()
        .unwrap_or(MedicineCondition {
            words: Vec::new(),
            noun: None,
            by_purpose: false,
            asks_what_treats: false,
        })
}

/// The readings of the condition of the first medicine noun or treating verb of `text`, the
/// likelier first; none without an anchor. A verb's condition is its object ("tardive
/// dyskinesia" of "what treats tardive dyskinesia"). A noun's is its purpose phrase when that
/// is a curated condition term ("constipation" of "pill for constipation from…"), else the
/// words right before it when they are one; when neither is, both are readings ("non hormone"
/// and "hot flashes" of "non hormone pill for hot flashes"; the words before first unless a
/// word of the purpose phrase is a condition term), and which the labels' indications mean is
/// for the caller to weigh. Each is at most `MAX_MODIFIERS` words and stops at a word
/// `is_word` rejects (a stop word) or a verb opening a yes/no question ("can"). A reading asks
/// what treats the condition when the question's other words are stop words or choice words
/// ("rls medication", "PBC treatment options"; not "antibiotic for uti and now my tendon
/// hurts").
pub fn readings_of_medicine(
    text: &str,
    is_word: impl Fn(&str) -> bool,
) -> Vec<MedicineCondition<'_>> {
    let words: Vec<&str> = name_words(text).collect();
    let Some((at, anchor)) = words
        .iter()
        .enumerate()
        .find_map(|(at, w)| Some((at, anchor(w)?)))
    else {
        return Vec::new();
    };
    let modifier =
        |word: &&str| is_word(word) && !word_tables::words(WordClass::Auxiliary).contains(word);
    let (readings, noun) = match anchor {
        Anchor::Verb => {
            let object = object_of(&words[at + 1..], modifier);
            let span = at..at + 1 + object.len();
            (vec![(object, span, true)], None)
        }
        Anchor::Noun(noun) => (readings_of_noun(&words, at, &modifier), Some(noun)),
    };
    readings
        .into_iter()
        .map(|(condition, span, by_purpose)| {
            let asks_nothing_else = words
                .iter()
                .enumerate()
                .filter(|(i, _)| !span.contains(i))
                .all(|(_, w)| !modifier(w) || is_choice_word(w));
            MedicineCondition {
                asks_what_treats: !condition.is_empty() && asks_nothing_else,
                by_purpose: by_purpose && !condition.is_empty(),
                words: condition,
                noun,
            }
        })
        .collect()
}

/// A reading of a noun's condition: its words, the positions of the noun and those words, and
/// whether they are the noun's purpose phrase.
type NounReading<'a> = (Vec<&'a str>, Range<usize>, bool);

/// The readings of the condition of the medicine noun at `at` in `words` (see
/// `readings_of_medicine`), at least one. The purpose phrase follows "for" and any
/// determiners, also after a choice word ("treatment options for …"); read as the condition,
/// it makes the words before the noun part of the medicine's name ("eye" of "eye drops for a
/// fungal eye infection"), not something else the question asks.
fn readings_of_noun<'a>(
    words: &[&'a str],
    at: usize,
    modifier: &impl Fn(&&str) -> bool,
) -> Vec<NounReading<'a>> {
    let (opening, after) = match &words[at + 1..] {
        ["for", rest @ ..] => (1, rest),
        [choice, "for", rest @ ..] if is_choice_word(choice) => (2, rest),
        _ => (0, &[][..]),
    };
    let determiners = after.iter().take_while(|word| is_determiner(word)).count();
    let (opening, after) = (opening + determiners, &after[determiners..]);
    let run = leading_run(after, modifier);
    let mut start = at;
    while start > 0 && at - start < *MAX_MODIFIERS && opens_no_phrase(words[start - 1], modifier) {
        start -= 1;
    }
    let purpose = curated_prefix(&run);
    if !purpose.is_empty() {
        let span = start..at + 1 + opening + purpose.len();
        return vec![(purpose, span, true)];
    }
    let before = (words[start..at].to_vec(), start..at + 1, false);
    let opened = if run.is_empty() { 0 } else { opening };
    let purpose = (run.clone(), start..at + 1 + opened + run.len(), true);
    let run_names_one = run
        .iter()
        .any(|word| names_condition(std::slice::from_ref(word)));
    match (before.0.is_empty(), run.is_empty()) {
        (true, _) => vec![purpose],
        (false, true) => vec![before],
        (false, false) if names_condition(&before.0) => vec![before],
        (false, false) if run_names_one => vec![purpose, before],
        (false, false) => vec![before, purpose],
    }
}

/// Whether `word`, right before a medicine noun's condition words, is one of them: a
/// determiner or possessive opens the noun phrase ("my" of "taking my anxiety medicine") and a
/// joining word links it to what comes before ("taking", "with"), so neither is, nor anything
/// before them.
fn opens_no_phrase(word: &str, modifier: &impl Fn(&&str) -> bool) -> bool {
    modifier(&word) && !is_determiner(word) && !JOINING_WORDS.contains(&word)
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
        .take(*MAX_MODIFIERS)
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
    is_term(&TERMS, words)
}

/// Whether `words`, joined by spaces, are one of `terms`, the last word's plural "s" ignored.
fn is_term(terms: &HashSet<String>, words: &[&str]) -> bool {
    let phrase = words.join(" ");
    terms.contains(&phrase)
        || phrase
            .strip_suffix('s')
            .is_some_and(|singular| terms.contains(singular))
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
    fn a_determiner_or_a_joining_word_opens_the_words_before_the_noun() {
        let before = |text| condition_of_medicine(text, |w| w != "i").words;
        assert_eq!(before("can i stop taking my anxiety medicine"), ["anxiety"]);
        assert_eq!(
            before("took my weekly arthritis pill"),
            ["weekly", "arthritis"]
        );
        assert_eq!(before("grapefruit juice with gout medicine"), ["gout"]);
        assert_eq!(before("migraine shot"), ["migraine"]);
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
            modifiers("eye drops for a fungal eye infection"),
            ["fungal", "eye", "infection"],
            "determiners open the purpose phrase"
        );
        assert_eq!(
            modifiers("medicine for seizures liver enzymes"),
            ["seizures"],
            "the condition ends where the curated term does"
        );
    }

    #[test]
    fn words_before_the_noun_and_a_purpose_naming_no_condition_term_are_both_readings() {
        let stop = ["for", "a", "my"];
        let readings = |text| {
            readings_of_medicine(text, |w| !stop.contains(&w))
                .into_iter()
                .map(|r| (r.words.join(" "), r.by_purpose))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            readings("non hormone pill for hot flashes"),
            [
                ("non hormone".to_owned(), false),
                ("hot flashes".to_owned(), true)
            ]
        );
        assert_eq!(
            readings("heartburn pills for years broken hip"),
            [
                ("heartburn".to_owned(), false),
                ("years broken hip".to_owned(), true)
            ]
        );
        assert_eq!(
            readings("pill for constipation from pain meds"),
            [("constipation".to_owned(), true)],
            "a purpose that is a condition term is the one reading"
        );
        assert!(readings("does it cause rash").is_empty(), "no anchor");
        let fungal = readings_of_medicine("eye drops for a fungal infection", |w| w != "a");
        assert!(
            fungal.iter().any(|r| r.by_purpose && r.asks_what_treats),
            "read by its purpose, the words before the noun name the medicine: nothing else is asked"
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
