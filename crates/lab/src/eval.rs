//! Search quality against rule-based relevance, in the format of
//! `shared/data/eval/dev-questions.jsonl`: a result is relevant when some rule's drug regex
//! matches its drug name, its section is one of the rule's sections (compared on lowercase
//! letters, with the README's aliases), and any `text_any` regex matches its text.
//! Scores over the top 10: nDCG@10 (binary gains; ideal = the same hits moved to the top),
//! MRR@10, P@5, S@1. The fixed split into the part ranking parameters are fitted on and
//! the held-out part they are never fitted on. A question may name the `voice` it is asked in
//! (patient, agent, clinician); means are kept per voice as well as per kind. Pure scoring;
//! fetching results is the caller's business.

use std::collections::{BTreeMap, BTreeSet};

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

#[derive(Deserialize)]
struct RawQuestion {
    id: String,
    kind: String,
    question: String,
    relevant: Vec<RawRule>,
    #[serde(default)]
    voice: Option<String>,
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
    /// Who asks, when the file says (e.g. patient, agent, clinician).
    pub voice: Option<String>,
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
        voice: raw.voice,
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

/// Which questions a run scores: those ranking parameters are fitted on, the held-out rest,
/// or all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    Fit,
    Held,
    All,
}

/// Every `HELD_EVERY`-th question of a kind, in the order of a hash of its id, is held out.
const HELD_EVERY: usize = 3;

/// The ids of the held-out questions: within each kind, questions ordered by the FNV-1a hash of
/// their id, every third from the second on (a kind of one question is never held out). The
/// split depends only on the ids and kinds, so it is the same for every run and every file.
pub fn held_out(questions: &[EvalQuestion]) -> BTreeSet<String> {
    held_out_of(questions.iter().map(|q| (q.id.as_str(), q.kind.as_str())))
}

/// The same split over any question file's `(id, kind)` pairs (search and graph files alike).
pub fn held_out_of<'a>(
    questions: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> BTreeSet<String> {
    let mut by_kind: BTreeMap<&str, Vec<(u64, &str)>> = BTreeMap::new();
    for (id, kind) in questions {
        by_kind.entry(kind).or_default().push((fnv1a(id), id));
    }
    by_kind
        .into_values()
        .flat_map(|mut ids| {
            ids.sort();
            ids.into_iter()
                .enumerate()
                .filter(|(i, _)| i % HELD_EVERY == 1)
                .map(|(_, (_, id))| id.to_owned())
                .collect::<Vec<_>>()
        })
        .collect()
}

impl Part {
    pub fn includes(self, held: &BTreeSet<String>, id: &str) -> bool {
        match self {
            Part::Fit => !held.contains(id),
            Part::Held => held.contains(id),
            Part::All => true,
        }
    }
}

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
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

/// Mean scores overall, per kind and per voice.
#[derive(Default)]
pub struct Summary {
    per_kind: BTreeMap<String, (usize, Scores)>,
    per_voice: BTreeMap<String, (usize, Scores)>,
}

/// Adds one question's scores to a running (count, sums) pair.
fn accumulate(entry: &mut (usize, Scores), scores: Scores) {
    entry.0 += 1;
    entry.1.ndcg10 += scores.ndcg10;
    entry.1.mrr10 += scores.mrr10;
    entry.1.p5 += scores.p5;
    entry.1.s1 += scores.s1;
}

fn mean((n, s): &(usize, Scores)) -> Scores {
    let n = *n as f64;
    Scores {
        ndcg10: s.ndcg10 / n,
        mrr10: s.mrr10 / n,
        p5: s.p5 / n,
        s1: s.s1 / n,
    }
}

impl Summary {
    /// Adds one question; a question without a voice counts in no voice's mean.
    pub fn add(&mut self, kind: &str, voice: Option<&str>, scores: Scores) {
        for key in [kind, "ALL"] {
            accumulate(self.per_kind.entry(key.to_owned()).or_default(), scores);
        }
        if let Some(voice) = voice {
            accumulate(self.per_voice.entry(voice.to_owned()).or_default(), scores);
        }
    }

    /// (kind, questions, mean scores), kinds alphabetically, then ALL.
    pub fn rows(&self) -> Vec<(String, usize, Scores)> {
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

    /// (voice, questions, mean scores), voices alphabetically; empty when no question had one.
    pub fn voice_rows(&self) -> Vec<(String, usize, Scores)> {
        self.per_voice
            .iter()
            .map(|(v, entry)| (v.clone(), entry.0, mean(entry)))
            .collect()
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
    fn a_third_of_each_kind_is_held_out_by_id_alone() {
        let question = |id: &str, kind: &str| {
            parse_question(
                &LINE
                    .replace("\"d1\"", &format!("\"{id}\""))
                    .replace("\"interaction\"", &format!("\"{kind}\"")),
            )
            .unwrap()
        };
        let mut questions: Vec<EvalQuestion> =
            (0..9).map(|i| question(&format!("a{i}"), "x")).collect();
        questions.extend((0..2).map(|i| question(&format!("b{i}"), "y")));
        questions.push(question("c0", "z"));
        let held = held_out(&questions);
        assert_eq!(held.iter().filter(|id| id.starts_with('a')).count(), 3);
        assert_eq!(held.iter().filter(|id| id.starts_with('b')).count(), 1);
        assert!(
            !held.contains("c0"),
            "a lone question of its kind is fitted on"
        );
        questions.reverse();
        assert_eq!(
            held_out(&questions),
            held,
            "order of the file does not matter"
        );
        assert!(Part::Fit.includes(&held, "c0") && !Part::Held.includes(&held, "c0"));
    }

    #[test]
    fn means_per_kind_and_per_voice() {
        let with_voice = LINE.replace(
            r#""kind":"interaction","#,
            r#""kind":"interaction","voice":"patient","#,
        );
        assert_eq!(
            parse_question(&with_voice).unwrap().voice.as_deref(),
            Some("patient")
        );
        assert_eq!(
            parse_question(LINE).unwrap().voice,
            None,
            "voice is optional"
        );
        let hit = score(&[true]);
        let miss = score(&[false]);
        let mut summary = Summary::default();
        summary.add("adverse", Some("patient"), hit);
        summary.add("adverse", Some("patient"), miss);
        summary.add("renal", Some("clinician"), hit);
        summary.add("renal", None, miss);
        let voices = summary.voice_rows();
        let names: Vec<&str> = voices.iter().map(|(v, _, _)| v.as_str()).collect();
        assert_eq!(names, ["clinician", "patient"]);
        assert_eq!((voices[1].1, voices[1].2.s1), (2, 0.5));
        assert_eq!((voices[0].1, voices[0].2.ndcg10), (1, 1.0));
        let all = summary.rows().pop().unwrap();
        assert_eq!(
            (all.0.as_str(), all.1),
            ("ALL", 4),
            "a question without a voice still counts"
        );
        assert_eq!(all.2.s1, 0.5);
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
