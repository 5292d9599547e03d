//! The knowledge tables `understand` reads, compiled in from `crates/engine/tables/understand/`:
//! one `TableSource` per file, parsed where it is used (`understand::word_tables`, `cues`,
//! `populations`).

use drugcite_core::table::{TableSource, THRESHOLD_COLUMNS};

/// Named numbers of the question reader.
pub const THRESHOLDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/thresholds.tsv",
    THRESHOLD_COLUMNS
);

/// Endings a question adds to an acronym ("i" of "ACEi") and the words they stand for.
pub const ACRONYM_ENDINGS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/acronym-endings.tsv",
    &["ending", "reads_as", "source"]
);

/// Section and relation cues of a question, with the flags they set (one table for both readers).
pub const QUESTION_CUES: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/question-cues.tsv",
    &[
        "group",
        "cue",
        "match",
        "sections",
        "relations",
        "flags",
        "source",
    ]
);

/// The relation types a graph question asks when its wording names none.
pub const DEFAULT_RELATIONS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/default-relations.tsv",
    &["case", "relations", "source"]
);

/// English function words and the part each plays in reading a question.
pub const FUNCTION_WORDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/function-words.tsv",
    &["word", "class", "source"]
);

/// Question words with a part in reading a question besides the cues (drug nouns, filler…).
pub const QUESTION_WORDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/question-words.tsv",
    &["word", "class", "source"]
);

/// Salt, form, route and connective words of product names: never a drug mention.
pub const NOT_NAME_WORDS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/not-name-words.tsv",
    &["word", "kind", "source"]
);

/// Chemical symbols of the metals salts are named after ("k" → "potassium").
pub const ELEMENT_SYMBOLS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/element-symbols.tsv",
    &["symbol", "element", "source"]
);

/// Head nouns of chemical and material names ("acid" of "lactic acid").
pub const HEAD_NOUNS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/head-nouns.tsv",
    &["word", "source"]
);

/// USAN stems that make a question word shaped like a drug name.
pub const USAN_STEMS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/usan-stems.tsv",
    &["stem", "source"]
);

/// Sections ranked below the professional ones unless asked for.
pub const PERIPHERAL_SECTIONS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/peripheral-sections.tsv",
    &["section", "source"]
);

/// Populations and settings a question or a label sentence names.
pub const POPULATIONS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/populations.tsv",
    &["population", "phrase", "match", "source"]
);

/// The grades an impairment may be named with.
pub const IMPAIRMENT_GRADES: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/impairment-grades.tsv",
    &["population", "grade", "phrase", "position", "source"]
);

/// The label subsections a population asks for.
pub const POPULATION_SECTIONS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/population-sections.tsv",
    &["population", "sections", "source"]
);

/// Clinical measurements whose stated values the reader reads.
pub const MEASUREMENTS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/measurements.tsv",
    &["phrase", "measurement", "units", "parts", "source"]
);

/// The findings a measured value makes.
pub const MEASUREMENT_FINDINGS: TableSource = drugcite_core::table_source!(
    "crates/engine/tables/understand/measurement-findings.tsv",
    &["measurement", "from", "to", "finding", "source"]
);

/// Every table of this area, for `check_all`.
pub const ALL: &[&TableSource] = &[
    &THRESHOLDS,
    &QUESTION_CUES,
    &DEFAULT_RELATIONS,
    &FUNCTION_WORDS,
    &QUESTION_WORDS,
    &NOT_NAME_WORDS,
    &ELEMENT_SYMBOLS,
    &HEAD_NOUNS,
    &USAN_STEMS,
    &PERIPHERAL_SECTIONS,
    &POPULATIONS,
    &IMPAIRMENT_GRADES,
    &POPULATION_SECTIONS,
    &ACRONYM_ENDINGS,
    &MEASUREMENTS,
    &MEASUREMENT_FINDINGS,
];
