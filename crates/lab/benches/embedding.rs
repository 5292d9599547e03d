//! `cargo bench --bench embedding`: passage-embedding throughput of the distilled table (what
//! ingest uses) over every segment of the shared corpus, and of the transformer over an evenly
//! spread sample (DRUGCITE_BENCH_SAMPLE, default 384). Prints segments/s, tokens/s and the
//! projected whole-corpus time, plus model load (incl. distilling on first use); asserts nothing.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::Instant;

use drugcite_core::label::{segment_label, LabelRecord};
use drugcite_engine::embed::{Embedded, Embedder};

mod common;
use common::corpus_file;

fn corpus_segments() -> Vec<String> {
    let path = corpus_file();
    let file = std::fs::File::open(&path).expect("shared corpus present");
    let lines = BufReader::new(flate2::read::MultiGzDecoder::new(file)).lines();
    lines
        .map(|line| line.expect("corpus readable"))
        .filter_map(|line| serde_json::from_str(&line).ok())
        .filter_map(|value| LabelRecord::parse(&value).ok())
        .flat_map(|record| segment_label(&record).into_iter().map(|s| s.text))
        .collect()
}

fn main() {
    let model_dir = std::env::var_os("DRUGCITE_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("models/all-MiniLM-L6-v2"));
    let started = Instant::now();
    let embedder = Embedder::load(&model_dir).expect("model installed (scripts/install-model.sh)");
    println!("model load: {:.1} s", started.elapsed().as_secs_f64());
    let sample_size: usize = std::env::var("DRUGCITE_BENCH_SAMPLE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(384);
    let all = corpus_segments();
    let texts: Vec<&str> = all.iter().map(String::as_str).collect();
    println!("corpus segments: {}", all.len());
    let started = Instant::now();
    let embedded = embedder.embed_passages(&texts).expect("embed");
    report(
        "distilled table, whole corpus",
        &embedded,
        started,
        texts.len(),
    );
    let step = (texts.len() / sample_size).max(1);
    let sample: Vec<&str> = texts
        .iter()
        .step_by(step)
        .take(sample_size)
        .copied()
        .collect();
    let started = Instant::now();
    let embedded = embedder.embed_many(&sample).expect("embed");
    report(
        "transformer, evenly spread sample",
        &embedded,
        started,
        texts.len(),
    );
}

fn report(encoder: &str, embedded: &Embedded, started: Instant, corpus: usize) {
    let seconds = started.elapsed().as_secs_f64();
    let rate = embedded.vectors.len() as f64 / seconds;
    println!(
        "{encoder}: {} segments ({} tokens) in {seconds:.2} s = {rate:.1} segments/s, {:.0} tokens/s; whole corpus ≈ {:.1} min",
        embedded.vectors.len(),
        embedded.tokens,
        embedded.tokens as f64 / seconds,
        corpus as f64 / rate / 60.0
    );
}
