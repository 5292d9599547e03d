//! The lab's tests, one binary: the brat agreement and `severity-agreement`, the extractor's
//! score on the held-out half (`extract --score`), and `compare` over two answer files.

mod compare;
mod extract_score;
mod severity_brat;

use std::path::{Path, PathBuf};

/// `$DRUGCITE_SHARED_DATA`, else `../shared/data` beside the workspace.
pub fn shared_data() -> PathBuf {
    std::env::var_os("DRUGCITE_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}
