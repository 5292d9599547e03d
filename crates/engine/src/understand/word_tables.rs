//! The question reader's word tables (`crates/engine/tables/understand/`), each parsed once and
//! checked row by row: a bad row stops the reader with its file and line (the tables test loads
//! them all). Hands out word classes, word lists and thresholds; knows nothing of how a
//! question is read.

use std::collections::HashMap;
use std::fmt::Display;
use std::sync::LazyLock;

use drugcite_core::table::{Row, Table, TableError, TableSource};

use crate::tables::understand as tables;

/// A class of `function-words.tsv` or `question-words.tsv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum WordClass {
    /// Articles and demonstratives ("a", "these").
    Article,
    /// Possessive determiners ("my", "their").
    Possessive,
    /// Auxiliary and modal verbs, which open a yes/no question.
    Auxiliary,
    /// Interrogatives and imperatives that open a question asking for a list or an account
    /// ("what", "list"), not a yes or no.
    OpenQuestion,
    /// Words before a singular drug noun that ask for drugs in general ("which drug").
    Asking,
    /// Words that open a "which drugs" question.
    Which,
    /// Words joining a second thing to a drug ("with", "while", "taking").
    Joining,
    /// Those right after the subject ("cipro with antacids").
    JoiningAfter,
    /// Those right before it ("beer while taking tinidazole").
    JoiningBefore,
    /// What introduces an example of a class ("such as", "e.g.,"), tried in file order.
    ExampleConnector,
    /// Plural nouns asking for drugs in general ("medications").
    Drugs,
    /// Singular nouns asking for drugs in general after an asking word ("which drug").
    DrugAsked,
    /// Starts of the word after a drug noun that make one noun of the two ("drug interactions").
    DrugCompound,
    /// Nouns a "which …" question asks for drugs by.
    WhichNoun,
    /// Verbs whose object is the condition a medicine treats.
    TreatingVerb,
    /// Nouns for a medicine by what it does ("treatment").
    TreatmentNoun,
    /// Words asking for the medicines there are ("options").
    Choice,
    /// Frequency words before the effects of a common-side-effects question.
    Frequency,
    /// The effects after them.
    FrequencyEffect,
    /// Effects before a frequency word.
    EffectFrequency,
    /// Frequency words after the effects.
    FrequencyAfter,
    /// Words of a graph question that carry no content of their own.
    Filler,
    /// Nouns a label sentence attaches an age limit to ("children younger than 12 years").
    AgeSubject,
    /// Words right after an age limit that make it an age ("12 years of age", "2 years old").
    AgeAfter,
    /// Words right before a limit that make it a duration ("treated for less than 2 years").
    DurationBefore,
    /// Words between a measurement's name and its value ("potassium level is 5.8").
    MeasureLink,
    /// Words after a number that make it a dose, a count or a duration, not a measured value.
    CountUnit,
    /// Wording of a value below a limit ("<", "less than"), before the limit.
    LessThan,
    /// Wording of a value above a limit (">", "greater than"), before the limit.
    MoreThan,
    /// Wording after a limit that makes it an upper one ("or less").
    LessThanAfter,
    /// Wording after a limit that makes it a lower one ("or greater").
    MoreThanAfter,
}

/// Each class's name in its table.
const CLASS_NAMES: &[(WordClass, &str, &TableSource)] = &[
    (WordClass::Article, "article", &tables::FUNCTION_WORDS),
    (WordClass::Possessive, "possessive", &tables::FUNCTION_WORDS),
    (WordClass::Auxiliary, "auxiliary", &tables::FUNCTION_WORDS),
    (
        WordClass::OpenQuestion,
        "open-question",
        &tables::FUNCTION_WORDS,
    ),
    (WordClass::Asking, "asking", &tables::FUNCTION_WORDS),
    (WordClass::Which, "which", &tables::FUNCTION_WORDS),
    (WordClass::Joining, "joining", &tables::FUNCTION_WORDS),
    (
        WordClass::JoiningAfter,
        "joining-after",
        &tables::FUNCTION_WORDS,
    ),
    (
        WordClass::JoiningBefore,
        "joining-before",
        &tables::FUNCTION_WORDS,
    ),
    (
        WordClass::ExampleConnector,
        "example-connector",
        &tables::FUNCTION_WORDS,
    ),
    (WordClass::Drugs, "drugs", &tables::QUESTION_WORDS),
    (WordClass::DrugAsked, "drug-asked", &tables::QUESTION_WORDS),
    (
        WordClass::DrugCompound,
        "drug-compound",
        &tables::QUESTION_WORDS,
    ),
    (WordClass::WhichNoun, "which-noun", &tables::QUESTION_WORDS),
    (
        WordClass::TreatingVerb,
        "treating-verb",
        &tables::QUESTION_WORDS,
    ),
    (
        WordClass::TreatmentNoun,
        "treatment-noun",
        &tables::QUESTION_WORDS,
    ),
    (WordClass::Choice, "choice", &tables::QUESTION_WORDS),
    (WordClass::Frequency, "frequency", &tables::QUESTION_WORDS),
    (
        WordClass::FrequencyEffect,
        "frequency-effect",
        &tables::QUESTION_WORDS,
    ),
    (
        WordClass::EffectFrequency,
        "effect-frequency",
        &tables::QUESTION_WORDS,
    ),
    (
        WordClass::FrequencyAfter,
        "frequency-after",
        &tables::QUESTION_WORDS,
    ),
    (WordClass::Filler, "filler", &tables::QUESTION_WORDS),
    (
        WordClass::AgeSubject,
        "age-subject",
        &tables::QUESTION_WORDS,
    ),
    (
        WordClass::MeasureLink,
        "measure-link",
        &tables::QUESTION_WORDS,
    ),
    (WordClass::AgeAfter, "age-after", &tables::QUESTION_WORDS),
    (
        WordClass::DurationBefore,
        "duration-before",
        &tables::QUESTION_WORDS,
    ),
    (WordClass::CountUnit, "count-unit", &tables::QUESTION_WORDS),
    (WordClass::LessThan, "less-than", &tables::QUESTION_WORDS),
    (WordClass::MoreThan, "more-than", &tables::QUESTION_WORDS),
    (
        WordClass::LessThanAfter,
        "less-than-after",
        &tables::QUESTION_WORDS,
    ),
    (
        WordClass::MoreThanAfter,
        "more-than-after",
        &tables::QUESTION_WORDS,
    ),
];

/// The words of `class`, in file order.
pub(crate) fn words(class: WordClass) -> &'static [&'static str] {
    static CLASSES: LazyLock<HashMap<WordClass, Vec<&'static str>>> = LazyLock::new(|| {
        let mut classes: HashMap<WordClass, Vec<&'static str>> = HashMap::new();
        for source in [&tables::FUNCTION_WORDS, &tables::QUESTION_WORDS] {
            let table = parsed(source);
            let (word, class) = (table.column("word"), table.column("class"));
            for row in table.rows() {
                let name = row.cell(class);
                let known = CLASS_NAMES
                    .iter()
                    .find(|(_, n, s)| *n == name && s.file == source.file);
                let Some((found, _, _)) = known else {
                    bad_row(source, row, format!("no word class {name:?} in this table"));
                };
                classes.entry(*found).or_default().push(row.cell(word));
            }
        }
        classes
    });
    CLASSES.get(&class).map_or(&[], Vec::as_slice)
}

/// The words of `class` as regex alternatives (escaped, in file order).
pub(crate) fn alternatives(class: WordClass) -> String {
    let escaped: Vec<String> = words(class).iter().map(|w| regex::escape(w)).collect();
    escaped.join("|")
}

/// Every value of `column` of `source`, in file order.
pub(crate) fn column(source: &'static TableSource, column: &str) -> Vec<&'static str> {
    parsed(source).values(column).collect()
}

/// The named number `name` of `thresholds.tsv`, a count (a whole number, not negative).
pub(crate) fn threshold(name: &str) -> usize {
    static TABLE: LazyLock<&'static Table> = LazyLock::new(|| parsed(&tables::THRESHOLDS));
    let value = TABLE.number(name);
    if value < 0.0 || value.fract() != 0.0 {
        let (names, at) = (TABLE.column("name"), TABLE.rows());
        let row = at.iter().find(|row| row.cell(names) == name);
        let row = row.expect("a number read has a row");
        bad_row(&tables::THRESHOLDS, row, format!("{name} is no count"));
    }
    value as usize
}

/// `source` parsed, once for the life of the process (every caller is a `LazyLock`).
pub(crate) fn parsed(source: &'static TableSource) -> &'static Table {
    Box::leak(Box::new(source.rows()))
}

/// Stops the reader at a row whose meaning is wrong (an unknown class, section or relation).
pub(crate) fn bad_row(source: &TableSource, row: &Row, reason: impl Display) -> ! {
    let error = TableError {
        file: source.file.to_owned(),
        line: row.line(),
        reason: reason.to_string(),
    };
    panic!("invalid table row: {error}")
}

/// The `;`-separated items of a cell; none for `-`.
pub(crate) fn items(cell: &str) -> impl Iterator<Item = &str> {
    cell.split(';').filter(|item| *item != "-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_words_and_every_threshold_is_a_count() {
        for (class, name, _) in CLASS_NAMES {
            assert!(!words(*class).is_empty(), "{name}");
        }
        for name in column(&tables::THRESHOLDS, "name") {
            threshold(name);
        }
        assert_eq!(words(WordClass::Possessive)[0], "my");
        assert!(words(WordClass::Filler).contains(&"severe"));
    }
}
