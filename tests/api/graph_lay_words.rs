//! POST /v1/graph over real sodium oxybate and epoetin alfa labels: alcohol asked in everyday
//! words ("wine", "a beer") is looked up in the drug's cautions, so a combination the label
//! contraindicates answers `contraindicated`; "benzyl alcohol" (a preservative) is no alcohol.
//! And over a real polidocanol label: a clot asked about meets the label's "acute
//! thromboembolic disease", the adjective of the clinical word for it.

use crate::helpers::{first_evidence_text, spawn_app_over_first};

#[tokio::test]
async fn alcohol_asked_in_everyday_words_meets_the_labels_alcohol() {
    let (_dir, app) = spawn_app_over_first(&["sodium oxybate", "epoetin alfa"]).await;

    let oxybate = app
        .graph("Can I have a glass of wine with my sodium oxybate?", 2)
        .await;
    assert_eq!(oxybate["verdict"], "contraindicated", "{oxybate}");
    let evidence = first_evidence_text(&oxybate);
    assert!(evidence.to_lowercase().contains("alcohol"), "{evidence}");

    let epoetin = app
        .graph("Can I drink wine while on epoetin alfa?", 2)
        .await;
    assert_ne!(epoetin["verdict"], "contraindicated", "{epoetin}");
}

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
