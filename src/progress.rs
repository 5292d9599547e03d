//! Progress of long command-line work (ingest, the Neo4j sync): a bar on stderr when it is a
//! terminal, a log line every few seconds otherwise, nothing when silent. Says how far along
//! a job is; knows nothing of what the job does.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

const LOG_EVERY: Duration = Duration::from_secs(5);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar when stderr is a terminal, log lines otherwise.
    Auto,
    /// Nothing (library callers, tests).
    Silent,
}

/// What a job's position counts, which decides how the bar shows it.
#[derive(Clone, Copy, Debug)]
pub enum Unit {
    Bytes,
    /// Rows, labels, segments…: named by this word.
    Items(&'static str),
}

pub struct Progress {
    bar: Option<ProgressBar>,
    log_lines: bool,
    job: &'static str,
    total: u64,
    started: Instant,
    last_log: Instant,
}

impl Progress {
    /// A job called `job` ("ingest", "neo4j") that will count to `total`.
    pub fn start(mode: ProgressMode, job: &'static str, total: u64, unit: Unit) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let bar = (mode == ProgressMode::Auto && terminal).then(|| bar(job, total, unit));
        let now = Instant::now();
        Self {
            bar,
            log_lines: mode == ProgressMode::Auto && !terminal,
            job,
            total,
            started: now,
            last_log: now,
        }
    }

    /// Time since the job started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The job is at `position`; `message` (made only when shown) says more.
    pub fn update(&mut self, position: u64, message: impl FnOnce() -> String) {
        if let Some(bar) = &self.bar {
            bar.set_position(position);
            bar.set_message(message());
        } else if self.log_lines && self.last_log.elapsed() >= LOG_EVERY {
            self.last_log = Instant::now();
            tracing::info!("{}: {position}/{} {}", self.job, self.total, message());
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn bar(job: &str, total: u64, unit: Unit) -> ProgressBar {
    let counts = match unit {
        Unit::Bytes => "{bytes}/{total_bytes}".to_owned(),
        Unit::Items(word) => format!("{{pos}}/{{len}} {word} {{per_sec}}"),
    };
    let template = format!("{job} {{bar:30}} {counts} {{msg}} [{{elapsed_precise}}, eta {{eta}}]");
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}
