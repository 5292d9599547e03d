//! A passage that is only a heading ("BOXED WARNING") stays in the index and verifies, but
//! POST /v1/search never answers with it.

use drugcite_core::label::{segment_label, LabelRecord};
use drugcite_engine::ingest::IngestMode;
use drugcite_engine::search::headings::is_heading_only;
use serde_json::{json, Value};

use crate::helpers::{
    corpus_lines, ingest_lexical, results, scratch_dir, spawn_app_with, write_jsonl, GENEROUS,
};

#[tokio::test]
async fn a_heading_only_passage_verifies_but_is_never_an_answer() {
    let line = corpus_lines(usize::MAX)
        .into_iter()
        .find(|line| {
            let value: Value = serde_json::from_str(line).unwrap();
            value["boxed_warning"] == json!(["BOXED WARNING"])
        })
        .expect("the corpus has a label whose Boxed Warning is its heading alone");
    let record = LabelRecord::parse(&serde_json::from_str(&line).unwrap()).unwrap();
    let heading = segment_label(&record)
        .into_iter()
        .find(|s| s.section_key == "boxed_warning" && is_heading_only(&s.text))
        .expect("its Boxed Warning is one heading-only segment");
    let dir = scratch_dir();
    let inputs = [write_jsonl(dir.path(), "labels.jsonl", &[line])];
    let data_dir = dir.path().join("data");
    ingest_lexical(&data_dir, &inputs, IngestMode::Full, &[]);
    let app = spawn_app_with(&data_dir, GENEROUS).await;

    let verified = app
        .verify(&heading.fingerprint.to_string(), Some(&app.key))
        .await;
    assert_eq!(verified.status, 200, "{}", verified.body);

    let body = json!({"question": "boxed warning", "top_k": 100, "section": "boxed_warning"});
    let reply = app.search_raw(Some(&app.key), body.to_string()).await;
    let texts: Vec<&str> = results(&reply)
        .iter()
        .map(|r| r["text"].as_str().unwrap_or_default())
        .collect();
    assert!(
        !texts.contains(&heading.text.as_str()),
        "the heading-only passage answered: {texts:?}"
    );
}
