//! The verdict invariant over the subset's whole graph: every contraindication the extractor
//! found, asked back as a yes/no question in a person's words, answers `contraindicated`; and a
//! contraindication the labels state in a sentence is found from the text even when asked in
//! lay words or after a sentence of context. A verdict is never less cautious than the label,
//! and never decided by what one named drug's own nodes say of each other.

use std::collections::HashMap;

use drugcite_engine::graph::{GraphData, Node, NodeKind, RelationType};
use drugcite_store::{DataDir, Snapshot};
use serde_json::Value;

use crate::helpers::{spawn_app, spawn_app_over_first, subset_index};

fn subset_graph() -> GraphData {
    let snapshot = Snapshot::open_current(&DataDir::new(&subset_index().data_dir)).unwrap();
    GraphData::read(snapshot.generation()).unwrap().unwrap()
}

/// The yes/no question a person would ask about `drug` and the contraindicated `target`.
fn question_about(drug: &Node, target: &Node) -> String {
    match target.kind {
        NodeKind::Drug | NodeKind::DrugClass => {
            format!("Can {} be taken with {}?", drug.name, target.name)
        }
        NodeKind::Condition | NodeKind::Population => {
            format!("Can a patient with {} take {}?", target.name, drug.name)
        }
    }
}

/// Questions of the subset still answered less cautiously than the label, each for a reason
/// issue 54 has not yet removed; a new one fails the test, and one fixed should leave the list.
/// The subset's one combination product (no label of either ingredient alone here) is read as
/// two unlabelled ingredients, not as itself: its label is not reached (on the full corpus,
/// where one ingredient has a label of its own, it is); named beside another drug it is read as
/// a medication list of its ingredients. "allergic reaction" is not read as a condition.
const KNOWN_GAPS: [&str; 3] = [
    "Can a patient with allergic reaction take fluticasone propionate nasal?",
    "serdexmethylphenidate and dexmethylphenidate?",
    "Can serdexmethylphenidate and dexmethylphenidate be taken with",
];

#[tokio::test]
async fn every_contraindication_the_graph_holds_is_answered_contraindicated() {
    let app = spawn_app().await;
    let graph = subset_graph();
    let nodes: HashMap<&str, &Node> = graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let mut asked = 0;
    let mut less_cautious = Vec::new();
    for stated in &graph.relationships {
        if stated.kind != RelationType::Contraindication {
            continue;
        }
        let (drug, target) = (nodes[stated.from.as_str()], nodes[stated.to.as_str()]);
        let question = question_about(drug, target);
        let data = app.graph(&question, 2).await;
        asked += 1;
        if data["verdict"] != "contraindicated" {
            less_cautious.push(format!("{question} → {}", data["verdict"]));
        }
    }
    assert!(asked >= 40, "the subset states {asked} contraindications");
    let unknown: Vec<&String> = less_cautious
        .iter()
        .filter(|failure| !KNOWN_GAPS.iter().any(|gap| failure.contains(gap)))
        .collect();
    assert!(
        unknown.is_empty(),
        "{} of {asked} answered less cautiously than the label (besides the known gaps):\n{}",
        unknown.len(),
        unknown
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn first(data: &Value) -> &Value {
    &data["relationships"][0]
}

#[tokio::test]
async fn a_question_after_a_sentence_of_context_gets_the_labels_verdict_with_its_sentence() {
    let app = spawn_app().await;
    let data = app
        .graph(
            "My mother is 70 and takes sertraline for depression. Can she take pimozide?",
            2,
        )
        .await;
    assert_eq!(data["interpretation"]["form"], "yes_no", "{data}");
    assert_eq!(data["verdict"], "contraindicated", "{data}");
    let evidence = first(&data)["evidence"][0]["text"].as_str().unwrap();
    assert!(evidence.to_lowercase().contains("pimozide"), "{evidence}");
    assert!(data["labels_read"].as_u64().unwrap() >= 1, "{data}");
}

#[tokio::test]
async fn a_drug_named_with_its_brand_in_parentheses_is_still_the_drug_asked_about() {
    let app = spawn_app().await;
    let data = app
        .graph("Can I take sertraline (Zoloft) with pimozide?", 2)
        .await;
    let drug = data["interpretation"]["drugs"][0]
        .as_str()
        .unwrap_or_default();
    assert!(drug.starts_with("sertraline"), "{data}");
    let unread = data["interpretation"]["not_understood"].to_string();
    assert!(
        !unread.contains("zoloft"),
        "the brand is read with its generic: {data}"
    );
    assert_eq!(data["verdict"], "contraindicated", "{data}");
}

#[tokio::test]
async fn nothing_stated_says_how_many_labels_were_read_never_safe() {
    let app = spawn_app().await;
    let data = app
        .graph("Can a patient with gout take sertraline?", 2)
        .await;
    assert_eq!(data["verdict"], "not_stated", "{data}");
    assert!(data["labels_read"].as_u64().unwrap() >= 1, "{data}");
}

#[tokio::test]
async fn a_medication_list_answers_every_pair_most_cautious_first_and_nothing_outside_it() {
    let app = spawn_app().await;
    let data = app
        .graph(
            "She takes sertraline, clopidogrel, metformin and pimozide. Any dangerous combinations?",
            2,
        )
        .await;
    let pairs = data["pairs"].as_array().unwrap_or_else(|| panic!("{data}"));
    assert_eq!(pairs.len(), 6, "{data}");
    assert_eq!(pairs[0]["verdict"], "contraindicated", "{data}");
    let first: Vec<&str> = pairs[0]["drugs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(first.contains(&"pimozide") && first.contains(&"sertraline hydrochloride"));
    assert_eq!(data["verdict"], "contraindicated");
    let listed = ["sertraline", "clopidogrel", "metformin", "pimozide"];
    let in_list = |name: &str| listed.iter().any(|d| name.starts_with(d));
    for r in data["relationships"].as_array().unwrap() {
        let drug = r["drug"].as_str().unwrap();
        assert!(in_list(drug), "a row about a drug outside the list: {r}");
    }
    for pair in pairs {
        assert!(pair["relationships"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i.as_u64().unwrap() < data["relationships"].as_array().unwrap().len() as u64));
    }
    assert!(
        data["metadata"]["total"].as_u64().unwrap() >= data["metadata"]["count"].as_u64().unwrap()
    );
}

#[tokio::test]
async fn words_the_reader_lacks_are_read_in_the_drugs_own_cautions() {
    let app = spawn_app().await;
    let data = app
        .graph(
            "My dad takes metformin and is having a CT scan with iodinated contrast next week. \
             Is that a problem?",
            2,
        )
        .await;
    let verdict = data["verdict"].as_str().unwrap_or_else(|| panic!("{data}"));
    assert!(
        ["warning", "boxed_warning", "contraindicated"].contains(&verdict),
        "{data}"
    );
    let conditions = data["interpretation"]["conditions"].to_string();
    assert!(conditions.contains("iodinated contrast"), "{data}");
    let not_understood = data["interpretation"]["not_understood"].to_string();
    assert!(!not_understood.contains("iodinated"), "{data}");
    let evidence = first(&data)["evidence"][0]["text"].as_str().unwrap();
    assert!(evidence.to_lowercase().contains("contrast"), "{evidence}");

    let context = app.graph("I run marathons. Can I take metformin?", 2).await;
    assert_eq!(
        context["interpretation"]["conditions"],
        serde_json::json!([]),
        "a word no caution of the label names is not made a condition: {context}"
    );
}

#[tokio::test]
async fn what_one_named_drugs_own_nodes_say_of_each_other_gives_no_verdict_for_the_pair() {
    let wanted = [
        "gabapentin",
        "gabapentin enacarbil",
        "oxycodone hydrochloride",
    ];
    let (_dir, app) = spawn_app_over_first(&wanted).await;
    let data = app.graph("gabapentin + oxycodone?", 2).await;
    let drugs = data["interpretation"]["drugs"].to_string();
    assert!(
        drugs.contains("gabapentin enacarbil"),
        "one name, two nodes: {data}"
    );
    assert_ne!(data["verdict"], "contraindicated", "{data}");
    assert!(data["verdict"].is_string(), "{data}");
}
