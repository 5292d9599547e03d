//! Where a question names drugs: class phrases (longest first, never overlapping), then drug
//! words — exact, singular, misspelled or hyphenated names — each a mention of the labels it names, and
//! combinations named back to back. Reads the vocabulary only; knows nothing of sections or
//! ranking.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::sync::LazyLock;

use super::class_phrases::phrase_positions;
use super::drug_words::{is_name_word, singular};
use super::understanding::{DrugMention, Found};
use super::word_tables::column;
use super::DrugVocabulary;

impl DrugVocabulary {
    /// Class phrases (longest first, never overlapping), names made of salt words ("potassium
    /// citrate") and drug words, in question order.
    pub(super) fn find_mentions(&self, tokens: &[&str]) -> Vec<Found> {
        let mut claimed = vec![false; tokens.len()];
        let mut found = Vec::new();
        for class in &self.classes {
            for start in phrase_positions(tokens, &class.words) {
                let span = start..start + class.words.len();
                if !is_free(&claimed, &span) {
                    continue;
                }
                let mut mention = self.mention(tokens[span.clone()].join(" "), &class.labels);
                mention.class = Some(class.name.clone());
                let phrase = Found {
                    span,
                    class: true,
                    mention,
                };
                let phrase = self.narrowed(phrase, tokens, &|i| !claimed[i]);
                claim(&mut claimed, &phrase.span);
                found.push(phrase);
            }
        }
        let elements = with_elements(tokens);
        for (words, labels) in &self.salt_names {
            for start in phrase_positions(&elements, words) {
                let span = start..start + words.len();
                if !is_free(&claimed, &span) {
                    continue;
                }
                claim(&mut claimed, &span);
                let mention = self.mention(elements[span.clone()].join(" "), labels);
                found.push(Found {
                    span,
                    class: false,
                    mention,
                });
            }
        }
        let mut at = 0;
        while at < tokens.len() {
            let word = tokens[at];
            if claimed[at] {
                at += 1;
                continue;
            }
            let exact = self.drug_labels(word, tokens.get(at + 1).copied());
            let named = exact
                .map(|labels| (word, labels))
                .or_else(|| self.misspelled(word))
                .map(|(name, labels)| (name.to_owned(), labels.clone()))
                .or_else(|| self.hyphenated(word));
            let Some((name, labels)) = named else {
                at += 1;
                continue;
            };
            let mention = Found {
                span: at..at + 1,
                class: false,
                mention: self.mention(name, &labels),
            };
            let mention = self.narrowed(mention, tokens, &|i| !claimed[i]);
            at = mention.span.end;
            found.push(mention);
        }
        found.sort_by_key(|f| f.span.start);
        found
    }

    /// `found` (in question order) with each drug named right after another ("lamivudine
    /// zidovudine", "lamivudine/zidovudine") joined to it when labels hold both: two
    /// ingredients named back to back name their combination, whose labels are the subject,
    /// not every label holding the first. A drug named twice in a row ("sertraline (Zoloft)":
    /// both names have the same labels) stays one mention under its first name.
    pub(super) fn joined_combinations(&self, found: Vec<Found>, tokens: &[&str]) -> Vec<Found> {
        let mut joined: Vec<Found> = Vec::with_capacity(found.len());
        for next in found {
            if let Some(last) = joined.last_mut() {
                let back_to_back = !last.class && !next.class && last.span.end == next.span.start;
                let labels = &last.mention.labels;
                if back_to_back && *labels == next.mention.labels {
                    last.span = last.span.start..next.span.end;
                    continue;
                }
                let shared: BTreeSet<u32> =
                    labels.intersection(&next.mention.labels).copied().collect();
                if back_to_back && !shared.is_empty() {
                    last.span = last.span.start..next.span.end;
                    last.mention = self.mention(tokens[last.span.clone()].join(" "), &shared);
                    continue;
                }
            }
            joined.push(next);
        }
        joined
    }

    pub(super) fn mention(&self, word: String, labels: &BTreeSet<u32>) -> DrugMention {
        DrugMention {
            word,
            class: None,
            combinations: labels.intersection(&self.combinations).copied().collect(),
            labels: labels.clone(),
        }
    }

    /// The name a misspelled `word` stands for and its labels; never for a name word itself
    /// (one that needs its head noun stays unmatched without it), a drug without a label, a
    /// salt or form word ("phosphate" is not a misspelled "phosphates"), or a word the labels
    /// themselves use often ("chronic" is not a misspelled "chromic").
    fn misspelled(&self, word: &str) -> Option<(&str, &BTreeSet<u32>)> {
        let known = self.unlabelled.contains(word)
            || self.labels_by_word.contains_key(word)
            || self.label_words.uses_often(word);
        if known || !is_name_word(word) {
            return None;
        }
        let name = self.spelling.correct(word)?;
        self.labels_by_word
            .get_key_value(name)
            .map(|(n, l)| (n.as_str(), l))
    }

    /// The labels `word` names, given the question's next word.
    fn drug_labels(&self, word: &str, next: Option<&str>) -> Option<&BTreeSet<u32>> {
        let (name, labels) = self
            .labels_by_word
            .get_key_value(word)
            .or_else(|| self.labels_by_word.get_key_value(singular(word)?))?;
        match self.continuations.get(name) {
            Some(expected) if !next.is_some_and(|n| expected.contains(n)) => None,
            _ => Some(labels),
        }
    }
}

/// Whether no word of `span` is claimed by a mention yet.
/// `tokens` with each chemical symbol of a metal written as its element ("k citrate" →
/// "potassium citrate"; `element-symbols.tsv`), but after a number, where it is a unit ("40 mg").
fn with_elements<'t>(tokens: &[&'t str]) -> Vec<&'t str> {
    static ELEMENTS: LazyLock<HashMap<&'static str, &'static str>> = LazyLock::new(|| {
        let source = &crate::tables::understand::ELEMENT_SYMBOLS;
        let symbols = column(source, "symbol");
        symbols.into_iter().zip(column(source, "element")).collect()
    });
    let after_number = |at: usize| at > 0 && tokens[at - 1].chars().any(|c| c.is_ascii_digit());
    (tokens.iter().enumerate())
        .map(|(at, token)| match ELEMENTS.get(token) {
            Some(element) if !after_number(at) => *element,
            _ => *token,
        })
        .collect()
}

fn is_free(claimed: &[bool], span: &Range<usize>) -> bool {
    !claimed[span.clone()].iter().any(|c| *c)
}

/// Marks the words of `span` as claimed by a mention.
fn claim(claimed: &mut [bool], span: &Range<usize>) {
    claimed[span.clone()].iter_mut().for_each(|c| *c = true);
}
