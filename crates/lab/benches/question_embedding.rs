//! `cargo bench --bench question_embedding`: what a search spends on embedding a new question,
//! the transformer over each of the 140 dev questions on its own (as the server does), in
//! wall time and in CPU time of the whole process (every thread); asserts nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use drugcite_engine::embed::Embedder;

mod common;
use common::{percentile, shared_data};

/// Passes over the questions; the first warms the allocator and the thread pool.
const PASSES: usize = 4;

fn questions() -> Vec<String> {
    let eval = shared_data().join("eval");
    ["dev-questions.jsonl", "dev-questions-2.jsonl"]
        .iter()
        .flat_map(|name| {
            let body = std::fs::read_to_string(eval.join(name)).expect("dev questions present");
            body.lines()
                .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
                .filter_map(|value| value["question"].as_str().map(str::to_owned))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// User plus system time of this process so far (fields 14 and 15 of `/proc/self/stat`, in
/// ticks of 10 ms; Linux).
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let ticks = field(11) + field(12);
    Duration::from_millis(ticks * 10)
}

fn main() {
    let model_dir = std::env::var_os("DRUGCITE_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("models/all-MiniLM-L6-v2"));
    let embedder = Embedder::load(&model_dir).expect("model installed (scripts/install-model.sh)");
    let questions = questions();
    for pass in 0..PASSES {
        let cpu = process_cpu();
        let mut times: Vec<Duration> = questions
            .iter()
            .map(|question| {
                let started = Instant::now();
                embedder.embed(&[question]).expect("embed");
                started.elapsed()
            })
            .collect();
        let cpu = (process_cpu() - cpu).as_secs_f64() * 1000.0 / questions.len() as f64;
        println!(
            "pass {pass}: {} questions, one at a time: p50 {:.2} ms, p99 {:.2} ms; CPU {cpu:.2} ms per question",
            questions.len(),
            percentile(&mut times, 0.5),
            percentile(&mut times, 0.99),
        );
    }
}
