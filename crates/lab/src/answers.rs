//! Before/after comparison of a change: `answers` asks a running server every question of the
//! question files (search questions at /v1/search with top_k 10, graph questions — those with
//! `must` rules — at /v1/graph) and writes each answer's data, timings removed, as one JSON
//! line; `compare` says which questions two such files answer differently. Reads nothing of the
//! engine: it sees only what a client sees.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::Value;

use crate::eval_graph::is_graph_question;

/// Writes one line per question of `files`: `{"file","id","endpoint","answer"}`.
pub fn answers(url: &str, key: &str, files: &[PathBuf], out: impl Write) -> anyhow::Result<()> {
    let client = reqwest::blocking::Client::new();
    let mut out = std::io::BufWriter::new(out);
    for file in files {
        let name = file_name(file);
        for line in question_lines(file)? {
            let question: Value = serde_json::from_str(&line)
                .with_context(|| format!("{}: not a JSON question", file.display()))?;
            let id = question["id"].as_str().unwrap_or_default().to_owned();
            let (endpoint, body) = if is_graph_question(&line) {
                (
                    "graph",
                    serde_json::json!({"question": question["question"]}),
                )
            } else {
                let body = serde_json::json!({"question": question["question"], "top_k": 10});
                ("search", body)
            };
            let reply: Value = client
                .post(format!("{}/v1/{endpoint}", url.trim_end_matches('/')))
                .header("x-api-key", key)
                .json(&body)
                .send()
                .and_then(|r| r.error_for_status())
                .and_then(|r| r.json())
                .with_context(|| format!("asking {url} question {id} of {name}"))?;
            let row = serde_json::json!({
                "file": name, "id": id, "endpoint": endpoint,
                "answer": without_timings(reply["data"].clone()),
            });
            writeln!(out, "{row}")?;
        }
    }
    Ok(out.flush()?)
}

/// One question answered differently, or present in one file only.
#[derive(Debug, PartialEq, Eq)]
pub struct Difference {
    pub file: String,
    pub id: String,
    /// Where the answers first differ (a JSON pointer), or which side lacks the question.
    pub at: String,
}

/// The questions `before` and `after` (files written by `answers`) answer differently.
pub fn compare(before: &Path, after: &Path) -> anyhow::Result<(usize, Vec<Difference>)> {
    let before = read_answers(before)?;
    let after = read_answers(after)?;
    let mut differences = Vec::new();
    for (key, answer) in &before {
        let at = match after.get(key) {
            None => Some("missing after".to_owned()),
            Some(other) => first_difference(answer, other, String::new()),
        };
        if let Some(at) = at {
            differences.push(Difference {
                file: key.0.clone(),
                id: key.1.clone(),
                at,
            });
        }
    }
    for key in after.keys().filter(|k| !before.contains_key(*k)) {
        differences.push(Difference {
            file: key.0.clone(),
            id: key.1.clone(),
            at: "missing before".to_owned(),
        });
    }
    Ok((before.len(), differences))
}

fn read_answers(path: &Path) -> anyhow::Result<BTreeMap<(String, String), Value>> {
    let body =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    body.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            let row: Value = serde_json::from_str(line)
                .with_context(|| format!("{}:{}: not JSON", path.display(), n + 1))?;
            let field = |name: &str| row[name].as_str().unwrap_or_default().to_owned();
            Ok(((field("file"), field("id")), row["answer"].clone()))
        })
        .collect()
}

/// The JSON pointer of the first place `a` and `b` differ, depth first.
fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let missing = Value::Null;
                let (p, q) = (x.get(k).unwrap_or(&missing), y.get(k).unwrap_or(&missing));
                first_difference(p, q, format!("{at}/{k}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, format!("{at}/{i}"))),
        _ => (a != b).then(|| if at.is_empty() { "/".to_owned() } else { at }),
    }
}

/// `value` without the fields that time the request (`…_ms`), which differ on every run.
fn without_timings(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| !k.ends_with("_ms"))
                .map(|(k, v)| (k, without_timings(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_timings).collect()),
        other => other,
    }
}

fn question_lines(file: &Path) -> anyhow::Result<Vec<String>> {
    let body =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    Ok(body
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect())
}

fn file_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn timings_are_dropped_and_the_first_difference_is_named() {
        let a = without_timings(
            json!({"results": [{"fp": "1"}, {"fp": "2"}], "metadata": {"search_time_ms": 3.0}}),
        );
        let b = without_timings(
            json!({"results": [{"fp": "1"}, {"fp": "3"}], "metadata": {"search_time_ms": 9.0}}),
        );
        assert_eq!(a["metadata"], json!({}));
        assert_eq!(first_difference(&a, &a, String::new()), None);
        assert_eq!(
            first_difference(&a, &b, String::new()).as_deref(),
            Some("/results/1/fp")
        );
        let shorter = json!({"results": [{"fp": "1"}], "metadata": {}});
        assert_eq!(
            first_difference(&a, &shorter, String::new()).as_deref(),
            Some("/results")
        );
    }
}
