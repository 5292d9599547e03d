//! /v1/graph under de-duplication and caps: the answers to the normal questions stay exactly
//! those recorded before the caps (tests/api/golden/graph-answers.json), and a 2,000-character
//! question repeating condition and drug names is answered (its time is printed, not asserted).

use std::collections::BTreeSet;
use std::time::Instant;

use serde_json::Value;

use crate::helpers::spawn_app;

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/api/golden/graph-answers.json"
);

/// The questions of tests/api/graph.rs, each at every hop limit.
const QUESTIONS: [&str; 7] = [
    "Which SSRIs carry a boxed warning about suicidal thoughts?",
    "Which drugs that treat type 2 diabetes are contraindicated in severe renal impairment?",
    "What are the contraindications of esmolol?",
    "What adverse reactions do sertraline and clopidogrel share?",
    "What is the weather on Mars tomorrow?",
    "What are the contraindications of Plavix?",
    "Does lisinopril cause nausea?",
];

/// Fields added to the answer after the recording (additive; tested in graph_answers.rs).
const ADDED: [&str; 4] = ["fallback", "verdict", "labels_read", "pairs"];
const ADDED_TO_METADATA: [&str; 1] = ["total"];
const ADDED_TO_INTERPRETATION: [&str; 3] = ["form", "unlabelled_drugs", "read_as"];
const ADDED_TO_RELATIONSHIPS: [&str; 2] = ["instruction", "target_unlabelled"];

/// An answer without its timing and the fields added since the recording, evidence named by
/// fingerprint only (the text is the fingerprint's, checked by tests/api/graph.rs).
fn comparable(mut data: Value) -> Value {
    data["metadata"]["search_time_ms"] = Value::Null;
    let drop = |object: &mut Value, fields: &[&str]| {
        let object = object.as_object_mut().unwrap();
        fields.iter().for_each(|f| {
            object.remove(*f);
        });
    };
    drop(&mut data, &ADDED);
    drop(&mut data["metadata"], &ADDED_TO_METADATA);
    drop(&mut data["interpretation"], &ADDED_TO_INTERPRETATION);
    for relationship in data["relationships"].as_array_mut().unwrap() {
        drop(relationship, &ADDED_TO_RELATIONSHIPS);
        for evidence in relationship["evidence"].as_array_mut().unwrap() {
            evidence["text"] = Value::Null;
            evidence["source"] = Value::Null;
        }
    }
    data
}

#[tokio::test]
async fn normal_questions_get_the_answers_recorded_before_the_caps() {
    let app = spawn_app().await;
    let mut answers = serde_json::Map::new();
    for question in QUESTIONS {
        for hops in 1..=3 {
            let data = app.graph(question, hops).await;
            answers.insert(format!("{hops} {question}"), comparable(data));
        }
    }
    let answers = Value::Object(answers);
    if std::env::var_os("DRUGCITE_BLESS").is_some() {
        std::fs::write(GOLDEN, serde_json::to_string_pretty(&answers).unwrap()).unwrap();
    }
    let golden: Value = serde_json::from_str(&std::fs::read_to_string(GOLDEN).unwrap()).unwrap();
    for (name, expected) in golden.as_object().unwrap() {
        assert_eq!(&answers[name], expected, "{name}");
    }
}

/// `words` repeated after `prefix` up to the 2,000-character limit.
fn repeated(prefix: &str, words: &str) -> String {
    let mut question = prefix.to_owned();
    while question.len() + words.len() <= 2_000 {
        question.push_str(words);
    }
    question
}

#[tokio::test]
async fn a_question_repeating_names_is_answered_from_distinct_ones() {
    let app = spawn_app().await;
    let conditions = repeated(
        "Which drugs cause ",
        "bleeding, nausea, rash, headache, vomiting, dizziness, diarrhea, ",
    );
    let mixed = repeated("What do ", "sertraline and bleeding and SSRIs and nausea ");
    for question in [conditions, mixed] {
        let started = Instant::now();
        let data = app.graph(&question, 3).await;
        println!(
            "worst case /v1/graph, {} characters: {:.1} ms",
            question.len(),
            started.elapsed().as_secs_f64() * 1000.0
        );
        let names: Vec<&Value> = data["interpretation"]["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["name"])
            .collect();
        let distinct: BTreeSet<String> = names.iter().map(|n| n.to_string()).collect();
        assert_eq!(
            names.len(),
            distinct.len(),
            "each condition once: {names:?}"
        );
        assert!(!names.is_empty() && names.len() <= 8, "{names:?}");
    }
}
