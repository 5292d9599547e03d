//! The vocabularies drugcite curates itself, kept as sourced tables under `graph/` (registered
//! in `tables::graph`) and compiled in: brand → generic names, drug classes with lay terms and members, and everyday
//! words → label wording (with the everyday glosses mined from the labels themselves,
//! `graph/label-glosses.tsv`). Parses them (the brand table once per process, since every
//! /v1/graph question reads it); matching them against questions or text is for the modules
//! that use them.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::tables::graph as tables;
use drugcite_core::table::TableSource;

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
    names_with_generics(&tables::BRANDS)
}

/// The abbreviations clinicians type for one drug ("PTU", "MTX"), each with the first word of
/// its generic: read like a brand (`Brand::brand` is the abbreviation).
pub fn drug_abbreviations() -> Vec<Brand> {
    names_with_generics(&tables::DRUG_ABBREVIATIONS)
}

/// The rows of a name → generic table.
fn names_with_generics(table: &TableSource) -> Vec<Brand> {
    lowercase_pairs(table)
        .map(|(brand, generic)| Brand { brand, generic })
        .collect()
}

/// Brand → first word of the generic name, parsed on first use and kept.
pub fn brand_generics() -> &'static HashMap<String, String> {
    static BRAND_GENERICS: LazyLock<HashMap<String, String>> =
        LazyLock::new(|| brands().into_iter().map(|b| (b.brand, b.generic)).collect());
    &BRAND_GENERICS
}

/// Curated brand or drug abbreviation ("hctz") → first word of the generic name, parsed on
/// first use and kept: the names a question may give a drug by that its labels do not carry.
pub fn name_generics() -> &'static HashMap<String, String> {
    static NAME_GENERICS: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
        let named = brands().into_iter().chain(drug_abbreviations());
        named.map(|b| (b.brand, b.generic)).collect()
    });
    &NAME_GENERICS
}

pub fn drug_classes() -> Vec<DrugClass> {
    let table = tables::DRUG_CLASSES.rows();
    let (name, terms, members) = (
        table.column("class"),
        table.column("terms"),
        table.column("members"),
    );
    table
        .rows()
        .iter()
        .map(|row| DrugClass {
            name: row.cell(name).to_owned(),
            terms: split_list(row.cell(terms)),
            members: split_list(row.cell(members)),
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
    lowercase_pairs(&tables::CONDITION_SYNONYMS)
        .map(|(first, others)| {
            let mut phrases = vec![first];
            phrases.extend(split_list(&others));
            ConditionSynonyms { phrases }
        })
        .collect()
}

/// Laboratory analytes whose changes labels report as reactions, lowercase.
pub fn lab_analytes() -> Vec<String> {
    lowercase_firsts(&tables::LAB_ANALYTES)
}

/// The curated lay terms, then the glosses labels give their clinical words ("breast
/// enlargement (gynecomastia)"), mined by `crates/lab/scripts/mine-glosses.py`.
pub fn lay_terms() -> Vec<LayTerm> {
    lowercase_pairs(&tables::LAY_TERMS)
        .chain(lowercase_pairs(&tables::LABEL_GLOSSES))
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
    lowercase_pairs(&tables::MEDICINE_FORMS)
        .map(|(noun, routes)| MedicineForm {
            noun,
            routes: split_list(&routes),
        })
        .collect()
}

/// The organ phrases labels write for a harm rather than for an impaired organ ("kidney
/// injury", "renal failure"), lowercase; mined by `crates/lab/scripts/mine-organ-harms.py`.
pub fn organ_harm_phrases() -> Vec<String> {
    lowercase_firsts(&tables::ORGAN_HARMS)
}

/// The first two cells of every row of `table`, lowercased.
fn lowercase_pairs(table: &TableSource) -> impl Iterator<Item = (String, String)> {
    let pairs: Vec<(String, String)> = table
        .rows()
        .rows()
        .iter()
        .map(|row| (row.cell(0).to_lowercase(), row.cell(1).to_lowercase()))
        .collect();
    pairs.into_iter()
}

/// The first cell of every row of `table`, lowercased.
fn lowercase_firsts(table: &TableSource) -> Vec<String> {
    let rows = table.rows();
    rows.rows()
        .iter()
        .map(|row| row.cell(0).to_lowercase())
        .collect()
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
        let rows = |table: &TableSource| table.rows().rows().len();
        assert_eq!(brands().len(), rows(&tables::BRANDS));
        assert_eq!(
            drug_abbreviations().len(),
            rows(&tables::DRUG_ABBREVIATIONS)
        );
        assert_eq!(drug_classes().len(), rows(&tables::DRUG_CLASSES));
        assert_eq!(
            lay_terms().len(),
            rows(&tables::LAY_TERMS) + rows(&tables::LABEL_GLOSSES)
        );
        assert_eq!(
            condition_synonyms().len(),
            rows(&tables::CONDITION_SYNONYMS)
        );
        assert_eq!(medicine_forms().len(), rows(&tables::MEDICINE_FORMS));
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
