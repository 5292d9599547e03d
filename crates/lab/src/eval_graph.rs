//! Relationship-question scoring for POST /v1/graph, in the format of
//! `shared/data/eval/graph-dev-questions.jsonl` and with the rules of
//! `shared/tools/score_graph.py`: a question succeeds when at least `min_must` of its `must`
//! rules match some returned relationship and no `must_not` rule matches one of the top 10.
//! Scoring is pure (`judge`); `run` asks a server and prints the table.

use std::collections::BTreeMap;

use anyhow::Context;
use regex::{Regex, RegexBuilder};
use serde::Deserialize;
use serde_json::Value;

use crate::eval::{held_out_of, Part};

/// `must_not` rules are checked among this many top relationships.
const TOP_NOT: usize = 10;

#[derive(Deserialize)]
struct RawRule {
    #[serde(default)]
    drug: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<Value>,
    #[serde(default)]
    target: Option<String>,
    #[serde(default)]
    section: Option<String>,
    #[serde(default)]
    severity: Option<String>,
}

#[derive(Deserialize)]
struct RawQuestion {
    id: String,
    kind: String,
    question: String,
    #[serde(default)]
    must: Vec<RawRule>,
    min_must: Option<usize>,
    #[serde(default)]
    must_not: Vec<RawRule>,
}

struct Rule {
    drug: Regex,
    types: Option<Vec<String>>,
    target: Regex,
    section: Option<Regex>,
    severity: Option<Regex>,
}

pub struct GraphEvalQuestion {
    pub id: String,
    pub kind: String,
    pub question: String,
    must: Vec<Rule>,
    min_must: usize,
    must_not: Vec<Rule>,
}

/// One question's outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judgement {
    pub must_found: usize,
    pub must_total: usize,
    pub success: bool,
    pub violation: bool,
    pub empty: bool,
}

/// Whether a question file line is a graph question (it has `must` rules, not `relevant`).
pub fn is_graph_question(line: &str) -> bool {
    serde_json::from_str::<Value>(line).is_ok_and(|v| v.get("must").is_some())
}

pub fn parse_graph_question(line: &str) -> anyhow::Result<GraphEvalQuestion> {
    let raw: RawQuestion = serde_json::from_str(line)?;
    let rules = |raw: Vec<RawRule>| {
        raw.into_iter()
            .map(rule)
            .collect::<anyhow::Result<Vec<_>>>()
    };
    let must = rules(raw.must)?;
    Ok(GraphEvalQuestion {
        id: raw.id,
        kind: raw.kind,
        question: raw.question,
        min_must: raw.min_must.unwrap_or(must.len()),
        must,
        must_not: rules(raw.must_not)?,
    })
}

fn rule(raw: RawRule) -> anyhow::Result<Rule> {
    let pattern = |p: &str| RegexBuilder::new(p).case_insensitive(true).build();
    let types = match raw.kind {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) => Some(vec![t]),
        Some(Value::Array(ts)) => Some(
            ts.into_iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect(),
        ),
        Some(other) => anyhow::bail!("rule type {other}: expected a string or a list"),
    };
    Ok(Rule {
        drug: pattern(raw.drug.as_deref().unwrap_or_default())?,
        types,
        target: pattern(raw.target.as_deref().unwrap_or_default())?,
        section: raw.section.as_deref().map(pattern).transpose()?,
        severity: raw.severity.as_deref().map(pattern).transpose()?,
    })
}

impl Rule {
    fn matches(&self, rel: &Value) -> bool {
        let text = |field: &str| rel[field].as_str().unwrap_or_default();
        let kind_ok = self
            .types
            .as_ref()
            .is_none_or(|types| types.iter().any(|t| t == text("type")));
        let section_ok = self.section.as_ref().is_none_or(|section| {
            rel["evidence"].as_array().is_some_and(|evidence| {
                evidence
                    .iter()
                    .any(|e| section.is_match(e["section"].as_str().unwrap_or_default()))
            })
        });
        self.drug.is_match(&text("drug").to_lowercase())
            && kind_ok
            && self.target.is_match(text("target"))
            && self
                .severity
                .as_ref()
                .is_none_or(|s| s.is_match(text("severity")))
            && section_ok
    }
}

impl GraphEvalQuestion {
    /// The outcome of an answer's `relationships`, in rank order.
    pub fn judge(&self, relationships: &[Value]) -> Judgement {
        let must_found = self
            .must
            .iter()
            .filter(|r| relationships.iter().any(|rel| r.matches(rel)))
            .count();
        let top = &relationships[..relationships.len().min(TOP_NOT)];
        let violation = self
            .must_not
            .iter()
            .any(|r| top.iter().any(|rel| r.matches(rel)));
        Judgement {
            must_found,
            must_total: self.must.len(),
            success: must_found >= self.min_must && !violation,
            violation,
            empty: relationships.is_empty(),
        }
    }
}

/// Per kind and overall: questions, successes, must recall (questions with must rules),
/// violations, empty answers.
#[derive(Default)]
pub struct GraphSummary {
    kinds: BTreeMap<String, Vec<Judgement>>,
}

impl GraphSummary {
    pub fn add(&mut self, kind: &str, judgement: Judgement) {
        self.kinds
            .entry(kind.to_owned())
            .or_default()
            .push(judgement);
    }

    /// Printable rows: kind (then `overall`), n, success, must recall, violations, empty.
    pub fn rows(&self) -> Vec<(String, usize, f64, Option<f64>, usize, usize)> {
        let all: Vec<Judgement> = self.kinds.values().flatten().copied().collect();
        let kinds = self.kinds.iter().map(|(k, js)| (k.clone(), js.as_slice()));
        kinds
            .chain(std::iter::once(("overall".to_owned(), all.as_slice())))
            .map(|(kind, js)| {
                let n = js.len();
                let success = js.iter().filter(|j| j.success).count() as f64 / n.max(1) as f64;
                let recalls: Vec<f64> = js
                    .iter()
                    .filter(|j| j.must_total > 0)
                    .map(|j| j.must_found as f64 / j.must_total as f64)
                    .collect();
                let recall = (!recalls.is_empty())
                    .then(|| recalls.iter().sum::<f64>() / recalls.len() as f64);
                let violations = js.iter().filter(|j| j.violation).count();
                let empty = js.iter().filter(|j| j.empty).count();
                (kind, n, success, recall, violations, empty)
            })
            .collect()
    }
}

/// The questions of `lines` that `part` scores, in file order: the fit/held split of
/// `eval::held_out_of` over the ids and kinds of the whole file, as for search question files.
pub fn questions_of_part(lines: &[&str], part: Part) -> anyhow::Result<Vec<GraphEvalQuestion>> {
    let all = lines
        .iter()
        .map(|line| parse_graph_question(line))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let held = held_out_of(all.iter().map(|q| (q.id.as_str(), q.kind.as_str())));
    Ok(all
        .into_iter()
        .filter(|q| part.includes(&held, &q.id))
        .collect())
}

/// Asks `url` every question of `lines` in `part` (max_hops 2, limit 50, as the reference
/// scorer) and prints the per-kind table; with `verbose`, every question's outcome.
pub fn run(url: &str, key: &str, lines: &[&str], verbose: bool, part: Part) -> anyhow::Result<()> {
    let client = reqwest::blocking::Client::new();
    let mut summary = GraphSummary::default();
    for question in questions_of_part(lines, part)? {
        let reply = ask_graph(&client, url, key, &question.question, &question.id)?;
        let relationships = reply["data"]["relationships"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let judgement = question.judge(&relationships);
        if verbose {
            println!(
                "{}\t{}\t{}\tmust {}/{} (min {})\t{}",
                if judgement.success { "OK " } else { "BAD" },
                question.id,
                question.kind,
                judgement.must_found,
                judgement.must_total,
                question.min_must,
                question.question
            );
        }
        summary.add(&question.kind, judgement);
    }
    println!(
        "{:<22} {:>3} {:>8} {:>8} {:>6} {:>6}",
        "kind", "n", "success", "recall", "viol", "empty"
    );
    for (kind, n, success, recall, violations, empty) in summary.rows() {
        let recall = recall.map_or("-".to_owned(), |r| format!("{r:.3}"));
        println!("{kind:<22} {n:>3} {success:>8.3} {recall:>8} {violations:>6} {empty:>6}");
    }
    Ok(())
}

/// The server's answer (the whole envelope) to one question of a question file, asked as the
/// scorers ask it (two hops, 50 relationships).
pub fn ask_graph(
    client: &reqwest::blocking::Client,
    url: &str,
    key: &str,
    question: &str,
    id: &str,
) -> anyhow::Result<Value> {
    client
        .post(format!("{}/v1/graph", url.trim_end_matches('/')))
        .header("x-api-key", key)
        .json(&serde_json::json!({"question": question, "max_hops": 2, "limit": 50}))
        .send()
        .and_then(|r| r.error_for_status())
        .and_then(|r| r.json())
        .with_context(|| format!("asking {url} {id}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn must_and_must_not_rules_decide_as_the_reference_scorer_does() {
        let line = r#"{"id":"q","kind":"pair","question":"Is a contraindicated with b?",
            "must":[{"drug":"^sert","type":"contraindication","target":"pimozide"}],
            "min_must":1,
            "must_not":[{"drug":"^sert","type":["warning"],"target":"qt","section":"boxed"}]}"#
            .replace('\n', " ");
        assert!(is_graph_question(&line));
        let question = parse_graph_question(&line).expect("parses");
        let good = json!({"drug":"Sertraline","type":"contraindication","target":"Pimozide",
            "evidence":[{"section":"Contraindications"}]});
        let bad = json!({"drug":"sertraline","type":"warning","target":"QT prolongation",
            "evidence":[{"section":"Boxed Warning"}]});
        assert!(question.judge(std::slice::from_ref(&good)).success);
        let judged = question.judge(&[good, bad]);
        assert!(judged.violation && !judged.success);
        assert!(question.judge(&[]).empty);
        assert!(!is_graph_question(r#"{"id":"s","relevant":[]}"#));
    }

    #[test]
    fn parts_split_a_graph_file_as_they_split_a_search_file() {
        let lines: Vec<String> = (0..9)
            .map(|i| format!(r#"{{"id":"g{i}","kind":"pair","question":"q","must":[]}}"#))
            .chain(std::iter::once(
                r#"{"id":"lone","kind":"brand","question":"q","must":[]}"#.to_owned(),
            ))
            .collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let ids = |part| -> Vec<String> {
            questions_of_part(&lines, part)
                .expect("parses")
                .into_iter()
                .map(|q| q.id)
                .collect()
        };
        let (fit, held, all) = (ids(Part::Fit), ids(Part::Held), ids(Part::All));
        assert_eq!((fit.len(), held.len(), all.len()), (7, 3, 10));
        assert!(fit.contains(&"lone".to_owned()), "a lone kind is fitted on");
        assert!(held.iter().all(|id| !fit.contains(id)));
        let pairs = all.iter().map(|id| {
            let kind = if id == "lone" { "brand" } else { "pair" };
            (id.as_str(), kind)
        });
        let expected: Vec<String> = crate::eval::held_out_of(pairs).into_iter().collect();
        assert_eq!(held, expected, "the same split as eval::held_out");
    }
}
