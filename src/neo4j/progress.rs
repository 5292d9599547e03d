//! The sync's progress: a bar over rows written on a terminal, a log line every few seconds
//! otherwise. Knows nothing of what is written.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::ingest::ProgressMode;

/// A bar over rows written when stderr is a terminal, a log line every few seconds otherwise.
pub(super) struct SyncProgress {
    bar: Option<ProgressBar>,
    log_lines: bool,
    done: u64,
    total: u64,
    last_log: Instant,
}

const LOG_EVERY: Duration = Duration::from_secs(5);

impl SyncProgress {
    pub fn start(mode: ProgressMode, total: u64) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let bar = (mode == ProgressMode::Auto && terminal).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "neo4j {bar:30} {pos}/{len} rows {per_sec} [{elapsed_precise}, eta {eta}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        Self {
            bar,
            log_lines: mode == ProgressMode::Auto && !terminal,
            done: 0,
            total,
            last_log: Instant::now(),
        }
    }

    pub fn advance(&mut self, items: u64) {
        self.done += items;
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
        } else if self.log_lines && self.last_log.elapsed() >= LOG_EVERY {
            self.last_log = Instant::now();
            tracing::info!("neo4j sync: {}/{} rows", self.done, self.total);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
