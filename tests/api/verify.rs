//! GET /v1/verify/{fingerprint}: every outcome row of §4.2 and the coverage promise of DESIGN.

use std::collections::BTreeSet;

use crate::helpers::{assert_error, results, spawn_app};

/// The fingerprint of the best result for `question`.
async fn first_fingerprint(app: &crate::helpers::TestApp, question: &str) -> String {
    let reply = app.search(question, 1).await;
    results(&reply)[0]["fingerprint"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn flip_bits(fingerprint: &str, positions: &[usize]) -> String {
    fingerprint
        .char_indices()
        .map(|(i, c)| match (positions.contains(&i), c) {
            (true, '0') => '1',
            (true, _) => '0',
            (false, c) => c,
        })
        .collect()
}

#[tokio::test]
async fn an_exact_fingerprint_verifies_to_the_same_text_and_source() {
    let app = spawn_app().await;
    let reply = app.search("clopidogrel CYP2C19 poor metabolizers", 3).await;
    let hit = &results(&reply)[0];
    let fingerprint = hit["fingerprint"].as_str().unwrap();
    let verified = app.verify(fingerprint, None).await;
    assert_eq!(verified.status, 200);
    let data = &verified.body["data"];
    assert_eq!(verified.body["status"], 1);
    assert_eq!(data["verified"], true);
    assert_eq!(data["message"], serde_json::Value::Null);
    assert_eq!(data["fingerprint"], fingerprint);
    for field in ["text", "drug", "section", "source"] {
        assert_eq!(data[field], hit[field], "{field}");
    }
    let again = app.verify(fingerprint, None).await;
    assert_eq!(
        again.body, verified.body,
        "cached answer is the same answer"
    );
}

#[tokio::test]
async fn a_near_fingerprint_is_not_verified_and_says_how_far() {
    let app = spawn_app().await;
    let fingerprint = first_fingerprint(&app, "metformin lactic acidosis").await;
    for flips in [vec![0], vec![3, 40, 77], vec![1, 20, 40, 60, 80, 100, 127]] {
        let near = flip_bits(&fingerprint, &flips);
        let reply = app.verify(&near, None).await;
        let data = &reply.body["data"];
        assert_eq!(reply.status, 200);
        assert_eq!(data["verified"], false);
        assert_eq!(data["fingerprint"], near);
        for field in ["text", "drug", "section", "source"] {
            assert!(data[field].is_null(), "{field} must be null");
        }
        let message = data["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("Hamming distance {}", flips.len())),
            "{message}"
        );
    }
}

#[tokio::test]
async fn a_far_fingerprint_is_not_found() {
    let app = spawn_app().await;
    let fingerprint = first_fingerprint(&app, "metformin lactic acidosis").await;
    let far = flip_bits(&fingerprint, &[0, 17, 34, 51, 68, 85, 102, 119, 126]);
    let reply = app.verify(&far, None).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["status"], 1);
    assert_eq!(
        reply.body["data"],
        serde_json::json!({"detail": "Not Found"})
    );
}

#[tokio::test]
async fn malformed_fingerprints_are_400() {
    let app = spawn_app().await;
    let too_short = "0".repeat(127);
    let too_long = "1".repeat(129);
    let mut bad_digit = "0".repeat(127);
    bad_digit.push('2');
    let mut spaced = "0".repeat(126);
    spaced.push_str("%20");
    let mut wide = "0".repeat(127);
    wide.push_str("%D9%A1");
    for bad in [
        too_short,
        too_long,
        bad_digit,
        spaced,
        wide,
        "abc".into(),
        "%FF".into(),
    ] {
        assert_error(&app.verify(&bad, None).await, 400);
    }
}

#[tokio::test]
async fn every_fingerprint_search_returns_verifies() {
    let app = spawn_app().await;
    let questions = [
        "contraindications",
        "adverse reactions",
        "pregnancy",
        "overdosage",
        "renal impairment",
        "drug interactions",
        "boxed warning",
        "hepatic",
        "pediatric use",
        "dosage",
        "clinical pharmacology",
        "storage",
        "bleeding",
        "infection",
        "hypersensitivity",
        "indicated for",
        "mechanism of action",
        "warnings",
        "patients",
        "mg",
    ];
    let mut fingerprints = BTreeSet::new();
    for question in questions {
        for hit in results(&app.search(question, 100).await) {
            fingerprints.insert(hit["fingerprint"].as_str().unwrap().to_owned());
        }
    }
    assert!(
        fingerprints.len() > 500,
        "only {} distinct fingerprints",
        fingerprints.len()
    );
    for fingerprint in &fingerprints {
        let reply = app.verify(fingerprint, None).await;
        assert_eq!(reply.body["data"]["verified"], true, "{fingerprint}");
    }
}
