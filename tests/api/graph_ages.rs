//! POST /v1/graph over a real codeine label: the age a question states is read against the
//! age limits of the label's sentences ("contraindicated for all children younger than 12
//! years of age"), so a child's age answers `contraindicated` and an adult's makes no
//! pediatric question of it.

use crate::helpers::{lexical_index_of_first, spawn_app_with, GENEROUS};

#[tokio::test]
async fn a_childs_age_is_read_against_the_age_limits_the_label_states() {
    let dir = lexical_index_of_first(&["codeine sulfate"]);
    let data_dir = dir.path().join("data");
    let app = spawn_app_with(&data_dir, GENEROUS).await;

    let child = app
        .graph(
            "My daughter is 9 and has a bad toothache. Can she take codeine?",
            2,
        )
        .await;
    assert_eq!(child["verdict"], "contraindicated", "{child}");
    let evidence = child["relationships"][0]["evidence"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{child}"));
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
