//! Ingest progress: a bar over input bytes on a terminal, a log line every few seconds otherwise.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::embedding::EmbeddingCounts;

const LOG_EVERY: Duration = Duration::from_secs(5);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar when stderr is a terminal, log lines otherwise.
    Auto,
    /// Nothing (library callers, tests).
    Silent,
}

pub(super) struct Progress {
    bar: Option<ProgressBar>,
    log_lines: bool,
    bytes_read: Arc<AtomicU64>,
    started: Instant,
    last_log: Instant,
}

impl Progress {
    pub fn start(mode: ProgressMode, total_bytes: u64, bytes_read: Arc<AtomicU64>) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let bar = (mode == ProgressMode::Auto && terminal).then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total_bytes), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {bytes}/{total_bytes} {msg} [{elapsed_precise}, eta {eta}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        let now = Instant::now();
        Self {
            bar,
            log_lines: mode == ProgressMode::Auto && !terminal,
            bytes_read,
            started: now,
            last_log: now,
        }
    }

    pub fn update(&mut self, labels: u64, segments: u64, embedded: Option<EmbeddingCounts>) {
        let rate = labels as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        let mut message = format!("{labels} labels, {segments} segments, {rate:.0} labels/s");
        if let Some(counts) = embedded {
            let per_second = counts.computed as f64 / counts.compute_time.as_secs_f64().max(1e-3);
            message.push_str(&format!(
                ", embedded {} ({per_second:.0}/s), reused {}",
                counts.computed, counts.reused
            ));
        }
        if let Some(bar) = &self.bar {
            bar.set_position(self.bytes_read.load(Ordering::Relaxed));
            bar.set_message(message);
        } else if self.log_lines && self.last_log.elapsed() >= LOG_EVERY {
            self.last_log = Instant::now();
            tracing::info!(bytes = self.bytes_read.load(Ordering::Relaxed), "{message}");
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
