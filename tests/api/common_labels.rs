//! The common drugs' labels of the default corpus (`dailymed-spl-common.tar.xz`: 16 current
//! DailyMed SPL documents, warfarin's and lisinopril's among them) ingested as the archive they
//! ship in, through the real CLI: their text found and verified, a drug still without a label
//! named as such, the class a label's Indications states read as its class, and a corrupt copy
//! of the archive refused with the live index left as it was.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::cli::drugcite;
use crate::helpers::{results, scratch_dir, shared_data, spawn_app_with, TestApp, GENEROUS};
use crate::verify::live_generation;

const WARFARIN_SET_ID: &str = "884cdbf6-0a52-4126-8e14-b0d7c9367e33";
const LISINOPRIL_SET_ID: &str = "5f4c1a62-fb84-8cdc-e053-2a91aa0a671a";

fn common_archive() -> PathBuf {
    shared_data().join("labels/dailymed-spl-common.tar.xz")
}

/// `drugcite ingest --lexical-only INPUTS…` into `data_dir`: (succeeded, stdout, stderr).
fn cli_ingest(data_dir: &Path, inputs: &[&Path]) -> (bool, String, String) {
    let output = drugcite(data_dir)
        .args(["ingest", "--lexical-only"])
        .args(inputs)
        .output()
        .unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        output.status.success(),
        text(output.stdout),
        text(output.stderr),
    )
}

/// The number on the report line that starts with `name`.
fn report_count(report: &str, name: &str) -> u64 {
    report
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("no {name:?} line in:\n{report}"))
}

/// Asks `question`; the best answer must come from the label `set_id` of a drug named
/// `generic`, and every fingerprint answered must verify.
async fn answered_from(app: &TestApp, question: &str, generic: &str, set_id: &str) -> Value {
    let reply = app.search(question, 5).await;
    let found = results(&reply);
    assert!(!found.is_empty(), "{question}: {}", reply.body);
    let best = &found[0];
    let drug = best["drug"]["name"].as_str().unwrap();
    assert!(drug.contains(generic), "{question}: best from {drug}");
    assert!(
        best["source"]["url"].as_str().unwrap().ends_with(set_id),
        "{question}: {}",
        best["source"]
    );
    for result in found {
        let fingerprint = result["fingerprint"].as_str().unwrap();
        let verified = app.verify(fingerprint, Some(&app.key)).await;
        assert_eq!(verified.status, 200, "{fingerprint}");
        assert_eq!(verified.body["data"]["verified"], true, "{fingerprint}");
        assert_eq!(verified.body["data"]["text"], result["text"]);
    }
    reply.body["data"]["metadata"]["unmatched_drugs"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_common_labels_archive_ingests_and_its_drugs_are_found_and_verified() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let archive = common_archive();
    let (ok, report, stderr) = cli_ingest(&data_dir, &[&archive]);
    assert!(ok, "{stderr}");
    assert_eq!(report_count(&report, "labels read:"), 16, "{report}");
    assert_eq!(report_count(&report, "labels indexed:"), 16, "{report}");

    let app = spawn_app_with(&data_dir, GENEROUS).await;
    let unmatched =
        answered_from(&app, "warfarin bleeding risk", "warfarin", WARFARIN_SET_ID).await;
    assert_eq!(unmatched, json!([]), "warfarin has a label now");
    let unmatched = answered_from(
        &app,
        "lisinopril angioedema",
        "lisinopril",
        LISINOPRIL_SET_ID,
    )
    .await;
    assert_eq!(unmatched, json!([]));

    let reply = app.search("warfarin with amiodarone", 5).await;
    assert_eq!(
        reply.body["data"]["metadata"]["unmatched_drugs"],
        json!(["amiodarone"]),
        "warfarin's label names amiodarone, which has no label here"
    );
    let graph = app
        .graph("Does amiodarone interact with warfarin?", 2)
        .await;
    assert_eq!(
        graph["interpretation"]["unlabelled_drugs"],
        json!(["amiodarone"]),
        "{graph}"
    );

    let graph = app
        .graph("Which vitamin K antagonists interact with aspirin?", 2)
        .await;
    let classes = graph["interpretation"]["classes"]
        .to_string()
        .to_lowercase();
    assert!(
        classes.contains("vitamin k antagonist"),
        "the class warfarin's own Indications states (SPL has no class field): {graph}"
    );
}

#[test]
fn a_corrupt_copy_of_the_archive_is_refused_and_the_live_index_is_kept() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let archive = common_archive();
    let (ok, _, stderr) = cli_ingest(&data_dir, &[&archive]);
    assert!(ok, "{stderr}");
    let live = live_generation(&data_dir);

    let bytes = std::fs::read(&archive).unwrap();
    let truncated = dir.path().join("dailymed-spl-common.tar.xz");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let (ok, _, stderr) = cli_ingest(&data_dir, &[&archive, &truncated]);
    assert!(!ok, "a truncated archive is an input error");
    let error = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("one error line in:\n{stderr}"));
    assert!(
        error.contains(&format!("{}!spl-common/", truncated.display()))
            && error.contains("unreadable tar archive"),
        "{error}"
    );
    assert_eq!(live_generation(&data_dir), live, "the live index is kept");
}
