//! POST /v1/graph over a real eplerenone label: a value the question states ("K 5.8", "CrCl 25
//! mL/min") is read against the limits the label's Contraindications set ("serum potassium >
//! 5.5 mEq/L", "creatinine clearance ≤ 30 mL/min") and as the finding it makes
//! ("hyperkalemia"), so a value past the limit answers `contraindicated` with that sentence.

use crate::helpers::{
    corpus_lines_of, ingest_lexical, scratch_dir, spawn_app_with, write_jsonl, GENEROUS,
};
use drugcite_engine::ingest::IngestMode;

#[tokio::test]
async fn a_stated_value_is_read_against_the_limits_the_label_sets() {
    let dir = scratch_dir();
    let lines: Vec<String> = corpus_lines_of(&["eplerenone"])
        .into_iter()
        .take(1)
        .collect();
    assert_eq!(lines.len(), 1, "the corpus holds an eplerenone label");
    let inputs = [write_jsonl(dir.path(), "eplerenone.jsonl", &lines)];
    let data_dir = dir.path().join("data");
    ingest_lexical(&data_dir, &inputs, IngestMode::Full, &[]);
    let app = spawn_app_with(&data_dir, GENEROUS).await;

    let renal = app
        .graph("eplerenone in a pt with CrCl 25 mL/min?", 2)
        .await;
    assert_eq!(renal["verdict"], "contraindicated", "{renal}");
    let evidence = renal["relationships"][0]["evidence"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{renal}"))
        .to_lowercase();
    assert!(evidence.contains("creatinine clearance"), "{evidence}");

    let potassium = app
        .graph("Can he take eplerenone with a K of 5.8?", 2)
        .await;
    assert_eq!(potassium["verdict"], "contraindicated", "{potassium}");
    let read_as = potassium["interpretation"].to_string();
    assert!(read_as.contains("hyperkalemia"), "{potassium}");

    let normal = app
        .graph("eplerenone in a pt with CrCl 95 mL/min?", 2)
        .await;
    assert_ne!(normal["verdict"], "contraindicated", "{normal}");
}
