//! Label history on the Neo4j backend: after syncing an index of real label versions, verify
//! answers every fingerprint (current, superseded) exactly as the embedded store does, label
//! block included.

use std::sync::Arc;

use drugcite_engine::engine::GraphBackend;
use drugcite_engine::graph::GraphData;
use drugcite_engine::ingest::{IngestMode, ProgressMode};
use drugcite_engine::neo4j::sync_generation;
use drugcite_store::{DataDir, Snapshot};

use crate::bolt::{database, empty_database, endpoint};
use crate::helpers::{
    ingest_lexical, scratch_dir, spawn_app_on, spawn_app_with, write_jsonl, GENEROUS,
};
use crate::history::sample;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn superseded_versions_verify_alike_on_neo4j() {
    let _database = database().await;
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let versions = write_jsonl(dir.path(), "versions.jsonl", &sample().versions);
    ingest_lexical(&data_dir, &[versions], IngestMode::Full, &[]);
    let snapshot = Snapshot::open_current(&DataDir::new(&data_dir)).unwrap();
    let catalog = snapshot.catalog().unwrap();
    let mut chosen: Vec<_> = catalog
        .iter()
        .filter(|(_, i)| !i.current)
        .map(|(fp, _)| fp)
        .take(20)
        .collect();
    chosen.extend(
        catalog
            .iter()
            .filter(|(_, i)| i.current)
            .map(|(fp, _)| fp)
            .take(5),
    );
    let graph = GraphData::read(snapshot.generation()).unwrap().unwrap();
    let client = tokio::task::spawn_blocking(move || {
        let client = endpoint().client();
        empty_database(&client);
        sync_generation(&client, &snapshot, &graph, ProgressMode::Silent).expect("sync");
        client
    })
    .await
    .unwrap();
    let embedded = spawn_app_with(&data_dir, GENEROUS).await;
    let on_neo4j = spawn_app_on(&data_dir, GraphBackend::Neo4j(Arc::new(client))).await;
    let mut superseded = 0;
    for fingerprint in chosen {
        let want = embedded.verify(&fingerprint.to_string(), None).await;
        let got = on_neo4j.verify(&fingerprint.to_string(), None).await;
        assert_eq!(want.body["data"]["verified"], true);
        assert_eq!((got.status, &got.body), (want.status, &want.body));
        superseded += usize::from(want.body["data"]["label"]["status"] == "superseded");
    }
    assert_eq!(superseded, 20);
}
