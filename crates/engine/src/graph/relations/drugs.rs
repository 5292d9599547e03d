//! Drug, class and enzyme-class names in label text: what a word refers to (a label's drug by
//! generic or brand name, an ingredient of a small combination, a drug without a label of its
//! own). Label text is read as written; question spelling forgiveness does not apply here.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, LazyLock};

use super::target::Target;
use crate::graph::enzymes::enzyme_classes;
use crate::graph::names::{curated_names, has_usan_stem};
use crate::understand::{name_parts, DrugVocabulary};
use drugcite_core::label::LabelMeta;
use drugcite_core::text::{alphanumeric_words, occurrences, WordEdge};

/// The drugs and classes a label text can name: the index's vocabulary and its labels, and
/// the curated brands and drug abbreviations (name → first word of the generic name).
pub struct Drugs<'a> {
    vocabulary: &'a DrugVocabulary,
    labels: &'a [Arc<LabelMeta>],
    brands: &'static HashMap<String, String>,
}

/// Most ingredients a product may list for its name to stand for one of them (homeopathic
/// mixtures list dozens, "serotonin" among them).
static MAX_INGREDIENTS: LazyLock<usize> =
    LazyLock::new(|| crate::graph::wording::count("max_ingredients"));

/// The drugs, classes, enzyme classes and unlabelled drugs a sentence names.
pub(super) fn drug_targets(sentence: &str, drugs: &Drugs) -> Vec<Target> {
    let understood = drugs.vocabulary().understand_text(sentence);
    let mut targets: Vec<Target> = understood
        .drugs
        .into_iter()
        .filter(|mention| mention.class.is_some() || is_written(sentence, &mention.word))
        .filter_map(|mention| match mention.class {
            Some(class) => Some(Target::Class(class)),
            None => drugs.named(&mention.word, &mention.labels),
        })
        .collect();
    targets.extend(
        understood
            .unlabelled_drugs
            .into_iter()
            .map(Target::Unlabelled),
    );
    for class in enzyme_classes(sentence) {
        targets.extend(class.names.into_iter().map(Target::Class));
    }
    targets
}

impl<'a> Drugs<'a> {
    pub fn new(vocabulary: &'a DrugVocabulary, labels: &'a [Arc<LabelMeta>]) -> Self {
        Self {
            vocabulary,
            labels,
            brands: crate::curated::name_generics(),
        }
    }

    pub fn vocabulary(&self) -> &DrugVocabulary {
        self.vocabulary
    }

    pub fn labels(&self) -> &[Arc<LabelMeta>] {
        self.labels
    }

    /// What a one-word drug name of a text refers to: a label's drug, else an unlabelled drug.
    pub fn by_name(&self, name: &str) -> Option<Target> {
        let understood = self.vocabulary.understand_text(name);
        if let Some(mention) = understood.drugs.into_iter().find(|m| m.class.is_none()) {
            return self.named(&mention.word, &mention.labels);
        }
        understood
            .unlabelled_drugs
            .into_iter()
            .next()
            .map(Target::Unlabelled)
    }

    /// What a drug word of a text refers to: the single-ingredient labels it names (by
    /// generic or brand name); else the ingredient itself, when a product of a few ingredients
    /// contains it; else nothing.
    pub fn named(&self, word: &str, labels: &BTreeSet<u32>) -> Option<Target> {
        let meta = |l: &u32| &self.labels[*l as usize];
        let generic_of_word = self.brands.get(word);
        let single: Vec<u32> = labels
            .iter()
            .filter(|l| {
                let m = meta(l);
                let generic = &m.drug.name;
                let parts = name_parts(generic);
                let own_generic = parts.len() == 1
                    && (own_words(m, word) || generic_of_word == Some(&first_word(generic)));
                let by_ingredients = parts.len() > 1 && names_parts(&parts, word);
                let brand = (m.drug.brand_names.iter()).any(|b| brand_named(b, generic, word));
                own_generic || by_ingredients || brand
            })
            .copied()
            .collect();
        if !single.is_empty() {
            return Some(Target::Drug(single));
        }
        let ingredient = labels.iter().any(|l| {
            let parts = name_parts(&meta(l).drug.name);
            parts.len() <= *MAX_INGREDIENTS && parts.iter().any(|p| first_word(p) == word)
        });
        if ingredient {
            return Some(Target::Ingredient(word.to_owned()));
        }
        is_drug_name(word).then(|| Target::Unlabelled(word.to_owned()))
    }
}

/// A word that only kits or many-ingredient products of the index contain is still a drug of
/// its own when its form says so (a USAN stem: "clarithromycin" of a triple pack) or the curated
/// tables name it: a drug without a label of its own.
pub(super) fn is_drug_name(word: &str) -> bool {
    static CURATED: LazyLock<BTreeSet<String>> = LazyLock::new(curated_names);
    has_usan_stem(word) || CURATED.contains(word)
}

/// Whether `word` is written in `sentence` as it is, not only read as a misspelling of it (the
/// question reader forgives "chronic" for "chromic"; label text is taken as written).
fn is_written(sentence: &str, word: &str) -> bool {
    occurrences(sentence, word, WordEdge::WholeOrPlural)
        .next()
        .is_some()
}

fn first_word(name: &str) -> String {
    words(name).into_iter().next().unwrap_or_default()
}

/// The lowercase runs of letters and digits of `text` ("somapacitan-beco" → somapacitan, beco).
fn words(text: &str) -> Vec<String> {
    alphanumeric_words(text).map(str::to_lowercase).collect()
}

/// Whether every word of `word` is a word of the label's generic or brand names: a mention
/// narrowed by a later word ("testosterone undecanoate"), of part of a hyphenated name
/// ("somapacitan" of "somapacitan-beco"), or a brand with its generic ("photofrin porfimer").
fn own_words(label: &LabelMeta, word: &str) -> bool {
    let names = std::iter::once(&label.drug.name).chain(&label.drug.brand_names);
    let own: BTreeSet<String> = names.flat_map(|name| words(name)).collect();
    let mention = words(word);
    !mention.is_empty() && mention.iter().all(|w| own.contains(w))
}

/// Whether `word` names a combination by its ingredients ("lamivudine zidovudine", the reader's
/// mention of two names back to back): every word a word of the generic, two parts or more named,
/// and no one part named whole ("potassium chloride" of an electrolyte mix is one ingredient).
fn names_parts(parts: &[String], word: &str) -> bool {
    let mention = words(word);
    let part_words: Vec<Vec<String>> = parts.iter().map(|p| words(p)).collect();
    let in_generic = |w: &String| part_words.iter().any(|p| p.contains(w));
    let named = part_words
        .iter()
        .filter(|p| mention.iter().any(|w| p.contains(w)));
    let one_part = part_words
        .iter()
        .any(|p| mention.iter().all(|w| p.contains(w)));
    mention.iter().all(in_generic) && !one_part && named.count() >= 2
}

/// Whether the words of `name` hold those of `word` in a row.
fn holds(name: &str, word: &str) -> bool {
    let (name, word) = (words(name), words(word));
    !word.is_empty() && name.windows(word.len()).any(|w| w == word.as_slice())
}

/// Whether `word` names the product whose brand is `brand`: the brand itself, or its first
/// words when the brand is no generic name written as one ("Optiray" of "Optiray 320",
/// "Azulfidine" of "Azulfidine EN-tabs"; not "valsartan" of "Valsartan and Hydrochlorothiazide").
fn brand_named(brand: &str, generic: &str, word: &str) -> bool {
    let (brand_words, word_words) = (words(brand), words(word));
    let own_name = brand_words
        .first()
        .is_some_and(|first| !holds(generic, first));
    brand_words == word_words || (own_name && brand_words.starts_with(&word_words))
}
