//! The `drugcite` command line's arguments: the global flags, the commands and their flags, as
//! clap parses them (with their DRUGCITE_* variables and defaults). Declarations only; what a
//! command does is `main.rs`'s and the other `cli/` modules'.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Duration;

use super::accounts::{AccountsCommand, KeysCommand, ServeAccountsArgs};
use super::neo4j::Neo4jArgs;
use crate::config::logging::LogFormat;
use clap::{Parser, Subcommand};
use drugcite_server::http::ConnectionBounds;

#[derive(Parser)]
#[command(
    name = "drugcite",
    version,
    about = "Search official drug-label text and verify every quote by fingerprint"
)]
pub(crate) struct Cli {
    /// Data directory holding the index and the API keys.
    #[arg(
        long,
        global = true,
        env = "DRUGCITE_DATA_DIR",
        default_value = "./data"
    )]
    pub(crate) data_dir: PathBuf,
    /// Sentence-embedding model directory (config.json, tokenizer.json, model.safetensors).
    #[arg(
        long,
        global = true,
        env = "DRUGCITE_MODEL_DIR",
        default_value = "models/all-MiniLM-L6-v2"
    )]
    pub(crate) model_dir: PathBuf,
    /// Accounts database shared by several servers (`postgres://…`); default: SQLite in the data dir.
    #[arg(long, global = true, env = "DRUGCITE_DATABASE_URL")]
    pub(crate) database_url: Option<String>,
    /// Settings file (TOML, see drugcite.example.toml): under DRUGCITE_* variables and flags.
    #[arg(long, global = true, env = "DRUGCITE_CONFIG", value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Log lines on stderr as text or as one JSON object per line.
    #[arg(long, global = true, value_enum, default_value = "text")]
    pub(crate) log_format: LogFormat,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
        accounts: Box<ServeAccountsArgs>,
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
    pub(crate) fn reads_labels(&self) -> bool {
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
pub(crate) struct MovedArgs {
    #[arg(num_args = 0.., allow_hyphen_values = true, trailing_var_arg = true)]
    pub(crate) args: Vec<String>,
}

#[derive(Subcommand)]
pub(crate) enum ConfigCommand {
    /// Print the effective settings of `serve` and `ingest` (file, DRUGCITE_* variables,
    /// defaults; secrets redacted); exit non-zero on an unknown key or a bad value.
    Check,
}

/// Connection, request and authentication bounds of `serve` (README "Keys, limits, errors").
#[derive(clap::Args)]
pub(crate) struct ServeBounds {
    /// Seconds to receive a request head (also how long a kept-alive connection may idle).
    #[arg(long, env = "DRUGCITE_HEADER_TIMEOUT_SECS", default_value = "10", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) header_timeout_secs: u64,
    /// Seconds one request may take, body and answer included (then 500 with Retry-After).
    #[arg(long, env = "DRUGCITE_REQUEST_TIMEOUT_SECS", default_value = "30", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) request_timeout_secs: u64,
    /// Seconds a connection may pass with no byte read or written before it is closed.
    #[arg(long, env = "DRUGCITE_IDLE_TIMEOUT_SECS", default_value = "60", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) idle_timeout_secs: u64,
    /// Most connections open at once; more wait in the listen backlog.
    #[arg(long, env = "DRUGCITE_MAX_CONNECTIONS", default_value = "1024", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_connections: u64,
    /// Seconds requests in flight may take after SIGTERM before the server exits anyway.
    #[arg(long, env = "DRUGCITE_SHUTDOWN_GRACE_SECS", default_value = "10")]
    pub(crate) shutdown_grace_secs: u64,
    /// Failed authentications per minute allowed to one client address (then 429).
    #[arg(long, env = "DRUGCITE_AUTH_FAILURES_PER_ADDRESS", default_value = "10")]
    pub(crate) auth_failures_per_address: NonZeroU32,
}

impl ServeBounds {
    pub(crate) fn connections(&self) -> ConnectionBounds {
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
pub(crate) enum GraphBackendArg {
    Embedded,
    Neo4j,
}
