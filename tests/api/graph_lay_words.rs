//! POST /v1/graph over real sodium oxybate and epoetin alfa labels: alcohol asked in everyday
//! words ("wine", "a beer") is looked up in the drug's cautions, so a combination the label
//! contraindicates answers `contraindicated`; "benzyl alcohol" (a preservative) is no alcohol.

use crate::helpers::{
    corpus_lines_of, ingest_lexical, scratch_dir, spawn_app_with, write_jsonl, GENEROUS,
};
use drugcite_engine::ingest::IngestMode;

#[tokio::test]
async fn alcohol_asked_in_everyday_words_meets_the_labels_alcohol() {
    let dir = scratch_dir();
    let mut lines: Vec<String> = Vec::new();
    for generic in ["sodium oxybate", "epoetin alfa"] {
        let found = corpus_lines_of(&[generic]);
        assert!(!found.is_empty(), "the corpus holds a {generic} label");
        lines.extend(found.into_iter().take(1));
    }
    let inputs = [write_jsonl(dir.path(), "labels.jsonl", &lines)];
    let data_dir = dir.path().join("data");
    ingest_lexical(&data_dir, &inputs, IngestMode::Full, &[]);
    let app = spawn_app_with(&data_dir, GENEROUS).await;

    let oxybate = app
        .graph("Can I have a glass of wine with my sodium oxybate?", 2)
        .await;
    assert_eq!(oxybate["verdict"], "contraindicated", "{oxybate}");
    let evidence = oxybate["relationships"][0]["evidence"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{oxybate}"));
    assert!(evidence.to_lowercase().contains("alcohol"), "{evidence}");

    let epoetin = app
        .graph("Can I drink wine while on epoetin alfa?", 2)
        .await;
    assert_ne!(epoetin["verdict"], "contraindicated", "{epoetin}");
}
