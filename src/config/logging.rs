//! Where log lines go and how they look: stderr, as text (the default; coloured on a terminal)
//! or as one JSON object per line (`--log-format json`), filtered by `RUST_LOG`. Access lines
//! (`drugcite::access`) are ordinary events with their own target.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// `--log-format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

/// The filter unless `RUST_LOG` says otherwise: our info lines, only the warnings of the
/// libraries, no access lines (each is a formatted write per request: measured to cost verify
/// throughput; `RUST_LOG=info` turns them on).
const DEFAULT_FILTER: &str =
    "info,tantivy=warn,tower_http=warn,neo4rs=warn,sqlx=warn,rmcp=warn,drugcite::access=off";

/// Installs the process's log subscriber. A log line that cannot be written (stderr closed)
/// is dropped silently: it must never fail the request it describes.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| DEFAULT_FILTER.into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .log_internal_errors(false)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .init(),
    }
}
