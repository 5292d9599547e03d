//! POST /v1/graph over real sodium oxybate and epoetin alfa labels: alcohol asked in everyday
//! words ("wine", "a beer") is looked up in the drug's cautions, so a combination the label
//! contraindicates answers `contraindicated`; "benzyl alcohol" (a preservative) is no alcohol.

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
