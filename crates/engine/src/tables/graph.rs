//! The knowledge tables `graph` reads, compiled in from `crates/engine/tables/graph/` and, for
//! the curated vocabularies the whole engine shares, from `graph/`: one `TableSource` per file,
//! parsed where it is used. Says nothing of what a table means.

use drugcite_core::table::{TableSource, THRESHOLD_COLUMNS};

/// A table of `crates/engine/tables/graph/`, by its name and columns.
macro_rules! graph_table {
    ($name:literal, $columns:expr) => {
        TableSource {
            file: concat!("crates/engine/tables/graph/", $name, ".tsv"),
            text: include_str!(concat!("../../tables/graph/", $name, ".tsv")),
            columns: $columns,
        }
    };
}

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
/// The acronyms labels define, with their long forms, mined.
pub const LABEL_ACRONYMS: TableSource = vocabulary!(
    "label-acronyms",
    &["acronym", "long_form", "labels", "source"]
);
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
/// The columns of `graph/adverse-reaction-terms.tsv`: the term, where the learner found it,
/// its counts in the annotations' learning half, and the source.
pub const ADVERSE_REACTION_TERM_COLUMNS: &[&str] = &[
    "term",
    "origin",
    "adverse_seen",
    "adverse_annotated",
    "other_seen",
    "other_annotated",
    "source",
];
/// Adverse-reaction terms beside the open vocabularies, learned with their statistics.
pub const ADVERSE_REACTION_TERMS: TableSource =
    vocabulary!("adverse-reaction-terms", ADVERSE_REACTION_TERM_COLUMNS);

/// Named numbers of the graph build and answers.
pub const THRESHOLDS: TableSource = graph_table!("thresholds", THRESHOLD_COLUMNS);
/// Label wording by group (reasons, hedges, limitations of use, …), with how each is matched.
pub const LABEL_CUES: TableSource =
    graph_table!("label-cues", &["group", "cue", "match", "source"]);
/// Words stating a severity, by grade.
pub const SEVERITY_WORDS: TableSource =
    graph_table!("severity-words", &["word", "grade", "source"]);
/// Words denying a condition, by role.
pub const NEGATION_CUES: TableSource = graph_table!("negation-cues", &["cue", "role", "source"]);
/// USAN stems that mark a word of label text as a drug name.
pub const USAN_STEMS: TableSource = graph_table!("usan-stems", &["stem", "source"]);
/// Words for reading the drug names a label lists, by role.
pub const LIST_WORDS: TableSource = graph_table!("list-words", &["word", "role", "source"]);
/// Regex alternatives of what a label tells the reader to do about an interaction, by group.
pub const INSTRUCTION_CUES: TableSource =
    graph_table!("instruction-cues", &["pattern", "group", "source"]);
/// Strengths, enzymes and roles of the enzyme-class pattern, with what each reads as.
pub const ENZYME_CLASSES: TableSource =
    graph_table!("enzyme-classes", &["part", "pattern", "reads_as", "source"]);
/// Direction and specimen words of a laboratory finding, and the stem endings before "-emia".
pub const LAB_FINDINGS: TableSource = graph_table!("lab-findings", &["word", "role", "source"]);
/// The relation each label section states.
pub const SECTION_RELATIONS: TableSource =
    graph_table!("section-relations", &["section", "relation", "source"]);
/// The sections a yes/no verdict reads for its floor, with the relation each states.
pub const VERDICT_FLOOR_SECTIONS: TableSource =
    graph_table!("verdict-floor-sections", &["section", "relation", "source"]);
/// The sections that say what a drug is and what it is for.
pub const SELF_DESCRIPTION_SECTIONS: TableSource =
    graph_table!("self-description-sections", &["section", "source"]);
/// Adjective endings and the noun endings of the conditions they name.
pub const ADJECTIVE_ENDINGS: TableSource = graph_table!(
    "adjective-endings",
    &["adjective_ending", "noun_ending", "source"]
);
/// Abbreviations whose full stop does not end a sentence.
pub const SENTENCE_ABBREVIATIONS: TableSource =
    graph_table!("sentence-abbreviations", &["abbreviation", "source"]);

/// Every table of this area, for `check_all`.
pub const ALL: &[&TableSource] = &[
    &THRESHOLDS,
    &LABEL_CUES,
    &SEVERITY_WORDS,
    &NEGATION_CUES,
    &USAN_STEMS,
    &LIST_WORDS,
    &INSTRUCTION_CUES,
    &ENZYME_CLASSES,
    &LAB_FINDINGS,
    &SECTION_RELATIONS,
    &VERDICT_FLOOR_SECTIONS,
    &SELF_DESCRIPTION_SECTIONS,
    &ADJECTIVE_ENDINGS,
    &SENTENCE_ABBREVIATIONS,
    &BRANDS,
    &DRUG_ABBREVIATIONS,
    &DRUG_CLASSES,
    &LAY_TERMS,
    &LABEL_GLOSSES,
    &LABEL_ACRONYMS,
    &CONDITION_SYNONYMS,
    &MEDICINE_FORMS,
    &LAB_ANALYTES,
    &ORGAN_HARMS,
    &ADVERSE_REACTION_TERMS,
];
