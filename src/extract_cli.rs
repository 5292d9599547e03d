//! The binary's `extract` command: finds adverse reactions in label text read from stdin, scores
//! the extractor on an annotation file (`--score`) or learns the curated term file (`--learn`).
//! Thin: matching, scoring and learning are `drugcite::conditions`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use drugcite::conditions::learn::{self, read_annotations, Half};
use drugcite::conditions::{self, VocabularyTerm};
use drugcite::store::DataDir;

use crate::write_stdout;

/// `--half` of `extract --score`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum HalfArg {
    Learning,
    HeldOut,
    All,
}

impl From<HalfArg> for Half {
    fn from(half: HalfArg) -> Self {
        match half {
            HalfArg::Learning => Half::Learning,
            HalfArg::HeldOut => Half::HeldOut,
            HalfArg::All => Half::All,
        }
    }
}

/// What `extract` was asked to do, from its flags.
pub enum ExtractTask {
    /// JSON Lines of label text on stdin, their mentions on stdout.
    Stream,
    Score {
        annotations: PathBuf,
        half: Half,
    },
    Learn {
        annotations: PathBuf,
        labels: PathBuf,
    },
}

/// Runs `task` with the vocabulary of `--vocab`, else the one compiled into the live index.
pub fn extract(data_dir: &DataDir, vocab: Option<&Path>, task: ExtractTask) -> anyhow::Result<()> {
    let vocabulary = condition_vocabulary(data_dir, vocab)?;
    match task {
        ExtractTask::Score { annotations, half } => score(&vocabulary, &annotations, half),
        ExtractTask::Learn {
            annotations,
            labels,
        } => learn_terms(&vocabulary, &annotations, &labels),
        ExtractTask::Stream => {
            let matcher = conditions::matcher(&vocabulary);
            let stdin = std::io::stdin().lock();
            let stdout = std::io::BufWriter::new(std::io::stdout().lock());
            conditions::extract_json_lines(&matcher, stdin, stdout)?;
            Ok(())
        }
    }
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

/// The vocabulary from `--vocab`, else the one compiled into the live index.
fn condition_vocabulary(
    data_dir: &DataDir,
    vocab: Option<&Path>,
) -> anyhow::Result<Vec<VocabularyTerm>> {
    if let Some(dir) = vocab {
        return Ok(conditions::vocabulary::read_dir(dir)?);
    }
    let generation = data_dir.current_generation().map_err(|e| {
        anyhow::anyhow!("no condition vocabulary: pass --vocab DIR (or DRUGCITE_VOCAB_DIR), or ingest first ({e})")
    })?;
    let terms = conditions::vocabulary::read_compiled(&generation)?;
    anyhow::ensure!(
        !terms.is_empty(),
        "the live index was built without a condition vocabulary: pass --vocab DIR"
    );
    Ok(terms)
}

/// Prints precision, recall and F1 per section on `half` of the annotation file.
fn score(vocabulary: &[VocabularyTerm], annotations: &Path, half: Half) -> anyhow::Result<()> {
    let sections = read_annotations(annotations)
        .with_context(|| format!("reading {}", annotations.display()))?;
    let matcher = conditions::matcher(vocabulary);
    let mut table = format!(
        "{:<28} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
        "section", "found", "gold", "P", "R", "F1"
    );
    for (section, counts) in learn::score(&matcher, &sections, half) {
        table.push_str(&format!(
            "{section:<28} {:>6} {:>6} {:>6.3} {:>6.3} {:>6.3}\n",
            counts.found,
            counts.annotated,
            counts.precision(),
            counts.recall(),
            counts.f1()
        ));
    }
    write_stdout(&table)
}

/// Prints the curated term file learned from the annotations and the labels' own lists.
fn learn_terms(
    vocabulary: &[VocabularyTerm],
    annotations: &Path,
    labels: &Path,
) -> anyhow::Result<()> {
    let sections = read_annotations(annotations)
        .with_context(|| format!("reading {}", annotations.display()))?;
    let listed =
        learn::listed_reactions(labels).with_context(|| format!("reading {}", labels.display()))?;
    let rows = learn::learn(&sections, vocabulary, &listed);
    let mut file = TERMS_HEADER.to_owned();
    for row in &rows {
        file.push_str(&conditions::lexicon::format_curated(row));
        file.push('\n');
    }
    write_stdout(&file)
}

const TERMS_HEADER: &str = "\
# Adverse-reaction terms drugcite curates beside the open vocabularies, with how often each
# occurred in the learning half of the annotated ADR set (TAC 2017, labels whose SHA-256 id
# hash starts with an even byte) and how often it was annotated there.
# Sources: mentions annotated in that half (origin 'annotated'); items of the labels' own
# \"most common adverse reactions were ...\" lists in the openFDA corpus named by at least
# two labels ('listed'); Disease/Symptom Ontology terms seen in that half ('vocabulary').
# Generated by: drugcite extract --vocab ../shared/data/vocab
#   --learn ../shared/data/eval/adr-train-labels.json
#   --labels ../shared/data/labels/openfda-labels.jsonl.gz > graph/adverse-reaction-terms.tsv
term\torigin\tadverse_seen\tadverse_annotated\tother_seen\tother_annotated
";
