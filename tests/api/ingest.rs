//! Ingest over real records: the report, exactness of stored text, idempotence, versions,
//! records without an openfda block, and that a failed ingest never touches the live index.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_engine::engine::Engine;
use drugcite_engine::ingest::{
    ingest, IngestError, IngestMode, IngestOptions, IngestReport, ProgressMode,
};
use drugcite_engine::verify::Verification;
use drugcite_store::{DataDir, Snapshot, VersionStatus};
use serde_json::Value;

use crate::helpers::{
    corpus_lines, embedder, scratch_dir, subset_index, write_jsonl, SUBSET_RECORDS,
};

type StoredSet = BTreeSet<(String, String, String, String)>;

/// (fingerprint, set id, section key, text) of every current segment.
fn stored_segments(data_dir: &Path) -> StoredSet {
    let snapshot = Snapshot::open_current(&DataDir::new(data_dir)).unwrap();
    snapshot
        .catalog()
        .unwrap()
        .iter()
        .map(|(_, info)| info)
        .filter(|info| info.current)
        .map(|info| info.address)
        .map(|address| {
            let s = snapshot.segment(address).unwrap();
            (
                s.fingerprint.to_string(),
                s.label.set_id.clone(),
                s.section_key,
                s.text,
            )
        })
        .collect()
}

/// A lexical-only ingest: these tests are about ingest mechanics, not embeddings.
fn run(data_dir: &Path, inputs: &[PathBuf]) -> Result<IngestReport, IngestError> {
    let options = IngestOptions {
        progress: ProgressMode::Silent,
        mode: IngestMode::Full,
        embedder: None,
        vocabulary: &[],
    };
    ingest(&DataDir::new(data_dir), inputs, &options)
}

fn record_lines(n: usize) -> Vec<Value> {
    corpus_lines(n)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn subset_report_counts_every_record() {
    let report = &subset_index().report;
    assert_eq!(report.labels_read, SUBSET_RECORDS as u64 + 3);
    assert_eq!(report.labels_indexed, SUBSET_RECORDS as u64 + 3);
    assert!(report.labels_skipped.is_empty());
    assert!(report.segments > 1_000, "{}", report.segments);
    assert!(report.html_tables_not_indexed > 0);
}

#[test]
fn every_stored_segment_is_an_exact_substring_and_its_fingerprint_recomputes() {
    let index = subset_index();
    let mut records: HashMap<String, Value> = HashMap::new();
    for line in corpus_lines(SUBSET_RECORDS) {
        let record: Value = serde_json::from_str(&line).unwrap();
        records.insert(record["set_id"].as_str().unwrap().to_owned(), record);
    }
    for name in ["sertraline.json", "clopidogrel.json", "metformin.json"] {
        let path = crate::helpers::api_responses_dir().join(name);
        let envelope: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let record = envelope["results"][0].clone();
        records.insert(record["set_id"].as_str().unwrap().to_owned(), record);
    }
    let stored = stored_segments(&index.data_dir);
    assert_eq!(stored.len() as u64, index.report.segments);
    for (fingerprint, set_id, section, text) in &stored {
        let strings = records[set_id][section]
            .as_array()
            .expect("section exists in the record");
        assert!(
            strings
                .iter()
                .any(|s| s.as_str().unwrap().contains(text.as_str())),
            "not a substring of {set_id}/{section}: {text:.80}"
        );
        assert_eq!(
            Fingerprint::of_segment(set_id, section, text).to_string(),
            *fingerprint
        );
        assert!(
            !section.ends_with("_table") && !text.contains("<td"),
            "no raw HTML"
        );
    }
}

#[test]
fn a_real_segment_has_its_golden_fingerprint() {
    let stored = stored_segments(&subset_index().data_dir);
    let golden = stored
        .iter()
        .find(|(_, set_id, section, text)| {
            set_id == "f6346a11-88b9-4425-b08d-a22f19c4ceb4"
                && section == "contraindications"
                && text.starts_with("4 CONTRAINDICATIONS")
        })
        .expect("sertraline contraindications segment");
    assert_eq!(golden.0, GOLDEN_SERTRALINE_CONTRAINDICATIONS);
}

/// Computed independently with the README's Python snippet over the segment's exact text.
const GOLDEN_SERTRALINE_CONTRAINDICATIONS: &str = "00010011110011101010111101101010101100101111101010000001001100011111101010101110111110010111100011010011100011111001000001100000";

#[test]
fn ingesting_the_same_input_twice_gives_the_same_index() {
    let dir = scratch_dir();
    let inputs = &subset_index().inputs;
    run(&dir.path().join("a"), inputs).unwrap();
    run(&dir.path().join("b"), inputs).unwrap();
    let first = stored_segments(&dir.path().join("a"));
    assert_eq!(first, stored_segments(&dir.path().join("b")));
    run(&dir.path().join("a"), inputs).unwrap();
    assert_eq!(
        first,
        stored_segments(&dir.path().join("a")),
        "re-ingest into the same dir"
    );
}

#[test]
fn a_failed_ingest_leaves_the_live_index_servable_and_unchanged() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let good = write_jsonl(dir.path(), "good.jsonl", &corpus_lines(2));
    run(&data_dir, std::slice::from_ref(&good)).unwrap();
    let before = stored_segments(&data_dir);
    let corrupt_zip = dir.path().join("drug-label-0001-of-0002.json.zip");
    std::fs::write(&corrupt_zip, b"PK\x03\x04 this is not a zip").unwrap();
    assert!(run(&data_dir, &[good, corrupt_zip]).is_err());
    let only_bad = write_jsonl(dir.path(), "bad.jsonl", &["{".into(), "[]".into()]);
    assert!(matches!(
        run(&data_dir, &[only_bad]),
        Err(IngestError::NothingIndexed)
    ));
    assert_eq!(stored_segments(&data_dir), before);
    let leftovers = std::fs::read_dir(data_dir.join("indexes")).unwrap().count();
    assert_eq!(leftovers, 1, "failed builds are not published");
}

#[test]
fn unusable_records_are_counted_with_position_and_reason() {
    let dir = scratch_dir();
    let mut lines = corpus_lines(1);
    let mut nameless: Value = serde_json::from_str(&lines[0]).unwrap();
    nameless["set_id"] = "nameless-set".into();
    nameless["openfda"] = serde_json::json!({});
    nameless["spl_product_data_elements"] = serde_json::json!(["Nothing Repeats Here"]);
    lines.extend([
        "not json".to_owned(),
        nameless.to_string(),
        "[1,2]".to_owned(),
        r#"{"id":"no-set-id","warnings":["text"]}"#.to_owned(),
    ]);
    let input = write_jsonl(dir.path(), "mixed.jsonl", &lines);
    let report = run(&dir.path().join("data"), &[input]).unwrap();
    assert_eq!(report.labels_read, 5);
    assert_eq!(report.labels_indexed, 1);
    let reasons: Vec<(&str, u64)> = report
        .labels_skipped
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        reasons,
        [
            ("malformed_json", 1),
            ("missing_set_id", 1),
            ("no_drug_name", 1),
            ("not_an_object", 1)
        ]
    );
    let positions: Vec<&str> = report
        .skipped
        .iter()
        .map(|s| s.position.rsplit(':').next().unwrap())
        .collect();
    assert_eq!(positions, ["2", "3", "4", "5"]);
}

#[test]
fn a_record_with_an_empty_openfda_block_is_indexed_under_a_derived_name() {
    let dir = scratch_dir();
    let mut record = record_lines(1).remove(0);
    record["openfda"] = serde_json::json!({});
    let input = write_jsonl(dir.path(), "bare.jsonl", &[record.to_string()]);
    let report = run(&dir.path().join("data"), &[input]).unwrap();
    assert_eq!(report.labels_indexed, 1);
    assert_eq!(report.names_from_product_data, 1);
    let snapshot = Snapshot::open_current(&DataDir::new(dir.path().join("data"))).unwrap();
    let (_, address) = snapshot.fingerprints().unwrap()[0];
    let segment = snapshot.segment(address).unwrap();
    assert!(
        segment.label.drug.name.contains("eculizumab"),
        "{}",
        segment.label.drug.name
    );
    assert!(segment.label.drug.ndc.is_empty());
}

#[test]
fn a_new_label_version_keeps_fingerprints_of_unchanged_text() {
    let dir = scratch_dir();
    let old = record_lines(1).remove(0);
    let mut new = old.clone();
    new["version"] = "9".into();
    new["id"] = "new-version-id".into();
    new["boxed_warning"] = serde_json::json!(["WARNING: REWRITTEN for the new version."]);
    let old_file = write_jsonl(dir.path(), "old.jsonl", &[old.to_string()]);
    let new_file = write_jsonl(dir.path(), "new.jsonl", &[new.to_string()]);
    run(&dir.path().join("old"), std::slice::from_ref(&old_file)).unwrap();
    run(&dir.path().join("new"), std::slice::from_ref(&new_file)).unwrap();
    let by_section = |set: &StoredSet, boxed: bool| -> BTreeSet<String> {
        set.iter()
            .filter(|s| (s.2 == "boxed_warning") == boxed)
            .map(|s| s.0.clone())
            .collect()
    };
    let (old_set, new_set) = (
        stored_segments(&dir.path().join("old")),
        stored_segments(&dir.path().join("new")),
    );
    assert_eq!(by_section(&old_set, false), by_section(&new_set, false));
    assert!(by_section(&old_set, true).is_disjoint(&by_section(&new_set, true)));

    let both = run(
        &dir.path().join("both"),
        &[old_file.clone(), new_file.clone()],
    )
    .unwrap();
    assert_eq!(both.labels_indexed, 2, "both versions are kept");
    assert_eq!(both.history.label_versions, 2);
    assert_eq!(
        stored_segments(&dir.path().join("both")),
        new_set,
        "the newer version is current"
    );
    let reversed = run(&dir.path().join("reversed"), &[new_file, old_file.clone()]).unwrap();
    assert_eq!(reversed.labels_indexed, 2);
    assert_eq!(stored_segments(&dir.path().join("reversed")), new_set);
    let twice = run(&dir.path().join("twice"), &[old_file.clone(), old_file]).unwrap();
    assert_eq!(twice.labels_skipped["version_already_indexed"], 1);
    assert_eq!(stored_segments(&dir.path().join("twice")), old_set);
}

#[test]
fn a_running_engine_picks_up_a_newly_published_generation() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    run(
        &data_dir,
        &[write_jsonl(dir.path(), "one.jsonl", &corpus_lines(1))],
    )
    .unwrap();
    let engine = Engine::open(DataDir::new(&data_dir), None).unwrap();
    let before = engine.index.segment_count();
    assert!(!engine.index.reload_if_changed().unwrap());
    run(
        &data_dir,
        &[write_jsonl(dir.path(), "three.jsonl", &corpus_lines(3))],
    )
    .unwrap();
    assert!(engine.index.reload_if_changed().unwrap());
    assert!(engine.index.segment_count() > before);
}

#[test]
fn a_verify_answer_of_a_replaced_generation_is_never_served() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let lines = corpus_lines(2);
    run(
        &data_dir,
        &[write_jsonl(dir.path(), "a.jsonl", &lines[..1])],
    )
    .unwrap();
    let engine = Engine::open(DataDir::new(&data_dir), None).unwrap();
    let cited = engine
        .index
        .current()
        .catalog
        .iter()
        .map(|(fp, _)| fp)
        .min()
        .unwrap();
    let verified = engine.verifier.verify(cited).unwrap();
    assert!(matches!(verified, Verification::Verified(_)));
    run(
        &data_dir,
        &[write_jsonl(dir.path(), "b.jsonl", &lines[1..])],
    )
    .unwrap();
    assert!(engine.index.reload_if_changed().unwrap());
    let Verification::Verified(segment) = engine.verifier.verify(cited).unwrap() else {
        panic!("a withdrawn label's segment still verifies");
    };
    assert_eq!(
        segment.standing.status,
        VersionStatus::Withdrawn,
        "the answer comes from the new generation (withdrawn there), not the cache (current)"
    );
}

#[test]
fn the_subset_index_has_an_embedding_for_every_distinct_text() {
    let index = subset_index();
    let texts = &index.report.texts;
    assert_eq!(
        index.report.embeddings_computed + index.report.embeddings_reused,
        texts.distinct_texts
    );
    assert_eq!(
        texts.distinct_texts + texts.embedding_copies,
        index.report.segments
    );
    let engine = Engine::open(DataDir::new(&index.data_dir), Some(embedder())).unwrap();
    assert!(engine.searcher.is_semantic());
}

#[test]
fn re_ingesting_unchanged_text_reuses_its_embeddings() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let input = write_jsonl(dir.path(), "two.jsonl", &corpus_lines(2));
    let embedder = embedder();
    let options = IngestOptions {
        progress: ProgressMode::Silent,
        mode: IngestMode::Full,
        embedder: Some(&embedder),
        vocabulary: &[],
    };
    let first = ingest(
        &DataDir::new(&data_dir),
        std::slice::from_ref(&input),
        &options,
    )
    .unwrap();
    assert_eq!(
        (first.embeddings_computed, first.embeddings_reused),
        (first.texts.distinct_texts, 0)
    );
    let vectors_of = |dir: &Path| -> BTreeSet<(TextHash, Vec<u32>)> {
        let stored = Snapshot::open_current(&DataDir::new(dir))
            .unwrap()
            .vectors()
            .unwrap()
            .unwrap();
        let mut rows = BTreeSet::new();
        stored
            .stream(0..stored.rows(), |_, text, row| {
                rows.insert((text, row.iter().map(|v| v.to_bits()).collect()));
            })
            .unwrap();
        rows
    };
    let before = vectors_of(&data_dir);
    let second = ingest(&DataDir::new(&data_dir), &[input], &options).unwrap();
    assert_eq!(
        (second.embeddings_computed, second.embeddings_reused),
        (0, second.texts.distinct_texts)
    );
    assert!(
        first.openings_computed > 0 && first.openings_seconds > 0.0,
        "a label's Indications get openings, timed apart from the passages"
    );
    assert_eq!(
        (second.openings_computed, second.openings_reused),
        (0, first.openings_computed)
    );
    assert_eq!(
        before.len() as u64,
        first.texts.distinct_texts + first.openings_computed
    );
    assert_eq!(
        before,
        vectors_of(&data_dir),
        "reused vectors are the same numbers"
    );
}

#[test]
fn a_publish_that_fails_after_the_rename_never_removes_the_live_generation() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let input = write_jsonl(dir.path(), "two.jsonl", &corpus_lines(2));
    run(&data_dir, std::slice::from_ref(&input)).unwrap();
    let live = DataDir::new(&data_dir).current_generation().unwrap();
    std::fs::create_dir(data_dir.join("CURRENT.new")).unwrap();
    assert!(run(&data_dir, std::slice::from_ref(&input)).is_err());
    assert_eq!(DataDir::new(&data_dir).current_generation().unwrap(), live);
    assert!(Engine::open(DataDir::new(&data_dir), None).is_ok());
    std::fs::remove_dir(data_dir.join("CURRENT.new")).unwrap();
    run(&data_dir, std::slice::from_ref(&input)).unwrap();
    assert!(
        live.exists(),
        "the generation live before is kept as the previous one"
    );
    let generations = std::fs::read_dir(data_dir.join("indexes")).unwrap().count();
    assert_eq!(generations, 2, "the orphan of the failed publish is pruned");
}

#[test]
fn a_generation_a_server_has_open_survives_pruning_until_it_lets_go() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let input = write_jsonl(dir.path(), "one.jsonl", &corpus_lines(1));
    run(&data_dir, std::slice::from_ref(&input)).unwrap();
    let engine = Engine::open(DataDir::new(&data_dir), None).unwrap();
    let served = engine.index.generation();
    run(&data_dir, std::slice::from_ref(&input)).unwrap();
    run(&data_dir, std::slice::from_ref(&input)).unwrap();
    assert!(
        served.exists(),
        "leased: neither live nor previous, still there"
    );
    assert!(engine.index.reload_if_changed().unwrap());
    run(&data_dir, std::slice::from_ref(&input)).unwrap();
    assert!(
        !served.exists(),
        "released when the server moved on, then pruned"
    );
}

#[test]
fn a_current_pointing_outside_the_indexes_is_refused() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let input = write_jsonl(dir.path(), "one.jsonl", &corpus_lines(1));
    run(&data_dir, &[input]).unwrap();
    let live = DataDir::new(&data_dir).current_generation().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::rename(&live, &elsewhere).unwrap();
    for pointer in [
        "../../elsewhere".to_owned(),
        elsewhere.display().to_string(),
    ] {
        std::fs::write(data_dir.join("CURRENT"), &pointer).unwrap();
        let error = Engine::open(DataDir::new(&data_dir), None)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            error.contains("not a generation name"),
            "{pointer}: {error}"
        );
    }
}
