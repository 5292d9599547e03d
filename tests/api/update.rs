//! `drugcite ingest --update` from the command line: killed with SIGKILL part-way, the live
//! index keeps serving unchanged (its files are shared with the update by hard link and must
//! never be altered) and the next update completes; an update builds the same graph as a full
//! build of the same labels.

use std::path::Path;
use std::time::{Duration, Instant};

use drugcite_engine::graph::GraphData;
use drugcite_engine::ingest::{IngestMode, IngestReport};
use drugcite_store::{DataDir, Snapshot};

use crate::cli::drugcite;
use crate::helpers::{
    corpus_lines, ingest_lexical, scratch_dir, shared_data, vocabulary, write_jsonl,
};

/// The directory of an update in progress, once it holds some of its own tantivy files.
fn building_dir(data_dir: &Path) -> Option<std::path::PathBuf> {
    let entries = std::fs::read_dir(data_dir.join("indexes")).ok()?;
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".building") && p.join("tantivy").is_dir())
}

#[test]
fn an_update_killed_part_way_leaves_the_live_index_serving_and_the_next_one_completes() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let base = write_jsonl(dir.path(), "base.jsonl", &corpus_lines(20));
    let full = drugcite(&data_dir)
        .args(["ingest", "--lexical-only"])
        .arg(&base)
        .output()
        .unwrap();
    assert!(
        full.status.success(),
        "{}",
        String::from_utf8_lossy(&full.stderr)
    );
    let live_before = DataDir::new(&data_dir).current_generation().unwrap();
    let versions = shared_data().join("labels/openfda-label-versions.jsonl.gz");
    let mut update = drugcite(&data_dir)
        .args(["ingest", "--update", "--lexical-only"])
        .arg(&versions)
        .spawn()
        .unwrap();
    let started = Instant::now();
    while building_dir(&data_dir).is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no update started"
        );
        assert!(
            update.try_wait().unwrap().is_none(),
            "the update ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    update.kill().unwrap();
    let status = update.wait().unwrap();
    assert!(!status.success(), "killed, not finished");

    let data = DataDir::new(&data_dir);
    assert_eq!(data.current_generation().unwrap(), live_before);
    let snapshot = Snapshot::open_current(&data).expect("the live index opens: checksums hold");
    assert_eq!(snapshot.history().len(), 20);
    let check = drugcite(&data_dir).arg("check").output().unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    drop(snapshot);

    let again = drugcite(&data_dir)
        .args(["ingest", "--update", "--lexical-only"])
        .arg(&versions)
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_ne!(data.current_generation().unwrap(), live_before);
    assert!(
        building_dir(&data_dir).is_none(),
        "the killed build was cleaned up"
    );
    let snapshot = Snapshot::open_current(&data).unwrap();
    assert!(
        snapshot.history().len() > 400,
        "{}",
        snapshot.history().len()
    );
}

fn ingest_lines(data_dir: &Path, input: &Path, mode: IngestMode) -> IngestReport {
    ingest_lexical(data_dir, &[input.to_path_buf()], mode, vocabulary())
}

fn graph_of(data_dir: &Path) -> GraphData {
    let generation = DataDir::new(data_dir).current_generation().unwrap();
    GraphData::read(&generation).unwrap().unwrap()
}

#[test]
fn an_update_builds_the_graph_a_full_build_of_the_same_labels_does() {
    let dir = scratch_dir();
    let lines = corpus_lines(40);
    let base = write_jsonl(dir.path(), "base.jsonl", &lines[..30]);
    let added = write_jsonl(dir.path(), "added.jsonl", &lines[30..]);
    let all = write_jsonl(dir.path(), "all.jsonl", &lines);
    let updated = dir.path().join("updated");
    ingest_lines(&updated, &base, IngestMode::Full);
    let report = ingest_lines(&updated, &added, IngestMode::Update);
    assert_eq!(report.labels_indexed, 10, "{report}");
    let fresh = dir.path().join("fresh");
    ingest_lines(&fresh, &all, IngestMode::Full);
    assert_eq!(graph_of(&updated), graph_of(&fresh));
}
