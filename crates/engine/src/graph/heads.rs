//! Classes a question names by words of its own that end in the last two words of class names
//! ("iodinated contrast agents" → every "… contrast agent" class). Pure text work over the
//! words no other reading claimed; whether the guess is used is the answer's business.

use std::ops::Range;

use drugcite_core::text::{key_of, Word};

/// The first run of two adjacent `free` words that ends some class names (`names`), with those
/// names and the span read: the two words and the word right before them, when adjacent.
pub fn classes_by_head<'a>(
    lower: &str,
    free: &[Word],
    names: impl Iterator<Item = &'a str> + Clone,
) -> Option<(Vec<String>, Range<usize>)> {
    let adjacent = |a: &Word, b: &Word| lower[a.span.end..b.span.start].trim().is_empty();
    for at in 1..free.len() {
        let (first, head) = (&free[at - 1], &free[at]);
        if !adjacent(first, head) {
            continue;
        }
        let tail = format!(" {} {}", first.norm, head.norm);
        let classes: Vec<String> = names
            .clone()
            .filter(|name| key_of(name).ends_with(&tail))
            .map(str::to_owned)
            .collect();
        if classes.is_empty() {
            continue;
        }
        let modifier = at
            .checked_sub(2)
            .map(|m| &free[m])
            .filter(|m| adjacent(m, first));
        return Some((classes, modifier.unwrap_or(first).span.start..head.span.end));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use drugcite_core::text::words;

    #[test]
    fn two_words_ending_class_names_stand_for_those_classes() {
        let names = [
            "radiographic contrast agent",
            "gadolinium-based contrast agent",
            "angiotensin converting enzyme inhibitor",
        ];
        let lower = "is metformin contraindicated with iodinated contrast agents?";
        let free: Vec<Word> = words(lower)
            .into_iter()
            .filter(|w| ["iodinated", "contrast", "agent"].contains(&w.norm.as_str()))
            .collect();
        let (classes, span) = classes_by_head(lower, &free, names.iter().copied()).expect("a head");
        assert_eq!(classes, names[..2]);
        assert_eq!(&lower[span], "iodinated contrast agents");
        let apart = "contrast and agents";
        let free = words(apart)
            .into_iter()
            .filter(|w| w.norm != "and")
            .collect::<Vec<_>>();
        assert!(
            classes_by_head(apart, &free, names.iter().copied()).is_none(),
            "words with others between them are no phrase"
        );
    }
}
