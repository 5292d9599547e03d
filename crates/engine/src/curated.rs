//! The vocabularies drugcite curates itself, kept as data under `graph/` with their source and
//! compiled in: brand → generic names, drug classes with lay terms and members, and everyday
//! words → label wording (with the everyday glosses mined from the labels themselves,
//! `graph/label-glosses.tsv`). Parses them (the brand table once per process, since every
//! /v1/graph question reads it); matching them against questions or text is for the modules
//! that use them.

use std::collections::HashMap;
use std::sync::LazyLock;

const BRANDS: &str = include_str!("../../../graph/brands.tsv");
const DRUG_ABBREVIATIONS: &str = include_str!("../../../graph/drug-abbreviations.tsv");
const CLASSES: &str = include_str!("../../../graph/drug-classes.tsv");
const LAY_TERMS: &str = include_str!("../../../graph/lay-terms.tsv");
const LABEL_GLOSSES: &str = include_str!("../../../graph/label-glosses.tsv");
const CONDITION_SYNONYMS: &str = include_str!("../../../graph/condition-synonyms.tsv");
const MEDICINE_FORMS: &str = include_str!("../../../graph/medicine-forms.tsv");
const LAB_ANALYTES: &str = include_str!("../../../graph/lab-analytes.tsv");
const ORGAN_HARMS: &str = include_str!("../../../graph/organ-harms.tsv");

/// A brand name and the first word of its generic name, both lowercase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Brand {
    pub brand: String,
    pub generic: String,
}

/// A drug class: its name (an FDA EPC name where one fits), the lowercase terms people use for
/// it, and the first words of its members' generic names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrugClass {
    pub name: String,
    pub terms: Vec<String>,
    pub members: Vec<String>,
}

pub fn brands() -> Vec<Brand> {
    names_with_generics(BRANDS)
}

/// The abbreviations clinicians type for one drug ("PTU", "MTX"), each with the first word of
/// its generic: read like a brand (`Brand::brand` is the abbreviation).
pub fn drug_abbreviations() -> Vec<Brand> {
    names_with_generics(DRUG_ABBREVIATIONS)
}

/// The rows of a name → generic table.
fn names_with_generics(data: &str) -> Vec<Brand> {
    lowercase_pairs(data)
        .map(|(brand, generic)| Brand { brand, generic })
        .collect()
}

/// Brand → first word of the generic name, parsed on first use and kept.
pub fn brand_generics() -> &'static HashMap<String, String> {
    static BRAND_GENERICS: LazyLock<HashMap<String, String>> =
        LazyLock::new(|| brands().into_iter().map(|b| (b.brand, b.generic)).collect());
    &BRAND_GENERICS
}

pub fn drug_classes() -> Vec<DrugClass> {
    rows(CLASSES)
        .filter_map(|fields| match fields.as_slice() {
            [name, terms, members] => Some(DrugClass {
                name: (*name).to_owned(),
                terms: split_list(terms),
                members: split_list(members),
            }),
            _ => None,
        })
        .collect()
}

/// The terms of the curated class called `name` (any case), empty for a class without a line.
pub fn class_terms(name: &str) -> &'static [String] {
    static TERMS: LazyLock<HashMap<String, Vec<String>>> = LazyLock::new(|| {
        drug_classes()
            .into_iter()
            .map(|class| (class.name.to_lowercase(), class.terms))
            .collect()
    });
    TERMS.get(&name.to_lowercase()).map_or(&[], Vec::as_slice)
}

/// An everyday phrase and the words labels use for the same thing, both lowercase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayTerm {
    pub phrase: String,
    pub label_wording: String,
}

/// Phrases naming one condition; the first is the name shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionSynonyms {
    pub phrases: Vec<String>,
}

pub fn condition_synonyms() -> Vec<ConditionSynonyms> {
    lowercase_pairs(CONDITION_SYNONYMS)
        .map(|(first, others)| {
            let mut phrases = vec![first];
            phrases.extend(split_list(&others));
            ConditionSynonyms { phrases }
        })
        .collect()
}

/// Laboratory analytes whose changes labels report as reactions, lowercase.
pub fn lab_analytes() -> Vec<String> {
    rows(LAB_ANALYTES)
        .filter_map(|fields| fields.first().map(|f| f.to_lowercase()))
        .collect()
}

/// The curated lay terms, then the glosses labels give their clinical words ("breast
/// enlargement (gynecomastia)"), mined by `crates/lab/scripts/mine-glosses.py`.
pub fn lay_terms() -> Vec<LayTerm> {
    lowercase_pairs(LAY_TERMS)
        .chain(lowercase_pairs(LABEL_GLOSSES))
        .map(|(phrase, label_wording)| LayTerm {
            phrase,
            label_wording,
        })
        .collect()
}

/// A noun naming a medicine by its form ("shot", "pill") and the openFDA routes of that form,
/// both lowercase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MedicineForm {
    pub noun: String,
    pub routes: Vec<String>,
}

pub fn medicine_forms() -> Vec<MedicineForm> {
    lowercase_pairs(MEDICINE_FORMS)
        .map(|(noun, routes)| MedicineForm {
            noun,
            routes: split_list(&routes),
        })
        .collect()
}

/// The organ phrases labels write for a harm rather than for an impaired organ ("kidney
/// injury", "renal failure"), lowercase; mined by `crates/lab/scripts/mine-organ-harms.py`.
pub fn organ_harm_phrases() -> Vec<String> {
    rows(ORGAN_HARMS)
        .filter_map(|fields| fields.first().map(|phrase| phrase.to_lowercase()))
        .collect()
}

/// The rows of two fields, lowercased; rows of another shape are left out (tests count them).
fn lowercase_pairs(data: &str) -> impl Iterator<Item = (String, String)> + '_ {
    rows(data).filter_map(|fields| match fields.as_slice() {
        [first, second] => Some((first.to_lowercase(), second.to_lowercase())),
        _ => None,
    })
}

/// Tab-separated fields of each line that is neither blank nor a `#` comment.
fn rows(data: &str) -> impl Iterator<Item = Vec<&str>> {
    data.lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split('\t').map(str::trim).collect())
}

fn split_list(list: &str) -> Vec<String> {
    list.split('|')
        .map(|item| item.trim().to_lowercase())
        .filter(|item| !item.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_data_line_parses() {
        assert_eq!(brands().len(), rows(BRANDS).count());
        assert_eq!(drug_abbreviations().len(), rows(DRUG_ABBREVIATIONS).count());
        assert_eq!(drug_classes().len(), rows(CLASSES).count());
        assert_eq!(
            lay_terms().len(),
            rows(LAY_TERMS).count() + rows(LABEL_GLOSSES).count()
        );
        assert_eq!(condition_synonyms().len(), rows(CONDITION_SYNONYMS).count());
        assert_eq!(medicine_forms().len(), rows(MEDICINE_FORMS).count());
        assert!(organ_harm_phrases().contains(&"kidney injury".to_owned()));
        assert!(medicine_forms().iter().all(|f| !f.routes.is_empty()));
        assert!(brands().len() > 100 && drug_classes().len() > 20);
        assert_eq!(brand_generics().len(), brands().len());
        assert!(drug_classes()
            .iter()
            .all(|c| !c.terms.is_empty() && !c.members.is_empty()));
    }

    #[test]
    fn brands_are_unique_single_words() {
        let brands = brands();
        let mut names: Vec<&str> = brands.iter().map(|b| b.brand.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), brands.len(), "a brand listed twice");
        assert!(brands
            .iter()
            .all(|b| !b.brand.contains(' ') && !b.generic.contains(' ')));
    }

    #[test]
    fn statins_include_atorvastatin_and_their_lay_name() {
        let statins = drug_classes()
            .into_iter()
            .find(|c| c.name == "HMG-CoA Reductase Inhibitor")
            .unwrap();
        assert!(statins.members.contains(&"atorvastatin".to_owned()));
        assert!(statins.terms.contains(&"cholesterol medicine".to_owned()));
    }

    #[test]
    fn a_class_node_s_name_finds_its_curated_terms_in_any_case() {
        let terms = class_terms("angiotensin converting enzyme inhibitor");
        assert!(terms.contains(&"ace inhibitor".to_owned()), "{terms:?}");
        assert_eq!(
            class_terms("Angiotensin Converting Enzyme Inhibitor"),
            terms
        );
        assert!(class_terms("strong cyp3a inhibitors").is_empty());
    }
}
