//! `drugcite-lab tagger-cv`: k-fold cross-validation of one tagger design (A: frozen MiniLM
//! vectors, B: distilled vectors with dictionary features, rules: the existing extractor) on the
//! brat files, with timings. Orchestration only: reading, features, the head, decoding and
//! scoring live in the siblings; the printed report in `report`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::Context;
use drugcite_engine::conditions::vocabulary;
use sha2::{Digest, Sha256};

use crate::extractor_learning::listed_reactions;

use super::bert::Bert;
use super::clock::Clock;
use super::features::{self, StaticTable, WORD_BUCKETS};
use super::finetune::{self, Tagger, TuneConfig};
use super::folds;
use super::head::{Head, HeadConfig, Inputs};
use super::mentions::{spans, tags, Document, Mention, TagStats, TYPES};
use super::reader;
use super::report::{FoldResult, Report};
use super::rules;
use super::score::Score;
use super::viterbi;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Design {
    /// Frozen MiniLM token vectors (the layers of --layers) and a window head.
    A,
    /// The engine's distilled per-token vectors, word shape, hashed word ids and the rule
    /// extractor's matches, with a window head.
    B,
    /// A's MiniLM vectors together with all of B's features, with a window head.
    Ab,
    /// MiniLM's top layers fine-tuned (trainable copies over the cached frozen layers) with a
    /// per-word linear head on each word's first piece.
    C,
    /// The existing rule extractor, its dictionary re-learned without the test fold, and as shipped.
    Rules,
}

pub struct CvOptions {
    pub brat: PathBuf,
    pub model_dir: PathBuf,
    pub vocab: PathBuf,
    /// openFDA corpus: the "most common adverse reactions" lists the dictionary learns from,
    /// and the text whose tagging cost is estimated.
    pub corpus: PathBuf,
    /// The annotation file of `extract --score`, to find the shipped extractor's held-out half.
    pub annotations: Option<PathBuf>,
    pub design: Design,
    pub folds: usize,
    pub seed: u64,
    pub layers: Vec<usize>,
    pub epochs: Option<usize>,
}

/// The fixed hyperparameters of each design (chosen before any run, not tuned on the folds).
fn head_config(design: Design, seed: u64, epochs: Option<usize>) -> HeadConfig {
    let (window, projection, hidden, word_dims, default_epochs, batch, learning_rate) = match design
    {
        Design::A => (1, 128, 256, 0, 8, 256, 1e-3),
        Design::Ab => (1, 128, 256, 16, 8, 512, 2e-3),
        _ => (2, 64, 128, 16, 10, 1024, 3e-3),
    };
    HeadConfig {
        window,
        projection,
        hidden,
        word_dims,
        word_buckets: WORD_BUCKETS,
        epochs: epochs.unwrap_or(default_epochs),
        batch,
        learning_rate,
        dropout: 0.2,
        seed,
    }
}

/// Design C's fixed hyperparameters (chosen before any run, not tuned on the folds).
fn tune_config(seed: u64, epochs: Option<usize>) -> TuneConfig {
    TuneConfig {
        trainable: 2,
        epochs: epochs.unwrap_or(3),
        windows_per_step: 8,
        encoder_rate: 5e-5,
        head_rate: 1e-3,
        warmup: 0.1,
        weight_decay: 0.01,
        dropout: 0.1,
        seed,
    }
}

pub fn run(options: &CvOptions) -> anyhow::Result<String> {
    let started = Clock::start();
    let docs = reader::read_dir(&options.brat)?;
    let mut stats = TagStats::default();
    let all_tags: Vec<_> = docs
        .iter()
        .map(|doc| {
            let (t, s) = tags(doc);
            stats.add(s);
            t
        })
        .collect();
    let fold_of = folds::assign(
        docs.iter().map(|d| d.label.as_str()),
        options.folds,
        options.seed,
    );
    let run = format!(
        "design {:?}  folds {}  seed {}  layers {:?}",
        options.design, options.folds, options.seed, options.layers
    );
    let mut report = Report::new(run, options.folds, &docs, data_hash(&docs), stats, &fold_of);
    let tokenizer = features::tokenizer(&options.model_dir)?;
    let vocabulary = vocabulary::read_dir(&options.vocab)
        .with_context(|| format!("reading {}", options.vocab.display()))?;
    let listed = listed_reactions(&options.corpus)
        .with_context(|| format!("reading {}", options.corpus.display()))?;
    let mut matchers = rules::Matchers::new(&vocabulary, &listed, &docs, &fold_of);
    let doc_fold: Vec<usize> = docs.iter().map(|d| fold_of[&d.label]).collect();
    let config = head_config(options.design, options.seed, options.epochs);
    let head_folds = HeadFolds {
        config: &config,
        docs: &docs,
        all_tags: &all_tags,
        doc_fold: &doc_fold,
    };
    match options.design {
        Design::Rules => rules::rules_report(
            options.folds,
            options.annotations.as_deref(),
            &docs,
            &doc_fold,
            &mut matchers,
            &vocabulary,
            &mut report,
        )?,
        Design::A | Design::Ab => {
            let bert = Bert::load(&options.model_dir)?;
            let mut rows = Vec::new();
            let mut seconds = vec![0f64; docs.len()];
            let mut pieces_run = 0;
            for (i, doc) in docs.iter().enumerate() {
                let clock = Clock::start();
                let (r, p) = features::bert_features(
                    &bert,
                    &tokenizer,
                    &doc.text,
                    &doc.words,
                    &options.layers,
                )?;
                seconds[i] = clock.seconds();
                rows.extend(r);
                pieces_run += p;
            }
            report.note(format!(
                "design A features: {} pieces run through the model (windows of {} with context), {:.1} s",
                pieces_run,
                256,
                seconds.iter().sum::<f64>()
            ));
            eprintln!("design A features done");
            let dims = bert.hidden * options.layers.len();
            let words: usize = docs.iter().map(|d| d.words.len()).sum();
            if options.design == Design::A {
                let inputs =
                    Inputs::new(rows, dims, vec![0; words], &lengths(&docs), config.window)?;
                for fold in 0..options.folds {
                    let result = head_folds.train_and_test(dims, &inputs, fold, |i| seconds[i])?;
                    report.fold(result);
                }
            } else {
                let table = StaticTable::load(&options.model_dir)?;
                let width = dims + features::static_dims(&table);
                for fold in 0..options.folds {
                    let (cheap, hashes, cheap_seconds) =
                        static_rows(&table, &tokenizer, &docs, &doc_fold, &mut matchers, fold)?;
                    let cheap_dims = features::static_dims(&table);
                    let mut joined = Vec::with_capacity(words * width);
                    for (wide, narrow) in
                        rows.chunks_exact(dims).zip(cheap.chunks_exact(cheap_dims))
                    {
                        joined.extend_from_slice(wide);
                        joined.extend_from_slice(narrow);
                    }
                    let inputs =
                        Inputs::new(joined, width, hashes, &lengths(&docs), config.window)?;
                    let result = head_folds
                        .train_and_test(width, &inputs, fold, |i| seconds[i] + cheap_seconds[i])?;
                    report.fold(result);
                }
            }
        }
        Design::C => {
            let bert = Bert::load(&options.model_dir)?;
            let tune = tune_config(options.seed, options.epochs);
            let frozen = bert.layer_count() - tune.trainable;
            let starts = word_starts(&docs);
            let (mut windows, mut seconds, mut pieces_run) =
                (Vec::new(), vec![0f64; docs.len()], 0);
            for (i, doc) in docs.iter().enumerate() {
                let clock = Clock::start();
                let (w, p) = finetune::windows(
                    &bert, &tokenizer, &doc.text, &doc.words, frozen, i, starts[i],
                )?;
                seconds[i] = clock.seconds();
                windows.extend(w);
                pieces_run += p;
            }
            report.note(format!(
                "design C: {} windows, {} pieces run through the {frozen} frozen layers once, {:.1} CPU s; {:?}",
                windows.len(),
                pieces_run,
                seconds.iter().sum::<f64>(),
                tune
            ));
            eprintln!("design C frozen layers done");
            for fold in 0..options.folds {
                let result = tune_and_test(
                    &bert, &tune, &windows, &docs, &all_tags, &doc_fold, fold, &seconds,
                )?;
                let (ar, all) = (
                    result.score.per_type[super::mentions::AR],
                    result.score.all(),
                );
                eprintln!(
                    "fold {fold} done: AR F1 {:.3}, all {:.3}; training {:.1} CPU s, inference {:.0} words per CPU s",
                    ar.f1(),
                    all.f1(),
                    result.train_seconds,
                    result.test_words as f64 / result.infer_seconds.max(1e-9)
                );
                report.fold(result);
            }
        }
        Design::B => {
            let table = StaticTable::load(&options.model_dir)?;
            let dims = features::static_dims(&table);
            for fold in 0..options.folds {
                let (rows, hashes, seconds) =
                    static_rows(&table, &tokenizer, &docs, &doc_fold, &mut matchers, fold)?;
                let inputs = Inputs::new(rows, dims, hashes, &lengths(&docs), config.window)?;
                let result = head_folds.train_and_test(dims, &inputs, fold, |i| seconds[i])?;
                report.fold(result);
            }
        }
    }
    if options.design != Design::Rules {
        let size = super::cost::measure(&options.corpus, &tokenizer)?;
        report.cost(size);
    }
    report.note(format!(
        "total run {:.1} s CPU of the main thread, {:.1} s wall",
        started.seconds(),
        started.wall_seconds()
    ));
    Ok(report.render())
}

/// Design B's rows and hashed ids of every document for the split that tests `fold`, and the
/// CPU seconds each document's took: test documents see the dictionary learned without their
/// fold, training documents one learned without their fold and the test fold.
fn static_rows(
    table: &StaticTable,
    tokenizer: &tokenizers::Tokenizer,
    docs: &[Document],
    doc_fold: &[usize],
    matchers: &mut rules::Matchers,
    fold: usize,
) -> anyhow::Result<(Vec<f32>, Vec<u32>, Vec<f64>)> {
    let (mut rows, mut hashes) = (Vec::new(), Vec::new());
    let mut seconds = vec![0f64; docs.len()];
    for (i, doc) in docs.iter().enumerate() {
        let excluded: BTreeSet<usize> = [fold, doc_fold[i]].into();
        let matcher = matchers.without(&excluded);
        let clock = Clock::start();
        let reactions = rules::reactions(matcher, doc);
        let conditions = rules::conditions(matcher, doc);
        let (r, h) = features::static_features(
            table,
            tokenizer,
            &doc.text,
            &doc.words,
            &reactions,
            &conditions,
        )?;
        seconds[i] = clock.seconds();
        rows.extend(r);
        hashes.extend(h);
    }
    Ok((rows, hashes, seconds))
}

/// The corpus-wide number of each document's first word.
fn word_starts(docs: &[Document]) -> Vec<usize> {
    docs.iter()
        .scan(0, |at, d| {
            let start = *at;
            *at += d.words.len();
            Some(start)
        })
        .collect()
}

/// Design C on one fold: fine-tunes a fresh copy of the top layers and the head on the other
/// folds' windows and scores the test fold; inference counts the frozen layers' time
/// (`frozen_seconds` per document) as well as the trainable layers, head and decoding.
#[allow(clippy::too_many_arguments)]
fn tune_and_test(
    bert: &Bert,
    config: &TuneConfig,
    windows: &[finetune::Window],
    docs: &[Document],
    all_tags: &[super::mentions::Tags],
    doc_fold: &[usize],
    fold: usize,
    frozen_seconds: &[f64],
) -> anyhow::Result<FoldResult> {
    let starts = word_starts(docs);
    let tags_flat: Vec<_> = all_tags
        .iter()
        .flat_map(|t| t.tags.iter().copied())
        .collect();
    let known_flat: Vec<_> = all_tags
        .iter()
        .flat_map(|t| t.known.iter().copied())
        .collect();
    let train: Vec<usize> = (0..windows.len())
        .filter(|&w| doc_fold[windows[w].doc] != fold)
        .collect();
    let train_words = docs
        .iter()
        .enumerate()
        .filter(|(i, _)| doc_fold[*i] != fold)
        .map(|(_, d)| d.words.len())
        .sum();
    let clock = Clock::start();
    let mut tagger = Tagger::new(bert, config.clone())?;
    let (losses, _) = tagger.train(windows, &train, &tags_flat, &known_flat)?;
    let train_seconds = clock.seconds();
    let mut score = Score::default();
    let (mut infer_seconds, mut words, mut test_docs) = (0f64, 0usize, 0usize);
    for (i, doc) in docs
        .iter()
        .enumerate()
        .filter(|(i, _)| doc_fold[*i] == fold)
    {
        let clock = Clock::start();
        let own: Vec<&finetune::Window> = windows.iter().filter(|w| w.doc == i).collect();
        let scores = tagger.predict(own, starts[i], doc.words.len())?;
        let predicted = decode(doc, &scores);
        infer_seconds += clock.seconds() + frozen_seconds[i];
        words += doc.words.len();
        test_docs += 1;
        score.add(&Score::of(&doc.mentions, &predicted));
    }
    Ok(FoldResult {
        fold,
        train_words,
        test_docs,
        score,
        train_seconds,
        infer_seconds,
        test_words: words,
        losses,
    })
}

fn lengths(docs: &[Document]) -> Vec<usize> {
    docs.iter().map(|d| d.words.len()).collect()
}

/// SHA-256 over every document's name, text and mentions, in file order (first 8 bytes, hex).
fn data_hash(docs: &[Document]) -> String {
    let mut hasher = Sha256::new();
    for doc in docs {
        hasher.update(format!(
            "{}\t{}\t{:?}\n",
            doc.label, doc.section, doc.mentions
        ));
        hasher.update(doc.text.as_bytes());
    }
    hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What every fold of a head design shares: the head's settings and the documents with their
/// tags and folds.
struct HeadFolds<'a> {
    config: &'a HeadConfig,
    docs: &'a [Document],
    all_tags: &'a [super::mentions::Tags],
    doc_fold: &'a [usize],
}

impl HeadFolds<'_> {
    /// Trains a head on every fold but `fold` and scores it on `fold`; `feature_seconds` is the
    /// time computing a document's inputs took, counted into the test documents' inference.
    fn train_and_test(
        &self,
        dims: usize,
        inputs: &Inputs,
        fold: usize,
        feature_seconds: impl Fn(usize) -> f64,
    ) -> anyhow::Result<FoldResult> {
        let HeadFolds {
            config,
            docs,
            all_tags,
            doc_fold,
        } = *self;
        let mut starts = Vec::with_capacity(docs.len());
        let mut at = 0;
        for doc in docs {
            starts.push(at);
            at += doc.words.len();
        }
        let mut train = Vec::new();
        let (mut tags_flat, mut known_flat) = (Vec::with_capacity(at), Vec::with_capacity(at));
        for (i, t) in all_tags.iter().enumerate() {
            tags_flat.extend_from_slice(&t.tags);
            known_flat.extend_from_slice(&t.known);
            if doc_fold[i] != fold {
                train.extend(starts[i]..starts[i] + docs[i].words.len());
            }
        }
        let clock = Clock::start();
        let mut head = Head::new(config.clone(), dims)?;
        let losses = head.train(inputs, &train, &tags_flat, &known_flat)?;
        let train_seconds = clock.seconds();
        let mut score = Score::default();
        let (mut infer_seconds, mut words, mut test_docs) = (0f64, 0usize, 0usize);
        for (i, doc) in docs
            .iter()
            .enumerate()
            .filter(|(i, _)| doc_fold[*i] == fold)
        {
            let clock = Clock::start();
            let indices: Vec<usize> = (starts[i]..starts[i] + doc.words.len()).collect();
            let predicted = decode(doc, &head.predict(inputs, &indices)?);
            infer_seconds += clock.seconds() + feature_seconds(i);
            words += doc.words.len();
            test_docs += 1;
            score.add(&Score::of(&doc.mentions, &predicted));
        }
        eprintln!("fold {fold} done");
        Ok(FoldResult {
            fold,
            train_words: train.len(),
            test_docs,
            score,
            train_seconds,
            infer_seconds,
            test_words: words,
            losses,
        })
    }
}

/// The mentions of every type the head's scores spell, each type decoded on its own.
fn decode(doc: &Document, scores: &[[[f32; 3]; TYPES]]) -> Vec<Mention> {
    let mut out = Vec::new();
    for kind in 0..TYPES {
        let column: Vec<[f32; 3]> = scores.iter().map(|s| s[kind]).collect();
        out.extend(spans(
            &doc.text,
            &doc.words,
            kind,
            &viterbi::decode(&column),
        ));
    }
    out
}
