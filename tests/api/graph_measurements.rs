//! POST /v1/graph over a real eplerenone label: a value the question states ("K 5.8", "CrCl 25
//! mL/min") is read against the limits the label's Contraindications set ("serum potassium >
//! 5.5 mEq/L", "creatinine clearance ≤ 30 mL/min") and as the finding it makes
//! ("hyperkalemia"), so a value past the limit answers `contraindicated` with that sentence.

use crate::helpers::{first_evidence_text, spawn_app_over_first};

#[tokio::test]
async fn a_stated_value_is_read_against_the_limits_the_label_sets() {
    let (_dir, app) = spawn_app_over_first(&["eplerenone"]).await;

    let renal = app
        .graph("eplerenone in a pt with CrCl 25 mL/min?", 2)
        .await;
    assert_eq!(renal["verdict"], "contraindicated", "{renal}");
    let evidence = first_evidence_text(&renal).to_lowercase();
    assert!(evidence.contains("creatinine clearance"), "{evidence}");
    let limit_met = renal["relationships"].as_array().is_some_and(|rows| {
        rows.iter().any(|r| {
            r["type"] == "contraindication" && r["target"].to_string().contains("25 ml/min")
        })
    });
    assert!(limit_met, "the stated value itself meets a limit: {renal}");

    let potassium = app
        .graph("Can he take eplerenone with a K of 5.8?", 2)
        .await;
    assert_eq!(potassium["verdict"], "contraindicated", "{potassium}");
    let read_as = potassium["interpretation"].to_string();
    assert!(read_as.contains("hyperkalemia"), "{potassium}");

    let normal = app
        .graph("eplerenone in a pt with CrCl 95 mL/min?", 2)
        .await;
    assert_ne!(normal["verdict"], "contraindicated", "{normal}");
}
