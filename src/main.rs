//! The `drugcite` command line: ingest, serve, mcp, check here, the other commands in the `*_cli`
//! modules beside it. Parses arguments, calls the library, prints results; every failure exits
//! non-zero with a one-line reason.

mod accounts_cli;
mod eval_cli;
mod extract_cli;
mod neo4j_cli;
mod severity_cli;

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use accounts_cli::{AccountsCommand, KeysCommand, ServeAccountsArgs};
use anyhow::Context;
use clap::{CommandFactory, Parser, Subcommand};
use drugcite::conditions;
use drugcite::config::logging::{self, LogFormat};
use drugcite::embed::Embedder;
use drugcite::engine::{Engine, GraphBackend};
use drugcite::eval::Part;
use drugcite::http::{ConnectionBounds, RateLimitConfig};
use drugcite::ingest::{ingest, IngestMode, IngestOptions, ProgressMode};
use drugcite::mcp;
use drugcite::startup::{ServeConfig, Server};
use drugcite::store::DataDir;
use extract_cli::{vocabulary_beside, ExtractTask, HalfArg};
use neo4j_cli::{neo4j_backend, sync_neo4j, Neo4jArgs};

/// mimalloc instead of glibc's malloc: the request path makes many short-lived buffers
/// (hyper's header tables, JSON bodies) and glibc spent ~8 % of a verify's CPU on them
/// (README "Benchmarks", issue 17).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "drugcite",
    version,
    about = "Search official drug-label text and verify every quote by fingerprint"
)]
struct Cli {
    /// Data directory holding the index and the API keys.
    #[arg(
        long,
        global = true,
        env = "DRUGCITE_DATA_DIR",
        default_value = "./data"
    )]
    data_dir: PathBuf,
    /// Sentence-embedding model directory (config.json, tokenizer.json, model.safetensors).
    #[arg(
        long,
        global = true,
        env = "DRUGCITE_MODEL_DIR",
        default_value = "models/all-MiniLM-L6-v2"
    )]
    model_dir: PathBuf,
    /// Accounts database shared by several servers (`postgres://…`); default: SQLite in the data dir.
    #[arg(long, global = true, env = "DRUGCITE_DATABASE_URL")]
    database_url: Option<String>,
    /// Settings file (TOML, see drugcite.example.toml): under DRUGCITE_* variables and flags.
    #[arg(long, global = true, env = "DRUGCITE_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,
    /// Log lines on stderr as text or as one JSON object per line.
    #[arg(long, global = true, value_enum, default_value = "text")]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build a new index from openFDA label files and make it live atomically; every label
    /// version ever ingested stays verifiable.
    Ingest {
        /// .jsonl/.ndjson (optionally .gz), .json envelopes or arrays (optionally .gz), bulk .zip files, or directories of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Add the new labels and label versions of PATHS to the live index, keeping everything
        /// else as it is (cost proportional to what is new). Without it, PATHS are a full
        /// snapshot: labels the live index has and PATHS lack are marked withdrawn.
        #[arg(long)]
        update: bool,
        /// Skip embeddings: a BM25-only index, much faster to build.
        #[arg(long)]
        lexical_only: bool,
        /// Condition vocabulary directory (.obo/.tsv, optionally .gz) for the knowledge graph;
        /// default: a `vocab` directory beside an input or one of its parents.
        #[arg(long, env = "DRUGCITE_VOCAB_DIR")]
        vocab: Option<PathBuf>,
        /// Also write the new index's graph, labels and segments into this Neo4j.
        #[command(flatten)]
        neo4j: Neo4jArgs,
    },
    /// Write the live index's graph, labels and segments into Neo4j (what `ingest --neo4j`
    /// does after publishing), e.g. after a failed sync or into a new database.
    SyncNeo4j {
        #[command(flatten)]
        neo4j: Neo4jArgs,
    },
    /// Serve the HTTP API over the live index.
    Serve {
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        /// Also serve Prometheus `GET /metrics` on this address, without a key: bind it to
        /// localhost or a private interface (default: not served).
        #[arg(long)]
        metrics_addr: Option<SocketAddr>,
        /// Requests per minute allowed to one API key.
        #[arg(long, default_value = "600")]
        rate_limit_per_key: NonZeroU32,
        /// Requests per minute allowed to one client address without a key (keyless verify).
        #[arg(long, default_value = "120")]
        rate_limit_per_address: NonZeroU32,
        #[command(flatten)]
        bounds: ServeBounds,
        #[command(flatten)]
        accounts: ServeAccountsArgs,
        /// Serve without the embedding model: BM25-only ranking.
        #[arg(long)]
        lexical_only: bool,
        /// Where /v1/graph's graph and verify's segments come from; search always uses the
        /// local index. `neo4j` needs --neo4j URI and a database synced from this index.
        #[arg(
            long,
            value_enum,
            env = "DRUGCITE_GRAPH_BACKEND",
            default_value = "embedded"
        )]
        graph_backend: GraphBackendArg,
        #[command(flatten)]
        neo4j: Neo4jArgs,
    },
    /// Speak MCP (the Model Context Protocol) over stdin/stdout for a local agent: the tools
    /// search_labels, verify_citation, check_quote, ask_graph and label_history over the live
    /// index of --data-dir (which it follows as new generations are published).
    Mcp {
        /// Run without the embedding model: BM25-only ranking.
        #[arg(long)]
        lexical_only: bool,
    },
    /// Score a running server on a question file: search questions (the dev-questions.jsonl
    /// format) or, detected by their `must` rules, graph questions (graph-dev-questions.jsonl).
    Eval {
        /// Base URL of the server to score.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// API key with scope `search` (`graph` for a graph question file).
        #[arg(long, env = "DRUGCITE_API_KEY")]
        key: String,
        /// Question file: one JSON object per line with id, kind, question and `relevant`
        /// (search) or `must` rules (graph, in the format of `graph-dev-questions.jsonl`).
        questions: PathBuf,
        /// Also print every question's scores and its first result.
        #[arg(long)]
        verbose: bool,
        /// Which questions: `fit` (those ranking parameters are fitted on), `held` (the
        /// held-out third of each kind, never fitted on) or `all`; the same split for search
        /// and graph files.
        #[arg(long, value_enum, default_value = "all")]
        part: Part,
    },
    /// Training rows for the ranking weights, JSON Lines on stdout: per question of the files,
    /// every candidate text with its copies' features and relevance (`scripts/fit-ranking.py`).
    RankingFeatures {
        /// Question files in the dev-questions.jsonl format.
        #[arg(required = true)]
        questions: Vec<PathBuf>,
    },
    /// Find adverse reactions in label text: JSON Lines `{"id","section","text"}` on stdin,
    /// `{"id","mentions":[{"text","start","end","condition_id","condition_name"}]}` on stdout.
    Extract {
        /// Condition vocabulary directory (.obo/.tsv files); default: the one the live index
        /// in --data-dir was built with.
        #[arg(long, env = "DRUGCITE_VOCAB_DIR")]
        vocab: Option<PathBuf>,
        /// Instead of reading stdin, score the extractor on an annotation file
        /// (adr-train-labels.json format) and print precision, recall and F1 per section.
        #[arg(long, conflicts_with = "learn")]
        score: Option<PathBuf>,
        /// Which labels of the annotation file to score: the fixed split's halves or all.
        #[arg(long, value_enum, default_value = "held-out", requires = "score")]
        half: HalfArg,
        /// Instead of reading stdin, learn the curated term file (graph/adverse-reaction-terms.tsv)
        /// from the learning half of an annotation file and the lists of a label corpus.
        #[arg(long, requires = "labels")]
        learn: Option<PathBuf>,
        /// openFDA JSON Lines corpus (optionally .gz) whose "most common adverse reactions"
        /// lists are read by --learn.
        #[arg(long, requires = "learn")]
        labels: Option<PathBuf>,
    },
    /// How the graph's severity and negation rules agree with the brat annotations of the TAC
    /// 2017 labels (negation and per-grade severity P/R/F1, grade agreement), curated words alone
    /// and with the learned cues, on a fixed split of the files by label name.
    SeverityAgreement {
        /// Directory holding `txt/` and `brat/`.
        #[arg(default_value = "../shared/data/eval/tac2017-ars")]
        dir: PathBuf,
        /// Which files: `fit` (the cues are learned from), `held` (never learned from) or `all`.
        #[arg(long, value_enum, default_value = "held")]
        part: Part,
        /// Instead, learn the cue table from the fit part into this file
        /// (the graph compiles in src/graph/severity-cues.json).
        #[arg(long, value_name = "FILE")]
        learn: Option<PathBuf>,
    },
    /// Re-hash every file of the live index against its manifest and every segment against
    /// its fingerprint; list each mismatch and exit non-zero if there is one.
    Check,
    /// Manage API keys (each belongs to an account; by default the operator's).
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// Manage accounts and their credit.
    Accounts {
        #[command(subcommand)]
        command: AccountsCommand,
    },
    /// The settings file and environment.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Print the effective settings of `serve` and `ingest` (file, DRUGCITE_* variables,
    /// defaults; secrets redacted); exit non-zero on an unknown key or a bad value.
    Check,
}

/// Connection, request and authentication bounds of `serve` (README "Keys, limits, errors").
#[derive(clap::Args)]
struct ServeBounds {
    /// Seconds to receive a request head (also how long a kept-alive connection may idle).
    #[arg(long, env = "DRUGCITE_HEADER_TIMEOUT_SECS", default_value = "10", value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout_secs: u64,
    /// Seconds one request may take, body and answer included (then 500 with Retry-After).
    #[arg(long, env = "DRUGCITE_REQUEST_TIMEOUT_SECS", default_value = "30", value_parser = clap::value_parser!(u64).range(1..))]
    request_timeout_secs: u64,
    /// Seconds a connection may pass with no byte read or written before it is closed.
    #[arg(long, env = "DRUGCITE_IDLE_TIMEOUT_SECS", default_value = "60", value_parser = clap::value_parser!(u64).range(1..))]
    idle_timeout_secs: u64,
    /// Most connections open at once; more wait in the listen backlog.
    #[arg(long, env = "DRUGCITE_MAX_CONNECTIONS", default_value = "1024", value_parser = clap::value_parser!(u64).range(1..))]
    max_connections: u64,
    /// Seconds requests in flight may take after SIGTERM before the server exits anyway.
    #[arg(long, env = "DRUGCITE_SHUTDOWN_GRACE_SECS", default_value = "10")]
    shutdown_grace_secs: u64,
    /// Failed authentications per minute allowed to one client address (then 429).
    #[arg(long, env = "DRUGCITE_AUTH_FAILURES_PER_ADDRESS", default_value = "10")]
    auth_failures_per_address: NonZeroU32,
}

impl ServeBounds {
    fn connections(&self) -> ConnectionBounds {
        ConnectionBounds {
            header_timeout: Duration::from_secs(self.header_timeout_secs),
            request_timeout: Duration::from_secs(self.request_timeout_secs),
            idle_timeout: Duration::from_secs(self.idle_timeout_secs),
            max_connections: usize::try_from(self.max_connections).unwrap_or(usize::MAX),
            shutdown_grace: Duration::from_secs(self.shutdown_grace_secs),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum GraphBackendArg {
    Embedded,
    Neo4j,
}

fn main() -> ExitCode {
    let cli = match drugcite::config::parse::<Cli>() {
        Ok(cli) => cli,
        Err(e) => return fail(&e.into()),
    };
    logging::init(cli.log_format);
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

fn fail(e: &anyhow::Error) -> ExitCode {
    eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
    ExitCode::FAILURE
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let data_dir = DataDir::new(&cli.data_dir);
    match cli.command {
        Command::Ingest {
            paths,
            update,
            lexical_only,
            vocab,
            neo4j,
        } => {
            let neo4j = neo4j.client()?;
            let embedder = load_embedder(&cli.model_dir, lexical_only)?;
            let vocabulary = match vocab.or_else(|| vocabulary_beside(&paths)) {
                Some(dir) => conditions::vocabulary::read_dir(&dir)?,
                None => Vec::new(),
            };
            let options = IngestOptions {
                progress: ProgressMode::Auto,
                embedder: embedder.as_deref(),
                vocabulary: &vocabulary,
                mode: if update {
                    IngestMode::Update
                } else {
                    IngestMode::Full
                },
            };
            let report = ingest(&data_dir, &paths, &options)?;
            println!("{report}");
            match neo4j {
                Some(client) => sync_neo4j(&data_dir, &client).context(
                    "the index was published, but the Neo4j sync failed (re-run `drugcite sync-neo4j`)",
                ),
                None => Ok(()),
            }
        }
        Command::SyncNeo4j { neo4j } => {
            sync_neo4j(&data_dir, &neo4j.required_client("sync-neo4j")?)
        }
        Command::Serve {
            addr,
            metrics_addr,
            rate_limit_per_key,
            rate_limit_per_address,
            bounds,
            accounts,
            lexical_only,
            graph_backend,
            neo4j,
        } => {
            drugcite::embed::one_thread_per_product();
            let limits = RateLimitConfig {
                per_key_per_minute: rate_limit_per_key,
                per_address_per_minute: rate_limit_per_address,
            };
            let backend = match graph_backend {
                GraphBackendArg::Embedded => GraphBackend::Embedded,
                GraphBackendArg::Neo4j => {
                    neo4j_backend(neo4j.required_client("--graph-backend neo4j")?)
                }
            };
            let config = ServeConfig {
                data_dir,
                embedder: load_embedder(&cli.model_dir, lexical_only)?,
                backend,
                limits,
                auth_failures_per_minute: bounds.auth_failures_per_address,
                connections: bounds.connections(),
                accounts: accounts.config(cli.database_url),
                metrics_addr,
            };
            serve(config, addr)
        }
        Command::Keys { command } => accounts_cli::keys(&data_dir, cli.database_url, command),
        Command::Accounts { command } => {
            accounts_cli::accounts(&data_dir, cli.database_url, command)
        }
        Command::Check => check(&data_dir),
        Command::Config {
            command: ConfigCommand::Check,
        } => write_stdout(&drugcite::config::check::report_for(
            Cli::command(),
            cli.config.as_deref(),
        )?),
        Command::Mcp { lexical_only } => {
            drugcite::embed::one_thread_per_product();
            let engine = Engine::open(data_dir, load_embedder(&cli.model_dir, lexical_only)?)?;
            tokio::runtime::Runtime::new()?.block_on(mcp::serve_stdio(Arc::new(engine)))
        }
        Command::Eval {
            url,
            key,
            questions,
            verbose,
            part,
        } => eval_cli::evaluate(&url, &key, &questions, verbose, part),
        Command::RankingFeatures { questions } => {
            let embedder = load_embedder(&cli.model_dir, false)?;
            eval_cli::ranking_features(data_dir, embedder, &questions)
        }
        Command::SeverityAgreement { dir, part, learn } => match learn {
            Some(out) => severity_cli::learn_cues(&dir, &out),
            None => severity_cli::agreement(&dir, part),
        },
        Command::Extract {
            vocab,
            score,
            half,
            learn,
            labels,
        } => {
            let task = match (score, learn, labels) {
                (Some(annotations), _, _) => ExtractTask::Score {
                    annotations,
                    half: half.into(),
                },
                (_, Some(annotations), Some(labels)) => ExtractTask::Learn {
                    annotations,
                    labels,
                },
                _ => ExtractTask::Stream,
            };
            extract_cli::extract(&data_dir, vocab.as_deref(), task)
        }
    }
}

/// Writes to stdout, a closed pipe (`| head`) being an error like any other, not a panic.
pub(crate) fn write_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    Ok(stdout.flush()?)
}

fn load_embedder(
    model_dir: &std::path::Path,
    lexical_only: bool,
) -> anyhow::Result<Option<Arc<Embedder>>> {
    if lexical_only {
        return Ok(None);
    }
    Ok(Some(Arc::new(Embedder::load(model_dir)?)))
}

fn serve(config: ServeConfig, addr: SocketAddr) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let served = runtime.block_on(async {
        let server = Server::start(config, addr).await?;
        tracing::info!("listening on {}", server.local_addr()?);
        if let Some(metrics) = server.metrics_addr() {
            tracing::info!("metrics on http://{metrics}/metrics");
        }
        server.run().await.context("serving")
    });
    // Engine work already running on the blocking pool is not waited for past a second.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served
}

/// Prints what `drugcite check` found; any mismatch is a failure.
fn check(data_dir: &DataDir) -> anyhow::Result<()> {
    let report = drugcite::store::check(data_dir, ProgressMode::Auto)?;
    write_stdout(&format!("{report}\n"))?;
    anyhow::ensure!(
        report.is_clean(),
        "integrity check failed: {} mismatches in {}",
        report.mismatches(),
        report.generation.display()
    );
    Ok(())
}
