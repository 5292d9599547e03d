//! POST /v1/graph answers of the kinds people ask, over the subset's real labels: a verdict with
//! its stating evidence, a partner drug without a label of its own, an enzyme class, the
//! label's own "most common" order, and a fallback that is never a silent empty answer.

use serde_json::Value;

use crate::helpers::{results, spawn_app};

fn relationships(data: &Value) -> &Vec<Value> {
    data["relationships"].as_array().expect("relationships")
}

fn evidence_texts(r: &Value) -> Vec<String> {
    r["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_lowercase())
        .collect()
}

#[tokio::test]
async fn a_partner_drug_without_a_label_is_a_node_and_the_verdict_quotes_the_contraindication() {
    let app = spawn_app().await;
    for question in [
        "Is sertraline contraindicated with pimozide?",
        "Is pimozide contraindicated with sertraline?",
    ] {
        let data = app.graph(question, 2).await;
        assert_eq!(data["verdict"], "contraindicated", "{question}: {data}");
        assert_eq!(data["interpretation"]["unlabelled_drugs"][0], "pimozide");
        let stated = relationships(&data)
            .iter()
            .find(|r| r["type"] == "contraindication" && r["target"] == "pimozide")
            .unwrap_or_else(|| panic!("{question}: no contraindication with pimozide: {data}"));
        assert_eq!(stated["drug"], "sertraline hydrochloride");
        assert_eq!(stated["target_unlabelled"], true);
        assert!(evidence_texts(stated)
            .iter()
            .any(|t| t.contains("pimozide")));
        assert!(data.get("fallback").is_none());
    }
}

#[tokio::test]
async fn an_interaction_carries_the_labels_instruction_and_an_enzyme_class_is_a_node() {
    let app = spawn_app().await;
    let data = app
        .graph("Which drugs interact with CYP2C19 inhibitors?", 2)
        .await;
    let clopidogrel = relationships(&data)
        .iter()
        .find(|r| r["drug"] == "clopidogrel bisulfate")
        .unwrap_or_else(|| panic!("clopidogrel missing: {data}"));
    assert!(clopidogrel["target"]
        .as_str()
        .unwrap()
        .contains("cyp2c19 inhibitors"));
    assert_eq!(clopidogrel["target_kind"], "drug_class");
}

#[tokio::test]
async fn a_drug_named_as_an_example_of_a_class_asks_about_the_class() {
    let app = spawn_app().await;
    let plain = app
        .graph("Which drugs interact with CYP2C19 inhibitors?", 2)
        .await;
    for question in [
        "Which drugs interact with CYP2C19 inhibitors such as omeprazole?",
        "Which drugs interact with CYP2C19 inhibitors (e.g., fluvoxamine)?",
    ] {
        let data = app.graph(question, 2).await;
        assert_eq!(data["relationships"], plain["relationships"], "{question}");
        let interpretation = data["interpretation"].to_string();
        for example in ["omeprazole", "fluvoxamine", "\"such\"", "\"e\""] {
            assert!(
                !interpretation.contains(example),
                "{question}: {interpretation}"
            );
        }
    }
}

#[tokio::test]
async fn common_side_effects_follow_the_labels_most_common_list() {
    let app = spawn_app().await;
    let question = "What are the most common side effects of sertraline?";
    let data = app.graph(question, 2).await;
    assert_eq!(data["interpretation"]["form"], "common_side_effects");
    let searched = app
        .search("sertraline most common adverse reactions", 20)
        .await;
    let list: String = results(&searched)
        .iter()
        .map(|r| r["text"].as_str().unwrap().to_lowercase())
        .filter(|t| t.contains("most common adverse reaction"))
        .collect();
    assert!(!list.is_empty(), "the label's most-common sentences");
    let found = relationships(&data);
    assert!(found.len() >= 3, "{data}");
    for r in &found[..3] {
        assert_eq!(r["type"], "adverse_reaction");
        let target = r["target"].as_str().unwrap().to_lowercase();
        assert!(
            list.contains(&target),
            "{target} is not in the most-common list: {list}"
        );
    }
}

#[tokio::test]
async fn a_contraindication_question_about_a_population_finds_it_as_a_target() {
    let app = spawn_app().await;
    let data = app
        .graph("Which drugs have warnings about use in pregnancy?", 2)
        .await;
    let found = relationships(&data);
    assert!(!found.is_empty(), "{data}");
    for r in found {
        assert_eq!(r["target_kind"], "population");
        assert_eq!(r["target"], "pregnancy");
        assert!(evidence_texts(r).iter().any(|t| t.contains("pregnan")));
    }
}

#[tokio::test]
async fn when_the_graph_has_nothing_the_answer_says_so_and_carries_search_segments() {
    let app = spawn_app().await;
    let data = app.graph("How should the tablets be stored?", 2).await;
    assert!(relationships(&data).is_empty());
    let fallback = &data["fallback"];
    let reason = fallback["reason"].as_str().expect("a reason");
    assert!(reason.contains("not understood"), "{reason}");
    let segments = fallback["segments"].as_array().expect("segments");
    assert!(!segments.is_empty(), "{data}");
    for segment in segments {
        let fingerprint = segment["fingerprint"].as_str().unwrap();
        let verified = app.verify(fingerprint, None).await;
        assert_eq!(verified.body["data"]["verified"], true);
    }
}
