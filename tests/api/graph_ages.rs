//! POST /v1/graph over a real codeine label: the age a question states is read against the
//! age limits of the label's sentences ("contraindicated for all children younger than 12
//! years of age"), so a child's age answers `contraindicated` and an adult's makes no
//! pediatric question of it.

use crate::helpers::{first_evidence_text, spawn_app_over_first};

#[tokio::test]
async fn a_childs_age_is_read_against_the_age_limits_the_label_states() {
    let (_dir, app) = spawn_app_over_first(&["codeine sulfate"]).await;

    let child = app
        .graph(
            "My daughter is 9 and has a bad toothache. Can she take codeine?",
            2,
        )
        .await;
    assert_eq!(child["verdict"], "contraindicated", "{child}");
    let evidence = first_evidence_text(&child);
    assert!(evidence.contains("younger than 12 years"), "{evidence}");

    let adult = app
        .graph(
            "My son is 30 and has a bad toothache. Can he take codeine?",
            2,
        )
        .await;
    let conditions = adult["interpretation"]["conditions"].to_string();
    assert!(!conditions.contains("pediatric"), "{adult}");
    assert_ne!(adult["verdict"], "contraindicated", "{adult}");
}
