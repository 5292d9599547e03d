//! `cargo bench --bench loopback`: ingests the full shared corpus (with embeddings, unless
//! DRUGCITE_BENCH_LEXICAL=1) into a scratch directory, serves it on 127.0.0.1, and prints ingest
//! time, segment count, index size, the time to embed a question, and the p50/p99 latency over
//! loopback of search (new questions, then the same ones again from the query cache) and of
//! verify. Prints numbers; asserts nothing.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use drugcite_engine::embed::Embedder;
use drugcite_engine::engine::Engine;
use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, ProgressMode};
use drugcite_server::http;
use drugcite_store::DataDir;

mod common;
use common::{corpus_file, percentile, shared_data, unlimited_state};

const ROUNDS: usize = 20;
const QUESTIONS: &[&str] = &[
    "Does sertraline interact with pimozide?",
    "Can clopidogrel be taken with omeprazole?",
    "simvastatin and grapefruit juice",
    "Who should not take atorvastatin?",
    "Does fluoxetine have a black box warning?",
    "Can quetiapine cause weight gain?",
    "Is losartan safe in pregnancy?",
    "levothyroxine overdose symptoms",
    "gabapentin dose adjustment for kidney impairment",
    "What is tamsulosin used for?",
    "Lipitor liver enzyme monitoring",
    "serotonin syndrome risk when combining serotonergic drugs",
    "QT prolongation torsade de pointes",
    "blood thinner bleeding risk when taking aspirin or NSAIDs",
    "angioedema with ACE inhibitors",
];

fn dir_size(path: &Path) -> u64 {
    std::fs::read_dir(path)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => dir_size(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        })
        .unwrap_or(0)
}

fn main() {
    let scratch = tempfile::tempdir().expect("scratch dir");
    let data_dir = DataDir::new(scratch.path().join("data"));
    let model_dir = std::env::var_os("DRUGCITE_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("models/all-MiniLM-L6-v2"));
    let embedder =
        Arc::new(Embedder::load(&model_dir).expect("model: run scripts/install-model.sh"));
    let started = Instant::now();
    for i in 0..50 {
        let question = format!("{} #{i}", QUESTIONS[i % QUESTIONS.len()]);
        embedder.embed(&[question.as_str()]).expect("embed");
    }
    let per_question = started.elapsed().as_secs_f64() * 1000.0 / 50.0;
    println!("question embedding alone: {per_question:.1} ms mean over 50");
    let semantic = !std::env::var("DRUGCITE_BENCH_LEXICAL").is_ok_and(|v| v == "1");
    let vocabulary =
        drugcite_engine::conditions::vocabulary::read_dir(&shared_data().join("vocab"))
            .expect("shared vocabularies");
    let options = IngestOptions {
        progress: ProgressMode::Auto,
        mode: IngestMode::Full,
        embedder: semantic.then_some(embedder.as_ref()),
        vocabulary: &vocabulary,
    };
    let report = ingest(&data_dir, &[corpus_file()], &options).expect("ingest");
    println!(
        "embeddings: {} computed in {:.1} s ({:.0} segments/s)",
        report.embeddings_computed,
        report.embedding_seconds,
        report.embeddings_computed as f64 / report.embedding_seconds.max(1e-3)
    );
    println!(
        "ingest: {} labels, {} segments in {:.1} s ({:.0} segments/s)",
        report.labels_indexed,
        report.segments,
        report.seconds,
        report.segments as f64 / report.seconds
    );
    println!(
        "index size on disk: {:.1} MiB",
        dir_size(data_dir.root()) as f64 / (1024.0 * 1024.0)
    );

    let started = Instant::now();
    let engine = Engine::open(data_dir.clone(), Some(embedder)).expect("open");
    println!(
        "engine open (fingerprint index over {} segments): {:.0} ms",
        engine.index.segment_count(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async move {
        let (state, key) = unlimited_state(engine, &data_dir).await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(http::serve(listener, state));
        let client = reqwest::Client::new();
        let (mut uncached, mut cached, mut fingerprints) = (Vec::new(), Vec::new(), Vec::new());
        let questions: Vec<String> = (0..ROUNDS)
            .flat_map(|round| QUESTIONS.iter().map(move |q| format!("{q} ({round})")))
            .collect();
        for times in [&mut uncached, &mut cached] {
            for question in &questions {
                let body = serde_json::json!({"question": question, "top_k": 10}).to_string();
                let started = Instant::now();
                let reply: serde_json::Value = client
                    .post(format!("{base}/v1/search"))
                    .header("x-api-key", key.expose())
                    .body(body)
                    .send()
                    .await
                    .expect("search")
                    .json()
                    .await
                    .expect("json");
                times.push(started.elapsed());
                let results = reply["data"]["results"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                fingerprints.extend(
                    results
                        .iter()
                        .filter_map(|r| r["fingerprint"].as_str().map(str::to_owned)),
                );
            }
        }
        fingerprints.sort();
        fingerprints.dedup();
        let (mut cold, mut warm) = (Vec::new(), Vec::new());
        for pass in [&mut cold, &mut warm] {
            for fingerprint in &fingerprints {
                let started = Instant::now();
                let reply: serde_json::Value = client
                    .get(format!("{base}/v1/verify/{fingerprint}"))
                    .send()
                    .await
                    .expect("verify")
                    .json()
                    .await
                    .expect("json");
                pass.push(started.elapsed());
                assert_eq!(reply["data"]["verified"], true);
            }
        }
        for (label, times) in [
            ("new questions (embedded)", &mut uncached),
            ("repeated (query cache)  ", &mut cached),
        ] {
            println!(
                "search over loopback, {label}: n={} p50 {:.2} ms  p99 {:.2} ms",
                times.len(),
                percentile(times, 0.5),
                percentile(times, 0.99)
            );
        }
        println!(
            "verify over loopback, uncached: n={} p50 {:.2} ms  p99 {:.2} ms",
            cold.len(),
            percentile(&mut cold, 0.5),
            percentile(&mut cold, 0.99)
        );
        println!(
            "verify over loopback, cached:   n={} p50 {:.2} ms  p99 {:.2} ms",
            warm.len(),
            percentile(&mut warm, 0.5),
            percentile(&mut warm, 0.99)
        );
    });
}
