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
    /// A job called `job` ("ingest", "neo4j sync") that will count to `total`; a total of
    /// 0 means not known beforehand (a spinner).
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
            let of_total = match self.total {
                0 => String::new(),
                total => format!("/{total}"),
            };
            tracing::info!("{}: {position}{of_total} {}", self.job, message());
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn bar(job: &str, total: u64, unit: Unit) -> ProgressBar {
    if total == 0 {
        return spinner(job, unit);
    }
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

fn spinner(job: &str, unit: Unit) -> ProgressBar {
    let count = match unit {
        Unit::Bytes => "{bytes}".to_owned(),
        Unit::Items(word) => format!("{{pos}} {word}"),
    };
    let template = format!("{{spinner}} {job} {count} {{msg}} [{{elapsed_precise}}]");
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}
