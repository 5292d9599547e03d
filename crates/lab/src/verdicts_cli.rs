//! The lab's `verdicts` command: asks a running server's /v1/graph every question of a verdict
//! question file (fit, held-out or all, split as `eval::held_out_of` by id and shape) and prints
//! accuracy, dangerous verdicts, false alarms and evidence citation per shape. Scoring: `verdicts`.

use std::path::Path;

use anyhow::Context;
use serde_json::Value;

use crate::eval::{held_out_of, Part};
use crate::eval_graph::ask_graph;
use crate::output::write_stdout;
use crate::verdicts::{
    evidence_cited, has_boxed_warning, judge, rows, Outcome, Scored, VerdictQuestion,
};

/// The questions of the file that `part` scores, in file order.
pub fn questions_of_part(body: &str, part: Part) -> anyhow::Result<Vec<VerdictQuestion>> {
    let all = body
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(number, line)| {
            serde_json::from_str::<VerdictQuestion>(line)
                .with_context(|| format!("line {}", number + 1))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let held = held_out_of(all.iter().map(|q| (q.id.as_str(), q.shape.as_str())));
    Ok(all
        .into_iter()
        .filter(|q| part.includes(&held, &q.id))
        .collect())
}

/// What a dangerous or (with `verbose`) any answer printed as one line shows.
fn describe(q: &VerdictQuestion, outcome: Outcome, data: &Value) -> String {
    let verdict = data["verdict"].as_str().unwrap_or("null");
    let names = |field: &str| {
        data["interpretation"][field]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .unwrap_or_default()
    };
    let found: Vec<String> = data["relationships"]
        .as_array()
        .map(|rels| {
            rels.iter()
                .take(3)
                .map(|r| {
                    let text = |f: &str| r[f].as_str().unwrap_or_default().to_owned();
                    format!("{} {} {}", text("drug"), text("type"), text("target"))
                })
                .collect()
        })
        .unwrap_or_default();
    format!(
        "{}\t{:?}\t{}\texpect {:?}\tgot {verdict}\t[drugs {} | classes {} | conditions {} | form {}]\t{}\t=> {}",
        q.id,
        outcome,
        q.shape,
        q.expect,
        names("drugs"),
        names("classes"),
        names("conditions"),
        data["interpretation"]["form"].as_str().unwrap_or("-"),
        q.question,
        if found.is_empty() {
            "no relationships".to_owned()
        } else {
            found.join("; ")
        }
    )
}

/// Scores `url` on the questions of `path` in `part` and prints the table, then every
/// dangerous answer (every answer with `verbose`).
pub fn run(url: &str, key: &str, path: &Path, part: Part, verbose: bool) -> anyhow::Result<()> {
    let body =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let client = reqwest::blocking::Client::new();
    let mut scored = Vec::new();
    let mut lines = Vec::new();
    for q in questions_of_part(&body, part)? {
        let reply = ask_graph(&client, url, key, &q.question, &q.id)?;
        let data = &reply["data"];
        let relationships = data["relationships"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let outcome = judge(
            q.expect,
            data["verdict"].as_str(),
            has_boxed_warning(&relationships),
        );
        if verbose || outcome == Outcome::Dangerous {
            lines.push((outcome, describe(&q, outcome, data)));
        }
        scored.push(Scored {
            shape: q.shape.clone(),
            outcome,
            cited: evidence_cited(q.why.text.as_deref(), &relationships),
        });
    }
    let mut out = format!(
        "{:<18} {:>4} {:>8} {:>9} {:>11} {:>10} {:>8}\n",
        "shape", "n", "accuracy", "dangerous", "false_alarm", "no_verdict", "cited"
    );
    for (shape, row) in rows(&scored) {
        out.push_str(&format!(
            "{shape:<18} {:>4} {:>8.3} {:>9} {:>11} {:>10} {:>8}\n",
            row.n,
            row.accuracy(),
            row.dangerous,
            row.false_alarms,
            row.no_verdict,
            format!("{}/{}", row.cited, row.citable)
        ));
    }
    lines.sort_by_key(|a| a.0);
    if !lines.is_empty() {
        out.push_str(if verbose {
            "\nanswers:\n"
        } else {
            "\ndangerous:\n"
        });
    }
    for (_, line) in lines {
        out.push_str(&line);
        out.push('\n');
    }
    write_stdout(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_split_by_id_within_each_shape() {
        let line = |id: &str, shape: &str| {
            format!(
                r#"{{"id":"{id}","shape":"{shape}","question":"q","drug":"d","target":"t","target_kind":"condition","expect":"contraindicated","why":{{"set_id":"s","section":"Contraindications","text":"x"}},"qualifier":null}}"#
            )
        };
        let body: String = (0..9)
            .map(|i| line(&format!("v{i}"), "list"))
            .chain((0..3).map(|i| line(&format!("n{i}"), "negative")))
            .collect::<Vec<_>>()
            .join("\n");
        let ids = |part| -> Vec<String> {
            questions_of_part(&body, part)
                .unwrap()
                .into_iter()
                .map(|q| q.id)
                .collect()
        };
        let (fit, held) = (ids(Part::Fit), ids(Part::Held));
        assert_eq!((fit.len(), held.len(), ids(Part::All).len()), (8, 4, 12));
        assert_eq!(held.iter().filter(|id| id.starts_with('n')).count(), 1);
        assert!(held.iter().all(|id| !fit.contains(id)));
        assert!(questions_of_part("{\"id\":1}", Part::All).is_err());
    }
}
