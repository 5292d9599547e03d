//! The words of a yes/no question that nothing read, looked up in the texts its drugs' labels
//! state caution in: a phrase of them that a Contraindications, Boxed Warning or Warnings
//! sentence of the drug's own labels contains ("closed epiphyses", "tracheoesophageal
//! fistula"; also as one item of a list sharing its last word, "protein C, protein S, or
//! antithrombin deficiency") is a condition the question asks about, in the label's words, so the verdict's
//! floor reads it; an everyday word also as the labels' word for it (`lay-terms.tsv`: "wine"
//! as alcohol). Only ever adds a condition found in those texts; never guesses a meaning.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::LazyLock;

use drugcite_core::text::{alphanumeric_words, occurrences, words, Word, WordEdge};

use super::adjectives::nouns_of;
use super::coordination::coordinated_span;
use super::label_floor::{floor_texts, in_compound, labels_of, subjects};
use crate::conditions::{Matcher, Purpose};
use crate::error::EngineError;
use crate::graph::query::{NamedCondition, UnreadPhrase};
use crate::graph::relations::sentences;
use crate::graph::wording::{text_key, threshold};
use crate::graph::GraphQuestion;
use crate::index::Live;
use crate::search::lexical::{analysed_spans, word_share};
use crate::understand::is_filler;
use crate::verify::Verifier;

/// The largest share of the index's segments a single unread word may appear in and still be
/// looked up alone (`thresholds.tsv`: `unread_word_max_share`).
static WORD_MAX_SHARE: LazyLock<f64> = LazyLock::new(|| threshold("unread_word_max_share"));
/// The same for the rarest word of a phrase of several (`unread_phrase_max_share`): "after
/// taking" names nothing, "lumbar puncture" does.
static PHRASE_MAX_SHARE: LazyLock<f64> = LazyLock::new(|| threshold("unread_phrase_max_share"));

/// Words that open an exception to what a sentence states (`label-cues.tsv`, `exception`).
static EXCEPTION: LazyLock<Vec<String>> =
    LazyLock::new(|| crate::graph::wording::label_cues("exception", "phrase"));

/// One way to read part of an unread phrase: its words as asked and their terms as the
/// index analyses text (stemmed: "constipated" and "constipation" are one term).
struct Candidate {
    /// Which phrase of the question, and which of its words (indexes).
    phrase: usize,
    words: Range<usize>,
    text: String,
    terms: Vec<String>,
    /// A single word too common in the index to name one thing alone ("constipated"), or the
    /// noun of an adjective ("anuric": "anuria"): it counts only where the label's word for
    /// it is a whole condition of the vocabulary.
    common: bool,
}

/// The conditions the question's unread phrases name in the words of its drugs' floor texts,
/// each with the label's own words for it, longest first; none when it names no labelled
/// drug.
pub fn unread_conditions(
    live: &Live,
    verifier: &Verifier,
    matcher: &Matcher,
    question: &GraphQuestion,
) -> Result<Vec<NamedCondition>, EngineError> {
    if question.unread_phrases.is_empty() {
        return Ok(Vec::new());
    }
    let subjects: Vec<BTreeSet<u32>> = subjects(live, question)
        .iter()
        .map(|subject| labels_of(live, &subject.name))
        .collect();
    let names = name_words(live, &subjects);
    let candidates = candidates(live, &question.unread_phrases, &names)?;
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let mut stated: BTreeMap<usize, String> = BTreeMap::new();
    for labels in &subjects {
        for text in floor_texts(live, verifier, labels)? {
            let text = &text.segment.text;
            for range in sentences(text) {
                let sentence = &text[range];
                let tokens = analysed_spans(&live.snapshot, sentence);
                let mut conditions = None;
                for (at, candidate) in candidates.iter().enumerate() {
                    let in_a_row = stated_words(&tokens, &candidate.terms)
                        .map(|words| (words.clone(), sentence[words].to_owned()));
                    let Some((words, label_words)) = in_a_row.or_else(|| {
                        coordinated_span(sentence, &tokens, &candidate.terms)
                            .map(|words| (words, candidate.text.clone()))
                    }) else {
                        continue;
                    };
                    if in_exception(sentence, words.start) || in_compound(sentence, words.start) {
                        continue;
                    }
                    if candidate.common {
                        let found = conditions.get_or_insert_with(|| {
                            matcher.find(&sentence.to_lowercase(), Purpose::Conditions)
                        });
                        if !found.iter().any(|m| m.span == words) {
                            continue;
                        }
                    }
                    stated.entry(at).or_insert(label_words);
                }
            }
        }
    }
    Ok(longest_first(&candidates, &stated)
        .map(|(candidate, label_words)| {
            let phrase = &question.unread_phrases[candidate.phrase];
            NamedCondition {
                text: candidate.text.clone(),
                name: label_words.to_lowercase(),
                keys: vec![text_key(label_words), text_key(&candidate.text)],
                ids: Vec::new(),
                relations: phrase.relations.clone(),
            }
        })
        .collect())
}

/// Whether `at` of `sentence` is inside an exception it makes ("… unless a permanent
/// pacemaker is in place"): after an exception cue (`label-cues.tsv`, group `exception`) with
/// no closing parenthesis or semicolon between.
fn in_exception(sentence: &str, at: usize) -> bool {
    let before = sentence[..at].to_lowercase();
    EXCEPTION
        .iter()
        .filter_map(|cue| occurrences(&before, cue, WordEdge::Whole).last())
        .map(|cue| cue.end)
        .max()
        .is_some_and(|end| !before[end..].contains([')', ';']))
}

/// The bytes of the sentence whose analysed tokens are `terms`, in a row; a single term also
/// as two tokens written apart that make it closed up ("sleepwalked" for "sleep-walking").
fn stated_words(tokens: &[(Range<usize>, String)], terms: &[String]) -> Option<Range<usize>> {
    if terms.is_empty() || tokens.len() < terms.len() {
        return None;
    }
    let in_a_row = tokens.windows(terms.len()).find_map(|window| {
        let same = window
            .iter()
            .zip(terms)
            .all(|((_, token), term)| token == term);
        same.then(|| window[0].0.start..window[terms.len() - 1].0.end)
    });
    let [term] = terms else { return in_a_row };
    in_a_row.or_else(|| {
        tokens.windows(2).find_map(|pair| {
            let (first, second) = (&pair[0], &pair[1]);
            let closed = term.strip_prefix(first.1.as_str()) == Some(second.1.as_str());
            closed.then_some(first.0.start..second.0.end)
        })
    })
}

/// Every part of each phrase that starts and ends with a content word: a single word, or
/// several of which one is rare in the index.
fn candidates(
    live: &Live,
    phrases: &[UnreadPhrase],
    names: &BTreeSet<String>,
) -> Result<Vec<Candidate>, EngineError> {
    let mut out = Vec::new();
    for (at, phrase) in phrases.iter().enumerate() {
        let found = words(&phrase.text);
        let content: Vec<bool> = found
            .iter()
            .map(|w| {
                let word = &phrase.text[w.span.clone()];
                !is_filler(word) && word.chars().any(char::is_alphabetic) && !names.contains(word)
            })
            .collect();
        for start in (0..found.len()).filter(|&i| content[i]) {
            for end in (start..found.len()).filter(|&j| content[j]) {
                let span = found[start].span.start..found[end].span.end;
                let text = &phrase.text[span];
                let several = start != end;
                let share = rarest_share(live, &phrase.text, &found[start..=end])?;
                if !several || share <= *PHRASE_MAX_SHARE {
                    let terms = |text: &str| -> Vec<String> {
                        let analysed = analysed_spans(&live.snapshot, text).into_iter();
                        analysed.map(|(_, term)| term).collect()
                    };
                    out.push(Candidate {
                        phrase: at,
                        words: start..end + 1,
                        text: text.to_owned(),
                        terms: terms(text),
                        common: !several && share > *WORD_MAX_SHARE && !is_lay_wording(text),
                    });
                    if !several {
                        out.extend(lay_wordings(text).into_iter().map(|wording| Candidate {
                            phrase: at,
                            words: start..end + 1,
                            text: text.to_owned(),
                            terms: terms(&wording),
                            common: false,
                        }));
                    }
                    let nouns = if several { Vec::new() } else { nouns_of(text) };
                    out.extend(nouns.into_iter().map(|noun| Candidate {
                        phrase: at,
                        words: start..end + 1,
                        text: text.to_owned(),
                        terms: terms(&noun),
                        common: true,
                    }));
                }
            }
        }
    }
    Ok(out)
}

/// Everyday words and the words labels use for them (`graph/lay-terms.tsv`, curated):
/// lowercase phrase → the label's words, each one alternative ("wine": alcohol, alcoholic).
static LAY_WORDINGS: LazyLock<BTreeMap<String, Vec<String>>> = LazyLock::new(|| {
    let mut wordings: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for term in crate::curated::lay_terms() {
        let words = term.label_wording.split_whitespace().map(str::to_owned);
        wordings
            .entry(term.phrase.clone())
            .or_default()
            .extend(words);
    }
    wordings
});

/// The label's words for an everyday word ("wine": alcohol, alcoholic), its plural too.
fn lay_wordings(word: &str) -> Vec<String> {
    let singular = word.strip_suffix('s').unwrap_or(word);
    [word, singular]
        .iter()
        .filter_map(|w| LAY_WORDINGS.get(*w))
        .flatten()
        .cloned()
        .collect()
}

/// Whether a word is one the curated lay table gives as the labels' word for an everyday one
/// ("alcohol"): common in the labels, but named on purpose, so it is looked up alone.
fn is_lay_wording(word: &str) -> bool {
    LAY_WORDINGS.values().flatten().any(|w| w == word)
}

/// The words of the names a question may call the labels' drugs by (generic, brands,
/// substances: "hydrobromide", "Aimovig"): the drug asked about, never a condition.
fn name_words(live: &Live, subjects: &[BTreeSet<u32>]) -> BTreeSet<String> {
    let labels = live.snapshot.labels();
    subjects
        .iter()
        .flatten()
        .flat_map(|&at| labels[at as usize].search_names.iter())
        .flat_map(|name| alphanumeric_words(name))
        .map(|word| word.to_lowercase())
        .collect()
}

/// The share of the index's segments holding the rarest of `words` (of `text`).
fn rarest_share(live: &Live, text: &str, words: &[Word]) -> Result<f64, EngineError> {
    let mut rarest: f64 = 1.0;
    for word in words {
        rarest = rarest.min(word_share(live, &text[word.span.clone()])?);
    }
    Ok(rarest)
}

/// The stated candidates with the label's words for them, longest first, none overlapping a
/// longer one of its phrase.
fn longest_first<'a>(
    candidates: &'a [Candidate],
    stated: &'a BTreeMap<usize, String>,
) -> impl Iterator<Item = (&'a Candidate, &'a str)> {
    let mut found: Vec<(&Candidate, &str)> = stated
        .iter()
        .map(|(&at, words)| (&candidates[at], words.as_str()))
        .collect();
    found.sort_by_key(|(c, _)| std::cmp::Reverse(c.words.len()));
    let mut kept: Vec<(&Candidate, &str)> = Vec::new();
    for (candidate, words) in found {
        let overlaps = |(k, _): &(&Candidate, &str)| {
            k.phrase == candidate.phrase
                && k.words.start < candidate.words.end
                && candidate.words.start < k.words.end
        };
        if !kept.iter().any(overlaps) {
            kept.push((candidate, words));
        }
    }
    kept.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(pairs: &[(&str, Range<usize>)]) -> Vec<(Range<usize>, String)> {
        pairs
            .iter()
            .map(|(term, span)| (span.clone(), (*term).to_owned()))
            .collect()
    }

    #[test]
    fn a_phrase_is_stated_where_its_terms_come_in_a_row() {
        // "history of anaphylaxis to penicillin", stop word dropped by the analyzer
        let sentence = tokens(&[
            ("histori", 0..7),
            ("anaphylaxi", 11..22),
            ("penicillin", 26..36),
        ]);
        let asked = |terms: &[&str]| {
            let terms: Vec<String> = terms.iter().map(|t| (*t).to_owned()).collect();
            stated_words(&sentence, &terms)
        };
        assert_eq!(asked(&["histori", "anaphylaxi"]), Some(0..22));
        assert_eq!(asked(&["penicillin"]), Some(26..36));
        assert_eq!(asked(&["histori", "penicillin"]), None);
        assert_eq!(asked(&[]), None);
        // "sleepwalked" asked, "sleep-walking" written
        let written_apart = tokens(&[("sleep", 0..5), ("walk", 6..13)]);
        let closed = ["sleepwalk".to_owned()];
        assert_eq!(stated_words(&written_apart, &closed), Some(0..13));
        assert_eq!(stated_words(&written_apart, &["sleepi".to_owned()]), None);
    }

    #[test]
    fn an_everyday_word_is_also_read_as_the_labels_word_for_it() {
        assert!(lay_wordings("wine").contains(&"alcohol".to_owned()));
        assert!(lay_wordings("beers").contains(&"alcohol".to_owned()));
        assert!(is_lay_wording("alcohol"));
        assert!(lay_wordings("alcohol").is_empty() && !is_lay_wording("wine"));
    }

    #[test]
    fn words_inside_an_exception_are_not_what_the_sentence_warns_of() {
        let sentence =
            "contraindicated in sick sinus syndrome (unless a permanent pacemaker is in \
                        place), and in patients with severe peripheral arterial disease";
        let at = |word: &str| sentence.find(word).unwrap();
        assert!(in_exception(sentence, at("pacemaker")));
        assert!(!in_exception(sentence, at("peripheral")));
        assert!(!in_exception(sentence, at("sick sinus")));
        let without = "sick sinus syndrome without a pacemaker";
        assert!(in_exception(without, without.find("pacemaker").unwrap()));
        assert!(!in_exception("exceptionally rare agranulocytosis", 14));
    }
}
