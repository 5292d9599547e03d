//! A form the question names marks the labels given otherwise: "fish oil pills" are swallowed,
//! so an infusion holding fish oil answers after the capsules the question means, while a
//! question naming the infusion is answered from it.

use crate::helpers::{embedded_index_of, results, spawn_app_with, GENEROUS};

#[tokio::test]
async fn a_label_given_otherwise_than_the_named_form_answers_after_those_given_so() {
    let dir = embedded_index_of(&["smoflipid", "icosapent ethyl", "omega-3-acid ethyl esters"]);
    let app = spawn_app_with(&dir.path().join("data"), GENEROUS).await;
    let drugs_of = |reply| {
        results(reply)
            .iter()
            .map(|r| r["drug"]["name"].as_str().unwrap().to_lowercase())
            .collect::<Vec<_>>()
    };

    let pills = app
        .search("can fish oil pills cause an irregular heartbeat", 3)
        .await;
    let first = &results(&pills)[0];
    assert_ne!(drugs_of(&pills)[0], "smoflipid", "{}", pills.body);
    assert!(
        first["text"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("atrial fibrillation"),
        "{}",
        pills.body
    );

    let infusion = app.search("fish oil infusion and liver problems", 3).await;
    assert_eq!(drugs_of(&infusion)[0], "smoflipid", "{}", infusion.body);
}
