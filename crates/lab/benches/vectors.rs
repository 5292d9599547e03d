//! `cargo bench --bench vectors`: how dense retrieval scales. Embeds the shared corpus (the real
//! 104k segment vectors), grows it with perturbed copies of those vectors to each size in
//! DRUGCITE_BENCH_SIZES (default 104212,250000,500000,1000000,2000000), and prints per size:
//! the time to build the index from the matrix (what a server does at open), the engine's
//! search latency (8-bit first pass in blocks per core, f32 re-scoring) and its recall@10 /
//! @300 against a plain f32 scan of every row, for the dev questions embedded by the
//! transformer. Prints numbers; asserts nothing.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use drugcite_core::domain::Fingerprint;
use drugcite_engine::embed::Embedder;
use drugcite_engine::index::vectors::DenseIndex;
use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, ProgressMode};
use drugcite_store::{DataDir, Snapshot};
use rand::{Rng, SeedableRng};

/// Candidates the engine asks the dense index for.
const POOL: usize = 300;

fn shared_data() -> PathBuf {
    std::env::var_os("DRUGCITE_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

fn questions(embedder: &Embedder) -> Vec<Vec<f32>> {
    let file =
        std::fs::File::open(shared_data().join("eval/dev-questions.jsonl")).expect("dev questions");
    let texts: Vec<String> = std::io::BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(&line).ok())
        .filter_map(|q| q["question"].as_str().map(str::to_owned))
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    embedder.embed(&refs).expect("embed questions")
}

/// The corpus vectors, then perturbed unit-length copies of them until `size` rows.
fn grown(base: &[f32], dimensions: usize, size: usize) -> Vec<f32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut matrix = Vec::with_capacity(size * dimensions);
    matrix.extend_from_slice(&base[..base.len().min(size * dimensions)]);
    let rows = base.len() / dimensions;
    while matrix.len() < size * dimensions {
        let source = rng.gen_range(0..rows) * dimensions;
        let mut row: Vec<f32> = base[source..source + dimensions]
            .iter()
            .map(|x| x + rng.gen_range(-0.04f32..0.04))
            .collect();
        let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt();
        row.iter_mut().for_each(|x| *x /= norm);
        matrix.extend(row);
    }
    matrix
}

fn p50_p99(mut samples: Vec<Duration>) -> String {
    samples.sort();
    let at =
        |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3;
    format!("p50 {:.1} ms, p99 {:.1} ms", at(0.5), at(0.99))
}

fn recall(exact: &[(Fingerprint, f32)], approximate: &[(Fingerprint, f32)], k: usize) -> f64 {
    let want: std::collections::HashSet<_> = exact.iter().take(k).map(|r| r.0).collect();
    approximate
        .iter()
        .take(k)
        .filter(|r| want.contains(&r.0))
        .count() as f64
        / want.len().max(1) as f64
}

fn main() {
    let model_dir = std::env::var_os("DRUGCITE_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("models/all-MiniLM-L6-v2"));
    let embedder = Embedder::load(&model_dir).expect("model installed (scripts/install-model.sh)");
    let scratch = tempfile::tempdir().expect("scratch");
    let data_dir = DataDir::new(scratch.path().join("data"));
    let options = IngestOptions {
        progress: ProgressMode::Silent,
        mode: IngestMode::Full,
        embedder: Some(&embedder),
        vocabulary: &[],
    };
    let corpus = shared_data().join("labels/openfda-labels.jsonl.gz");
    ingest(&data_dir, &[corpus], &options).expect("ingest");
    let stored = Snapshot::open_current(&data_dir)
        .expect("open")
        .vectors()
        .expect("read vectors")
        .expect("vectors");
    let dimensions = stored.space().dimensions;
    let mut stored_matrix = Vec::with_capacity(stored.rows() * dimensions);
    stored
        .stream(0..stored.rows(), |_, _, row| {
            stored_matrix.extend_from_slice(row)
        })
        .expect("read vectors");
    let queries = questions(&embedder);
    let sizes: Vec<usize> = std::env::var("DRUGCITE_BENCH_SIZES")
        .unwrap_or_else(|_| "104212,250000,500000,1000000,2000000".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    println!(
        "{} queries, top {POOL}, {dimensions} dimensions",
        queries.len()
    );
    for size in sizes {
        let matrix = grown(&stored_matrix, dimensions, size);
        let fingerprints: Vec<Fingerprint> = (0..size)
            .map(|i| Fingerprint::of_segment("bench", "rows", &i.to_string()))
            .collect();
        let truth: Vec<_> = queries
            .iter()
            .map(|q| full_scan(&fingerprints, &matrix, dimensions, q))
            .collect();
        let started = Instant::now();
        let index = DenseIndex::new(dimensions, fingerprints, matrix);
        let build = started.elapsed();
        let (mut times, mut at_10, mut at_pool) = (Vec::new(), 0.0, 0.0);
        for (query, want) in queries.iter().zip(&truth) {
            let started = Instant::now();
            let got = index.nearest(query, POOL);
            times.push(started.elapsed());
            at_10 += recall(want, &got, 10);
            at_pool += recall(want, &got, POOL);
        }
        let n = queries.len() as f64;
        println!(
            "{size:>8} rows | build {:.2} s | search {} | recall@10 {:.3}, recall@{POOL} {:.3}",
            build.as_secs_f64(),
            p50_p99(times),
            at_10 / n,
            at_pool / n
        );
    }
}

/// The reference: every row's f32 similarity, best `POOL` first, ties to the smaller key.
fn full_scan(
    fingerprints: &[Fingerprint],
    matrix: &[f32],
    dimensions: usize,
    query: &[f32],
) -> Vec<(Fingerprint, f32)> {
    let mut scored: Vec<(Fingerprint, f32)> = matrix
        .chunks_exact(dimensions)
        .zip(fingerprints)
        .map(|(row, fp)| (*fp, drugcite_engine::embed::dot(row, query)))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(POOL);
    scored
}
