//! Knowledge-graph benchmark on the full shared corpus: graph build time and size, then
//! /v1/graph over loopback for questions of every kind at max_hops 1, 2 and 3 (p50/p99), and
//! the trimmed answers to the knowledge-graph issue's five questions.
//! Run: `cargo bench --bench graph` (a lexical-only ingest first: the graph needs no embeddings).

use std::time::Instant;

use drugcite_engine::engine::Engine;
use drugcite_server::http;
use drugcite_store::DataDir;
use serde_json::Value;

mod common;
use common::{lexical_corpus_index, percentile, unlimited_state};

/// The five questions, answered and printed.
const SHOWN: [&str; 5] = [
    "What are the contraindications of tadalafil?",
    "Which drugs interact with clopidogrel and also cause bleeding?",
    "Which SSRIs carry a boxed warning about suicidal thoughts?",
    "What adverse reactions do atorvastatin and rosuvastatin share?",
    "Which drugs that treat type 2 diabetes are contraindicated in severe renal impairment?",
];
/// Further questions of the same kinds for the latency figures.
const TIMED: [&str; 10] = [
    "What are the contraindications of metformin?",
    "Which drugs interact with warfarin and also cause bleeding?",
    "Which NSAIDs have a boxed warning about heart attack?",
    "What side effects do sertraline and fluoxetine share?",
    "Which drugs that treat hypertension are contraindicated in pregnancy?",
    "Does lisinopril cause angioedema?",
    "Which statins cause muscle pain?",
    "What drugs interact with SSRIs?",
    "Which drugs cause lactic acidosis?",
    "What are the warnings of Xarelto?",
];
const ROUNDS: usize = 5;

fn main() {
    let scratch = tempfile::tempdir().expect("scratch dir");
    let data_dir = DataDir::new(scratch.path().join("data"));
    let report = lexical_corpus_index(&data_dir);
    let graph = &report.graph;
    println!(
        "graph built in {:.1} s (ingest total {:.1} s)",
        graph.seconds, report.seconds
    );
    println!("nodes: {:?}", graph.nodes);
    println!("relationships: {:?}", graph.relationships);

    let started = Instant::now();
    let engine = Engine::open(data_dir.clone(), None).expect("open");
    println!(
        "engine open incl. graph load: {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async move {
        let (state, key) = unlimited_state(engine, &data_dir).await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(http::serve(listener, state));
        let client = reqwest::Client::new();
        let ask = |question: &str, hops: u32, limit: u32| {
            let request = client
                .post(format!("{base}/v1/graph"))
                .header("x-api-key", key.expose())
                .json(&serde_json::json!({"question": question, "max_hops": hops, "limit": limit}));
            async move {
                let started = Instant::now();
                let reply: Value = request.send().await.expect("graph").json().await.expect("json");
                (reply, started.elapsed())
            }
        };
        for hops in 1..=3 {
            let mut times = Vec::new();
            let mut answered = 0;
            for _ in 0..ROUNDS {
                for question in SHOWN.iter().chain(&TIMED) {
                    let (reply, elapsed) = ask(question, hops, 25).await;
                    answered += usize::from(reply["data"]["metadata"]["count"].as_u64().unwrap_or(0) > 0);
                    times.push(elapsed);
                }
            }
            println!(
                "/v1/graph over loopback, max_hops {hops}: n={} p50 {:.2} ms  p99 {:.2} ms  (answered {}/{})",
                times.len(),
                percentile(&mut times, 0.5),
                percentile(&mut times, 0.99),
                answered / ROUNDS,
                SHOWN.len() + TIMED.len()
            );
        }
        for question in SHOWN {
            let (reply, _) = ask(question, 2, 8).await;
            let data = &reply["data"];
            println!("\nQ: {question}\n   understood: {}", data["interpretation"]);
            for r in data["relationships"].as_array().into_iter().flatten() {
                let evidence = &r["evidence"][0];
                let quote: String = evidence["text"].as_str().unwrap_or("").chars().take(80).collect();
                println!(
                    "   - {} -{}-> {} [{}] ({} segments; {}: \"{}…\")",
                    r["drug"].as_str().unwrap_or(""),
                    r["type"].as_str().unwrap_or(""),
                    r["target"].as_str().unwrap_or(""),
                    r["severity"].as_str().unwrap_or("null"),
                    r["evidence_count"],
                    evidence["section"].as_str().unwrap_or(""),
                    quote.replace('\n', " ")
                );
            }
        }
    });
}
