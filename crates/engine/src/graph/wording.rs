//! The graph's word tables (`crates/engine/tables/graph/`, registered in `tables::graph`) as the
//! lists its readers use: one group of a table in file order, and the graph's thresholds. Knows
//! no wording itself; a group the code reads but the file lacks is a programming error.

use std::sync::LazyLock;

use crate::tables::graph::{LABEL_CUES, THRESHOLDS};
use drugcite_core::table::{Table, TableSource};
use drugcite_core::text::{key_of, occurrences, WordEdge};

/// The values of `value_column` of the rows of `table` whose `group_column` is `group`, in
/// file order.
pub(crate) fn group(
    table: &TableSource,
    group_column: &str,
    group: &str,
    value_column: &str,
) -> Vec<String> {
    let rows = table.rows();
    let (key, value) = (rows.column(group_column), rows.column(value_column));
    let values: Vec<String> = rows
        .rows()
        .iter()
        .filter(|row| row.cell(key) == group)
        .map(|row| row.cell(value).to_owned())
        .collect();
    assert!(!values.is_empty(), "{} has no {group} rows", table.file);
    values
}

/// The cues of a group of `label-cues.tsv`, each of which must be matched as `matching` says
/// (the table's `match` column: phrase, regex, substring or term).
pub(crate) fn label_cues(group_name: &str, matching: &str) -> Vec<String> {
    static TABLE: LazyLock<Table> = LazyLock::new(|| LABEL_CUES.rows());
    let (key, cue, how) = (
        TABLE.column("group"),
        TABLE.column("cue"),
        TABLE.column("match"),
    );
    let rows: Vec<_> = TABLE
        .rows()
        .iter()
        .filter(|row| row.cell(key) == group_name)
        .collect();
    assert!(
        !rows.is_empty(),
        "{} has no {group_name} rows",
        LABEL_CUES.file
    );
    for row in &rows {
        assert_eq!(
            row.cell(how),
            matching,
            "{}:{}: the {group_name} cues are matched as {matching}",
            LABEL_CUES.file,
            row.line()
        );
    }
    rows.iter().map(|row| row.cell(cue).to_owned()).collect()
}

/// The key of a label's words as the verdict's floor matches them: a typographic apostrophe
/// read as a straight one ("St. John’s wort" as asked "St. John's wort").
pub(crate) fn text_key(text: &str) -> String {
    key_of(&text.to_lowercase().replace('\u{2019}', "'"))
}

/// A number of `thresholds.tsv`.
pub(crate) fn threshold(name: &str) -> f64 {
    static TABLE: LazyLock<Table> = LazyLock::new(|| THRESHOLDS.rows());
    TABLE.number(name)
}

/// A count of `thresholds.tsv` (a reach, a length, a number of words).
pub(crate) fn count(name: &str) -> usize {
    threshold(name) as usize
}

/// Whether `text` holds one of `words` as whole words (`text::contains_any_word` for owned
/// lists).
pub(crate) fn contains_any(text: &str, words: &[String]) -> bool {
    words
        .iter()
        .any(|word| occurrences(text, word, WordEdge::Whole).next().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::graph as tables;

    /// Every table of this area read by group, with its group column and the groups the code
    /// reads: a group in the file that no code reads would be a silent no-op.
    const GROUPS: &[(&TableSource, &str, &[&str])] = &[
        (
            &tables::LABEL_CUES,
            "group",
            &[
                "reason",
                "hedge",
                "limitation-of-use",
                "no-interaction",
                "concomitant",
                "outcome",
                "not-contraindicated",
                "avoid",
                "most-common-list",
                "allergy",
                "exception",
                "substituent-ending",
                "treatment-purpose",
                "example-list",
                "condition-head",
                "coordinator",
            ],
        ),
        (
            &tables::SEVERITY_WORDS,
            "grade",
            &["life_threatening", "serious", "moderate", "mild"],
        ),
        (
            &tables::NEGATION_CUES,
            "role",
            &["before", "not", "instructing", "hedged-by-not", "after"],
        ),
        (
            &tables::LIST_WORDS,
            "role",
            &[
                "list-head",
                "not-name",
                "english-ending",
                "group-filler",
                "generic-group",
            ],
        ),
        (
            &tables::INSTRUCTION_CUES,
            "group",
            &[
                "contraindicated",
                "avoid",
                "withhold",
                "adjust_dose",
                "monitor",
                "conditional-if",
                "conditional-event",
                "conditional-weigh",
            ],
        ),
        (
            &tables::ENZYME_CLASSES,
            "part",
            &["strength", "enzyme", "same-enzyme", "role"],
        ),
        (
            &tables::LAB_FINDINGS,
            "role",
            &["low", "high", "specimen", "emia-ending"],
        ),
    ];

    #[test]
    fn every_group_of_a_table_is_one_the_code_reads() {
        for (table, column, groups) in GROUPS {
            let rows = table.rows();
            for (line, group) in rows
                .rows()
                .iter()
                .map(|r| r.line())
                .zip(rows.values(column))
            {
                assert!(
                    groups.contains(&group),
                    "{}:{line}: unread {group}",
                    table.file
                );
            }
        }
    }

    #[test]
    fn a_group_comes_in_file_order_and_its_matching_is_checked() {
        assert_eq!(
            label_cues("most-common-list", "substring")[0],
            "most common"
        );
        assert!(std::panic::catch_unwind(|| label_cues("hedge", "regex")).is_err());
        assert_eq!(count("max_item_words"), 3);
    }
}
