//! The `drugcite` command line an operator uses: ingest, serve, mcp, check here, the other
//! commands in `cli/` (their arguments in `cli/args.rs`). Calls the engine and the server, prints
//! results; every failure exits non-zero with a one-line reason. Evaluation and fitting are
//! `drugcite-lab`.

mod cli;
mod config;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::config::logging;
use anyhow::Context;
use clap::CommandFactory;
use cli::accounts as accounts_cli;
use cli::args::{Cli, Command, ConfigCommand, GraphBackendArg};
use cli::extract::{self as extract_cli, vocabulary_beside};
use cli::neo4j::{neo4j_backend, sync_neo4j};
use drugcite_engine::conditions;
use drugcite_engine::embed::Embedder;
use drugcite_engine::engine::{Engine, GraphBackend};
use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, ProgressMode};
use drugcite_server::http::RateLimitConfig;
use drugcite_server::mcp;
use drugcite_server::startup::{ServeConfig, Server};
use drugcite_store::DataDir;

/// mimalloc instead of glibc's malloc: the request path makes many short-lived buffers
/// (hyper's header tables, JSON bodies) and glibc spent ~8 % of a verify's CPU on them
/// (README "Benchmarks", issue 17).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
