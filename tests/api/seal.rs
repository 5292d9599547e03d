//! The seal of a generation (block hashes in its manifest): a byte flipped in a file read whole
//! at open (graph, vectors) or in the part of tantivy's files an open reads refuses the
//! generation at open; one in a block a server had not read yet fails the request that reads
//! it, every later request and `/health` — never an answer from the altered bytes.

use std::path::{Path, PathBuf};

use drugcite_engine::engine::Engine;
use drugcite_store::DataDir;

use crate::helpers::{assert_error, embedder, scratch_dir, spawn_app_with, GENEROUS};
use crate::verify::{copy_of_subset, live_generation, originals, store_file};

/// Blocks of 4 KiB: the test index is small, so a smaller block than ingest's 1 MiB leaves
/// blocks a server has not read when it starts.
const SMALL_BLOCK: usize = 4096;

/// Seals `generation` again in blocks of `block_bytes` (what ingest writes, with another size).
fn reseal(generation: &Path, block_bytes: usize) {
    use sha2::{Digest, Sha256};
    let manifest_path = generation.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    let files: Vec<String> = manifest["checksums"]["files"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    for file in files {
        let bytes = std::fs::read(generation.join(&file)).unwrap();
        let blocks: String = bytes
            .chunks(block_bytes)
            .flat_map(Sha256::digest)
            .map(|b| format!("{b:02x}"))
            .collect();
        manifest["checksums"]["files"][&file] =
            serde_json::json!({"bytes": bytes.len(), "blocks": blocks});
    }
    manifest["checksums"]["block_bytes"] = block_bytes.into();
    std::fs::write(&manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();
}

/// Flips the low bit of the middle byte of every `block_bytes` block of `file`, in place.
fn flip_a_byte_per_block(file: &Path, block_bytes: usize) {
    flip_at(file, |len| {
        (0..len)
            .step_by(block_bytes)
            .map(|start| start + (len - start).min(block_bytes) / 2)
            .collect()
    });
}

/// Flips the low bit of the bytes `at(len)` names, in place (as a disk would).
fn flip_at(file: &Path, at: impl FnOnce(usize) -> Vec<usize>) {
    use std::os::unix::fs::FileExt;
    let bytes = std::fs::read(file).unwrap();
    let handle = std::fs::OpenOptions::new().write(true).open(file).unwrap();
    for offset in at(bytes.len()) {
        handle
            .write_all_at(&[bytes[offset] ^ 1], offset as u64)
            .unwrap();
    }
}

/// The postings file (`.idx`) of the segment index of `generation`.
fn postings_file(generation: &Path) -> PathBuf {
    let store = store_file(generation);
    store.with_extension("idx")
}

fn open_error(data_dir: &Path) -> String {
    Engine::open(DataDir::new(data_dir), Some(embedder()))
        .err()
        .expect("the altered generation is refused")
        .to_string()
}

#[test]
fn a_byte_flipped_in_the_graph_or_the_vectors_refuses_the_generation_at_open() {
    for file in ["graph.bin", "vectors.bin"] {
        let dir = scratch_dir();
        let data_dir = copy_of_subset(dir.path());
        flip_a_byte_per_block(&live_generation(&data_dir).join(file), 1 << 20);
        let error = open_error(&data_dir);
        assert!(error.contains(file) && error.contains("block "), "{error}");
    }
}

#[test]
fn a_byte_flipped_in_the_postings_an_open_reads_refuses_the_generation() {
    let dir = scratch_dir();
    let data_dir = copy_of_subset(dir.path());
    let generation = live_generation(&data_dir);
    reseal(&generation, SMALL_BLOCK);
    flip_a_byte_per_block(&postings_file(&generation), SMALL_BLOCK);
    let error = open_error(&data_dir);
    assert!(
        error.contains(".idx") && error.contains("block "),
        "{error}"
    );
}

#[tokio::test]
async fn a_store_block_no_request_had_read_fails_the_request_that_reads_it_and_every_later_one() {
    let dir = scratch_dir();
    let data_dir = copy_of_subset(dir.path());
    let originals = originals(&data_dir);
    let generation = live_generation(&data_dir);
    reseal(&generation, SMALL_BLOCK);
    flip_at(&store_file(&generation), |len| vec![len / 2]);
    let app = spawn_app_with(&data_dir, GENEROUS).await;
    assert_eq!(
        app.get("/health").await.status,
        200,
        "the block is not read at open"
    );
    let mut refused = 0;
    for (fingerprint, (_, text)) in &originals {
        let reply = app.verify(fingerprint, None).await;
        if reply.status == 200 {
            assert_eq!(
                refused, 0,
                "nothing is answered after the altered block was found"
            );
            assert_eq!(reply.body["data"]["text"], text.as_str(), "{fingerprint}");
        } else {
            assert_error(&reply, 500);
            assert!(reply.body.get("detail").is_none(), "{}", reply.body);
            refused += 1;
        }
    }
    assert!(
        refused >= 1 && refused < originals.len(),
        "{refused} refused"
    );
    assert_error(&app.get("/health").await, 500);
    assert_error(&app.search("bleeding risk", 5).await, 500);
}
