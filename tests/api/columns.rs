//! The mapped tables answer exactly as the tables built at open do, over real labels: a
//! generation with withdrawn labels (non-current holders) and an update on top (two tantivy
//! segments), opened as written and as a generation written before the tables would be.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, ProgressMode};
use drugcite_store::{DataDir, Snapshot};

use crate::helpers::corpus_file;

fn corpus_records(range: std::ops::Range<usize>, dir: &Path, name: &str) -> PathBuf {
    let file = std::fs::File::open(corpus_file()).expect("shared corpus missing: see README");
    let lines = BufReader::new(flate2::read::MultiGzDecoder::new(file)).lines();
    let path = dir.join(name);
    let mut out = std::fs::File::create(&path).unwrap();
    for line in lines.skip(range.start).take(range.len()) {
        writeln!(out, "{}", line.unwrap()).unwrap();
    }
    path
}

fn ingest_records(data_dir: &DataDir, input: PathBuf, mode: IngestMode) {
    let options = IngestOptions {
        progress: ProgressMode::Silent,
        embedder: None,
        vocabulary: &[],
        mode,
    };
    ingest(data_dir, &[input], &options).unwrap();
}

/// A copy of `generation` without its column tables, as an older drugcite wrote it.
fn without_tables(generation: &Path, to: &Path) {
    let tables = ["catalog.cols", "holders.cols", "copies.cols", "current.bin"];
    let status = std::process::Command::new("cp")
        .arg("-al")
        .arg(generation)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
    for table in tables {
        std::fs::remove_file(to.join(table)).unwrap();
    }
}

#[test]
fn mapped_tables_answer_as_the_tables_built_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = DataDir::new(dir.path().join("data"));
    let inputs = |range, name| corpus_records(range, dir.path(), name);
    ingest_records(&data_dir, inputs(0..30, "a.jsonl"), IngestMode::Full);
    ingest_records(&data_dir, inputs(10..40, "b.jsonl"), IngestMode::Full);
    ingest_records(&data_dir, inputs(40..50, "c.jsonl"), IngestMode::Update);
    let mapped = Snapshot::open_current(&data_dir).unwrap();
    assert!(mapped.maps_stored_tables());
    let old = dir.path().join("old");
    without_tables(mapped.generation(), &old);
    let built = Snapshot::open_draft(&old).unwrap();
    assert!(!built.maps_stored_tables());
    assert!(
        mapped.searcher().segment_readers().len() > 1,
        "an update adds a segment"
    );
    let catalog = mapped.catalog().unwrap();
    assert!(
        catalog.iter().any(|(_, info)| !info.current),
        "withdrawn labels"
    );
    assert_eq!(
        mapped.table_differences(&built).unwrap(),
        Vec::<String>::new()
    );
}
