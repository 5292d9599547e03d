//! Verdicts read by meaning: a yes/no question whose asked thing no name or vocabulary term
//! reaches is answered by the named drug's floor sentence closest in meaning (shown with its
//! similarity), a condition the drug is for is context, not the verdict, and an example the
//! label lists under a term meets what the label states of the term; a terse question asking
//! no relation ("X in pt on Y?") is answered so too.

use serde_json::Value;

use crate::helpers::{first_evidence_text, spawn_app_over_first};

/// The relationships of a reply matched by meaning.
fn by_meaning(data: &Value) -> Vec<&Value> {
    data["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["matched_by_meaning"].is_number())
        .collect()
}

#[tokio::test]
async fn a_procedure_in_everyday_words_meets_the_boxed_warning_about_it() {
    let (_dir, app) = spawn_app_over_first(&["apixaban"]).await;
    let data = app
        .graph(
            "My mother takes apixaban and is scheduled for a spinal tap. Is that an issue?",
            2,
        )
        .await;
    assert_eq!(data["verdict"], "boxed_warning", "{data:#}");
    let matched = by_meaning(&data);
    assert_eq!(matched.len(), 1, "{data:#}");
    let similarity = matched[0]["matched_by_meaning"].as_f64().unwrap();
    assert!((0.37..=1.0).contains(&similarity), "{similarity}");
    let evidence = &matched[0]["evidence"][0];
    assert_eq!(evidence["section"], "Boxed Warning", "{data:#}");
    assert!(
        evidence["text"].as_str().unwrap().contains("spinal"),
        "{data:#}"
    );
}

#[tokio::test]
async fn a_condition_nothing_in_the_label_is_close_to_stays_not_stated() {
    let (_dir, app) = spawn_app_over_first(&["apixaban"]).await;
    let data = app
        .graph("Is apixaban a problem for someone with gout?", 2)
        .await;
    assert_eq!(data["verdict"], "not_stated", "{data:#}");
    assert!(by_meaning(&data).is_empty(), "{data:#}");
}

#[tokio::test]
async fn what_the_drug_is_for_is_context_beside_another_condition() {
    let (_dir, app) = spawn_app_over_first(&["clascoterone"]).await;
    let data = app
        .graph("Can I use Winlevi if I have type 1 diabetes and acne?", 2)
        .await;
    assert_eq!(data["verdict"], "not_stated", "{data:#}");
    let targets: Vec<&str> = data["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["target"].as_str())
        .collect();
    assert!(targets.contains(&"acne"), "still shown: {targets:?}");
    let alone = app.graph("Can I use Winlevi for my acne?", 2).await;
    assert_ne!(
        alone["verdict"], "not_stated",
        "alone it is the question: {alone:#}"
    );
}

#[tokio::test]
async fn an_example_the_label_lists_meets_the_contraindication_of_its_term() {
    let (_dir, app) = spawn_app_over_first(&["eszopiclone"]).await;
    let data = app
        .graph(
            "I was found sleep-driving one night after my eszopiclone. Can I keep taking it?",
            2,
        )
        .await;
    assert_eq!(data["verdict"], "contraindicated", "{data:#}");
    let first = &data["relationships"][0];
    assert_eq!(
        first["evidence"][0]["section"], "Contraindications",
        "{data:#}"
    );
    let text = first_evidence_text(&data).to_lowercase();
    assert!(text.contains("complex sleep behaviors"), "{text}");
}

#[tokio::test]
async fn a_terse_question_asking_no_relation_is_answered_by_the_sentence_closest_in_meaning() {
    let (_dir, app) = spawn_app_over_first(&["ferric maltol"]).await;
    let data = app
        .graph("ferric maltol in pt on frequent transfusions?", 2)
        .await;
    assert_eq!(data["interpretation"]["form"], "yes_no", "{data:#}");
    assert_eq!(data["verdict"], "contraindicated", "{data:#}");
    let matched = by_meaning(&data);
    assert!(!matched.is_empty(), "{data:#}");
    let listing = app.graph("ferric maltol side effects?", 2).await;
    assert!(
        listing["verdict"].is_null(),
        "a relation asked: {listing:#}"
    );
}
