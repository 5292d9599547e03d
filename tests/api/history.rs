//! Label history over real label versions (`openfda-label-versions.jsonl.gz`): every version of
//! every label stays verifiable and says where it stands, search answers from current versions
//! only, `/v1/labels/{set_id}` lists versions and changes, a full snapshot withdraws what it
//! lacks, and `--update` is idempotent and survives kill -9.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use drugcite_core::domain::Fingerprint;
use drugcite_core::label::{segment_label, LabelRecord};
use drugcite_engine::engine::Engine;
use drugcite_engine::ingest::{IngestMode, IngestReport};
use drugcite_engine::verify::Verification;
use drugcite_store::{DataDir, Snapshot, VersionRank, VersionStatus};
use serde_json::Value;

use crate::helpers::{
    corpus_file, ingest_lexical, results, scratch_dir, shared_data, spawn_app_with, write_jsonl,
    GENEROUS,
};

/// Labels the sample takes: with several versions, also in the main corpus.
const SAMPLE_SETS: usize = 6;

fn lines_of(path: &Path) -> Vec<String> {
    let file = std::fs::File::open(path).expect("shared data missing: see README");
    BufReader::new(flate2::read::MultiGzDecoder::new(file))
        .lines()
        .map(|l| l.expect("line"))
        .collect()
}

fn set_id_of(line: &str) -> String {
    let value: Value = serde_json::from_str(line).unwrap();
    value["set_id"].as_str().unwrap().to_owned()
}

/// Real labels with at least three versions that the main corpus also holds: their main
/// corpus records and all their versions, in file order.
pub struct Sample {
    pub main: Vec<String>,
    pub versions: Vec<String>,
}

pub fn sample() -> Sample {
    let main: HashMap<String, String> = lines_of(&corpus_file())
        .into_iter()
        .map(|line| (set_id_of(&line), line))
        .collect();
    let mut by_set: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let versions_file = shared_data().join("labels/openfda-label-versions.jsonl.gz");
    for line in lines_of(&versions_file) {
        by_set.entry(set_id_of(&line)).or_default().push(line);
    }
    let chosen: Vec<(String, Vec<String>)> = by_set
        .into_iter()
        .filter(|(set, lines)| lines.len() >= 3 && main.contains_key(set))
        .take(SAMPLE_SETS)
        .collect();
    assert_eq!(chosen.len(), SAMPLE_SETS, "the versions file changed");
    Sample {
        main: chosen.iter().map(|(set, _)| main[set].clone()).collect(),
        versions: chosen.into_iter().flat_map(|(_, lines)| lines).collect(),
    }
}

fn run(data_dir: &Path, inputs: &[PathBuf], mode: IngestMode) -> IngestReport {
    ingest_lexical(data_dir, inputs, mode, &[])
}

/// What verify must say of each fingerprint, computed from the records alone: the newest
/// version holding it, and whether that is the newest version of its label.
fn expected_holders(lines: &[String]) -> HashMap<Fingerprint, (String, VersionStatus)> {
    let records: Vec<LabelRecord> = lines
        .iter()
        .map(|l| LabelRecord::parse(&serde_json::from_str(l).unwrap()).unwrap())
        .collect();
    let rank = |r: &LabelRecord| VersionRank::new(&r.meta.version, &r.meta.effective_time);
    let mut newest_of_set: HashMap<String, VersionRank> = HashMap::new();
    for record in &records {
        let entry = newest_of_set
            .entry(record.meta.set_id.clone())
            .or_insert(rank(record));
        *entry = entry.clone().max(rank(record));
    }
    let mut holders: HashMap<Fingerprint, (VersionRank, String, String)> = HashMap::new();
    for record in &records {
        for segment in segment_label(record) {
            let candidate = (
                rank(record),
                record.meta.version.clone(),
                record.meta.set_id.clone(),
            );
            let held = holders
                .entry(segment.fingerprint)
                .or_insert(candidate.clone());
            if candidate.0 > held.0 {
                *held = candidate;
            }
        }
    }
    holders
        .into_iter()
        .map(|(fp, (rank, version, set))| {
            let status = if newest_of_set[&set] == rank {
                VersionStatus::Current
            } else {
                VersionStatus::Superseded
            };
            (fp, (version, status))
        })
        .collect()
}

#[test]
fn every_fingerprint_of_every_version_verifies_and_superseded_ones_say_so() {
    let dir = scratch_dir();
    let sample = sample();
    let data_dir = dir.path().join("data");
    let main = write_jsonl(dir.path(), "main.jsonl", &sample.main);
    let versions = write_jsonl(dir.path(), "versions.jsonl", &sample.versions);
    run(&data_dir, &[main], IngestMode::Full);
    let update = run(&data_dir, &[versions], IngestMode::Update);
    assert!(update.labels_indexed > 0);
    let engine = Engine::open(DataDir::new(&data_dir), None).unwrap();
    let mut all_lines = sample.main.clone();
    all_lines.extend(sample.versions.iter().cloned());
    let expected = expected_holders(&all_lines);
    let superseded = expected
        .values()
        .filter(|(_, s)| *s == VersionStatus::Superseded)
        .count();
    assert!(
        superseded > 50,
        "the sample has superseded text ({superseded})"
    );
    for (fingerprint, (version, status)) in &expected {
        let Verification::Verified(segment) = engine.verifier.verify(*fingerprint).unwrap() else {
            panic!("{} does not verify", fingerprint.to_hex());
        };
        assert_eq!(&segment.label.version, version, "{}", fingerprint.to_hex());
        assert_eq!(segment.standing.status, *status, "{}", fingerprint.to_hex());
        if *status == VersionStatus::Superseded {
            assert_ne!(segment.standing.newest.version, *version);
        }
    }
    let snapshot = Snapshot::open_current(&DataDir::new(&data_dir)).unwrap();
    let catalog = snapshot.catalog().unwrap();
    for (fingerprint, (_, status)) in &expected {
        let current = catalog.get(*fingerprint).unwrap().current;
        assert_eq!(current, *status == VersionStatus::Current);
    }
}

#[tokio::test]
async fn search_never_returns_a_superseded_segment_and_labels_lists_the_versions() {
    let dir = scratch_dir();
    let sample = sample();
    let data_dir = dir.path().join("data");
    let versions = write_jsonl(dir.path(), "versions.jsonl", &sample.versions);
    run(&data_dir, &[versions], IngestMode::Full);
    let snapshot = Snapshot::open_current(&DataDir::new(&data_dir)).unwrap();
    let catalog = snapshot.catalog().unwrap();
    let superseded: Vec<Fingerprint> = catalog
        .iter()
        .filter(|(_, info)| !info.current)
        .map(|(fp, _)| fp)
        .take(25)
        .collect();
    assert_eq!(superseded.len(), 25);
    let app = spawn_app_with(&data_dir, GENEROUS).await;
    for fingerprint in superseded {
        let text = snapshot
            .segment(catalog.get(fingerprint).unwrap().address)
            .unwrap()
            .text;
        let question: String = text.chars().take(300).collect();
        let reply = app.search(&question, 10).await;
        for result in results(&reply) {
            let fp = Fingerprint::parse(result["fingerprint"].as_str().unwrap()).unwrap();
            assert!(
                catalog.get(fp).unwrap().current,
                "search returned superseded {}",
                fp.to_hex()
            );
        }
        let verified = app.verify(&fingerprint.to_string(), Some(&app.key)).await;
        assert_eq!(verified.body["data"]["verified"], true);
        assert_eq!(verified.body["data"]["label"]["status"], "superseded");
    }
    let set = snapshot.history().sets().next().unwrap();
    let reply = app
        .get(&format!("/v1/labels/{}", set.set_id.to_uppercase()))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let data = &reply.body["data"];
    assert_eq!(data["set_id"], set.set_id.as_str());
    assert_eq!(data["status"], "current");
    let listed: Vec<&str> = data["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_str().unwrap())
        .collect();
    let mut expected: Vec<&str> = set.versions.iter().map(|v| v.version.as_str()).collect();
    expected.reverse();
    assert_eq!(listed, expected, "newest first");
    let oldest = data["versions"].as_array().unwrap().last().unwrap();
    assert_eq!(oldest["changes"]["previous_version"], Value::Null);
    assert_eq!(oldest["changes"]["segments_removed"], 0);
    assert!(oldest["changes"]["segments_added"].as_u64().unwrap() > 0);
    let newest = &data["versions"][0];
    assert_eq!(newest["status"], "current");
    assert_eq!(newest["changes"]["previous_version"], listed[1]);
    let unknown = app
        .get("/v1/labels/00000000-0000-0000-0000-000000000000")
        .await;
    crate::helpers::assert_error(&unknown, 404);
    let malformed = app.get("/v1/labels/not-a-set-id").await;
    crate::helpers::assert_error(&malformed, 400);
}

#[test]
fn a_full_snapshot_withdraws_labels_it_lacks_and_keeps_them_verifiable() {
    let dir = scratch_dir();
    let sample = sample();
    let data_dir = dir.path().join("data");
    let both = write_jsonl(dir.path(), "both.jsonl", &sample.main[..2]);
    let one = write_jsonl(dir.path(), "one.jsonl", &sample.main[..1]);
    run(&data_dir, &[both], IngestMode::Full);
    let gone_set = set_id_of(&sample.main[1]);
    let gone: BTreeSet<Fingerprint> = expected_holders(&sample.main[1..2]).into_keys().collect();
    let report = run(&data_dir, &[one], IngestMode::Full);
    assert_eq!(report.history.sets_withdrawn, 1);
    assert_eq!(report.history.label_sets, 2);
    let engine = Engine::open(DataDir::new(&data_dir), None).unwrap();
    for fingerprint in &gone {
        let Verification::Verified(segment) = engine.verifier.verify(*fingerprint).unwrap() else {
            panic!("a withdrawn label's segment must still verify");
        };
        assert_eq!(segment.standing.status, VersionStatus::Withdrawn);
        assert_eq!(segment.label.set_id, gone_set);
    }
    let snapshot = Snapshot::open_current(&DataDir::new(&data_dir)).unwrap();
    let catalog = snapshot.catalog().unwrap();
    assert!(gone.iter().all(|fp| !catalog.get(*fp).unwrap().current));
    assert!(snapshot.current_labels().all(|(_, l)| l.set_id != gone_set));
}

#[test]
fn the_same_update_twice_changes_nothing() {
    let dir = scratch_dir();
    let sample = sample();
    let data_dir = dir.path().join("data");
    let main = write_jsonl(dir.path(), "main.jsonl", &sample.main);
    let versions = write_jsonl(dir.path(), "versions.jsonl", &sample.versions);
    run(&data_dir, &[main], IngestMode::Full);
    let first = run(
        &data_dir,
        std::slice::from_ref(&versions),
        IngestMode::Update,
    );
    let history = |data_dir: &Path| {
        let snapshot = Snapshot::open_current(&DataDir::new(data_dir)).unwrap();
        let fingerprints: BTreeSet<Fingerprint> = snapshot.history_fingerprints().collect();
        (
            snapshot.history().clone(),
            fingerprints,
            snapshot.segment_count(),
        )
    };
    let after_first = history(&data_dir);
    let second = run(&data_dir, &[versions], IngestMode::Update);
    assert_eq!(second.labels_indexed, 0);
    assert_eq!(
        second.labels_skipped["version_already_indexed"],
        first.labels_indexed
            + first
                .labels_skipped
                .get("version_already_indexed")
                .unwrap_or(&0)
    );
    assert_eq!(second.generation, first.generation, "nothing published");
    assert_eq!(history(&data_dir), after_first);
    assert_eq!(
        after_first.2 as usize,
        after_first.1.len(),
        "one doc per fingerprint"
    );
}
