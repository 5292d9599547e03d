//! Search quality against rule-based relevance, in the format of
//! `shared/data/eval/dev-questions.jsonl`: a result is relevant when some rule's drug regex
//! matches its drug name, its section is one of the rule's sections (compared on lowercase
//! letters, with the README's aliases), and any `text_any` regex matches its text.
//! Scores over the top 10: nDCG@10 (binary gains; ideal = the same hits moved to the top),
//! MRR@10, P@5, S@1. Pure scoring; fetching results is the caller's business.

use std::collections::BTreeMap;

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

#[derive(Deserialize)]
struct RawQuestion {
    id: String,
    kind: String,
    question: String,
    relevant: Vec<RawRule>,
}

#[derive(Deserialize)]
struct RawRule {
    #[serde(default)]
    drug: String,
    sections: Vec<String>,
    #[serde(default)]
    text_any: Vec<String>,
}

pub struct EvalQuestion {
    pub id: String,
    pub kind: String,
    pub question: String,
    rules: Vec<Rule>,
}

struct Rule {
    drug: Regex,
    sections: Vec<String>,
    text_any: Vec<Regex>,
}

/// The fields of a search result that relevance looks at.
pub struct Judged<'a> {
    pub drug: &'a str,
    pub section: &'a str,
    pub text: &'a str,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scores {
    pub ndcg10: f64,
    pub mrr10: f64,
    pub p5: f64,
    pub s1: f64,
}

/// Parses one JSON line of a question file.
pub fn parse_question(line: &str) -> Result<EvalQuestion, String> {
    let raw: RawQuestion = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let compile = |pattern: &str| {
        RegexBuilder::new(pattern)
            .case_insensitive(true)
            .build()
            .map_err(|e| e.to_string())
    };
    let rules = raw
        .relevant
        .iter()
        .map(|r| {
            Ok(Rule {
                drug: Regex::new(&r.drug).map_err(|e| e.to_string())?,
                sections: r.sections.iter().map(|s| letters(s)).collect(),
                text_any: r
                    .text_any
                    .iter()
                    .map(|t| compile(t))
                    .collect::<Result<_, String>>()?,
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(EvalQuestion {
        id: raw.id,
        kind: raw.kind,
        question: raw.question,
        rules,
    })
}

impl EvalQuestion {
    pub fn is_relevant(&self, result: &Judged) -> bool {
        let section = letters(result.section);
        self.rules.iter().any(|rule| {
            rule.drug.is_match(&result.drug.to_lowercase())
                && rule
                    .sections
                    .iter()
                    .any(|wanted| section_matches(wanted, &section))
                && (rule.text_any.is_empty()
                    || rule.text_any.iter().any(|t| t.is_match(result.text)))
        })
    }
}

fn letters(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Rule section (letters) vs result section (letters), with the aliases of the eval README.
fn section_matches(wanted: &str, section: &str) -> bool {
    let aliases: &[&str] = match wanted {
        "warningsandprecautions" => &["warnings", "precautions"],
        "useinspecificpopulations" => &[
            "pregnancy",
            "lactation",
            "renalimpairment",
            "hepaticimpairment",
            "geriatricuse",
            "pediatricuse",
        ],
        "clinicalpharmacology" => &["pharmacokinetics", "mechanismofaction", "pharmacodynamics"],
        _ => &[],
    };
    wanted == section || aliases.contains(&section)
}

/// Scores of one ranked list of relevance judgements.
pub fn score(relevant: &[bool]) -> Scores {
    let top: Vec<bool> = relevant.iter().copied().take(10).collect();
    let gain = |hits: &mut dyn Iterator<Item = bool>| -> f64 {
        hits.enumerate()
            .filter(|(_, r)| *r)
            .map(|(i, _)| 1.0 / ((i + 2) as f64).log2())
            .sum()
    };
    let hits = top.iter().filter(|r| **r).count();
    let dcg = gain(&mut top.iter().copied());
    let ideal = gain(&mut (0..hits).map(|_| true));
    Scores {
        ndcg10: if ideal > 0.0 { dcg / ideal } else { 0.0 },
        mrr10: top
            .iter()
            .position(|r| *r)
            .map_or(0.0, |i| 1.0 / (i + 1) as f64),
        p5: top.iter().take(5).filter(|r| **r).count() as f64 / 5.0,
        s1: if top.first() == Some(&true) { 1.0 } else { 0.0 },
    }
}

/// Mean scores overall and per kind.
#[derive(Default)]
pub struct Summary {
    per_kind: BTreeMap<String, (usize, Scores)>,
}

impl Summary {
    pub fn add(&mut self, kind: &str, scores: Scores) {
        for key in [kind, "ALL"] {
            let entry = self.per_kind.entry(key.to_owned()).or_default();
            entry.0 += 1;
            entry.1.ndcg10 += scores.ndcg10;
            entry.1.mrr10 += scores.mrr10;
            entry.1.p5 += scores.p5;
            entry.1.s1 += scores.s1;
        }
    }

    /// (kind, questions, mean scores), kinds alphabetically, then ALL.
    pub fn rows(&self) -> Vec<(String, usize, Scores)> {
        let mean = |(n, s): &(usize, Scores)| {
            let n = *n as f64;
            Scores {
                ndcg10: s.ndcg10 / n,
                mrr10: s.mrr10 / n,
                p5: s.p5 / n,
                s1: s.s1 / n,
            }
        };
        let mut rows: Vec<_> = self
            .per_kind
            .iter()
            .filter(|(k, _)| k.as_str() != "ALL")
            .map(|(k, v)| (k.clone(), v.0, mean(v)))
            .collect();
        if let Some(all) = self.per_kind.get("ALL") {
            rows.push(("ALL".into(), all.0, mean(all)));
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"id":"d1","kind":"interaction","question":"q","relevant":[{"drug":"^sertraline","sections":["drug interactions","warnings and precautions"],"text_any":["pimozide"]}]}"#;

    #[test]
    fn rules_match_drug_section_aliases_and_text() {
        let q = parse_question(LINE).unwrap();
        let judged = |drug, section, text| {
            q.is_relevant(&Judged {
                drug,
                section,
                text,
            })
        };
        assert!(judged(
            "sertraline hydrochloride",
            "Drug Interactions",
            "Avoid PIMOZIDE."
        ));
        assert!(
            judged("sertraline hydrochloride", "Precautions", "pimozide"),
            "alias of warnings and precautions"
        );
        assert!(
            !judged("sertraline hydrochloride", "Boxed Warning", "pimozide"),
            "never boxed warning"
        );
        assert!(!judged("fluoxetine", "Drug Interactions", "pimozide"));
        assert!(!judged("sertraline", "Drug Interactions", "no match"));
    }

    #[test]
    fn metrics_of_a_ranked_list() {
        let s = score(&[false, true, false, true]);
        assert_eq!(s.mrr10, 0.5);
        assert_eq!(s.s1, 0.0);
        assert_eq!(s.p5, 0.4);
        let ideal = 1.0 + 1.0 / 3f64.log2();
        let dcg = 1.0 / 3f64.log2() + 1.0 / 5f64.log2();
        assert!((s.ndcg10 - dcg / ideal).abs() < 1e-12);
        assert_eq!(score(&[true]).ndcg10, 1.0);
        assert_eq!(score(&[false; 10]), Scores::default());
    }
}
