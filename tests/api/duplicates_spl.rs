//! The repackager case on real DailyMed SPL: 60 ibuprofen labels from the 2,521-document
//! archive (ibuprofen alone has 795 there, from 232 labelers). A search for "ibuprofen" shows
//! distinct passages, each copy's other labels in `also_in`, every one of them verifiable.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use drugcite_engine::ingest::IngestMode;
use serde_json::Value;

use crate::helpers::{ingest_lexical, results, scratch_dir, shared_data, spawn_app_with, GENEROUS};

const IBUPROFEN_LABELS: usize = 60;

/// Unpacks the archive (about 2 s) and returns its documents whose title names ibuprofen, the
/// first `IBUPROFEN_LABELS` by file name.
fn ibuprofen_documents(dir: &Path) -> Vec<PathBuf> {
    let archive = shared_data().join("labels/dailymed-spl-2521.tar.xz");
    let status = Command::new("tar")
        .arg("-xJf")
        .arg(&archive)
        .arg("-C")
        .arg(dir)
        .status()
        .expect("tar");
    assert!(status.success());
    let mut documents: Vec<PathBuf> = ["xml-files", "xml-files-archive"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(dir.join(sub)).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| title_names_ibuprofen(path))
        .collect();
    documents.sort();
    documents.truncate(IBUPROFEN_LABELS);
    assert_eq!(documents.len(), IBUPROFEN_LABELS);
    documents
}

fn title_names_ibuprofen(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let Some(start) = text.find("<title") else {
        return false;
    };
    let end = text[start..]
        .find("</title>")
        .map_or(text.len(), |e| start + e);
    text[start..end].to_lowercase().contains("ibuprofen")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_over_repackager_copies_shows_distinct_passages_with_their_other_labels() {
    let dir = scratch_dir();
    let documents = ibuprofen_documents(dir.path());
    let data_dir = dir.path().join("data");
    let report = ingest_lexical(&data_dir, &documents, IngestMode::Full, &[]);
    assert_eq!(report.labels_indexed, IBUPROFEN_LABELS as u64, "{report}");
    let (segments, distinct) = (report.texts.segments, report.texts.distinct_texts);
    assert!(
        distinct * 3 < segments * 2,
        "repackager copies share much of their text (1,846 segments, 957 texts when written): \
         {distinct} distinct of {segments}"
    );

    let app = spawn_app_with(&data_dir, GENEROUS).await;
    let reply = app.search("ibuprofen", 10).await;
    let found = results(&reply);
    assert_eq!(found.len(), 10);
    let texts: BTreeSet<&str> = found.iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert_eq!(texts.len(), found.len(), "each passage once");
    let copies_shown: u64 = found
        .iter()
        .map(|r| 1 + r["also_in"]["count"].as_u64().unwrap_or(0))
        .sum();
    assert!(
        copies_shown > found.len() as u64,
        "ten passages stand for more labels' copies than ten (29 when written, 16 with the \
         weights of round r21): {copies_shown}"
    );
    for result in found {
        check_other_copies(&app, result).await;
    }
}

/// Every listed copy verifies to exactly the result's text, under another set id.
async fn check_other_copies(app: &crate::helpers::TestApp, result: &Value) {
    let Some(others) = result["also_in"]["labels"].as_array() else {
        return;
    };
    assert!(others.len() <= 10);
    for other in others {
        let verified = app
            .verify(other["fingerprint"].as_str().unwrap(), None)
            .await;
        let data = &verified.body["data"];
        assert_eq!(data["verified"], true);
        assert_eq!(data["text"], result["text"]);
        assert_eq!(data["label"]["set_id"], other["set_id"]);
    }
}
