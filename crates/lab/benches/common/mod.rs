//! What the benchmarks share: where the shared data is, percentiles, the lexical-only index of
//! the full corpus, and an unlimited server state. Each benchmark uses part of it.
#![allow(dead_code)]

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use drugcite_accounts::scopes::Scope;
use drugcite_accounts::KeyName;
use drugcite_core::domain::ApiKey;
use drugcite_engine::engine::Engine;
use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, IngestReport, ProgressMode};
use drugcite_server::http::{AppState, RateLimitConfig};
use drugcite_server::startup::AccountsConfig;
use drugcite_store::DataDir;

pub fn shared_data() -> PathBuf {
    std::env::var_os("DRUGCITE_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

pub fn corpus_file() -> PathBuf {
    shared_data().join("labels/openfda-labels.jsonl.gz")
}

/// The `p` quantile of `samples`, in milliseconds.
pub fn percentile(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort();
    let at = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[at].as_secs_f64() * 1000.0
}

/// Ingests the full corpus without embeddings, with the shared vocabularies (the graph needs
/// no embeddings).
pub fn lexical_corpus_index(data_dir: &DataDir) -> IngestReport {
    let vocabulary =
        drugcite_engine::conditions::vocabulary::read_dir(&shared_data().join("vocab"))
            .expect("shared vocabularies");
    let options = IngestOptions {
        progress: ProgressMode::Auto,
        mode: IngestMode::Full,
        embedder: None,
        vocabulary: &vocabulary,
    };
    ingest(data_dir, &[corpus_file()], &options).expect("ingest")
}

/// Server state over `engine` whose rate limits never trigger, and a key of the operator
/// account (never charged) with every scope.
pub async fn unlimited_state(engine: Engine, data_dir: &DataDir) -> (AppState, ApiKey) {
    let unlimited = NonZeroU32::new(u32::MAX).unwrap();
    let limits = RateLimitConfig {
        per_key_per_minute: unlimited,
        per_address_per_minute: unlimited,
    };
    let accounts = AccountsConfig::default()
        .open(data_dir)
        .await
        .expect("accounts");
    let operator = accounts.operator().await.expect("operator");
    let name = KeyName::parse("bench").expect("name");
    let (_, key) = accounts
        .create_key(&operator.id, &name, &Scope::ALL)
        .await
        .expect("key");
    (
        AppState::new(Arc::new(engine), Arc::new(accounts), limits),
        key,
    )
}
