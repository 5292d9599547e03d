//! Neo4j backend benchmark on the full shared corpus: sync time and throughput into the Bolt
//! endpoint the tests use (`NEO4J_URI`, else FalkorDB behind the test adapter), the counts
//! written, an idempotent re-sync, loading the graph back, and verify look-ups over Bolt.
//! Run: `cargo bench --bench neo4j` (a lexical-only ingest first; the sync needs no embeddings).

use std::time::Instant;

use drugcite_core::domain::Fingerprint;
use drugcite_engine::graph::GraphData;
use drugcite_engine::ingest::ProgressMode;
use drugcite_engine::neo4j::sync_generation;
use drugcite_store::{DataDir, Snapshot};

mod common;
use common::{lexical_corpus_index, percentile};

#[allow(dead_code)]
#[path = "../../../tests/api/bolt.rs"]
mod bolt;

const LOOKUPS: usize = 500;

fn timed<T>(what: &str, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let value = work();
    println!("{what}: {:.1} s", started.elapsed().as_secs_f64());
    value
}

fn main() {
    let scratch = tempfile::tempdir().expect("scratch dir");
    let data_dir = DataDir::new(scratch.path().join("data"));
    lexical_corpus_index(&data_dir);
    let snapshot = Snapshot::open_current(&data_dir).expect("snapshot");
    let graph = GraphData::read(snapshot.generation())
        .expect("graph")
        .expect("a graph");

    let endpoint = bolt::endpoint();
    println!("endpoint: {}", endpoint.uri);
    let client = endpoint.client();
    bolt::empty_database(&client);
    let report = sync_generation(&client, &snapshot, &graph, ProgressMode::Auto).expect("sync");
    println!("first sync into an empty database:\n{report}");
    let again = sync_generation(&client, &snapshot, &graph, ProgressMode::Auto).expect("sync");
    println!("second sync (changes nothing):\n{again}");
    println!("stored: {:?}", client.counts().expect("counts"));
    let read = timed("graph read back for petgraph", || {
        client.read_graph().expect("read")
    });
    assert_eq!(read, graph, "the stored graph is the embedded one");

    let fingerprints: Vec<Fingerprint> = graph
        .relationships
        .iter()
        .flat_map(|r| r.evidence.iter().map(|e| e.fingerprint))
        .step_by(97)
        .take(LOOKUPS)
        .collect();
    let mut exact = Vec::new();
    let mut near = Vec::new();
    for fingerprint in &fingerprints {
        let started = Instant::now();
        client
            .segment(*fingerprint)
            .expect("segment")
            .expect("stored");
        exact.push(started.elapsed());
        let flipped = Fingerprint::from_halves(fingerprint.high() ^ 1 << 20, fingerprint.low());
        let started = Instant::now();
        client.segment(flipped).expect("segment");
        client
            .nearest(flipped)
            .expect("nearest")
            .expect("within the radius");
        near.push(started.elapsed());
    }
    println!(
        "verify over Bolt, {} fingerprints: exact p50 {:.2} ms p99 {:.2} ms; one bit off (miss + nearest) p50 {:.2} ms p99 {:.2} ms",
        fingerprints.len(),
        percentile(&mut exact, 0.5),
        percentile(&mut exact, 0.99),
        percentile(&mut near, 0.5),
        percentile(&mut near, 0.99)
    );
}
