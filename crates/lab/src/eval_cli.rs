//! The lab's `eval` command (scores a running server on a question file, on the fit part, the
//! held-out part or all) and `ranking-features` (the training rows the ranking weights are
//! fitted on). Thin: scoring is `eval`, rows are `training`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::eval::{held_out, parse_question, score, EvalQuestion, Judged, Part, Scores, Summary};
use anyhow::Context;
use drugcite_core::domain::Question;
use drugcite_engine::embed::Embedder;
use drugcite_engine::engine::Engine;
use drugcite_store::DataDir;

use crate::training::training_question;

/// Writes one JSON line per question of `files`: file name, id, kind, whether it is held out,
/// the candidate texts with their copies' features and relevance, and its topic's vector with
/// the id of the model that made it.
pub fn ranking_features(
    data_dir: DataDir,
    embedder: Option<Arc<Embedder>>,
    files: &[PathBuf],
) -> anyhow::Result<()> {
    let model_id = embedder.as_ref().map(|e| e.vector_space().model_id_hex());
    let engine = Engine::open(data_dir, embedder)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for file in files {
        let questions = read_questions(file)?;
        let held = held_out(&questions);
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        for judged in &questions {
            let question = Question::parse(Some(judged.question.clone()))?;
            let found = training_question(engine.searcher.candidate_features(&question)?, judged);
            let row = serde_json::json!({
                "file": name, "id": judged.id, "kind": judged.kind,
                "held": held.contains(&judged.id), "texts": found.texts,
                "topic_vector": found.topic_vector, "model_id": model_id,
            });
            std::io::Write::write_all(&mut out, format!("{row}\n").as_bytes())?;
        }
    }
    std::io::Write::flush(&mut out)?;
    Ok(())
}

/// The questions of an eval file, one JSON object per non-blank line.
fn read_questions(path: &Path) -> anyhow::Result<Vec<EvalQuestion>> {
    let body =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    body.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(number, line)| {
            parse_question(line)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), number + 1))
        })
        .collect()
}

pub fn evaluate(
    url: &str,
    key: &str,
    questions: &Path,
    verbose: bool,
    part: Part,
) -> anyhow::Result<()> {
    let body = std::fs::read_to_string(questions)
        .with_context(|| format!("reading {}", questions.display()))?;
    let lines: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines
        .first()
        .is_some_and(|l| crate::eval_graph::is_graph_question(l))
    {
        return crate::eval_graph::run(url, key, &lines, verbose, part);
    }
    let parsed = read_questions(questions)?;
    let held = held_out(&parsed);
    let client = reqwest::blocking::Client::new();
    let mut summary = Summary::default();
    for question in parsed.iter().filter(|q| part.includes(&held, &q.id)) {
        let reply: serde_json::Value = client
            .post(format!("{}/v1/search", url.trim_end_matches('/')))
            .header("x-api-key", key)
            .json(&serde_json::json!({"question": question.question, "top_k": 10}))
            .send()
            .and_then(|r| r.error_for_status())
            .and_then(|r| r.json())
            .with_context(|| format!("searching {url} for {}", question.id))?;
        let results = reply["data"]["results"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let relevance: Vec<bool> = results
            .iter()
            .map(|r| {
                question.is_relevant(&Judged {
                    drug: r["drug"]["name"].as_str().unwrap_or_default(),
                    section: r["section"].as_str().unwrap_or_default(),
                    text: r["text"].as_str().unwrap_or_default(),
                })
            })
            .collect();
        let scores = score(&relevance);
        if verbose {
            let first = results.first().map_or(String::from("-"), |r| {
                format!(
                    "{} | {}",
                    r["drug"]["name"].as_str().unwrap_or(""),
                    r["section"].as_str().unwrap_or("")
                )
            });
            println!(
                "{}\t{}\tnDCG {:.2} S@1 {:.0}\t{}\t{first}",
                question.id, question.kind, scores.ndcg10, scores.s1, question.question
            );
        }
        summary.add(&question.kind, question.voice.as_deref(), scores);
    }
    print_means("kind", summary.rows());
    let voices = summary.voice_rows();
    if !voices.is_empty() {
        println!();
        print_means("voice", voices);
    }
    Ok(())
}

/// A table of mean scores, one row per group (a kind, a voice), headed by `group`.
fn print_means(group: &str, rows: Vec<(String, usize, Scores)>) {
    println!(
        "{group:<18} {:>3} {:>8} {:>8} {:>6} {:>6}",
        "n", "nDCG@10", "MRR@10", "P@5", "S@1"
    );
    for (name, n, s) in rows {
        println!(
            "{name:<18} {n:>3} {:>8.3} {:>8.3} {:>6.3} {:>6.3}",
            s.ndcg10, s.mrr10, s.p5, s.s1
        );
    }
}
