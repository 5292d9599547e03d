//! GET /v1/verify/{fingerprint}: every outcome row of §4.2, the coverage promise of DESIGN,
//! and that altered stored text is never vouched for (plus the tampering helpers other
//! test modules share).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use drugcite_core::domain::Fingerprint;
use drugcite_engine::engine::Engine;
use drugcite_engine::verify::Verification;
use drugcite_store::{DataDir, Snapshot};

use crate::helpers::{
    assert_error, embedder, results, scratch_dir, spawn_app, spawn_app_with, subset_index, GENEROUS,
};

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
    let escaped = format!("%3{}{}", &fingerprint[..1], &fingerprint[1..]);
    let decoded = app.verify(&escaped, None).await;
    assert_eq!(
        decoded.body, verified.body,
        "a percent-encoded digit is that digit"
    );
    let url = format!("{}/v1/verify/{fingerprint}", app.base);
    let (got, head) = (app.client.get(&url), app.client.head(&url));
    let (got, head) = (got.send().await.unwrap(), head.send().await.unwrap());
    assert_eq!(head.status(), 200, "HEAD goes through axum's routing");
    for name in ["content-type", "content-length"] {
        assert_eq!(head.headers().get(name), got.headers().get(name), "{name}");
    }
    assert!(head.bytes().await.unwrap().is_empty());
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

/// A private copy of the subset's data directory, for tests that alter it.
pub fn copy_of_subset(into: &Path) -> PathBuf {
    let to = into.join("data");
    copy_dir(&subset_index().data_dir, &to);
    to
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().map(Result::unwrap) {
        // The accounts database is live (other tests write to it): copies start without it.
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with("accounts.sqlite")
        {
            continue;
        }
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

pub fn live_generation(data_dir: &Path) -> PathBuf {
    DataDir::new(data_dir).current_generation().unwrap()
}

/// The tantivy document store of a generation (one merged segment).
pub fn store_file(generation: &Path) -> PathBuf {
    let mut stores: Vec<PathBuf> = std::fs::read_dir(generation.join("tantivy"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "store"))
        .collect();
    assert_eq!(stores.len(), 1, "{stores:?}");
    stores.remove(0)
}

/// Flips the case of one letter of the first of `texts` that the compressed store holds
/// verbatim somewhere (an LZ4 literal); returns the name of the file changed.
pub fn alter_stored_text<'t>(
    generation: &Path,
    texts: impl IntoIterator<Item = &'t str>,
) -> String {
    let path = store_file(generation);
    let bytes = std::fs::read(&path).unwrap();
    let at = texts
        .into_iter()
        .flat_map(|text| text.as_bytes().windows(24))
        .filter(|w| w[0].is_ascii_alphabetic())
        .find_map(|w| memchr::memmem::find(&bytes, w))
        .expect("some of the text stored verbatim");
    // In place, as a disk or an editor would: a server has the file mapped.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    std::os::unix::fs::FileExt::write_all_at(&file, &[bytes[at] ^ 0x20], at as u64).unwrap();
    format!("tantivy/{}", path.file_name().unwrap().to_string_lossy())
}

/// Gives the first label of labels.jsonl another set id; returns that label's id.
pub fn alter_a_set_id(generation: &Path) -> String {
    let path = generation.join("labels.jsonl");
    let body = std::fs::read_to_string(&path).unwrap();
    let first: serde_json::Value = serde_json::from_str(body.lines().next().unwrap()).unwrap();
    let set_id = format!("\"set_id\":{}", first["set_id"]);
    assert!(body.lines().next().unwrap().contains(&set_id), "{set_id}");
    let forged = "\"set_id\":\"00000000-0000-0000-0000-000000000000\"";
    std::fs::write(&path, body.replacen(&set_id, forged, 1)).unwrap();
    first["label_id"].as_str().unwrap().to_owned()
}

/// Records the altered file's new block hashes in the manifest, as a forger would.
pub fn forge_checksum(generation: &Path, file: &str) {
    use sha2::{Digest, Sha256};
    let manifest_path = generation.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    let bytes = std::fs::read(generation.join(file)).unwrap();
    let block_bytes = manifest["checksums"]["block_bytes"].as_u64().unwrap() as usize;
    let blocks: String = bytes
        .chunks(block_bytes)
        .flat_map(Sha256::digest)
        .map(|b| format!("{b:02x}"))
        .collect();
    manifest["checksums"]["files"][file] =
        serde_json::json!({"bytes": bytes.len(), "blocks": blocks});
    std::fs::write(&manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();
}

/// Every live segment's fingerprint and (label id, text), read before anything is altered.
pub fn originals(data_dir: &Path) -> BTreeMap<String, (String, String)> {
    let snapshot = Snapshot::open_current(&DataDir::new(data_dir)).unwrap();
    let fingerprints = snapshot.fingerprints().unwrap();
    fingerprints
        .into_iter()
        .map(|(fp, address)| {
            let segment = snapshot.segment(address).unwrap();
            (
                fp.to_string(),
                (segment.label.label_id.clone(), segment.text),
            )
        })
        .collect()
}

/// Verifies every fingerprint: each answer is the 500 envelope (without details) or the
/// original text; returns how many were refused.
async fn refused_or_original(
    app: &crate::helpers::TestApp,
    originals: &BTreeMap<String, (String, String)>,
) -> usize {
    let mut refused = 0;
    for (fingerprint, (_, text)) in originals {
        let reply = app.verify(fingerprint, None).await;
        if reply.status == 500 {
            assert_error(&reply, 500);
            assert!(reply.body.get("detail").is_none(), "{}", reply.body);
            refused += 1;
        } else {
            assert_eq!(reply.body["data"]["verified"], true, "{fingerprint}");
            assert_eq!(reply.body["data"]["text"], text.as_str(), "{fingerprint}");
        }
    }
    refused
}

#[tokio::test]
async fn text_altered_on_disk_under_a_running_server_is_never_verified() {
    let dir = scratch_dir();
    let data_dir = copy_of_subset(dir.path());
    let originals = originals(&data_dir);
    let app = spawn_app_with(&data_dir, GENEROUS).await;
    // From the middle on: the first text the compressed store holds verbatim somewhere.
    let texts = originals.values().map(|(_, text)| text.as_str());
    alter_stored_text(
        &live_generation(&data_dir),
        texts.clone().skip(originals.len() / 2).chain(texts),
    );
    let refused = refused_or_original(&app, &originals).await;
    assert!(refused >= 1, "the altered text is refused");
    let error = match Engine::open(DataDir::new(&data_dir), Some(embedder())) {
        Err(refused_at_open) => refused_at_open.to_string(),
        Ok(engine) => originals
            .keys()
            .find_map(|fp| {
                engine
                    .verifier
                    .verify(Fingerprint::parse(fp).unwrap())
                    .err()
            })
            .expect("a new server never verifies from the altered block")
            .to_string(),
    };
    assert!(
        error.contains(".store") && error.contains("block"),
        "{error}"
    );
}

#[tokio::test]
async fn a_changed_set_id_is_refused_at_open_and_never_verified_if_the_manifest_is_forged() {
    let dir = scratch_dir();
    let data_dir = copy_of_subset(dir.path());
    let originals = originals(&data_dir);
    let generation = live_generation(&data_dir);
    let label_id = alter_a_set_id(&generation);
    let error = Engine::open(DataDir::new(&data_dir), Some(embedder()))
        .err()
        .expect("the altered generation is refused")
        .to_string();
    assert!(error.contains("labels.jsonl"), "{error}");
    forge_checksum(&generation, "labels.jsonl");
    let app = spawn_app_with(&data_dir, GENEROUS).await;
    let of_label = originals.values().filter(|(l, _)| *l == label_id).count();
    assert!(of_label > 0);
    assert_eq!(refused_or_original(&app, &originals).await, of_label);
}

#[test]
fn a_server_keeps_its_generation_when_the_new_one_is_bad() {
    let dir = scratch_dir();
    let data_dir = copy_of_subset(dir.path());
    let fingerprint = originals(&data_dir).into_keys().next().unwrap();
    let fingerprint = Fingerprint::parse(&fingerprint).unwrap();
    let engine = Engine::open(DataDir::new(&data_dir), None).unwrap();
    let serving = engine.index.generation();
    let bad_name = "g999999999999999-0badbad0";
    let bad = data_dir.join("indexes").join(bad_name);
    copy_dir(&serving, &bad);
    alter_a_set_id(&bad);
    std::fs::write(data_dir.join("CURRENT"), bad_name).unwrap();
    let error = engine.index.reload_if_changed().unwrap_err().to_string();
    assert!(error.contains("labels.jsonl"), "{error}");
    assert_eq!(engine.index.generation(), serving);
    assert!(matches!(
        engine.verifier.verify(fingerprint).unwrap(),
        Verification::Verified(_)
    ));
}

#[test]
fn a_document_store_that_cannot_be_decoded_is_an_error_never_a_panic() {
    let dir = scratch_dir();
    let data_dir = copy_of_subset(dir.path());
    let originals = originals(&data_dir);
    let snapshot = Snapshot::open_current(&DataDir::new(&data_dir)).unwrap();
    let store = store_file(&live_generation(&data_dir));
    let length = std::fs::metadata(&store).unwrap().len();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&store)
        .unwrap();
    let garbage: Vec<u8> = (0..length / 2).map(|i| (i * 131 % 251) as u8).collect();
    std::os::unix::fs::FileExt::write_all_at(&file, &garbage, length / 8).unwrap();
    let (mut failed, mut intact) = (0, 0);
    for (fingerprint, address) in snapshot.fingerprints().unwrap() {
        match snapshot.segment(address) {
            Ok(segment) => {
                assert_eq!(segment.text, originals[&fingerprint.to_string()].1);
                intact += 1;
            }
            Err(_) => failed += 1,
        }
    }
    assert!(failed > 0 && intact > 0, "{failed} failed, {intact} intact");
}
