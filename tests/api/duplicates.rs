//! Identical text under different set ids (repackagers, biosimilars): embedded and analysed once,
//! each label's copy with its own fingerprint that verifies, search and /v1/graph answering each
//! text once with the other labels in `also_in`. Over real labels: the three donepezil labels of
//! the versions file (Eisai and two repackagers, word for word alike) and five pegfilgrastim
//! biosimilars of the main corpus (different generic names sharing paragraphs).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::OnceLock;

use drugcite_core::domain::TextHash;
use drugcite_engine::ingest::IngestReport;
use drugcite_store::{DataDir, Snapshot};
use serde_json::{json, Value};

use crate::helpers::{
    ingest_embedded, results, scratch_dir, shared_data, spawn_app_with, write_jsonl, TestApp,
    GENEROUS,
};

/// The donepezil labels of the versions file: Eisai, PD-Rx, Tjoapack (newest version of each).
const DONEPEZIL: [&str; 3] = [
    "98e451e1-e4d7-4439-a675-c5457ba20975",
    "46b3a402-b20d-4860-8f09-83ae900f55a6",
    "0517bd9a-a73f-70e1-e063-6394a90a2f5f",
];
/// Pegfilgrastim biosimilars of the main corpus (Ziextenzo, Nyvepria, Fulphila, Armlupeg, Udenyca).
const PEGFILGRASTIM: &str = "pegfilgrastim";

struct DuplicateIndex {
    data_dir: PathBuf,
    report: IngestReport,
    _dir: tempfile::TempDir,
}

/// The newest record of each set id in `file` that `wanted` accepts, verbatim.
fn newest_records(file: PathBuf, wanted: impl Fn(&Value) -> bool) -> Vec<String> {
    let reader = flate2::read::MultiGzDecoder::new(std::fs::File::open(file).unwrap());
    let mut newest: HashMap<String, (u64, String)> = HashMap::new();
    for line in std::io::BufReader::new(reader).lines() {
        let line = line.unwrap();
        let record: Value = serde_json::from_str(&line).unwrap();
        if !wanted(&record) {
            continue;
        }
        let set_id = record["set_id"].as_str().unwrap().to_owned();
        let version = record["version"]
            .as_str()
            .unwrap_or("0")
            .parse()
            .unwrap_or(0);
        if newest.get(&set_id).is_none_or(|(v, _)| *v < version) {
            newest.insert(set_id, (version, line));
        }
    }
    let mut lines: Vec<(String, String)> = newest
        .into_iter()
        .map(|(id, (_, line))| (id, line))
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, line)| line).collect()
}

fn is_pegfilgrastim(record: &Value) -> bool {
    record["openfda"]["generic_name"][0]
        .as_str()
        .is_some_and(|g| g.to_lowercase().starts_with(PEGFILGRASTIM))
}

pub(crate) fn duplicate_inputs(dir: &std::path::Path) -> Vec<PathBuf> {
    let labels = shared_data().join("labels");
    let donepezil = newest_records(labels.join("openfda-label-versions.jsonl.gz"), |r| {
        DONEPEZIL.contains(&r["set_id"].as_str().unwrap_or_default())
    });
    assert_eq!(donepezil.len(), 3, "the three donepezil labels");
    let pegfilgrastim = newest_records(labels.join("openfda-labels.jsonl.gz"), is_pegfilgrastim);
    assert!(pegfilgrastim.len() >= 4, "the pegfilgrastim biosimilars");
    vec![
        write_jsonl(dir, "donepezil.jsonl", &donepezil),
        write_jsonl(dir, "pegfilgrastim.jsonl", &pegfilgrastim),
    ]
}

fn duplicate_index() -> &'static DuplicateIndex {
    static INDEX: OnceLock<DuplicateIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let dir = scratch_dir();
        let inputs = duplicate_inputs(dir.path());
        let data_dir = dir.path().join("data");
        let report = ingest_embedded(&data_dir, &inputs);
        DuplicateIndex {
            data_dir,
            report,
            _dir: dir,
        }
    })
}

async fn app() -> TestApp {
    spawn_app_with(&duplicate_index().data_dir, GENEROUS).await
}

fn set_id_of(result: &Value) -> String {
    let url = result["source"]["url"].as_str().unwrap();
    url.rsplit("setid=").next().unwrap().to_owned()
}

async fn search_with(app: &TestApp, body: Value) -> Vec<Value> {
    results(&app.search_raw(Some(&app.key), body.to_string()).await).clone()
}

/// Every copy named in `also_in` verifies to the result's own text under its own set id.
async fn assert_copies_verify(app: &TestApp, result: &Value) {
    let copies = result["also_in"]["labels"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for copy in &copies {
        let fingerprint = copy["fingerprint"].as_str().unwrap();
        assert_ne!(fingerprint, result["fingerprint"].as_str().unwrap());
        let reply = app.verify(fingerprint, None).await;
        let data = &reply.body["data"];
        assert_eq!(data["verified"], true, "{fingerprint}: {}", reply.body);
        assert_eq!(data["text"], result["text"]);
        assert_eq!(set_id_of(data), copy["set_id"].as_str().unwrap());
    }
}

#[test]
fn identical_text_under_different_set_ids_gets_one_vector_and_each_label_its_fingerprint() {
    let index = duplicate_index();
    let texts = &index.report.texts;
    assert_eq!(texts.segments, index.report.segments);
    assert_eq!(
        index.report.embeddings_computed + index.report.embeddings_reused,
        texts.distinct_texts,
        "one embedding per distinct text"
    );
    assert_eq!(
        texts.embedding_copies + texts.distinct_texts,
        texts.segments
    );
    let snapshot = Snapshot::open_current(&DataDir::new(&index.data_dir)).unwrap();
    let stored = snapshot.vectors().unwrap().expect("vectors");
    let mut texts_of_rows = Vec::new();
    stored
        .stream(0..stored.rows(), |_, text, _| texts_of_rows.push(text))
        .unwrap();
    let rows: HashSet<TextHash> = texts_of_rows.iter().copied().collect();
    assert_eq!(rows.len(), texts_of_rows.len(), "one row per text");
    assert_eq!(
        rows.len() as u64,
        texts.distinct_texts + index.report.openings_computed,
        "and one per distinct Indications text's opening"
    );
    let mut by_text: HashMap<TextHash, BTreeSet<String>> = HashMap::new();
    let mut fingerprints = HashSet::new();
    snapshot
        .visit_segments(|segment| {
            assert_eq!(segment.text_hash, TextHash::of(segment.text));
            let set_id = snapshot.labels()[segment.label as usize].set_id.clone();
            by_text.entry(segment.text_hash).or_default().insert(set_id);
            fingerprints.insert(segment.fingerprint);
        })
        .unwrap();
    assert_eq!(
        fingerprints.len() as u64,
        texts.segments,
        "every copy its own fingerprint"
    );
    assert_eq!(by_text.len() as u64, texts.distinct_texts);
    assert!(texts.distinct_texts < texts.segments);
    assert!(by_text.values().any(|set_ids| set_ids.len() == 3));
}

#[tokio::test]
async fn search_returns_a_shared_text_once_with_the_other_labels_and_their_count() {
    let app = app().await;
    let found = search_with(
        &app,
        json!({"question": "donepezil contraindications hypersensitivity", "top_k": 20}),
    )
    .await;
    let texts: Vec<&str> = found.iter().map(|r| r["text"].as_str().unwrap()).collect();
    let distinct: HashSet<&&str> = texts.iter().collect();
    assert_eq!(distinct.len(), texts.len(), "each text once");
    let top = &found[0];
    assert!(top["drug"]["name"].as_str().unwrap().contains("donepezil"));
    assert_eq!(top["also_in"]["count"], 2, "{top}");
    let mut set_ids: BTreeSet<String> = top["also_in"]["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|copy| copy["set_id"].as_str().unwrap().to_owned())
        .collect();
    set_ids.insert(set_id_of(top));
    assert_eq!(set_ids, DONEPEZIL.iter().map(|s| s.to_string()).collect());
    for result in &found {
        let count = result["also_in"]["count"].as_u64().unwrap_or(0);
        let listed = result["also_in"]["labels"].as_array().map_or(0, Vec::len);
        assert_eq!(listed as u64, count.min(10));
        assert_copies_verify(&app, result).await;
    }
}

/// A real text that labels of two different drugs hold: (text, the drugs' names).
fn text_of_two_drugs() -> (String, BTreeSet<String>) {
    let snapshot = Snapshot::open_current(&DataDir::new(&duplicate_index().data_dir)).unwrap();
    let mut drugs: HashMap<String, BTreeSet<String>> = HashMap::new();
    snapshot
        .visit_segments(|segment| {
            let drug = &snapshot.labels()[segment.label as usize].drug.name;
            if segment.text.split_whitespace().count() >= 12 {
                let entry = drugs.entry(segment.text.to_owned()).or_default();
                entry.insert(drug.clone());
            }
        })
        .unwrap();
    drugs
        .into_iter()
        .filter(|(_, names)| names.len() >= 2)
        .min()
        .expect("biosimilars sharing a paragraph")
}

#[tokio::test]
async fn a_drug_filter_answers_with_the_filtered_labels_copy() {
    let app = app().await;
    let (text, drugs) = text_of_two_drugs();
    let question: String = text
        .split_whitespace()
        .take(25)
        .collect::<Vec<_>>()
        .join(" ");
    let unfiltered = search_with(&app, json!({"question": question, "top_k": 10})).await;
    let shared = unfiltered
        .iter()
        .find(|r| r["text"] == text.as_str())
        .expect("the shared text is found");
    assert_eq!(
        unfiltered
            .iter()
            .filter(|r| r["text"] == text.as_str())
            .count(),
        1
    );
    assert!(
        shared["also_in"]["count"].as_u64().unwrap() >= 1,
        "{shared}"
    );
    assert_copies_verify(&app, shared).await;
    let shown = shared["drug"]["name"].as_str().unwrap();
    let other = drugs.iter().find(|d| *d != shown).unwrap();
    let filtered = search_with(
        &app,
        json!({"question": question, "top_k": 10, "drug": other}),
    )
    .await;
    let copy = filtered
        .iter()
        .find(|r| r["text"] == text.as_str())
        .expect("the filtered label's copy of the same text");
    assert_ne!(copy["fingerprint"], shared["fingerprint"]);
    let copies = shared["also_in"]["labels"].as_array().unwrap();
    assert!(copies
        .iter()
        .any(|c| c["fingerprint"] == copy["fingerprint"]));
    for result in &filtered {
        assert!(result["drug"]["name"]
            .as_str()
            .unwrap()
            .contains(other.as_str()));
    }
}

#[tokio::test]
async fn graph_evidence_names_each_text_once_with_its_copies() {
    let app = app().await;
    let data = app
        .graph("What are the side effects of donepezil?", 1)
        .await;
    let relationships = data["relationships"].as_array().unwrap();
    assert!(!relationships.is_empty(), "{data}");
    let mut collapsed = 0;
    for relationship in relationships {
        let evidence = relationship["evidence"].as_array().unwrap();
        let texts: HashSet<&str> = evidence
            .iter()
            .map(|e| e["text"].as_str().unwrap())
            .collect();
        assert_eq!(
            texts.len(),
            evidence.len(),
            "each text once: {relationship}"
        );
        assert!(relationship["evidence_count"].as_u64().unwrap() >= evidence.len() as u64);
        for item in evidence.iter().filter(|e| e.get("also_in").is_some()) {
            assert_eq!(item["also_in"]["count"], 2, "{item}");
            assert_copies_verify(&app, item).await;
            collapsed += 1;
        }
    }
    assert!(collapsed > 0, "the donepezil copies collapse: {data}");
}

#[test]
fn the_next_ingest_reuses_every_text_analysis_and_embedding_and_builds_the_same_graph() {
    let first = duplicate_index();
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let inputs = duplicate_inputs(dir.path());
    let fresh = ingest_embedded(&data_dir, &inputs);
    let again = ingest_embedded(&data_dir, &inputs);
    assert!(fresh.texts.analyses_computed > 0);
    assert_eq!(fresh.texts.analyses_reused, 0);
    assert_eq!(again.texts.analyses_computed, 0, "{:?}", again.texts);
    assert_eq!(again.texts.analyses_reused, fresh.texts.analyses_computed);
    assert_eq!(again.embeddings_computed, 0);
    assert_eq!(again.openings_computed, 0);
    assert_eq!(again.embeddings_reused, first.report.texts.distinct_texts);
    let graph = |generation: &str| std::fs::read(PathBuf::from(generation).join("graph.bin"));
    assert_eq!(graph(&fresh.generation).ok(), graph(&again.generation).ok());
}
