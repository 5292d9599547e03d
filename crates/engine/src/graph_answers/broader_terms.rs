//! The broader terms a drug's own floor sentences put an asked condition under: "Complex sleep
//! behaviors including sleep-walking, sleep-driving …" makes "complex sleep behaviors" a term for
//! a question about sleep-walking, so the Contraindications sentence naming the broader term
//! answers it too. Reads the sentences given; the label's words only, no vocabulary.

use std::sync::LazyLock;

use crate::graph::relations::sentences;
use crate::graph::wording::{count, label_cues, text_key};
use drugcite_core::text::key_contains;

/// Words that open an example list after the term the examples fall under (`label-cues.tsv`,
/// `example-list`), as keys.
static EXAMPLE_CUES: LazyLock<Vec<String>> = LazyLock::new(|| {
    label_cues("example-list", "phrase")
        .iter()
        .map(|cue| text_key(cue))
        .collect()
});
/// Words of the term before an example list, at most (`thresholds.tsv`: `broader_term_words`).
static HEAD_WORDS: LazyLock<usize> = LazyLock::new(|| count("broader_term_words"));
/// Words after the cue an example may stand in (`thresholds.tsv`: `example_list_reach`).
static LIST_REACH: LazyLock<usize> = LazyLock::new(|| count("example_list_reach"));

/// The terms (keys) that sentences of `texts` give an example list holding one of `keys`
/// under: the last `broader_term_words` words before the cue, when two or more.
pub(super) fn broader_keys<'t>(
    texts: impl IntoIterator<Item = &'t str>,
    keys: &[String],
) -> Vec<String> {
    let mut broader = Vec::new();
    for text in texts {
        for range in sentences(text) {
            let key = text_key(&text[range]);
            let words: Vec<&str> = key.split(' ').collect();
            for (at, head) in heads_of_lists(&words) {
                let list = words[at..(at + *LIST_REACH).min(words.len())].join(" ");
                let holds = keys
                    .iter()
                    .any(|k| key_contains(&list, k) && !key_contains(&head, k));
                if holds && !broader.contains(&head) {
                    broader.push(head);
                }
            }
        }
    }
    broader
}

/// Each example cue of a sentence's words: where its list starts, and the term before it.
fn heads_of_lists(words: &[&str]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for cue in EXAMPLE_CUES.iter() {
        let cue: Vec<&str> = cue.split(' ').collect();
        for at in 0..words.len().saturating_sub(cue.len()) {
            if words[at..at + cue.len()] != cue[..] {
                continue;
            }
            let head = &words[at.saturating_sub(*HEAD_WORDS)..at];
            if head.len() >= 2 && head.iter().all(|w| w.chars().all(char::is_alphabetic)) {
                found.push((at + cue.len(), head.join(" ")));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_term_before_an_example_list_is_found_with_where_the_list_starts() {
        let key = text_key(
            "Complex sleep behaviors including sleep-walking, sleep-driving, and engaging in other activities",
        );
        let words: Vec<&str> = key.split(' ').collect();
        let heads = heads_of_lists(&words);
        assert_eq!(heads.len(), 1, "{heads:?}");
        assert_eq!(heads[0].1, text_key("complex sleep behaviors"));
        assert!(words[heads[0].0..]
            .join(" ")
            .starts_with(&text_key("sleep-walking")));
    }

    #[test]
    fn a_number_or_a_single_word_before_the_cue_is_no_term() {
        for sentence in ["in 5 including rash", "Reactions including rash"] {
            let key = text_key(sentence);
            let words: Vec<&str> = key.split(' ').collect();
            assert!(heads_of_lists(&words).is_empty(), "{sentence}");
        }
    }
}
