//! Agreement of the graph's severity and negation rules (`severity.rs` with a cue table) with
//! the brat annotations: every annotated reaction is judged in its sentence exactly as the
//! graph judges a condition it found there. Scoring only; reading is `brat.rs`.

use std::ops::Range;

use crate::brat::Document;
use crate::eval::Part;
use crate::extractor_learning::{ratio, Counts, Half};
use drugcite_core::text::hyphenated_words;
use drugcite_engine::graph::cues::Cues;
use drugcite_engine::graph::model::Severity;
use drugcite_engine::graph::relations::sentences;
use drugcite_engine::graph::severity::{is_negated, stated, window};

/// The three grades the annotations tell apart: CTCAE grade 1 (mild), 2 (moderate), 3 and up
/// (severe, which holds the graph's serious and life-threatening).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    Mild,
    Moderate,
    Severe,
}

impl From<Severity> for Grade {
    fn from(severity: Severity) -> Self {
        match severity {
            Severity::Mild => Grade::Mild,
            Severity::Moderate => Grade::Moderate,
            Severity::Serious | Severity::LifeThreatening => Grade::Severe,
        }
    }
}

/// Words of an annotated Severity span and the severity they mean, most severe first; a span
/// naming a range ("mild to moderate", "Grade 3-4") means its lower end.
const ANNOTATION_WORDS: &[(&str, Severity)] = &[
    ("life-threatening", Severity::LifeThreatening),
    ("life threatening", Severity::LifeThreatening),
    ("fatal", Severity::LifeThreatening),
    ("severe", Severity::Serious),
    ("serious", Severity::Serious),
    ("major", Severity::Serious),
    ("significant", Severity::Serious),
    ("debilitating", Severity::Serious),
    ("disabling", Severity::Serious),
    ("irreversible", Severity::Serious),
    ("moderate", Severity::Moderate),
    ("modest", Severity::Moderate),
    ("mild", Severity::Mild),
    ("minor", Severity::Mild),
    ("transient", Severity::Mild),
];
/// CTCAE grades 1–5 as the annotations write them (arabic or roman).
const CTCAE: &[(&str, Severity)] = &[
    ("1", Severity::Mild),
    ("i", Severity::Mild),
    ("2", Severity::Moderate),
    ("ii", Severity::Moderate),
    ("3", Severity::Serious),
    ("iii", Severity::Serious),
    ("4", Severity::LifeThreatening),
    ("iv", Severity::LifeThreatening),
    ("5", Severity::LifeThreatening),
    ("v", Severity::LifeThreatening),
];

/// The severity an annotated Severity span means, if it names one (a threshold such as
/// "3 times ULN" does not; neither does a negated word such as "non-serious").
pub fn annotated_severity(span: &str) -> Option<Severity> {
    let lower = span.to_lowercase();
    let words: Vec<&str> = hyphenated_words(&lower).collect();
    if let Some(at) = words.iter().position(|w| matches!(*w, "grade" | "grades")) {
        let lower_end = words.get(at + 1)?.split('-').next()?;
        return CTCAE.iter().find(|(g, _)| *g == lower_end).map(|(_, s)| *s);
    }
    if words.iter().any(|w| w.starts_with("non")) {
        return None;
    }
    ANNOTATION_WORDS
        .iter()
        .filter(|(word, _)| drugcite_core::text::contains_any_word(&lower, &[word]))
        .map(|(_, severity)| *severity)
        .min()
}

/// One annotated reaction in its sentence.
#[derive(Clone, Debug)]
pub struct Case {
    /// The label part of the file name.
    pub label: String,
    pub sentence: String,
    /// The reaction's bytes in `sentence`.
    pub span: Range<usize>,
    pub severities: Vec<String>,
    pub negations: Vec<String>,
}

impl Case {
    /// Whether the annotators marked the reaction as negated.
    pub fn is_negated(&self) -> bool {
        !self.negations.is_empty()
    }

    /// The annotated grade: the most severe of its Severity spans that names one.
    pub fn grade(&self) -> Option<Grade> {
        self.severities
            .iter()
            .filter_map(|s| annotated_severity(s))
            .max()
            .map(Grade::from)
    }

    /// The lowercase words the graph reads the reaction's severity from, `reach` bytes each side.
    pub fn window(&self, reach: usize) -> String {
        self.sentence[window(&self.sentence, self.span.clone(), reach)].to_lowercase()
    }

    /// The lowercase words within `reach` before the reaction.
    pub fn reach(&self, reach: usize) -> String {
        let before: Vec<String> = hyphenated_words(&self.sentence[..self.span.start])
            .map(str::to_lowercase)
            .collect();
        before[before.len().saturating_sub(reach)..].join(" ")
    }

    /// The lowercase rest of the sentence after the reaction.
    pub fn after(&self) -> String {
        self.sentence[self.span.end..].to_lowercase()
    }
}

/// Whether `label` is in `part` of the annotated files: the fixed split is by label name
/// (`Half`, the SHA-256 of the name: the learning half is fit), so every section of a label
/// falls in the same part.
pub fn in_part(part: Part, label: &str) -> bool {
    match part {
        Part::Fit => Half::Learning.contains(label),
        Part::Held => Half::HeldOut.contains(label),
        Part::All => true,
    }
}

/// Every annotated reaction of the documents of `part`, in its sentence.
pub fn cases(documents: &[Document], part: Part) -> Vec<Case> {
    let mut out = Vec::new();
    for doc in documents.iter().filter(|d| in_part(part, &d.label)) {
        let sentences = sentences(&doc.text);
        for reaction in &doc.reactions {
            let Some(sentence) = sentences.iter().find(|s| s.contains(&reaction.span.start)) else {
                continue;
            };
            let end = reaction.span.end.min(sentence.end);
            out.push(Case {
                label: doc.label.clone(),
                sentence: doc.text[sentence.clone()].to_owned(),
                span: reaction.span.start - sentence.start..end - sentence.start,
                severities: reaction.severities.clone(),
                negations: reaction.negations.clone(),
            });
        }
    }
    out
}

/// How the rules agree with the annotations on a set of cases.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Agreement {
    pub reactions: usize,
    pub negation: Counts,
    /// Per grade, mild to severe.
    pub grades: [Counts; 3],
    /// Reactions both the rules and the annotators grade, and how many of them alike.
    pub both_graded: usize,
    pub same_grade: usize,
}

impl Agreement {
    /// Of the reactions both grade, the share given the same grade.
    pub fn grade_agreement(&self) -> f64 {
        ratio(self.same_grade, self.both_graded)
    }
}

/// The agreement of the rules with `cues` on `cases`.
pub fn measure(cases: &[Case], cues: &Cues) -> Agreement {
    let mut out = Agreement {
        reactions: cases.len(),
        ..Agreement::default()
    };
    for case in cases {
        let negated = is_negated(&case.sentence, case.span.clone(), cues);
        out.negation.judge(negated, case.is_negated());
        let predicted = stated(&case.window(cues.severity_reach), cues).map(Grade::from);
        let annotated = case.grade();
        for (at, counts) in out.grades.iter_mut().enumerate() {
            let grade = [Grade::Mild, Grade::Moderate, Grade::Severe][at];
            counts.judge(predicted == Some(grade), annotated == Some(grade));
        }
        if let (Some(p), Some(a)) = (predicted, annotated) {
            out.both_graded += 1;
            out.same_grade += usize::from(p == a);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotated_spans_map_to_ctcae_grades_and_ranges_to_their_lower_end() {
        let grade = |s: &str| annotated_severity(s);
        assert_eq!(grade("Grade 3"), Some(Severity::Serious));
        assert_eq!(grade("grade 3-4"), Some(Severity::Serious));
        assert_eq!(grade("Grade IV"), Some(Severity::LifeThreatening));
        assert_eq!(grade("mild to moderate"), Some(Severity::Mild));
        assert_eq!(grade("Life-threatening"), Some(Severity::LifeThreatening));
        assert_eq!(grade("non-serious"), None);
        assert_eq!(grade("3 times the upper limit of normal"), None);
    }

    #[test]
    fn a_case_is_judged_in_its_sentence() {
        let case = Case {
            label: "X".into(),
            sentence: "Severe rash was seen. ".into(),
            span: 7..11,
            severities: vec!["Severe".into()],
            negations: vec![],
        };
        let agreement = measure(&[case], &Cues::none());
        assert_eq!(agreement.grades[2].matched, 1);
        assert_eq!(agreement.negation, Counts::default());
        assert_eq!(agreement.grade_agreement(), 1.0);
    }
}
