//! Time as the tagger's timings count it: CPU time of the calling thread (Linux
//! `/proc/thread-self/schedstat`, nanoseconds on a core), so runs sharing a busy machine still
//! report what one dedicated core would take; wall time where that file is missing.

use std::time::Instant;

pub struct Clock {
    wall: Instant,
    cpu: Option<u64>,
}

/// Nanoseconds the calling thread has run on a CPU.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

impl Clock {
    pub fn start() -> Self {
        Self {
            wall: Instant::now(),
            cpu: thread_cpu_ns(),
        }
    }

    /// CPU seconds of this thread since `start` (wall seconds when CPU time is unavailable).
    pub fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) => b.saturating_sub(a) as f64 / 1e9,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }

    pub fn wall_seconds(&self) -> f64 {
        self.wall.elapsed().as_secs_f64()
    }
}
