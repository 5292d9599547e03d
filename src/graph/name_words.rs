//! Which cached text analyses a change of labels can affect: every word of the current labels'
//! drug names, brands, search names and classes, with a digest of the name tuples that carry
//! it. A text mentioning a word whose digest changed (added, removed or carried by other
//! labels) is analysed again; every other text keeps its analysis. No I/O.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use aho_corasick::AhoCorasick;
use sha2::{Digest, Sha256};

use crate::label::LabelMeta;

/// Word (lowercase) → digest (16 hex digits) of the name tuples of the labels holding it.
pub type NameWords = BTreeMap<String, String>;

pub fn name_words(labels: &[Arc<LabelMeta>]) -> NameWords {
    let mut tuples: BTreeMap<String, BTreeSet<Vec<u8>>> = BTreeMap::new();
    for label in labels {
        let names = (
            &label.drug.name,
            &label.drug.brand_names,
            &label.search_names,
            &label.classes,
        );
        let tuple = serde_json::to_vec(&names).unwrap_or_default();
        let strings = std::iter::once(&label.drug.name)
            .chain(&label.drug.brand_names)
            .chain(&label.search_names)
            .chain(&label.classes);
        for word in strings.flat_map(|s| words(s)) {
            tuples.entry(word).or_default().insert(tuple.clone());
        }
    }
    tuples
        .into_iter()
        .map(|(word, tuples)| {
            let mut hasher = Sha256::new();
            for tuple in &tuples {
                hasher.update((tuple.len() as u64).to_be_bytes());
                hasher.update(tuple);
            }
            (word, format!("{:x}", hasher.finalize())[..16].to_owned())
        })
        .collect()
}

fn words(name: &str) -> impl Iterator<Item = String> + '_ {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_lowercase)
}

/// Finds texts that mention a word whose labels changed between two builds.
pub struct ChangedNames(Option<AhoCorasick>);

impl ChangedNames {
    pub fn between(before: &NameWords, now: &NameWords) -> Self {
        let changed: Vec<&String> = before
            .iter()
            .filter(|(word, digest)| now.get(*word) != Some(digest))
            .map(|(word, _)| word)
            .chain(now.keys().filter(|word| !before.contains_key(*word)))
            .collect();
        if changed.is_empty() {
            return Self(None);
        }
        let matcher = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(changed)
            .ok();
        Self(matcher)
    }

    pub fn none() -> Self {
        Self(None)
    }

    /// Whether `text` mentions a changed word (as a substring: a superset of mentions).
    pub fn touch(&self, text: &str) -> bool {
        self.0.as_ref().is_some_and(|m| m.is_match(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::{Drug, NameSource};

    fn label(name: &str, brand: &str) -> Arc<LabelMeta> {
        Arc::new(LabelMeta {
            label_id: name.into(),
            set_id: name.into(),
            version: "1".into(),
            effective_time: "20200101".into(),
            drug: Drug {
                name: name.into(),
                brand_names: vec![brand.into()],
                ..Drug::default()
            },
            name_source: NameSource::GenericName,
            search_names: vec![name.into(), brand.to_lowercase()],
            classes: Vec::new(),
        })
    }

    #[test]
    fn only_texts_naming_an_added_or_changed_drug_are_touched() {
        let before = name_words(&[label("sertraline hydrochloride", "Zoloft")]);
        let now = name_words(&[
            label("sertraline hydrochloride", "Zoloft"),
            label("ibuprofen", "Advil"),
        ]);
        let changed = ChangedNames::between(&before, &now);
        assert!(changed.touch("Do not take with IBUPROFEN or aspirin."));
        assert!(changed.touch("ADVIL may cause stomach bleeding"));
        assert!(!changed.touch("Zoloft and pimozide: contraindicated."));
        assert!(!ChangedNames::between(&now, &now).touch("ibuprofen"));
        let renamed = name_words(&[label("sertraline hydrochloride", "Zoloft XR")]);
        let changed = ChangedNames::between(&before, &renamed);
        assert!(changed.touch("sertraline"), "a word whose labels changed");
    }
}
