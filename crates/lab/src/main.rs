//! `drugcite-lab`: evaluation, before/after comparison, fitting rows and the learning of the
//! extractor's and the graph's cue tables. Never linked into the server; its only road to the
//! product is a data file it writes (ranking weights, cue tables, term files).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use drugcite_engine::embed::Embedder;
use drugcite_lab::eval::Part;
use drugcite_lab::extract_cli::{ExtractTask, HalfArg};
use drugcite_lab::tagger::cv::{CvOptions, Design};
use drugcite_lab::{answers, eval_cli, extract_cli, severity_cli, verdicts_cli, write_stdout};
use drugcite_store::DataDir;

#[derive(Parser)]
#[command(
    name = "drugcite-lab",
    version,
    about = "drugcite's lab: score, compare, fit and learn (never part of the server)"
)]
struct Cli {
    /// Data directory holding the index.
    #[arg(
        long,
        global = true,
        env = "DRUGCITE_DATA_DIR",
        default_value = "./data"
    )]
    data_dir: PathBuf,
    /// Sentence-embedding model directory (config.json, tokenizer.json, model.safetensors).
    #[arg(
        long,
        global = true,
        env = "DRUGCITE_MODEL_DIR",
        default_value = "models/all-MiniLM-L6-v2"
    )]
    model_dir: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Score a running server on a question file: search questions (the dev-questions.jsonl
    /// format) or, detected by their `must` rules, graph questions (graph-dev-questions.jsonl).
    Eval {
        /// Base URL of the server to score.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// API key with scope `search` (`graph` for a graph question file).
        #[arg(long, env = "DRUGCITE_API_KEY")]
        key: String,
        /// Question file: one JSON object per line with id, kind, question and `relevant`
        /// (search) or `must` rules (graph, in the format of `graph-dev-questions.jsonl`).
        questions: PathBuf,
        /// Also print every question's scores and its first result.
        #[arg(long)]
        verbose: bool,
        /// Which questions: `fit` (those ranking parameters are fitted on), `held` (the
        /// held-out third of each kind, never fitted on) or `all`; the same split for search
        /// and graph files.
        #[arg(long, value_enum, default_value = "all")]
        part: Part,
    },
    /// Score the yes/no verdicts of a running server's /v1/graph on a verdict question file
    /// (`eval/verdict-questions.jsonl`): accuracy, dangerous verdicts (less cautious than the
    /// label), false alarms and evidence cited, per shape; then every dangerous answer.
    Verdicts {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// API key with scope `graph`.
        #[arg(long, env = "DRUGCITE_API_KEY")]
        key: String,
        /// `fit`, `held` (every third of each shape by id hash, never fitted on) or `all`.
        #[arg(long, value_enum, default_value = "all")]
        part: Part,
        /// Print every answer, not only the dangerous ones.
        #[arg(long)]
        verbose: bool,
        questions: PathBuf,
    },
    /// Every answer a running server gives to the questions of the files, as JSON Lines on
    /// stdout (`{"file","id","endpoint","answer"}`, timings removed): search questions at
    /// /v1/search (top_k 10), graph questions (with `must` rules) at /v1/graph.
    Answers {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// API key with scopes `search` and `graph`.
        #[arg(long, env = "DRUGCITE_API_KEY")]
        key: String,
        #[arg(required = true)]
        questions: Vec<PathBuf>,
    },
    /// Which questions two `answers` files answer differently; exits non-zero if any does.
    Compare { before: PathBuf, after: PathBuf },
    /// Training rows for the ranking weights, JSON Lines on stdout: per question of the files,
    /// every candidate text with its copies' features and relevance (`crates/lab/scripts/fit-ranking.py`).
    RankingFeatures {
        /// Question files in the dev-questions.jsonl format.
        #[arg(required = true)]
        questions: Vec<PathBuf>,
    },
    /// Find adverse reactions in label text: JSON Lines `{"id","section","text"}` on stdin,
    /// `{"id","mentions":[{"text","start","end","condition_id","condition_name"}]}` on stdout.
    Extract {
        /// Condition vocabulary directory (.obo/.tsv files); default: the one the live index
        /// in --data-dir was built with.
        #[arg(long, env = "DRUGCITE_VOCAB_DIR")]
        vocab: Option<PathBuf>,
        /// Instead of reading stdin, score the extractor on an annotation file
        /// (adr-train-labels.json format) and print precision, recall and F1 per section.
        #[arg(long, conflicts_with = "learn")]
        score: Option<PathBuf>,
        /// Which labels of the annotation file to score: the fixed split's halves or all.
        #[arg(long, value_enum, default_value = "held-out", requires = "score")]
        half: HalfArg,
        /// Instead of reading stdin, learn the curated term file (graph/adverse-reaction-terms.tsv)
        /// from the learning half of an annotation file and the lists of a label corpus.
        #[arg(long, requires = "labels")]
        learn: Option<PathBuf>,
        /// openFDA JSON Lines corpus (optionally .gz) whose "most common adverse reactions"
        /// lists are read by --learn.
        #[arg(long, requires = "learn")]
        labels: Option<PathBuf>,
    },
    /// How the graph's severity and negation rules agree with the brat annotations of the TAC
    /// 2017 labels (negation and per-grade severity P/R/F1, grade agreement), curated words alone
    /// and with the learned cues, on a fixed split of the files by label name.
    SeverityAgreement {
        /// Directory holding `txt/` and `brat/`.
        #[arg(default_value = "../shared/data/eval/tac2017-ars")]
        dir: PathBuf,
        /// Which files: `fit` (the cues are learned from), `held` (never learned from) or `all`.
        #[arg(long, value_enum, default_value = "held")]
        part: Part,
        /// Instead, learn the cue table from the fit part into this file
        /// (the graph compiles in crates/engine/src/graph/severity-cues.json).
        #[arg(long, value_name = "FILE")]
        learn: Option<PathBuf>,
    },
    /// Cross-validate an adverse-reaction tagger design on the TAC 2017 brat files: per fold
    /// and per mention type exact-span P/R/F1, training and inference time, and the cost of
    /// tagging the corpus (issue 55's research step; `docs/lab.md`).
    TaggerCv {
        /// Directory holding `txt/` and `brat/`.
        #[arg(long, default_value = "../shared/data/eval/tac2017-ars")]
        brat: PathBuf,
        /// A: frozen MiniLM vectors and a head; B: distilled vectors, word and dictionary
        /// features and a head; C: MiniLM's top 2 layers fine-tuned with a per-word head; rules:
        /// the existing extractor.
        #[arg(long, value_enum)]
        design: Design,
        #[arg(long, default_value_t = 5)]
        folds: usize,
        /// Seed of the fold split and of the head's initialisation and batches.
        #[arg(long, default_value_t = 55)]
        seed: u64,
        /// Design A: the encoder layers (1-based, 6 the last) whose vectors are concatenated.
        #[arg(long, value_delimiter = ',', default_value = "5,6")]
        layers: Vec<usize>,
        /// Training epochs (default: the design's own).
        #[arg(long)]
        epochs: Option<usize>,
        /// Condition vocabulary directory (.obo/.tsv files) of the rule extractor.
        #[arg(
            long,
            env = "DRUGCITE_VOCAB_DIR",
            default_value = "../shared/data/vocab"
        )]
        vocab: PathBuf,
        /// openFDA corpus: listed reactions for the dictionary, and the text costed.
        #[arg(long, default_value = "../shared/data/labels/openfda-labels.jsonl.gz")]
        corpus: PathBuf,
        /// `extract --score`'s annotation file, naming the shipped extractor's held-out half.
        #[arg(long, default_value = "../shared/data/eval/adr-train-labels.json")]
        annotations: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let data_dir = DataDir::new(&cli.data_dir);
    match cli.command {
        Command::Eval {
            url,
            key,
            questions,
            verbose,
            part,
        } => eval_cli::evaluate(&url, &key, &questions, verbose, part)?,
        Command::Answers {
            url,
            key,
            questions,
        } => answers::answers(&url, &key, &questions, std::io::stdout().lock())?,
        Command::Verdicts {
            url,
            key,
            part,
            verbose,
            questions,
        } => verdicts_cli::run(&url, &key, &questions, part, verbose)?,
        Command::Compare { before, after } => return compare(&before, &after),
        Command::RankingFeatures { questions } => {
            let embedder = Arc::new(Embedder::load(&cli.model_dir)?);
            eval_cli::ranking_features(data_dir, Some(embedder), &questions)?
        }
        Command::SeverityAgreement { dir, part, learn } => match learn {
            Some(out) => severity_cli::learn_cues(&dir, &out)?,
            None => severity_cli::agreement(&dir, part)?,
        },
        Command::TaggerCv {
            brat,
            design,
            folds,
            seed,
            layers,
            epochs,
            vocab,
            corpus,
            annotations,
        } => {
            let options = CvOptions {
                brat,
                model_dir: cli.model_dir,
                vocab,
                corpus,
                annotations: Some(annotations),
                design,
                folds,
                seed,
                layers,
                epochs,
            };
            write_stdout(&drugcite_lab::tagger::cv::run(&options)?)?
        }
        Command::Extract {
            vocab,
            score,
            half,
            learn,
            labels,
        } => {
            let task = match (score, learn, labels) {
                (Some(annotations), _, _) => ExtractTask::Score {
                    annotations,
                    half: half.into(),
                },
                (_, Some(annotations), Some(labels)) => ExtractTask::Learn {
                    annotations,
                    labels,
                },
                _ => ExtractTask::Stream,
            };
            extract_cli::extract(&data_dir, vocab.as_deref(), task)?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints each question answered differently and a summary line; non-zero if any differs.
fn compare(before: &Path, after: &Path) -> anyhow::Result<ExitCode> {
    let (count, differences) = answers::compare(before, after)?;
    let mut report = String::new();
    for d in &differences {
        report.push_str(&format!("{}\t{}\t{}\n", d.file, d.id, d.at));
    }
    report.push_str(&format!(
        "{} of {count} questions answered differently\n",
        differences.len()
    ));
    write_stdout(&report)?;
    Ok(if differences.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
