//! `drugcite check`: re-hashes every file of the live generation against its manifest and
//! every stored segment against its fingerprint, and lists each difference. Reads only;
//! repairs nothing and serves nothing.

use crate::files::MANIFEST_FILE;
use std::fmt;
use std::path::PathBuf;

use super::checksum::{self, FileMismatch};
use super::lease::Lease;
use super::snapshot::Snapshot;
use super::{DataDir, StoreError};
use crate::progress::{Progress, ProgressMode, Unit};

/// A stored segment whose text, label or section no longer hashes to its fingerprint.
#[derive(Clone, Debug)]
pub struct SegmentMismatch {
    pub fingerprint: String,
    pub problem: String,
}

#[derive(Debug)]
pub struct CheckReport {
    pub generation: PathBuf,
    pub files: usize,
    pub bytes: u64,
    pub segments: u64,
    pub file_mismatches: Vec<FileMismatch>,
    pub segment_mismatches: Vec<SegmentMismatch>,
    /// Why the segments could not all be read (tantivy could not open or decode the index).
    pub unreadable: Option<String>,
}

impl CheckReport {
    pub fn is_clean(&self) -> bool {
        self.file_mismatches.is_empty()
            && self.segment_mismatches.is_empty()
            && self.unreadable.is_none()
    }

    pub fn mismatches(&self) -> usize {
        self.file_mismatches.len()
            + self.segment_mismatches.len()
            + usize::from(self.unreadable.is_some())
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.file_mismatches {
            writeln!(f, "MISMATCH file {}: {}", m.file, m.problem)?;
        }
        for m in &self.segment_mismatches {
            writeln!(f, "MISMATCH segment {}: {}", m.fingerprint, m.problem)?;
        }
        if let Some(reason) = &self.unreadable {
            writeln!(f, "UNREADABLE index: {reason}")?;
        }
        let verdict = if self.is_clean() { "ok" } else { "FAILED" };
        write!(
            f,
            "{verdict}: generation {}: {} files ({:.1} MiB) and {} segments checked, {} mismatches",
            self.generation.display(),
            self.files,
            self.bytes as f64 / (1024.0 * 1024.0),
            self.segments,
            self.mismatches()
        )
    }
}

/// Checks the live generation of `data_dir` (leased while it is checked). Errors only when
/// there is nothing to check (no index, an unreadable manifest or `CURRENT`).
pub fn check(data_dir: &DataDir, mode: ProgressMode) -> Result<CheckReport, StoreError> {
    let name = data_dir.current_name()?;
    let lease = Lease::take(data_dir.root(), &name)?;
    let generation = data_dir.generation_path(&name);
    let manifest_path = generation.join(MANIFEST_FILE);
    let body = std::fs::read(&manifest_path).map_err(super::io_error(format!(
        "reading {}",
        manifest_path.display()
    )))?;
    let expected = checksum::recorded(
        &manifest_path,
        &checksum::parse_manifest(&manifest_path, &body)?,
    )?;
    let mut progress = Progress::start(mode, "check: hashing files", 0, Unit::Bytes);
    let mut bytes = 0;
    let file_mismatches = checksum::compare(&generation, &expected, &mut |read| {
        bytes += read;
        progress.update(bytes, String::new);
    })?;
    progress.finish();
    let mut report = CheckReport {
        generation: generation.clone(),
        files: expected.files(),
        bytes,
        segments: 0,
        file_mismatches,
        segment_mismatches: Vec::new(),
        unreadable: None,
    };
    let mut progress = Progress::start(mode, "check: re-hashing", 0, Unit::Items("segments"));
    if let Err(e) = rehash_segments(&generation, lease, &mut report, &mut progress) {
        report.unreadable = Some(e.to_string());
    }
    progress.finish();
    Ok(report)
}

fn rehash_segments(
    generation: &std::path::Path,
    lease: Lease,
    report: &mut CheckReport,
    progress: &mut Progress,
) -> Result<(), StoreError> {
    let snapshot = Snapshot::open_unverified(generation, lease)?;
    snapshot.visit_segments(|view| {
        report.segments += 1;
        if report.segments.is_multiple_of(1024) {
            progress.update(report.segments, String::new);
        }
        if let Some(problem) = snapshot.fingerprint_problem(&view) {
            report.segment_mismatches.push(SegmentMismatch {
                fingerprint: view.fingerprint.to_hex(),
                problem,
            });
        }
    })
}
