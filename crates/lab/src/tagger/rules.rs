//! The existing rule extractor seen from the tagger: the shipped matcher and ones re-learned
//! without some folds (so a test fold's annotations never reach its own dictionary), their spans
//! as features, and the extractor's own cross-validated report. Matching itself is
//! `drugcite_engine::conditions`; this only adapts.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;

use drugcite_engine::conditions::lexicon::Lexicon;
use drugcite_engine::conditions::{self, Matcher, Purpose, SectionGroup, VocabularyTerm};

use crate::extractor_learning::{learn_from, read_annotations, AnnotatedSection, Half};

use super::clock::Clock;
use super::mentions::{Document, Mention, AR};
use super::report::{FoldResult, Report};
use super::score::Score;

/// The matcher `drugcite` ships: the vocabulary and the compiled-in curated term file.
pub fn shipped(vocabulary: &[VocabularyTerm]) -> Matcher {
    conditions::matcher(vocabulary)
}

/// A matcher whose curated terms are learned, as `extract --learn` does, from `docs` only.
pub fn learned(
    vocabulary: &[VocabularyTerm],
    listed: &BTreeMap<String, usize>,
    docs: &[&Document],
) -> Matcher {
    let sections: Vec<AnnotatedSection> = docs
        .iter()
        .map(|doc| AnnotatedSection {
            label: doc.label.clone(),
            section: doc.section.replace('_', " "),
            text: doc.text.clone(),
            mentions: reaction_texts(doc),
        })
        .collect();
    let refs: Vec<&AnnotatedSection> = sections.iter().collect();
    let terms = learn_from(&refs, vocabulary, listed);
    Matcher::new(Lexicon::build(vocabulary, &terms))
}

/// The distinct lowercase texts of a document's adverse reactions, fragments joined by a space
/// (as the annotation file spells "joint discomfort").
fn reaction_texts(doc: &Document) -> BTreeSet<String> {
    doc.mentions
        .iter()
        .filter(|m| m.kind == AR)
        .map(|m| {
            let parts: Vec<&str> = m
                .fragments
                .iter()
                .map(|f| doc.text[f.clone()].trim())
                .collect();
            parts.join(" ").to_lowercase()
        })
        .collect()
}

/// Byte spans of the adverse reactions the extractor reports in `doc`.
pub fn reactions(matcher: &Matcher, doc: &Document) -> Vec<Range<usize>> {
    let purpose = Purpose::AdverseReactions(SectionGroup::of_section(&doc.section));
    matcher
        .find(&doc.text, purpose)
        .into_iter()
        .map(|m| m.span)
        .collect()
}

/// Byte spans of every condition the matcher names in `doc`.
pub fn conditions(matcher: &Matcher, doc: &Document) -> Vec<Range<usize>> {
    matcher
        .find(&doc.text, Purpose::Conditions)
        .into_iter()
        .map(|m| m.span)
        .collect()
}

/// Matchers re-learned without the annotations of some folds, built on first use.
pub struct Matchers<'a> {
    vocabulary: &'a [VocabularyTerm],
    listed: &'a BTreeMap<String, usize>,
    docs: &'a [Document],
    fold_of: &'a BTreeMap<String, usize>,
    built: BTreeMap<BTreeSet<usize>, Matcher>,
}

impl<'a> Matchers<'a> {
    pub fn new(
        vocabulary: &'a [VocabularyTerm],
        listed: &'a BTreeMap<String, usize>,
        docs: &'a [Document],
        fold_of: &'a BTreeMap<String, usize>,
    ) -> Self {
        Self {
            vocabulary,
            listed,
            docs,
            fold_of,
            built: BTreeMap::new(),
        }
    }

    pub fn without(&mut self, excluded: &BTreeSet<usize>) -> &Matcher {
        self.built.entry(excluded.clone()).or_insert_with(|| {
            let learning: Vec<&Document> = self
                .docs
                .iter()
                .filter(|d| !excluded.contains(&self.fold_of[&d.label]))
                .collect();
            learned(self.vocabulary, self.listed, &learning)
        })
    }
}

/// The rule extractor under the exact-span scorer: per fold with its dictionary learned from
/// the other folds; then as shipped, on all labels and on the held-out half of `extract --score`.
pub fn rules_report(
    folds: usize,
    annotations: Option<&Path>,
    docs: &[Document],
    doc_fold: &[usize],
    matchers: &mut Matchers,
    vocabulary: &[VocabularyTerm],
    report: &mut Report,
) -> anyhow::Result<()> {
    let as_mentions = |doc: &Document, spans: Vec<std::ops::Range<usize>>| -> Vec<Mention> {
        spans
            .into_iter()
            .map(|s| Mention::new(AR, &doc.text, vec![s]))
            .collect()
    };
    for fold in 0..folds {
        let clock = Clock::start();
        let matcher = matchers.without(&[fold].into());
        let train_seconds = clock.seconds();
        let clock = Clock::start();
        let mut score = Score::default();
        let (mut words, mut test_docs) = (0, 0);
        for (_, doc) in docs
            .iter()
            .enumerate()
            .filter(|(i, _)| doc_fold[*i] == fold)
        {
            let found = as_mentions(doc, reactions(matcher, doc));
            score.add(&Score::of(&doc.mentions, &found));
            words += doc.words.len();
            test_docs += 1;
        }
        report.fold(FoldResult {
            fold,
            train_words: 0,
            test_docs,
            score,
            train_seconds,
            infer_seconds: clock.seconds(),
            test_words: words,
            losses: Vec::new(),
        });
    }
    let shipped = shipped(vocabulary);
    let held_out = match annotations {
        Some(path) => {
            let by_text: BTreeMap<String, String> = read_annotations(path)?
                .into_iter()
                .map(|s| (s.text.trim().to_owned(), s.label))
                .collect();
            Some(by_text)
        }
        None => None,
    };
    let (mut all, mut held) = (Score::default(), Score::default());
    for doc in docs {
        let found = as_mentions(doc, reactions(&shipped, doc));
        let score = Score::of(&doc.mentions, &found);
        all.add(&score);
        let label = held_out.as_ref().and_then(|m| m.get(doc.text.trim()));
        if label.is_some_and(|l| Half::HeldOut.contains(l)) {
            held.add(&score);
        }
    }
    report.shipped(all, held_out.is_some().then_some(held));
    Ok(())
}
