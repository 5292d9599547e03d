//! Populations and settings a text names — pregnancy, lactation, pediatric and geriatric
//! patients, surgery (CABG named as such), hepatic and renal impairment with their grade — as
//! canonical names, read the same way from questions and from label sentences. Pure text work.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// (pattern, canonical name); a grade word before an impairment is kept as `(grade)`.
static POPULATIONS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    let p = |pattern: &str, name: &'static str| {
        (
            Regex::new(&format!(r"(?i)\b(?:{pattern})")).expect("population pattern"),
            name,
        )
    };
    vec![
        p(r"pregnan\w*|expecting a baby", "pregnancy"),
        p(
            r"breast[- ]?feed\w*|breastfed|breast milk|lactat\w*|nursing (?:mothers?|women|infants?)",
            "lactation",
        ),
        p(
            r"pediatric|paediatric|children|child\b|infants?\b|neonat\w*|adolescents?",
            "pediatric patients",
        ),
        p(
            r"geriatric|elderly|older (?:adults?|patients?)|aged 65|65 years of age and older",
            "geriatric patients",
        ),
        p(
            r"coronary artery bypass graft\w*(?: \(cabg\))?(?: surgery)?|\bcabg\b(?: surgery)?",
            "cabg surgery",
        ),
        p(
            r"(?:(mild|moderate|severe)(?: or (?:mild|moderate|severe))?(?: to (?:moderate|severe))? )?(?:hepatic impairment|liver impairment|hepatic insufficiency|child-pugh [abc])",
            "hepatic impairment",
        ),
        p(
            r"(?:(mild|moderate|severe|end[- ]stage)(?: or (?:mild|moderate|severe))?(?: to (?:moderate|severe))? )?(?:renal impairment|renal insufficiency|kidney impairment|renal disease)",
            "renal impairment",
        ),
    ]
});

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
    for (pattern, name) in POPULATIONS.iter() {
        for caps in pattern.captures_iter(text) {
            let whole = caps.get(0).expect("match");
            let name = match caps.get(1) {
                Some(grade) => format!("{name} ({})", grade_of(grade.as_str())),
                None => (*name).to_owned(),
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

/// Grades an impairment may be named with.
const GRADES: [&str; 4] = ["mild", "moderate", "severe", "end-stage"];

/// The names a question's population stands for: itself; for a graded impairment the ungraded
/// one too (a label that says "hepatic impairment" covers the severe kind); for an ungraded
/// impairment every grade.
pub fn covered_names(name: &str) -> Vec<String> {
    match name.split_once(" (") {
        Some((base, _)) => vec![name.to_owned(), base.to_owned()],
        None if name.ends_with("impairment") => std::iter::once(name.to_owned())
            .chain(GRADES.iter().map(|g| format!("{name} ({g})")))
            .collect(),
        None => vec![name.to_owned()],
    }
}

fn grade_of(word: &str) -> String {
    let lower = word.to_lowercase();
    if lower.starts_with("end") {
        "end-stage".to_owned()
    } else {
        lower
    }
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
