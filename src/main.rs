//! The `drugcite` command line an operator uses: ingest, serve, mcp, check here, the other
//! commands in `cli/`. Parses arguments, calls the engine and the server, prints results; every
//! failure exits non-zero with a one-line reason. Evaluation and fitting are `drugcite-lab`.

mod cli;
mod config;

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::config::logging::{self, LogFormat};
use anyhow::Context;
use clap::{CommandFactory, Parser, Subcommand};
use cli::accounts::{self as accounts_cli, AccountsCommand, KeysCommand, ServeAccountsArgs};
use cli::extract::{self as extract_cli, vocabulary_beside};
use cli::neo4j::{neo4j_backend, sync_neo4j, Neo4jArgs};
use drugcite_engine::conditions;
use drugcite_engine::embed::Embedder;
use drugcite_engine::engine::{Engine, GraphBackend};
use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, ProgressMode};
use drugcite_server::http::{ConnectionBounds, RateLimitConfig};
use drugcite_server::mcp;
use drugcite_server::startup::{ServeConfig, Server};
use drugcite_store::DataDir;

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
    /// Find adverse reactions in label text: JSON Lines `{"id","section","text"}` on stdin,
    /// `{"id","mentions":[{"text","start","end","condition_id","condition_name"}]}` on stdout.
    Extract {
        /// Condition vocabulary directory (.obo/.tsv files); default: the one the live index
        /// in --data-dir was built with.
        #[arg(long, env = "DRUGCITE_VOCAB_DIR")]
        vocab: Option<PathBuf>,
        /// Scoring and learning the extractor moved to the lab: `drugcite-lab extract`.
        #[arg(long, hide = true, num_args = 0.., allow_hyphen_values = true)]
        score: Option<Vec<String>>,
        #[arg(long, hide = true, num_args = 0.., allow_hyphen_values = true)]
        learn: Option<Vec<String>>,
        #[arg(long, hide = true)]
        half: Option<String>,
        #[arg(long, hide = true)]
        labels: Option<String>,
    },
    /// Moved to the lab binary: `drugcite-lab eval` (same arguments).
    #[command(hide = true)]
    Eval(MovedArgs),
    /// Moved to the lab binary: `drugcite-lab ranking-features` (same arguments).
    #[command(hide = true)]
    RankingFeatures(MovedArgs),
    /// Moved to the lab binary: `drugcite-lab severity-agreement` (same arguments).
    #[command(hide = true)]
    SeverityAgreement(MovedArgs),
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

impl Command {
    /// Whether the command reads or answers about label text, and so needs the knowledge
    /// tables (checked before it starts).
    fn reads_labels(&self) -> bool {
        matches!(
            self,
            Command::Ingest { .. }
                | Command::Serve { .. }
                | Command::Mcp { .. }
                | Command::Extract { .. }
        )
    }
}

/// Whatever a command that moved to `drugcite-lab` was given.
#[derive(clap::Args)]
struct MovedArgs {
    #[arg(num_args = 0.., allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
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
    let cli = match crate::config::parse::<Cli>() {
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
    if cli.command.reads_labels() {
        drugcite_engine::tables::check_all().context("a knowledge table is invalid")?;
    }
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
            drugcite_engine::embed::one_thread_per_product();
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
        } => write_stdout(&crate::config::check::report_for(
            Cli::command(),
            cli.config.as_deref(),
        )?),
        Command::Mcp { lexical_only } => {
            drugcite_engine::embed::one_thread_per_product();
            let engine = Engine::open(data_dir, load_embedder(&cli.model_dir, lexical_only)?)?;
            tokio::runtime::Runtime::new()?.block_on(mcp::serve_stdio(Arc::new(engine)))
        }
        Command::Extract {
            vocab,
            score,
            learn,
            half,
            labels,
        } => {
            let moved = if score.is_some() || half.is_some() {
                "--score"
            } else {
                "--learn"
            };
            anyhow::ensure!(
                score.is_none() && learn.is_none() && half.is_none() && labels.is_none(),
                "`drugcite extract {moved}` moved to the lab binary: run `drugcite-lab extract {moved} …` (same arguments)"
            );
            extract_cli::extract(&data_dir, vocab.as_deref())
        }
        Command::Eval(_) => moved("eval"),
        Command::RankingFeatures(_) => moved("ranking-features"),
        Command::SeverityAgreement(_) => moved("severity-agreement"),
    }
}

/// The failure of a command that moved to the lab binary, naming where it went.
fn moved(command: &str) -> anyhow::Result<()> {
    anyhow::bail!(
        "`drugcite {command}` moved to the lab binary: run `drugcite-lab {command} …` with the same arguments (cargo build --release -p drugcite-lab)"
    )
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
    let report = drugcite_store::check(data_dir, ProgressMode::Auto)?;
    write_stdout(&format!("{report}\n"))?;
    anyhow::ensure!(
        report.is_clean(),
        "integrity check failed: {} mismatches in {}",
        report.mismatches(),
        report.generation.display()
    );
    Ok(())
}
