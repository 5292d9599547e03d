//! A condition's adjective and its noun (`adjective-endings.tsv`): an asked adjective read as
//! the nouns its ending makes ("anuric": anuria), and an asked noun found where a label writes
//! its adjective before a word naming a condition ("thromboembolic disease" for thromboembolism;
//! `label-cues.tsv`, `condition-head`). Word work only; which words count is the caller's.

use std::sync::LazyLock;

use drugcite_core::text::key_of;

use crate::graph::wording::{count, label_cues};
use crate::tables::graph as tables;

/// Adjective endings and the noun endings of the conditions they name, in file order.
static ENDINGS: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let table = tables::ADJECTIVE_ENDINGS.rows();
    let (adjective, noun) = (
        table.column("adjective_ending"),
        table.column("noun_ending"),
    );
    table
        .rows()
        .iter()
        .map(|row| (row.cell(adjective).to_owned(), row.cell(noun).to_owned()))
        .collect()
});
/// The fewest letters an adjective keeps before its ending for a noun to be made of it
/// (`thresholds.tsv`: `adjective_min_stem`).
static MIN_STEM: LazyLock<usize> = LazyLock::new(|| count("adjective_min_stem"));
/// Words that, after a condition's adjective, name the condition ("disease", "events"), as keys.
static CONDITION_HEADS: LazyLock<Vec<String>> = LazyLock::new(|| {
    label_cues("condition-head", "phrase")
        .iter()
        .map(|head| key_of(head))
        .collect()
});

/// The nouns an adjective may be of ("anuric": "anuria"), each ending that fits giving one.
pub(super) fn nouns_of(word: &str) -> Vec<String> {
    with_ending_swapped(word, |(adjective, noun)| (adjective, noun))
}

/// The adjectives a noun may make ("thrombosis": "thrombotic"), each ending that fits giving one.
fn adjectives_of(word: &str) -> Vec<String> {
    with_ending_swapped(word, |(adjective, noun)| (noun, adjective))
}

/// `word` with each ending of `ENDINGS` it has (the first of `from_to`) replaced by its other
/// ending (the second), when the stem left keeps `MIN_STEM` letters.
fn with_ending_swapped<'e>(
    word: &str,
    from_to: impl Fn(&'e (String, String)) -> (&'e String, &'e String),
) -> Vec<String> {
    ENDINGS
        .iter()
        .filter_map(|pair| {
            let (from, to) = from_to(pair);
            let stem = word.strip_suffix(from.as_str())?;
            (stem.len() >= *MIN_STEM).then(|| format!("{stem}{to}"))
        })
        .collect()
}

/// The keys that name the condition of `key` (a normalised phrase) as its last word's adjective
/// before a condition head: "thromboembolism" → "thromboembolic disease", "thromboembolic
/// event", …; the adjective alone is never one ("diabetic ketoacidosis" is not diabetes).
pub(super) fn adjective_keys(key: &str) -> Vec<String> {
    let (before, last) = match key.rsplit_once(' ') {
        Some((before, last)) => (format!("{before} "), last),
        None => (String::new(), key),
    };
    adjectives_of(last)
        .into_iter()
        .flat_map(|adjective| {
            let before = before.clone();
            CONDITION_HEADS
                .iter()
                .map(move |head| format!("{before}{adjective} {head}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adjective_is_also_read_as_the_nouns_its_ending_makes() {
        assert_eq!(nouns_of("anuric"), ["anuria", "anury", "anurism"]);
        assert_eq!(
            nouns_of("cirrhotic"),
            ["cirrhosis", "cirrhotia", "cirrhoty", "cirrhotism"]
        );
        assert_eq!(nouns_of("epileptic")[0], "epilepsy");
        assert_eq!(nouns_of("glaucomatous"), ["glaucoma"]);
        assert!(nouns_of("tic").is_empty() && nouns_of("pregnant").is_empty());
    }

    #[test]
    fn a_noun_is_also_found_as_its_adjective_before_a_condition_head() {
        let keys = adjective_keys("thromboembolism");
        assert!(keys.contains(&"thromboembolic disease".to_owned()));
        assert!(keys.contains(&"thromboembolic event".to_owned()));
        let deep = adjective_keys("deep vein thrombosis");
        assert!(deep.contains(&"deep vein thrombotic disease".to_owned()));
        assert!(
            !adjective_keys("diabetes").contains(&"diabetic".to_owned()),
            "never the adjective alone"
        );
        assert!(adjective_keys("rash").is_empty(), "no ending fits");
    }
}
