//! POST /v1/graph over real labels that word a condition otherwise than the question: as its
//! adjective before "disease" (polidocanol's "acute thromboembolic disease" for a clot), and as
//! one item of a list sharing its last word (estradiol acetate's "protein C, protein S, or
//! antithrombin deficiency" for protein S deficiency).

use crate::helpers::{
    embedded_index_of, first_evidence_text, spawn_app_over_first, spawn_app_with, GENEROUS,
};

#[tokio::test]
async fn a_condition_meets_the_label_writing_its_adjective_before_disease() {
    let (_dir, app) = spawn_app_over_first(&["polidocanol"]).await;

    let clot = app
        .graph(
            "Can a patient with a pulmonary embolism be treated with polidocanol?",
            2,
        )
        .await;
    assert_eq!(clot["verdict"], "contraindicated", "{clot}");
    let evidence = first_evidence_text(&clot).to_lowercase();
    assert!(evidence.contains("thromboembolic disease"), "{evidence}");
}

#[tokio::test]
async fn a_condition_meets_the_label_naming_it_as_one_item_of_a_shared_list() {
    let dir = embedded_index_of(&["estradiol acetate"]);
    let app = spawn_app_with(&dir.path().join("data"), GENEROUS).await;

    let deficiency = app
        .graph(
            "Can a woman with protein S deficiency use estradiol acetate?",
            2,
        )
        .await;
    assert_eq!(deficiency["verdict"], "contraindicated", "{deficiency}");
    let evidence = first_evidence_text(&deficiency).to_lowercase();
    assert!(
        evidence.contains("protein s, or antithrombin deficiency"),
        "{evidence}"
    );
}
