//! POST /v1/graph over a few real NSAID and diuretic labels: what an NSAID label states for
//! its class ("Lithium Clinical Impact: NSAIDs have produced elevations in plasma lithium
//! levels … Intervention: … monitor") answers for an NSAID whose own label does not state it,
//! with the table row's instruction, also when the question says why each drug is taken;
//! "diuretics" speaks for "potassium-sparing diuretics".

use serde_json::Value;

use crate::helpers::{
    corpus_lines_of, ingest_lexical, scratch_dir, spawn_app_with, write_jsonl, TestApp, GENEROUS,
};
use drugcite_engine::ingest::IngestMode;

/// The generic names whose labels the subset holds: two NSAIDs with a lithium row in their
/// interaction table, ibuprofen (whose labels in the corpus do not name lithium) and a
/// potassium-sparing diuretic.
const GENERICS: [&str; 4] = [
    "celecoxib",
    "ketorolac tromethamine",
    "ibuprofen lysine",
    "triamterene and hydrochlorothiazide",
];

async fn app(dir: &tempfile::TempDir) -> TestApp {
    let lines = corpus_lines_of(&GENERICS);
    assert!(lines.len() >= GENERICS.len(), "{} labels", lines.len());
    let inputs = [write_jsonl(dir.path(), "nsaids.jsonl", &lines)];
    let data_dir = dir.path().join("data");
    ingest_lexical(&data_dir, &inputs, IngestMode::Full, &[]);
    spawn_app_with(&data_dir, GENEROUS).await
}

fn relationships(data: &Value) -> &Vec<Value> {
    data["relationships"].as_array().expect("relationships")
}

#[tokio::test]
async fn an_nsaid_class_statement_answers_for_ibuprofen_with_the_rows_instruction() {
    let dir = scratch_dir();
    let app = app(&dir).await;
    let data = app.graph("Does lithium interact with ibuprofen?", 2).await;
    assert_eq!(data["verdict"], "use_with_caution", "{data}");
    let stated = relationships(&data)
        .iter()
        .find(|r| r["target"] == "lithium")
        .unwrap_or_else(|| panic!("no interaction with lithium: {data}"));
    assert_eq!(stated["drug"], "nonsteroidal anti-inflammatory drug");
    assert_eq!(stated["type"], "interaction");
    assert_eq!(stated["instruction"], "monitor");
    let evidence = stated["evidence"].as_array().unwrap();
    assert!(!evidence.is_empty());
    for e in evidence {
        let text = e["text"].as_str().unwrap();
        assert!(
            text.contains("NSAIDs") && text.contains("lithium"),
            "{text}"
        );
        let verified = app.verify(e["fingerprint"].as_str().unwrap(), None).await;
        assert_eq!(verified.body["data"]["verified"], true);
        assert_eq!(verified.body["data"]["text"], e["text"]);
    }
}

#[tokio::test]
async fn two_drugs_asked_with_why_each_is_taken_still_get_the_pairs_verdict() {
    let dir = scratch_dir();
    let app = app(&dir).await;
    let data = app
        .graph(
            "My mother takes lithium for her bipolar disorder and wants ibuprofen for her back \
             pain. Can she take both?",
            2,
        )
        .await;
    assert_eq!(data["verdict"], "use_with_caution", "{data}");
    let stated = relationships(&data)
        .iter()
        .any(|r| r["target"] == "lithium" && r["type"] == "interaction");
    assert!(
        stated,
        "the pair's class statement is among the rows: {data}"
    );
}

#[tokio::test]
async fn a_statement_about_diuretics_answers_for_potassium_sparing_diuretics() {
    let dir = scratch_dir();
    let app = app(&dir).await;
    let data = app
        .graph(
            "Can ibuprofen be taken with potassium-sparing diuretics?",
            2,
        )
        .await;
    assert_ne!(data["verdict"], "no_interaction_stated", "{data}");
    let own = relationships(&data)
        .iter()
        .find(|r| r["drug"] == "ibuprofen lysine")
        .unwrap_or_else(|| panic!("ibuprofen's own diuretics statement missing: {data}"));
    assert_eq!(own["instruction"], "monitor", "{own}");
}
