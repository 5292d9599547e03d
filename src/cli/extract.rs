//! The binary's `extract` command: finds adverse reactions in label text, JSON Lines
//! `{"id","section","text"}` on stdin, `{"id","mentions":[…]}` on stdout. Thin: matching is
//! `drugcite_engine::conditions`; scoring and learning the extractor are `drugcite-lab extract`.

use std::path::{Path, PathBuf};

use drugcite_engine::conditions::{self, vocabulary};
use drugcite_store::DataDir;

/// Streams stdin to stdout with the vocabulary of `--vocab`, else the live index's.
pub fn extract(data_dir: &DataDir, vocab: Option<&Path>) -> anyhow::Result<()> {
    let matcher = conditions::matcher(&vocabulary::given_or_live(data_dir, vocab)?);
    let stdin = std::io::stdin().lock();
    let stdout = std::io::BufWriter::new(std::io::stdout().lock());
    conditions::extract_json_lines(&matcher, stdin, stdout)?;
    Ok(())
}

/// A `vocab` directory beside one of the inputs or up to three levels above it (the shared
/// data layout keeps `labels/` and `vocab/` side by side).
pub fn vocabulary_beside(inputs: &[PathBuf]) -> Option<PathBuf> {
    inputs
        .iter()
        .flat_map(|input| input.ancestors().skip(1).take(3))
        .map(|dir| dir.join("vocab"))
        .find(|dir| dir.is_dir())
}
