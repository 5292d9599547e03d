//! The mapped tables answer exactly as the tables built at open do, over real labels: a
//! generation with withdrawn labels (non-current holders) and an update on top (two tantivy
//! segments), opened as written and as a generation written before the tables would be.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use crate::domain::TextHash;
use crate::ingest::{ingest, IngestMode, IngestOptions, ProgressMode};
use crate::store::{Copies, DataDir, Snapshot};

fn corpus_records(range: std::ops::Range<usize>, dir: &Path, name: &str) -> PathBuf {
    let corpus =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/labels/openfda-labels.jsonl.gz");
    let file = std::fs::File::open(corpus).expect("shared corpus missing: see README");
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
    assert!(mapped.stored_columns);
    let old = dir.path().join("old");
    without_tables(mapped.generation(), &old);
    let built = Snapshot::open_draft(&old).unwrap();
    assert!(!built.stored_columns);
    assert!(
        mapped.searcher().segment_readers().len() > 1,
        "an update adds a segment"
    );

    let (catalog, built_catalog) = (mapped.catalog().unwrap(), built.catalog().unwrap());
    let entries: Vec<_> = catalog
        .iter()
        .map(|(fp, info)| (fp, format!("{info:?}")))
        .collect();
    let built_entries: Vec<_> = built_catalog
        .iter()
        .map(|(fp, info)| (fp, format!("{info:?}")))
        .collect();
    assert_eq!(entries, built_entries);
    assert!(
        catalog.iter().any(|(_, info)| !info.current),
        "withdrawn labels"
    );
    for (fp, info) in &entries {
        assert_eq!(format!("{:?}", catalog.get(*fp).unwrap()), *info);
    }

    let (copies, built_copies) = (
        mapped.copies(&catalog).unwrap(),
        built.copies(&built_catalog).unwrap(),
    );
    let mut indexed = mapped.fingerprints().unwrap();
    indexed.sort_unstable();
    assert_eq!(catalog.addresses().collect::<Vec<_>>(), indexed);

    let listed = |copies: &Copies, catalog, text| -> Vec<_> {
        let copies = copies.of(text, catalog);
        copies.map(|(fp, info)| (fp, format!("{info:?}"))).collect()
    };
    for (_, info) in catalog.iter() {
        let mapped_copies = listed(&copies, &catalog, info.text_hash);
        assert_eq!(
            mapped_copies,
            listed(&built_copies, &built_catalog, info.text_hash)
        );
        assert_eq!(copies.contains(info.text_hash), !mapped_copies.is_empty());
        assert!(!info.current || mapped_copies.iter().any(|(_, i)| *i == format!("{info:?}")));
    }
    assert!(listed(&copies, &catalog, TextHash::of("no such text")).is_empty());
    let history: Vec<_> = mapped.history_fingerprints().collect();
    assert_eq!(history, built.history_fingerprints().collect::<Vec<_>>());
    for fp in history {
        assert_eq!(mapped.holders.of(fp), built.holders.of(fp));
    }
    for segment in mapped.searcher().segment_readers() {
        let id = segment.segment_id();
        assert_eq!(
            mapped.current_docs.docs_of(id),
            built.current_docs.docs_of(id)
        );
    }
}
