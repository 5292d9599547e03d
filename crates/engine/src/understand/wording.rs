//! How a question's words become its queries' words: misspellings spelled out, a curated brand
//! replaced by its generic when another drug is named, the words naming the subject found and
//! left out. Works on the mentions `DrugVocabulary` found; finds none itself.

use std::collections::HashMap;
use std::ops::Range;

use super::drug_words::singular;
use super::understanding::Found;

/// The question's words with each misspelled drug name replaced by the name it stands for,
/// and each curated brand of `brand_generics` by its generic (the word the labels' text uses).
pub(super) fn spelled_out(
    tokens: &[&str],
    found: &[Found],
    brand_generics: Option<&HashMap<String, String>>,
) -> Vec<String> {
    let mut words: Vec<String> = tokens.iter().map(|t| (*t).to_owned()).collect();
    for f in found.iter().filter(|f| !f.class) {
        let word = f.mention.word.as_str();
        let generic = brand_generics
            .and_then(|generics| generics.get(word).or_else(|| generics.get(singular(word)?)));
        words[f.span.start].clone_from(generic.unwrap_or(&f.mention.word));
    }
    words
}

/// Whether the question names a drug or class besides the first one and its own ingredients:
/// then the subject's name stays in its query (`subject_naming`), so a brand is searched by
/// its generic; alone, the name is dropped within the subject's labels and the brand is kept.
pub(super) fn names_another_drug(found: &[Found]) -> bool {
    let Some(first) = found.first() else {
        return false;
    };
    let own = |f: &Found| !f.class && f.mention.labels.is_subset(&first.mention.labels);
    found.iter().any(|f| !own(f))
}

/// The question's words without those in `dropped`, joined by spaces.
pub(super) fn join_without(tokens: &[&str], dropped: Option<Range<usize>>) -> String {
    join_outside(tokens, dropped.as_slice())
}

/// The question's words outside every span of `dropped`, joined by spaces.
pub(super) fn join_outside(tokens: &[&str], dropped: &[Range<usize>]) -> String {
    let kept = tokens
        .iter()
        .enumerate()
        .filter(|(at, _)| !dropped.iter().any(|span| span.contains(at)));
    kept.map(|(_, t)| *t).collect::<Vec<_>>().join(" ")
}

/// The spans naming the subject: a class subject's phrase; a drug subject's name and those of
/// every drug named whose labels are all the subject's (an ingredient of its combination),
/// unless another drug is named: then the name tells the subject's passages from the
/// partner's, which mention the subject less.
pub(super) fn subject_naming(found: &[Found], subject: Option<&Found>) -> Vec<Range<usize>> {
    let Some(subject) = subject else {
        return Vec::new();
    };
    if subject.class {
        return vec![subject.span.clone()];
    }
    let own = |f: &Found| !f.class && f.mention.labels.is_subset(&subject.mention.labels);
    if !found.iter().all(own) {
        return Vec::new();
    }
    found.iter().map(|f| f.span.clone()).collect()
}
