//! Conditions a label names inside a coordination that shares their last word: "protein C,
//! protein S, or antithrombin deficiency" names protein S deficiency, "serious cardiac, hepatic
//! or renal disease" names hepatic disease. Word work on one sentence's tokens, whatever their
//! normal form (folded plurals or the index's stems); which phrases are asked is the caller's.

use std::ops::Range;
use std::sync::LazyLock;

use drugcite_core::text::{contains_any_word, words};

use crate::graph::wording::{count, label_cues};

/// The words that join the items of a coordination (`label-cues.tsv`, `coordinator`).
static COORDINATORS: LazyLock<Vec<String>> = LazyLock::new(|| label_cues("coordinator", "phrase"));
/// The most words between an item and the shared last word (`thresholds.tsv`:
/// `coordination_reach`).
static REACH: LazyLock<usize> = LazyLock::new(|| count("coordination_reach"));

/// Whether `sentence` (lowercase) names the phrase of key `key` (normalised words, at least
/// two) as an item of a coordination sharing its last word (`coordinated_span`).
pub(super) fn names_in_coordination(sentence: &str, key: &str) -> bool {
    let tokens: Vec<(Range<usize>, String)> = words(sentence)
        .into_iter()
        .map(|word| (word.span, word.norm))
        .collect();
    let terms: Vec<String> = key.split(' ').map(str::to_owned).collect();
    coordinated_span(sentence, &tokens, &terms).is_some()
}

/// Where `sentence` names `terms` (two or more, in the normal form of `tokens`) as an item of a
/// coordination sharing the last term: the other terms in a row, then a comma or coordinator at
/// once, then other items up to the last term within the reach, with a coordinator on the way
/// and nothing ending a clause. The span runs from the item to the shared word.
pub(super) fn coordinated_span(
    sentence: &str,
    tokens: &[(Range<usize>, String)],
    terms: &[String],
) -> Option<Range<usize>> {
    let (head, modifier) = terms.split_last()?;
    if modifier.is_empty() || tokens.len() <= modifier.len() {
        return None;
    }
    (0..tokens.len() - modifier.len()).find_map(|at| {
        let item = &tokens[at..at + modifier.len()];
        let same = item.iter().zip(modifier).all(|((_, t), m)| t == m);
        let after = &tokens[at + modifier.len() - 1..];
        let end = same
            .then(|| shared_head_end(sentence, after, head))
            .flatten()?;
        Some(tokens[at].0.start..end)
    })
}

/// The end of `head` when the coordination after the item ending at `after[0]` reaches it.
fn shared_head_end(sentence: &str, after: &[(Range<usize>, String)], head: &str) -> Option<usize> {
    let coordinators: Vec<&str> = COORDINATORS.iter().map(String::as_str).collect();
    let mut joined = false;
    for (step, pair) in after.windows(2).enumerate().take(*REACH + 1) {
        let gap = &sentence[pair[0].0.end..pair[1].0.start];
        if gap.contains(['.', ';', ':', '(', ')', '[', ']']) {
            return None;
        }
        let coordinator =
            contains_any_word(gap, &coordinators) || coordinators.contains(&pair[1].1.as_str());
        if step == 0 && !gap.contains(',') && !coordinator {
            return None;
        }
        joined |= coordinator;
        if pair[1].1 == head {
            return joined.then_some(pair[1].0.end);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_of_a_coordination_takes_its_shared_last_word() {
        let sentence = "known protein c, protein s, or antithrombin deficiency";
        assert!(names_in_coordination(sentence, "protein s deficiency"));
        assert!(names_in_coordination(sentence, "protein c deficiency"));
        let organs = "patients with serious cardiac, hepatic or renal disease";
        assert!(names_in_coordination(organs, "hepatic disease"));
        assert!(names_in_coordination(organs, "cardiac disease"));
    }

    #[test]
    fn words_that_only_sit_near_each_other_are_no_item() {
        let other = "patients with renal impairment or liver disease";
        assert!(!names_in_coordination(other, "renal disease"), "own head");
        let no_join = "hepatic enzymes and renal disease";
        assert!(!names_in_coordination(no_join, "hepatic disease"));
        let clause = "hepatic. renal or cardiac disease";
        assert!(
            !names_in_coordination(clause, "hepatic disease"),
            "a new sentence"
        );
        assert!(
            !names_in_coordination(other, "renal"),
            "one word has no shared head"
        );
    }

    #[test]
    fn a_coordinator_the_analyser_dropped_is_read_in_the_gap() {
        let sentence = "cardiac or renal disease";
        let tokens = vec![
            (0..7, "cardiac".to_owned()),
            (11..16, "renal".to_owned()),
            (17..24, "diseas".to_owned()),
        ];
        let terms = ["cardiac".to_owned(), "diseas".to_owned()];
        assert_eq!(coordinated_span(sentence, &tokens, &terms), Some(0..24));
    }
}
