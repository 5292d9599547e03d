//! Drug-class phrases a question may use ("blood thinner", "statin", an FDA established class)
//! with the labels of each class, and where a phrase occurs among a question's words. Built
//! from the labels' classes and the curated class table; no question reading here.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::LabelNames;
use drugcite_core::text::name_words;

/// A class phrase ("blood thinner", "statin") and the labels of the class.
pub(super) struct ClassPhrase {
    /// The class's name, lowercase (an FDA EPC name or a curated class name).
    pub(super) name: String,
    pub(super) words: Vec<String>,
    pub(super) labels: BTreeSet<u32>,
}

/// The labels of a class, and for a class phrase that is one word names begin with
/// ("insulin", an FDA class carried by one label) the labels of those names too: the word names
/// every drug whose name it begins.
fn with_named(
    labels: &BTreeSet<u32>,
    words: &[String],
    labels_by_word: &HashMap<String, BTreeSet<u32>>,
) -> BTreeSet<u32> {
    let mut all = labels.clone();
    if let [word] = words {
        all.extend(labels_by_word.get(word).into_iter().flatten());
    }
    all
}

/// Phrases of the curated classes and of every FDA established class a label carries, each
/// with the labels of the class; phrases whose class covers no indexed label are left out.
pub(super) fn class_phrases(
    labels: &[LabelNames],
    labels_by_word: &HashMap<String, BTreeSet<u32>>,
) -> Vec<ClassPhrase> {
    let mut by_class: BTreeMap<String, (BTreeSet<String>, BTreeSet<u32>)> = BTreeMap::new();
    for label in labels {
        for class in label.classes {
            let entry = by_class.entry(class.to_lowercase()).or_default();
            entry.0.insert(class.to_lowercase());
            entry.1.insert(label.label);
        }
    }
    for class in crate::curated::drug_classes() {
        let entry = by_class.entry(class.name.to_lowercase()).or_default();
        entry.0.extend(class.terms);
        for member in &class.members {
            entry
                .1
                .extend(labels_by_word.get(member).into_iter().flatten());
        }
    }
    let mut phrases: Vec<ClassPhrase> = by_class
        .into_iter()
        .filter(|(_, (_, labels))| !labels.is_empty())
        .flat_map(|(name, (terms, labels))| {
            terms.into_iter().map(move |term| {
                let words: Vec<String> = name_words(&term).map(str::to_owned).collect();
                ClassPhrase {
                    name: name.clone(),
                    labels: with_named(&labels, &words, labels_by_word),
                    words,
                }
            })
        })
        .filter(|phrase| !phrase.words.is_empty())
        .collect();
    phrases.sort_by(|a, b| {
        b.words
            .len()
            .cmp(&a.words.len())
            .then(a.words.cmp(&b.words))
    });
    phrases
}

/// Where `phrase` occurs in `tokens`, a token matching a phrase word as is or without a plural "s".
pub(super) fn phrase_positions(tokens: &[impl AsRef<str>], phrase: &[String]) -> Vec<usize> {
    let same = |token: &str, word: &str| token == word || token.strip_suffix('s') == Some(word);
    tokens
        .windows(phrase.len().max(1))
        .enumerate()
        .filter(|(_, window)| window.iter().zip(phrase).all(|(t, w)| same(t.as_ref(), w)))
        .map(|(start, _)| start)
        .collect()
}
