//! Shared test fixtures: the subset index (built once per test run from real records) and
//! `spawn_app`, which serves it with the real router on 127.0.0.1:0.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use drugcite_accounts::scopes::Scope;
use drugcite_accounts::{Accounts, KeyName};
use drugcite_engine::conditions::VocabularyTerm;
use drugcite_engine::embed::Embedder;
use drugcite_engine::engine::GraphBackend;
use drugcite_engine::index::{LiveIndex, OpenOptions};
use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, IngestReport, ProgressMode};
use drugcite_server::http::{ConnectionBounds, RateLimitConfig, DEFAULT_AUTH_FAILURES_PER_MINUTE};
use drugcite_server::startup::{AccountsConfig, ServeConfig, Server};
use drugcite_store::DataDir;
use serde_json::Value;

/// How many records of the corpus file the subset takes (besides the three API responses).
pub const SUBSET_RECORDS: usize = 10;

pub fn shared_data() -> PathBuf {
    std::env::var_os("DRUGCITE_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

pub fn corpus_file() -> PathBuf {
    shared_data().join("labels/openfda-labels.jsonl.gz")
}

pub fn api_responses_dir() -> PathBuf {
    shared_data().join("labels/openfda-api-responses")
}

/// The installed embedding model (scripts/install-model.sh), or `$DRUGCITE_MODEL_DIR`; loaded once.
pub fn embedder() -> Arc<Embedder> {
    static EMBEDDER: OnceLock<Arc<Embedder>> = OnceLock::new();
    EMBEDDER
        .get_or_init(|| {
            let dir = std::env::var_os("DRUGCITE_MODEL_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/all-MiniLM-L6-v2")
                });
            Arc::new(Embedder::load(&dir).expect("embedding model: run scripts/install-model.sh"))
        })
        .clone()
}

/// The shared condition vocabularies (Disease and Symptom Ontologies); read once.
pub fn vocabulary() -> &'static [VocabularyTerm] {
    static TERMS: OnceLock<Vec<VocabularyTerm>> = OnceLock::new();
    TERMS.get_or_init(|| {
        drugcite_engine::conditions::vocabulary::read_dir(&shared_data().join("vocab"))
            .expect("shared vocabularies")
    })
}

/// A fresh directory under cargo's per-target temp dir, removed when dropped.
pub fn scratch_dir() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("scratch dir")
}

/// The first `n` records of the corpus, verbatim, one JSON line each.
pub fn corpus_lines(n: usize) -> Vec<String> {
    let file = std::fs::File::open(corpus_file()).expect("shared corpus missing: see README");
    BufReader::new(flate2::read::MultiGzDecoder::new(file))
        .lines()
        .take(n)
        .map(|l| l.expect("corpus line"))
        .collect()
}

pub fn write_jsonl(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let path = dir.join(name);
    let mut file = std::fs::File::create(&path).unwrap();
    for line in lines {
        writeln!(file, "{line}").unwrap();
    }
    path
}

/// The subset's input files: first records of the corpus plus the API response envelopes.
pub fn subset_inputs(dir: &Path) -> Vec<PathBuf> {
    vec![
        write_jsonl(dir, "subset.jsonl", &corpus_lines(SUBSET_RECORDS)),
        api_responses_dir(),
    ]
}

/// A lexical-only ingest of `inputs` into `data_dir` (for tests of ingest mechanics, history
/// and duplicates, not of embeddings), conditions found with `vocabulary`.
/// A full ingest of `inputs` into `data_dir` with embeddings and the shared vocabulary.
pub fn ingest_embedded(data_dir: &Path, inputs: &[PathBuf]) -> IngestReport {
    let embedder = embedder();
    let options = IngestOptions {
        progress: ProgressMode::Silent,
        mode: IngestMode::Full,
        embedder: Some(&embedder),
        vocabulary: vocabulary(),
    };
    ingest(&DataDir::new(data_dir), inputs, &options).expect("ingest")
}

/// The lowercase first openFDA generic name of a corpus line (empty without one).
fn generic_name(line: &str) -> String {
    let value: Value = serde_json::from_str(line).unwrap();
    value["openfda"]["generic_name"][0]
        .as_str()
        .unwrap_or_default()
        .to_lowercase()
}

/// The corpus lines whose first generic name is one of `generics` (any case), in corpus order.
pub fn corpus_lines_of(generics: &[&str]) -> Vec<String> {
    corpus_lines(usize::MAX)
        .into_iter()
        .filter(|line| {
            generics
                .iter()
                .any(|g| g.eq_ignore_ascii_case(&generic_name(line)))
        })
        .collect()
}

/// The live index of `data_dir`, opened with the test model's vector space and no graph.
pub fn open_embedded(data_dir: &Path) -> LiveIndex {
    let options = OpenOptions {
        space: Some(embedder().vector_space()),
        embedded_graph: false,
    };
    LiveIndex::open(DataDir::new(data_dir), options).unwrap()
}

/// A scratch data dir with the embedded index of the corpus's labels of `wanted` (one each).
pub fn embedded_index_of(wanted: &[&str]) -> tempfile::TempDir {
    let lines = corpus_lines_of(wanted);
    assert_eq!(
        lines.len(),
        wanted.len(),
        "the corpus has one label of each"
    );
    let dir = scratch_dir();
    let inputs = [write_jsonl(dir.path(), "labels.jsonl", &lines)];
    ingest_embedded(&dir.path().join("data"), &inputs);
    dir
}

/// A server over the lexical index of the corpus's first label of each of `wanted`, and the
/// scratch dir that holds it (keep it alive as long as the server).
pub async fn spawn_app_over_first(wanted: &[&str]) -> (tempfile::TempDir, TestApp) {
    let dir = lexical_index_of_first(wanted);
    let app = spawn_app_with(&dir.path().join("data"), GENEROUS).await;
    (dir, app)
}

/// The quoted text of the first evidence of a `/v1/graph` reply's first relationship.
pub fn first_evidence_text(reply: &Value) -> String {
    reply["relationships"][0]["evidence"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no evidence in {reply}"))
        .to_owned()
}

/// A scratch data dir with the lexical index of the corpus's first label of each of `wanted`
/// (in `data/`).
fn lexical_index_of_first(wanted: &[&str]) -> tempfile::TempDir {
    let mut lines = Vec::new();
    for generic in wanted {
        let found = corpus_lines_of(&[generic]);
        assert!(!found.is_empty(), "the corpus holds a {generic} label");
        lines.extend(found.into_iter().take(1));
    }
    let dir = scratch_dir();
    let inputs = [write_jsonl(dir.path(), "labels.jsonl", &lines)];
    ingest_lexical(&dir.path().join("data"), &inputs, IngestMode::Full, &[]);
    dir
}

pub fn ingest_lexical(
    data_dir: &Path,
    inputs: &[PathBuf],
    mode: IngestMode,
    vocabulary: &[VocabularyTerm],
) -> IngestReport {
    let options = IngestOptions {
        progress: ProgressMode::Silent,
        mode,
        embedder: None,
        vocabulary,
    };
    ingest(&DataDir::new(data_dir), inputs, &options).expect("ingest")
}

pub struct SubsetIndex {
    pub data_dir: PathBuf,
    pub inputs: Vec<PathBuf>,
    pub report: IngestReport,
    _dir: tempfile::TempDir,
}

/// Built once per test binary run and shared read-only by the tests.
pub fn subset_index() -> &'static SubsetIndex {
    static INDEX: OnceLock<SubsetIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let dir = scratch_dir();
        let inputs = subset_inputs(dir.path());
        let data_dir = dir.path().join("data");
        let report = ingest_embedded(&data_dir, &inputs);
        SubsetIndex {
            data_dir,
            inputs,
            report,
            _dir: dir,
        }
    })
}

/// Runs `work` on the accounts database of `data_dir` (SQLite), on the test's own runtime: a
/// helper that blocked the runtime would stall the server spawned on it, mid-transaction, and
/// so wait out the database's busy timeout ("database is locked").
pub async fn with_accounts<T>(data_dir: &Path, work: impl AsyncFnOnce(&Accounts) -> T) -> T {
    let accounts = AccountsConfig::default()
        .open(&DataDir::new(data_dir))
        .await
        .expect("accounts database");
    work(&accounts).await
}

/// A key of the operator account (unlimited credit) with `scopes`.
pub async fn create_key(data_dir: &Path, scopes: &[Scope]) -> String {
    with_accounts(data_dir, async |accounts| {
        let operator = accounts.operator().await.expect("operator account");
        let name = KeyName::parse("test").unwrap();
        let (_, key) = accounts
            .create_key(&operator.id, &name, scopes)
            .await
            .expect("create key");
        key.expose().to_owned()
    })
    .await
}

/// Revokes a key as `drugcite keys revoke` does.
pub async fn revoke_key(data_dir: &Path, key: &str) {
    let id = &key[4..16];
    with_accounts(data_dir, async |accounts| {
        accounts.revoke_key(None, id).await.expect("revoke");
    })
    .await;
}

/// Asks `status` every 20 ms until it answers `want`, for at most a second: a revocation made
/// elsewhere (another process, another server) holds on a server within its key poll.
pub async fn within_a_second(want: u16, mut status: impl AsyncFnMut() -> u16) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        let got = status().await;
        if got == want {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "still {got}, not {want}, after 1 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    /// A key with every scope.
    pub key: String,
    pub data_dir: PathBuf,
}

pub struct Limits {
    pub per_key: u32,
    pub per_address: u32,
}

pub const GENEROUS: Limits = Limits {
    per_key: 1_000_000,
    per_address: 1_000_000,
};

/// Starts the real server over the subset index on a random port.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(&subset_index().data_dir, GENEROUS).await
}

pub async fn spawn_app_with(data_dir: &Path, limits: Limits) -> TestApp {
    serve(data_dir, GraphBackend::Embedded, limits).await
}

/// Starts the real server over `data_dir` with its graph and verify on `backend`.
pub async fn spawn_app_on(data_dir: &Path, backend: GraphBackend) -> TestApp {
    serve(data_dir, backend, GENEROUS).await
}

/// Starts a server over `data_dir` as `drugcite serve` does (with the tests' embedder), on a
/// free port.
async fn serve(data_dir: &Path, backend: GraphBackend, limits: Limits) -> TestApp {
    let mut config = serve_config(data_dir, limits);
    config.embedder = Some(embedder());
    config.backend = backend;
    let addr = start_server(config).await;
    TestApp {
        base: format!("http://{addr}"),
        client: reqwest::Client::new(),
        key: create_key(data_dir, &Scope::ALL).await,
        data_dir: data_dir.to_path_buf(),
    }
}

/// `drugcite serve --lexical-only` over `data_dir` with `limits` and the default bounds.
pub fn serve_config(data_dir: &Path, limits: Limits) -> ServeConfig {
    ServeConfig {
        data_dir: DataDir::new(data_dir),
        embedder: None,
        backend: GraphBackend::Embedded,
        limits: RateLimitConfig {
            per_key_per_minute: NonZeroU32::new(limits.per_key).unwrap(),
            per_address_per_minute: NonZeroU32::new(limits.per_address).unwrap(),
        },
        auth_failures_per_minute: DEFAULT_AUTH_FAILURES_PER_MINUTE,
        connections: ConnectionBounds::default(),
        accounts: AccountsConfig::default(),
        metrics_addr: None,
    }
}

/// Starts the real server with `config` through `startup`, as the binary does; returns the
/// bound address.
pub async fn start_server(config: ServeConfig) -> SocketAddr {
    let server = Server::start(config, "127.0.0.1:0".parse().unwrap())
        .await
        .expect("start server");
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.run());
    addr
}

pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl TestApp {
    pub async fn search_raw(&self, key: Option<&str>, body: impl Into<reqwest::Body>) -> Reply {
        let mut request = self
            .client
            .post(format!("{}/v1/search", self.base))
            .body(body);
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        reply(request).await
    }

    pub async fn search(&self, question: &str, top_k: u32) -> Reply {
        let body = serde_json::json!({ "question": question, "top_k": top_k }).to_string();
        self.search_raw(Some(&self.key), body).await
    }

    pub async fn verify(&self, fingerprint: &str, key: Option<&str>) -> Reply {
        let mut request = self
            .client
            .get(format!("{}/v1/verify/{fingerprint}", self.base));
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        reply(request).await
    }

    pub async fn graph_raw(&self, key: Option<&str>, body: Value) -> Reply {
        let mut request = self
            .client
            .post(format!("{}/v1/graph", self.base))
            .json(&body);
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        reply(request).await
    }

    /// Asks /v1/graph with the all-scopes key; the reply must be a 200.
    pub async fn graph(&self, question: &str, max_hops: u32) -> Value {
        let body = serde_json::json!({ "question": question, "max_hops": max_hops, "limit": 100 });
        let reply = self.graph_raw(Some(&self.key), body).await;
        assert_eq!(reply.status, 200, "body: {}", reply.body);
        reply.body["data"].clone()
    }

    pub async fn get(&self, path: &str) -> Reply {
        reply(self.client.get(format!("{}{path}", self.base))).await
    }
}

pub async fn reply(request: reqwest::RequestBuilder) -> Reply {
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.expect("body");
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
        panic!(
            "non-JSON body ({status}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    Reply {
        status,
        body,
        headers,
    }
}

/// Asserts the §2.2 error envelope with the §7 code and message for `status`.
pub fn assert_error(reply: &Reply, status: u16) {
    let (code, msg) = match status {
        400 => ("", "invalid data"),
        401 => ("NotAuthorizedException", "unauthorized request"),
        403 => ("AccessDeniedException", "forbidden"),
        404 => ("", "resource not found"),
        429 => ("LimitExceededError", "api limit exceeded"),
        500 => ("", "internal server error"),
        other => panic!("no envelope defined for {other}"),
    };
    assert_eq!(reply.status, status, "body: {}", reply.body);
    assert_eq!(reply.body["status"], 0);
    assert_eq!(reply.body["errorCode"], code);
    assert_eq!(reply.body["msg"], msg);
}

pub fn results(reply: &Reply) -> &Vec<Value> {
    assert_eq!(reply.status, 200, "body: {}", reply.body);
    reply.body["data"]["results"]
        .as_array()
        .expect("results array")
}
