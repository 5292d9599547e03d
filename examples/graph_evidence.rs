//! Prints the fingerprint (128 binary digits, the public form) of every piece of evidence in a
//! generation's knowledge graph, once each, sorted: the verify requests of
//! `scripts/bench-http.sh` and `scripts/bench-hello-ratio.sh`, now that the graph is binary.
//! Usage: `cargo run --release --example graph_evidence -- DATA_DIR/indexes/GENERATION`.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;

use drugcite_engine::graph::GraphData;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let generation: PathBuf = std::env::args_os()
        .nth(1)
        .ok_or("usage: graph_evidence GENERATION_DIR")?
        .into();
    let graph = GraphData::read(&generation)?.ok_or("this generation has no graph")?;
    let fingerprints: BTreeSet<_> = graph
        .relationships
        .iter()
        .flat_map(|relationship| &relationship.evidence)
        .map(|evidence| evidence.fingerprint)
        .collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for fingerprint in fingerprints {
        writeln!(out, "{fingerprint}")?;
    }
    Ok(out.flush()?)
}
