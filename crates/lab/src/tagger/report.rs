//! The printed report of `tagger-cv`: the run's identity (data hash, seed, folds), what the
//! tags cannot express, per-fold per-type scores and timings, their mean and spread, and the
//! corpus cost estimate. Formatting only; no training or scoring.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::cost::CorpusSize;
use super::mentions::{Document, TagStats, AR, KINDS, TYPES};
use super::score::Score;

pub struct FoldResult {
    pub fold: usize,
    pub train_words: usize,
    pub test_docs: usize,
    pub score: Score,
    pub train_seconds: f64,
    /// Features, head and decoding of the test documents.
    pub infer_seconds: f64,
    pub test_words: usize,
    pub losses: Vec<f32>,
}

pub struct Report {
    out: String,
    folds: Vec<FoldResult>,
}

fn threads() -> String {
    std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "default (all cores)".into())
}

impl Report {
    /// `run` names the design and its settings; `folds` is the number of folds.
    pub fn new(
        run: String,
        folds: usize,
        docs: &[Document],
        data_hash: String,
        stats: TagStats,
        fold_of: &BTreeMap<String, usize>,
    ) -> Self {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "tagger-cv {run}  data {} ({} files, {} labels)  candle threads {}",
            data_hash,
            docs.len(),
            fold_of.len(),
            threads()
        );
        let mut per_type = [(0usize, 0usize); TYPES];
        for m in docs.iter().flat_map(|d| &d.mentions) {
            per_type[m.kind].0 += 1;
            per_type[m.kind].1 += usize::from(!m.is_contiguous());
        }
        let _ = writeln!(
            out,
            "mentions {} (discontinuous {}, edges inside a word {}, left out as overlapping one of their type {}); per type total/discontinuous: {}",
            stats.mentions,
            stats.discontinuous,
            stats.misaligned,
            stats.overlapping,
            KINDS
                .iter()
                .zip(per_type)
                .map(|(k, (n, d))| format!("{k} {n}/{d}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut sizes = vec![0usize; folds];
        for fold in fold_of.values() {
            sizes[*fold] += 1;
        }
        let _ = writeln!(out, "labels per fold {sizes:?}");
        Self {
            out,
            folds: Vec::new(),
        }
    }

    pub fn note(&mut self, line: String) {
        let _ = writeln!(self.out, "{line}");
    }

    pub fn fold(&mut self, result: FoldResult) {
        let r = &result;
        let _ = writeln!(
            self.out,
            "\nfold {}: test {} files, {} words; trained on {} words in {:.1} CPU s; inference {:.2} CPU s ({:.0} words/s); loss per epoch {}",
            r.fold,
            r.test_docs,
            r.test_words,
            r.train_words,
            r.train_seconds,
            r.infer_seconds,
            r.test_words as f64 / r.infer_seconds.max(1e-9),
            r.losses.iter().map(|l| format!("{l:.4}")).collect::<Vec<_>>().join(" ")
        );
        self.table(&r.score);
        self.folds.push(result);
    }

    fn table(&mut self, score: &Score) {
        let _ = writeln!(
            self.out,
            "  {:<16} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "type", "found", "gold", "match", "P", "R", "F1"
        );
        let rows = KINDS
            .iter()
            .map(|k| k.to_string())
            .zip(score.per_type)
            .chain([("all".to_string(), score.all())]);
        for (name, c) in rows {
            let _ = writeln!(
                self.out,
                "  {name:<16} {:>6} {:>6} {:>6} {:>6.3} {:>6.3} {:>6.3}",
                c.found,
                c.annotated,
                c.matched,
                c.precision(),
                c.recall(),
                c.f1()
            );
        }
    }

    pub fn shipped(&mut self, all: Score, held: Option<Score>) {
        let _ = writeln!(self.out, "\nshipped rule extractor (term file learned on the learning half of `extract --score`), all labels (optimistic: its dictionary saw half of them; it finds adverse reactions only):");
        self.table(&all);
        if let Some(held) = held {
            let _ = writeln!(
                self.out,
                "shipped rule extractor on its held-out half only:"
            );
            self.table(&held);
        }
    }

    pub fn cost(&mut self, size: CorpusSize) {
        let (words, seconds): (usize, f64) = self.folds.iter().fold((0, 0.0), |(w, s), f| {
            (w + f.test_words, s + f.infer_seconds)
        });
        let rate = words as f64 / seconds.max(1e-9);
        let _ =
            writeln!(
            self.out,
            "\ncorpus: {} labels, {} texts of {:?}-like fields, {} bytes, {} words, {} word pieces",
            size.labels, size.texts, super::cost::FIELDS, size.bytes, size.words, size.pieces
        );
        let _ = writeln!(
            self.out,
            "inference {:.0} words per CPU second ({} threads; features + head + decoding) -> tagging the corpus: {:.0} s on one core, {:.0} s on two",
            rate,
            threads(),
            size.words as f64 / rate,
            size.words as f64 / rate / 2.0
        );
    }

    pub fn render(mut self) -> String {
        if !self.folds.is_empty() {
            let ar: Vec<f64> = self
                .folds
                .iter()
                .map(|f| f.score.per_type[AR].f1())
                .collect();
            let all: Vec<f64> = self.folds.iter().map(|f| f.score.all().f1()).collect();
            let mut pooled = Score::default();
            for f in &self.folds {
                pooled.add(&f.score);
            }
            let _ = writeln!(self.out, "\nsummary over {} folds:", self.folds.len());
            let _ = writeln!(
                self.out,
                "  AdverseReaction F1 per fold {}  {}",
                list(&ar),
                spread(&ar)
            );
            let _ = writeln!(
                self.out,
                "  all types F1 per fold       {}  {}",
                list(&all),
                spread(&all)
            );
            let train: f64 = self.folds.iter().map(|f| f.train_seconds).sum();
            let _ = writeln!(
                self.out,
                "  training {:.1} s in all ({:.1} s per fold)",
                train,
                train / self.folds.len() as f64
            );
            let _ = writeln!(self.out, "pooled over folds (micro):");
            self.table(&pooled);
        }
        self.out
    }
}

fn list(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.3}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// "mean 0.812 sd 0.011 (0.800–0.829)".
fn spread(values: &[f64]) -> String {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("mean {mean:.3} sd {sd:.3} ({min:.3}-{max:.3})")
}
