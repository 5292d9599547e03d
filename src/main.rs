//! The `drugcite` command line: ingest, serve, keys. Parses arguments, calls the library,
//! prints results; every failure exits non-zero with a one-line reason.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Parser, Subcommand};
use drugcite::engine::Engine;
use drugcite::http::{self, AppState, RateLimitConfig};
use drugcite::ingest::{ingest, ProgressMode};
use drugcite::keys::{KeyRing, KeyStore, Scope};
use drugcite::store::DataDir;

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
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build a new index from openFDA label files and make it live atomically.
    Ingest {
        /// .jsonl/.ndjson (optionally .gz), .json envelopes or arrays (optionally .gz), bulk .zip files, or directories of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Serve the HTTP API over the live index.
    Serve {
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        /// Requests per minute allowed to one API key.
        #[arg(long, default_value = "600")]
        rate_limit_per_key: NonZeroU32,
        /// Requests per minute allowed to one client address without a key (keyless verify).
        #[arg(long, default_value = "120")]
        rate_limit_per_address: NonZeroU32,
    },
    /// Manage API keys.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Create a key; the key is printed once, alone on the last line.
    Create {
        #[arg(long)]
        name: String,
        /// Comma-separated: search, verify, graph.
        #[arg(long, default_value = "search,verify,graph")]
        scopes: String,
    },
    /// List keys (never the keys themselves).
    List,
    /// Revoke a key by id; takes effect on running servers at once.
    Revoke { id: String },
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,tantivy=warn,tower_http=warn".into()),
        )
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let data_dir = DataDir::new(&cli.data_dir);
    match cli.command {
        Command::Ingest { paths } => {
            let report = ingest(&data_dir, &paths, ProgressMode::Auto)?;
            println!("{report}");
            Ok(())
        }
        Command::Serve {
            addr,
            rate_limit_per_key,
            rate_limit_per_address,
        } => {
            let limits = RateLimitConfig {
                per_key_per_minute: rate_limit_per_key,
                per_address_per_minute: rate_limit_per_address,
            };
            serve(data_dir, addr, limits)
        }
        Command::Keys { command } => keys(&data_dir, command),
    }
}

fn serve(data_dir: DataDir, addr: SocketAddr, limits: RateLimitConfig) -> anyhow::Result<()> {
    let engine = Engine::open(data_dir.clone())?;
    tracing::info!(segments = engine.segment_count(), generation = %engine.generation().display(), "index loaded");
    let state = AppState::new(Arc::new(engine), KeyRing::new(data_dir.keys_path()), limits);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("binding {addr}"))?;
        tracing::info!("listening on {}", listener.local_addr()?);
        http::serve(listener, state).await.context("serving")
    })
}

fn keys(data_dir: &DataDir, command: KeysCommand) -> anyhow::Result<()> {
    let store = KeyStore::new(data_dir.keys_path());
    match command {
        KeysCommand::Create { name, scopes } => {
            let (record, key) = store.create(&name, Scope::parse_list(&scopes)?)?;
            println!(
                "created key {} ({}) with scopes {:?}",
                record.id, record.name, record.scopes
            );
            println!("{}", key.expose());
        }
        KeysCommand::List => {
            for key in store.list()? {
                let state = if key.revoked_at.is_some() {
                    "revoked"
                } else {
                    "active"
                };
                println!(
                    "{}\t{}\t{:?}\tcreated {}\t{state}",
                    key.id, key.name, key.scopes, key.created_at
                );
            }
        }
        KeysCommand::Revoke { id } => {
            let record = store.revoke(&id)?;
            println!("revoked key {} ({})", record.id, record.name);
        }
    }
    Ok(())
}
