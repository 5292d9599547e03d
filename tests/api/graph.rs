//! POST /v1/graph over the subset's knowledge graph: the question kinds, hop limits,
//! evidence that verifies, ranking, determinism, and the errors of the spec.

use serde_json::{json, Value};

use crate::helpers::{
    assert_error, corpus_lines_of, create_key, ingest_embedded, scratch_dir, spawn_app,
    spawn_app_with, subset_index, write_jsonl, GENEROUS,
};
use drugcite_accounts::scopes::Scope;

fn relationships(data: &Value) -> &Vec<Value> {
    data["relationships"].as_array().expect("relationships")
}

const SEVERITY_ORDER: [&str; 5] = ["life_threatening", "serious", "moderate", "mild", "null"];

fn severity_rank(r: &Value) -> usize {
    let severity = r["severity"].as_str().unwrap_or("null");
    SEVERITY_ORDER.iter().position(|s| *s == severity).unwrap()
}

#[tokio::test]
async fn a_class_question_answers_through_the_members_with_boxed_evidence() {
    let app = spawn_app().await;
    let question = "Which SSRIs carry a boxed warning about suicidal thoughts?";
    let data = app.graph(question, 2).await;
    assert_eq!(data["question"], question);
    assert_eq!(
        data["interpretation"]["classes"],
        json!(["serotonin reuptake inhibitor"])
    );
    assert_eq!(data["interpretation"]["boxed_warning_only"], true);
    let found = relationships(&data);
    assert!(!found.is_empty(), "{data}");
    for r in found {
        assert_eq!(r["drug"], "sertraline hydrochloride");
        assert_eq!(r["type"], "warning");
        assert!(r["target"].as_str().unwrap().contains("suicid"));
        assert!(r["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["section"] == "Boxed Warning"));
    }
    let hops: Vec<&str> = data["paths"][0]["hops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["type"].as_str().unwrap())
        .collect();
    assert_eq!(hops, ["has_member", "warning"]);
    let one_hop = app.graph(question, 1).await;
    assert!(
        relationships(&one_hop).is_empty(),
        "class to member is a hop of its own"
    );
}

#[tokio::test]
async fn which_drugs_meet_an_indication_and_a_contraindication() {
    let app = spawn_app().await;
    let data = app
        .graph("Which drugs that treat type 2 diabetes are contraindicated in severe renal impairment?", 2)
        .await;
    let found = relationships(&data);
    let types: Vec<(&str, &str)> = found
        .iter()
        .map(|r| (r["drug"].as_str().unwrap(), r["type"].as_str().unwrap()))
        .collect();
    assert!(
        types.contains(&("metformin hydrochloride", "indication")),
        "{data}"
    );
    assert!(
        types.contains(&("metformin hydrochloride", "contraindication")),
        "{data}"
    );
    assert!(found.iter().all(|r| r["drug"] == "metformin hydrochloride"));
}

#[tokio::test]
async fn every_evidence_fingerprint_verifies_to_the_quoted_text() {
    let app = spawn_app().await;
    let data = app
        .graph("What are the contraindications of esmolol?", 2)
        .await;
    let found = relationships(&data);
    assert!(found.len() >= 3, "{data}");
    assert_eq!(data["metadata"]["count"], found.len());
    let search_time_ms = data["metadata"]["search_time_ms"].as_f64().unwrap();
    assert!(search_time_ms > 0.0, "milliseconds spent: {search_time_ms}");
    for r in found {
        assert_eq!(r["type"], "contraindication");
        let evidence = r["evidence"].as_array().unwrap();
        assert!(
            !evidence.is_empty() && r["evidence_count"].as_u64().unwrap() >= evidence.len() as u64
        );
        for e in evidence {
            let verified = app.verify(e["fingerprint"].as_str().unwrap(), None).await;
            assert_eq!(verified.body["data"]["verified"], true);
            assert_eq!(verified.body["data"]["text"], e["text"]);
            assert_eq!(verified.body["data"]["section"], "Contraindications");
        }
    }
    let ranks: Vec<usize> = found.iter().map(severity_rank).collect();
    assert!(
        ranks.windows(2).all(|w| w[0] <= w[1]),
        "severity first: {ranks:?}"
    );
}

#[tokio::test]
async fn shared_reactions_are_those_of_both_drugs_and_answers_repeat_exactly() {
    let app = spawn_app().await;
    let question = "What adverse reactions do sertraline and clopidogrel share?";
    let data = app.graph(question, 2).await;
    let found = relationships(&data);
    assert!(!found.is_empty(), "{data}");
    // Relationships come grouped by target, so the limit (100) can only cut the last target.
    let last = &found[found.len() - 1]["target"];
    for r in found {
        let target = &r["target"];
        let both = ["sertraline hydrochloride", "clopidogrel bisulfate"]
            .iter()
            .all(|drug| {
                found
                    .iter()
                    .any(|other| other["target"] == *target && other["drug"] == *drug)
            });
        let cut_by_limit = found.len() == 100 && target == last;
        assert!(both || cut_by_limit, "{target} is not shared");
    }
    let again = app.graph(question, 2).await;
    assert_eq!(again["relationships"], data["relationships"]);
    assert_eq!(again["paths"], data["paths"]);
}

#[tokio::test]
async fn a_question_naming_nothing_known_is_an_empty_answer_that_says_why() {
    let app = spawn_app().await;
    let data = app.graph("What is the weather on Mars tomorrow?", 2).await;
    assert!(relationships(&data).is_empty());
    assert_eq!(data["metadata"]["count"], 0);
    let interpretation = &data["interpretation"];
    assert!(interpretation["message"]
        .as_str()
        .unwrap()
        .contains("no drug"));
    assert_eq!(
        interpretation["not_understood"],
        json!(["weather", "mars", "tomorrow"])
    );
}

#[tokio::test]
async fn bad_graph_requests_get_the_spec_errors() {
    let app = spawn_app().await;
    let key = Some(app.key.as_str());
    for body in [
        json!({}),
        json!({"question": "   "}),
        json!({"question": "x".repeat(2001)}),
        json!({"question": "esmolol", "max_hops": 0}),
        json!({"question": "esmolol", "max_hops": 4}),
        json!({"question": "esmolol", "limit": 101}),
        json!({"question": 5}),
    ] {
        assert_error(&app.graph_raw(key, body).await, 400);
    }
    let question = json!({"question": "contraindications of esmolol"});
    assert_error(&app.graph_raw(None, question.clone()).await, 401);
    let search_only = create_key(&subset_index().data_dir, &[Scope::Search]).await;
    assert_error(&app.graph_raw(Some(&search_only), question).await, 403);
}

#[test]
fn ingest_reports_the_graph_it_stored() {
    let graph = &subset_index().report.graph;
    assert!(
        graph.vocabulary_terms > 10_000,
        "the shared vocabularies were used"
    );
    for kind in [
        "contraindication",
        "warning",
        "adverse_reaction",
        "indication",
        "interaction",
        "member_of",
    ] {
        assert!(
            graph.relationships.get(kind).is_some_and(|n| *n > 0),
            "{kind}: {graph:?}"
        );
    }
    for kind in ["drug", "drug_class", "condition"] {
        assert!(
            graph.nodes.get(kind).is_some_and(|n| *n > 0),
            "{kind}: {graph:?}"
        );
    }
}

#[tokio::test]
async fn a_curated_brand_names_its_generic_and_a_drug_outside_the_graph_is_said_so() {
    let app = spawn_app().await;
    let data = app
        .graph("What are the contraindications of Plavix?", 2)
        .await;
    assert_eq!(
        data["interpretation"]["drugs"],
        json!(["clopidogrel bisulfate"])
    );
    assert!(relationships(&data)
        .iter()
        .all(|r| r["drug"] == "clopidogrel bisulfate"));
    assert!(!relationships(&data).is_empty(), "{data}");

    let unknown = app.graph("Does lisinopril cause nausea?", 2).await;
    assert!(
        relationships(&unknown).is_empty(),
        "no drug named: no answer about all drugs"
    );
    let interpretation = &unknown["interpretation"];
    assert_eq!(interpretation["not_understood"], json!(["lisinopril"]));
    assert!(interpretation["message"]
        .as_str()
        .unwrap()
        .contains("which drugs"));
}

#[tokio::test]
async fn a_misspelled_condition_is_read_as_the_label_word_and_said_so() {
    let app = spawn_app().await;
    let data = app.graph("Which drugs can cause siezures?", 2).await;
    let interpretation = &data["interpretation"];
    assert_eq!(
        interpretation["read_as"],
        json!([{"asked": "siezures", "read": "seizures"}])
    );
    assert_eq!(
        interpretation["conditions"][0]["name"], "seizures",
        "{data}"
    );
    assert!(interpretation["not_understood"]
        .as_array()
        .is_some_and(|words| words.is_empty()));
    assert!(!relationships(&data).is_empty(), "{data}");
    let plain = app.graph("Which drugs can cause seizures?", 2).await;
    assert_eq!(relationships(&data), relationships(&plain));
}

/// At scale a drug has dozens of repackagers' labels (`scale-corpus.py`): they name one drug
/// node, read once, and every copy's set id counts as read.
#[tokio::test]
async fn a_drug_with_a_repackagers_copy_of_its_label_is_one_drug_read_once() {
    let original = corpus_lines_of(&["eplerenone"]);
    assert_eq!(original.len(), 1, "the corpus has one eplerenone label");
    let mut copy: Value = serde_json::from_str(&original[0]).unwrap();
    copy["set_id"] = json!("00000000-0000-4000-8000-00000000e1e1");
    copy["id"] = json!("00000000-0000-4000-8000-00000000e1e2");
    let dir = scratch_dir();
    let lines = [original[0].clone(), copy.to_string()];
    let inputs = [write_jsonl(dir.path(), "labels.jsonl", &lines)];
    let data_dir = dir.path().join("data");
    ingest_embedded(&data_dir, &inputs);
    let app = spawn_app_with(&data_dir, GENEROUS).await;
    let data = app
        .graph("Can eplerenone be used with ketoconazole?", 2)
        .await;
    assert_eq!(data["interpretation"]["drugs"][0], "eplerenone", "{data}");
    let named = data["interpretation"]["drugs"].as_array().unwrap();
    assert_eq!(
        named.iter().filter(|d| **d == "eplerenone").count(),
        1,
        "{data}"
    );
    assert_eq!(data["labels_read"], 2, "{data}");
    assert_eq!(data["verdict"], "contraindicated", "{data}");
}
