//! The knowledge tables `graph` reads, compiled in from `crates/engine/tables/graph/` and, for
//! the curated vocabularies the whole engine shares, from `graph/`: one `TableSource` per file,
//! parsed where it is used. Says nothing of what a table means.

use drugcite_core::table::TableSource;

/// A table of the top-level `graph/` folder, by its name and columns.
macro_rules! vocabulary {
    ($name:literal, $columns:expr) => {
        TableSource {
            file: concat!("graph/", $name, ".tsv"),
            text: include_str!(concat!("../../../../graph/", $name, ".tsv")),
            columns: $columns,
        }
    };
}

/// US brand names → first word of the generic name.
pub const BRANDS: TableSource = vocabulary!("brands", &["brand", "generic", "source"]);
/// Abbreviations that name one drug ("ptu") → first word of its generic name.
pub const DRUG_ABBREVIATIONS: TableSource =
    vocabulary!("drug-abbreviations", &["abbreviation", "generic", "source"]);
/// Drug classes with their everyday terms and members.
pub const DRUG_CLASSES: TableSource =
    vocabulary!("drug-classes", &["class", "terms", "members", "source"]);
/// Everyday phrases → the words labels use.
pub const LAY_TERMS: TableSource =
    vocabulary!("lay-terms", &["lay_phrase", "label_wording", "source"]);
/// The glosses labels give their clinical words, mined.
pub const LABEL_GLOSSES: TableSource =
    vocabulary!("label-glosses", &["lay_phrase", "label_wording", "source"]);
/// Groups of phrases naming one condition.
pub const CONDITION_SYNONYMS: TableSource =
    vocabulary!("condition-synonyms", &["name", "other_phrases", "source"]);
/// Nouns for a medicine by its form → openFDA routes.
pub const MEDICINE_FORMS: TableSource =
    vocabulary!("medicine-forms", &["noun", "routes", "source"]);
/// Laboratory analytes whose changes labels report as reactions.
pub const LAB_ANALYTES: TableSource = vocabulary!("lab-analytes", &["analyte", "source"]);
/// Organ phrases labels write for a harm, mined.
pub const ORGAN_HARMS: TableSource = vocabulary!(
    "organ-harms",
    &["phrase", "occurrences", "harm_share", "source"]
);
/// Adverse-reaction terms beside the open vocabularies, learned with their statistics.
pub const ADVERSE_REACTION_TERMS: TableSource = vocabulary!(
    "adverse-reaction-terms",
    crate::conditions::lexicon::CURATED_COLUMNS
);

/// Every table of this area, for `check_all`.
pub const ALL: &[&TableSource] = &[
    &BRANDS,
    &DRUG_ABBREVIATIONS,
    &DRUG_CLASSES,
    &LAY_TERMS,
    &LABEL_GLOSSES,
    &CONDITION_SYNONYMS,
    &MEDICINE_FORMS,
    &LAB_ANALYTES,
    &ORGAN_HARMS,
    &ADVERSE_REACTION_TERMS,
];
