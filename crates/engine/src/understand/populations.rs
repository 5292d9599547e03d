//! Populations and settings a text names — pregnancy, lactation, pediatric and geriatric
//! patients, surgery (CABG named as such), hepatic and renal impairment with their grade — as
//! canonical names, read the same way from questions and from label sentences, by the phrases
//! of `populations.tsv` and the grades of `impairment-grades.tsv`. Pure text work.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::cues::phrase_pattern;
use super::word_tables::{bad_row, parsed};
use crate::tables::understand as tables;

/// A population's phrases as one pattern (a grade before an impairment captured first), its
/// canonical name and its grades: each grade phrase with the grade it names.
struct Population {
    pattern: Regex,
    name: &'static str,
    grades: Vec<(Regex, &'static str)>,
}

static POPULATIONS: LazyLock<Vec<Population>> = LazyLock::new(|| {
    let grades = grades();
    let source = &tables::POPULATIONS;
    let table = parsed(source);
    let (population, phrase, matched) = (
        table.column("population"),
        table.column("phrase"),
        table.column("match"),
    );
    let mut phrases: Vec<(&'static str, Vec<String>)> = Vec::new();
    for row in table.rows() {
        let pattern = phrase_pattern(row.cell(phrase));
        let pattern = match row.cell(matched) {
            "prefix" => pattern,
            "whole" => format!(r"{pattern}\b"),
            other => bad_row(
                source,
                row,
                format!("a phrase matches prefix or whole, not {other:?}"),
            ),
        };
        let name = row.cell(population);
        match phrases.iter_mut().find(|(n, _)| *n == name) {
            Some((_, patterns)) => patterns.push(pattern),
            None => phrases.push((name, vec![pattern])),
        }
    }
    for (name, row) in grades.iter().map(|g| (g.population, g.row)) {
        if !phrases.iter().any(|(n, _)| *n == name) {
            bad_row(
                &tables::IMPAIRMENT_GRADES,
                row,
                format!("no population {name:?} in populations.tsv"),
            );
        }
    }
    let populations = phrases.into_iter().map(|(name, patterns)| {
        let graded: Vec<&Grade> = grades.iter().filter(|g| g.population == name).collect();
        let pattern = format!(
            r"(?i)\b(?:{}(?:{}))",
            grade_prefix(&graded),
            patterns.join("|")
        );
        let grades = graded.iter().filter(|g| g.position == "first").map(|g| {
            let phrase = Regex::new(&format!("(?i)^(?:{})$", regex::escape(g.phrase)));
            (phrase.expect("an escaped phrase"), g.grade)
        });
        Population {
            pattern: Regex::new(&pattern).expect("escaped population phrases"),
            name,
            grades: grades.collect(),
        }
    });
    populations.collect()
});

/// A row of `impairment-grades.tsv`.
struct Grade {
    population: &'static str,
    grade: &'static str,
    phrase: &'static str,
    position: &'static str,
    row: &'static drugcite_core::table::Row,
}

/// The rows of `impairment-grades.tsv`, in file order.
fn grades() -> &'static [Grade] {
    static GRADES: LazyLock<Vec<Grade>> = LazyLock::new(|| {
        let source = &tables::IMPAIRMENT_GRADES;
        let table = parsed(source);
        let at = |name: &str| table.column(name);
        let (population, grade, phrase, position) =
            (at("population"), at("grade"), at("phrase"), at("position"));
        let grades = table.rows().iter().map(|row| {
            let position = row.cell(position);
            if !["first", "after-or", "after-to"].contains(&position) {
                bad_row(source, row, format!("no position {position:?}"));
            }
            Grade {
                population: row.cell(population),
                grade: row.cell(grade),
                phrase: row.cell(phrase),
                position,
                row,
            }
        });
        grades.collect()
    });
    &GRADES
}

/// The optional grade before an impairment: a grade (captured), then maybe "or" another, then
/// maybe "to" another, and a space ("mild or moderate", "mild to moderate"); none ungraded.
fn grade_prefix(grades: &[&Grade]) -> String {
    let at = |position: &str| {
        let phrases = grades.iter().filter(|g| g.position == position);
        let phrases: Vec<String> = phrases.map(|g| regex::escape(g.phrase)).collect();
        phrases.join("|")
    };
    let (first, or, to) = (at("first"), at("after-or"), at("after-to"));
    if first.is_empty() {
        return String::new();
    }
    let or = if or.is_empty() {
        String::new()
    } else {
        format!("(?: or (?:{or}))?")
    };
    let to = if to.is_empty() {
        String::new()
    } else {
        format!("(?: to (?:{to}))?")
    };
    format!("(?:({first}){or}{to} )?")
}

/// The populations of `populations.tsv`, in file order.
pub(super) fn population_names() -> Vec<&'static str> {
    POPULATIONS.iter().map(|p| p.name).collect()
}

/// A population or setting named in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PopulationMention {
    pub span: Range<usize>,
    /// Canonical name, with the grade when one was named: `hepatic impairment (severe)`.
    pub name: String,
}

/// Every population `text` names, in text order, overlapping mentions once.
pub fn populations(text: &str) -> Vec<PopulationMention> {
    let mut found: Vec<PopulationMention> = Vec::new();
    for population in POPULATIONS.iter() {
        for caps in population.pattern.captures_iter(text) {
            let whole = caps.get(0).expect("match");
            let name = match caps.get(1) {
                Some(grade) => format!(
                    "{} ({})",
                    population.name,
                    grade_of(population, grade.as_str())
                ),
                None => population.name.to_owned(),
            };
            found.push(PopulationMention {
                span: whole.range(),
                name,
            });
        }
    }
    found.sort_by_key(|m| (m.span.start, std::cmp::Reverse(m.span.end)));
    let mut kept: Vec<PopulationMention> = Vec::new();
    for mention in found {
        if !kept.iter().any(|k| k.span.end > mention.span.start) {
            kept.push(mention);
        }
    }
    kept
}

/// The names a question's population stands for: itself; for a graded impairment the ungraded
/// one too (a label that says "hepatic impairment" covers the severe kind); for an ungraded
/// impairment (a population `impairment-grades.tsv` grades) every grade of the table.
pub fn covered_names(name: &str) -> Vec<String> {
    static GRADES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let mut names: Vec<&'static str> = Vec::new();
        for grade in grades() {
            if !names.contains(&grade.grade) {
                names.push(grade.grade);
            }
        }
        names
    });
    match name.split_once(" (") {
        Some((base, _)) => vec![name.to_owned(), base.to_owned()],
        None if grades().iter().any(|g| g.population == name) => std::iter::once(name.to_owned())
            .chain(GRADES.iter().map(|g| format!("{name} ({g})")))
            .collect(),
        None => vec![name.to_owned()],
    }
}

/// The grade a grade phrase of `population` names ("end stage" is "end-stage"); the phrase
/// itself, lowercase, if none does.
fn grade_of(population: &Population, phrase: &str) -> String {
    let named = population.grades.iter().find(|(p, _)| p.is_match(phrase));
    named.map_or_else(|| phrase.to_lowercase(), |(_, grade)| (*grade).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        populations(text).into_iter().map(|m| m.name).collect()
    }

    #[test]
    fn populations_and_grades_are_read_from_questions_and_labels() {
        assert_eq!(
            names("Which drugs are contraindicated while breastfeeding or in pregnancy?"),
            ["lactation", "pregnancy"]
        );
        assert_eq!(
            names("contraindicated in patients with severe hepatic impairment (Child-Pugh C)"),
            ["hepatic impairment (severe)", "hepatic impairment"]
        );
        assert_eq!(
            names("in the setting of coronary artery bypass graft (CABG) surgery"),
            ["cabg surgery"]
        );
        assert!(names("take with food").is_empty());
    }

    #[test]
    fn a_graded_population_also_covers_the_ungraded_one() {
        assert_eq!(
            covered_names("renal impairment (severe)"),
            ["renal impairment (severe)", "renal impairment"]
        );
        assert_eq!(covered_names("pregnancy"), ["pregnancy"]);
        assert!(covered_names("renal impairment").contains(&"renal impairment (severe)".into()));
    }
}
