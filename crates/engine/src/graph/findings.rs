//! Laboratory findings as questions word them ("low magnesium", "high blood calcium") with the
//! names labels give the same finding ("hypomagnesemia", "magnesium decreased"): an analyte of
//! `graph/lab-analytes.tsv` after a direction word, and the hypo-/hyper-…-emia word that medical
//! word formation makes of it (the words: `lab-findings.tsv`). Pure text work for question
//! reading; no graph here.

use std::ops::Range;
use std::sync::LazyLock;

use super::wording::group;
use crate::tables::graph as tables;
use drugcite_core::text::{occurrences, WordEdge};

/// Words saying a value is below normal ("hypo-"), then above it ("hyper-").
static LOW: LazyLock<Vec<String>> = LazyLock::new(|| words("low"));
static HIGH: LazyLock<Vec<String>> = LazyLock::new(|| words("high"));
/// What may stand between the direction and the analyte ("low blood magnesium"): nothing, or
/// a specimen word and a space.
static SPECIMENS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let specimens = words("specimen").into_iter().map(|w| format!("{w} "));
    std::iter::once(String::new()).chain(specimens).collect()
});
/// Endings an analyte's stem drops before "-emia", the first that ends it.
static EMIA_ENDINGS: LazyLock<Vec<String>> = LazyLock::new(|| words("emia-ending"));

/// The words of a role of `lab-findings.tsv`, in file order.
fn words(role: &str) -> Vec<String> {
    group(&tables::LAB_FINDINGS, "role", role, "word")
}

/// A finding a question names: where, and the phrases labels use for it (the question's own
/// wording first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub span: Range<usize>,
    pub phrases: Vec<String>,
}

/// Every laboratory finding `lower` names, longest first where two start at one place.
pub fn lab_findings(lower: &str) -> Vec<Finding> {
    static ANALYTES: LazyLock<Vec<String>> = LazyLock::new(crate::curated::lab_analytes);
    let mut found = Vec::new();
    let named = ANALYTES.iter().filter(|a| lower.contains(a.as_str()));
    for analyte in named {
        for (directions, prefix) in [(&*LOW, "hypo"), (&*HIGH, "hyper")] {
            for direction in directions {
                for specimen in SPECIMENS.iter() {
                    let asked = format!("{direction} {specimen}{analyte}");
                    for span in occurrences(lower, &asked, WordEdge::WholeOrPlural) {
                        let phrases = label_phrases(&asked, directions, analyte, prefix);
                        found.push(Finding { span, phrases });
                    }
                }
            }
        }
    }
    found.sort_by(|a, b| {
        a.span
            .start
            .cmp(&b.span.start)
            .then(b.span.end.cmp(&a.span.end))
    });
    found
}

/// The question's wording, the analyte with each direction word before and after it, and
/// the -emia word of a one-word analyte.
fn label_phrases(asked: &str, directions: &[String], analyte: &str, prefix: &str) -> Vec<String> {
    let mut phrases = vec![asked.to_owned()];
    for direction in directions {
        phrases.push(format!("{direction} {analyte}"));
        phrases.push(format!("{analyte} {direction}"));
    }
    if !analyte.contains(' ') {
        phrases.push(format!("{prefix}{}", emia(analyte)));
    }
    phrases.dedup();
    phrases
}

/// The blood-level word of an analyte: its stem and "-emia" ("magnesium" → "magnesemia",
/// "phosphate" → "phosphatemia", "albumin" → "albuminemia").
fn emia(analyte: &str) -> String {
    let stem = EMIA_ENDINGS
        .iter()
        .find_map(|ending| analyte.strip_suffix(ending.as_str()))
        .unwrap_or(analyte);
    format!("{stem}emia")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_direction_and_an_analyte_read_as_the_labels_words_for_the_finding() {
        let found = lab_findings("which heartburn medicines can cause low magnesium?");
        let low = &found[0];
        assert_eq!(
            &"which heartburn medicines can cause low magnesium?"[low.span.clone()],
            "low magnesium"
        );
        for phrase in [
            "hypomagnesemia",
            "magnesium decreased",
            "decreased magnesium",
        ] {
            assert!(low.phrases.contains(&phrase.to_owned()), "{phrase}");
        }
        let high = &lab_findings("does it cause high blood calcium")[0];
        assert!(high.phrases.contains(&"hypercalcemia".to_owned()));
        assert!(lab_findings("a low dose of magnesium").is_empty());
    }
}
