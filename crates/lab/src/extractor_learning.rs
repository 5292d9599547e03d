//! Learning and scoring the adverse-reaction extractor on annotated label sections (the TAC
//! 2017 ADR format): a fixed split of the labels into a learning half and a held-out half,
//! the curated term file learned from the first, precision/recall/F1 on the second.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use drugcite_core::text::key_of;
use drugcite_engine::conditions::lexicon::{
    CuratedTerm, Lexicon, Origins, SectionGroup, TermStats,
};
use drugcite_engine::conditions::matcher::{Matcher, Purpose};
use drugcite_engine::conditions::vocabulary::VocabularyTerm;

use crate::tables;

/// A list item is taken as a listed reaction when at least `min_listings` labels' lists name
/// it; longer items than `max_listed_words` words are none (`tables/thresholds.tsv`).
static MIN_LISTINGS: LazyLock<usize> = LazyLock::new(|| threshold("min_listings"));
static MAX_LISTED_WORDS: LazyLock<usize> = LazyLock::new(|| threshold("max_listed_words"));
/// Bytes after a list's introduction read for its items.
static LIST_REACH: LazyLock<usize> = LazyLock::new(|| threshold("list_reach"));
/// Sentences that introduce a label's list of its common adverse reactions
/// (`tables/list-intro.tsv`).
static LIST_INTRO: LazyLock<Regex> = LazyLock::new(|| {
    let any = |part: &str| {
        intro_parts(part)
            .iter()
            .map(|p| regex::escape(p))
            .collect::<Vec<_>>()
            .join("|")
    };
    let reach = threshold("list_intro_reach");
    Regex::new(&format!(
        r"(?i)({})\s+(?:\([^)]*\)\s*)?adverse (?:{})[^.:]{{0,{reach}}}?(?:{})\s*(?:\([^)]*\)\s*)?:?",
        any("opener"),
        any("noun"),
        any("verb"),
    ))
    .expect("list intro pattern")
});
static LIST_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\.\s|\.$|\(\s*\d|\n\n|;").expect("list end pattern"));
static LIST_SEPARATOR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r",|\band\b|\bor\b").expect("list separator pattern"));
static BRACKETED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\([^)]*\)|\(.*$|\[[^\]]*\]").expect("bracket pattern"));
static LIST_ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[a-z][a-z '\-]+$").expect("list item pattern"));
/// Verbs stripped (with the space after them) from the start of an item.
static LEADS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let leads = intro_parts("lead").into_iter();
    leads.map(|lead| format!("{lead} ")).collect()
});
/// List items that are not reactions: whole items, and last words of items of several words
/// (`tables/not-reactions.tsv`).
static NOT_REACTIONS: LazyLock<(Vec<String>, Vec<String>)> = LazyLock::new(|| {
    let table = tables::NOT_REACTIONS.rows();
    let (item, how) = (table.column("item"), table.column("match"));
    let (mut whole, mut last) = (Vec::new(), Vec::new());
    for row in table.rows() {
        match row.cell(how) {
            "whole" => whole.push(row.cell(item).to_owned()),
            "last-word" => last.push(format!(" {}", row.cell(item))),
            other => panic!(
                "{}:{}: match {other:?} is neither whole nor last-word",
                tables::NOT_REACTIONS.file,
                row.line()
            ),
        }
    }
    (whole, last)
});
/// Label fields whose lists of common reactions are read (`tables/listing-fields.tsv`).
static LISTING_FIELDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let table = tables::LISTING_FIELDS.rows();
    table.values("field").map(str::to_owned).collect()
});

fn threshold(name: &str) -> usize {
    tables::THRESHOLDS.rows().number(name) as usize
}

/// The phrases of one part of `tables/list-intro.tsv`, in file order.
fn intro_parts(part: &str) -> Vec<String> {
    let table = tables::LIST_INTRO.rows();
    let (of, phrase) = (table.column("part"), table.column("phrase"));
    let rows = table.rows().iter().filter(|row| row.cell(of) == part);
    rows.map(|row| row.cell(phrase).to_owned()).collect()
}

/// One annotated section.
#[derive(Clone, Debug)]
pub struct AnnotatedSection {
    pub label: String,
    pub section: String,
    pub text: String,
    /// Distinct lowercase mentions.
    pub mentions: BTreeSet<String>,
}

#[derive(Deserialize)]
struct RawSection {
    label_id: String,
    section_name: String,
    section_text: String,
    adverse_events: Vec<Vec<serde_json::Value>>,
}

pub fn read_annotations(path: &Path) -> anyhow::Result<Vec<AnnotatedSection>> {
    let text = std::fs::read_to_string(path)?;
    let raw: Vec<RawSection> = serde_json::from_str(&text)?;
    Ok(raw
        .into_iter()
        .map(|r| AnnotatedSection {
            mentions: r
                .adverse_events
                .iter()
                .filter_map(|e| e.first()?.as_str().map(str::to_lowercase))
                .collect(),
            label: r.label_id,
            section: r.section_name,
            text: r.section_text,
        })
        .collect())
}

/// The fixed split: a label belongs to the learning half when the first byte of the SHA-256
/// of its id is even.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    Learning,
    HeldOut,
    All,
}

impl Half {
    pub fn contains(self, label: &str) -> bool {
        let learning = Sha256::digest(label.as_bytes())[0] % 2 == 0;
        match self {
            Half::Learning => learning,
            Half::HeldOut => !learning,
            Half::All => true,
        }
    }
}

/// The curated term file's rows: reactions annotated in the learning half, reactions the
/// corpus labels list as common, and every term's occurrences in the learning half with how
/// many of them were annotated. Sorted by term.
pub fn learn(
    sections: &[AnnotatedSection],
    vocabulary: &[VocabularyTerm],
    listed: &BTreeMap<String, usize>,
) -> Vec<CuratedTerm> {
    let learning: Vec<&AnnotatedSection> = sections
        .iter()
        .filter(|s| Half::Learning.contains(&s.label))
        .collect();
    learn_from(&learning, vocabulary, listed)
}

/// `learn` over the given sections only (the tagger's cross-validation learns one term file
/// per fold from the other folds).
pub fn learn_from(
    learning: &[&AnnotatedSection],
    vocabulary: &[VocabularyTerm],
    listed: &BTreeMap<String, usize>,
) -> Vec<CuratedTerm> {
    let mut rows: BTreeMap<String, CuratedTerm> = BTreeMap::new();
    let mut add = |term: &str, set: fn(&mut Origins)| {
        let row = rows.entry(key_of(term)).or_insert_with(|| CuratedTerm {
            term: term.to_owned(),
            origins: Origins::default(),
            stats: TermStats::default(),
        });
        set(&mut row.origins);
    };
    for mention in learning.iter().flat_map(|s| &s.mentions) {
        add(mention, |o| o.annotated = true);
    }
    for (term, _) in listed.iter().filter(|(_, n)| **n >= *MIN_LISTINGS) {
        add(term, |o| o.listed = true);
    }
    let unweighted: Vec<CuratedTerm> = rows.values().cloned().collect();
    let matcher = Matcher::new(Lexicon::build(vocabulary, &unweighted));
    for section in learning {
        count_occurrences(&matcher, section, &mut rows);
    }
    let mut out: Vec<CuratedTerm> = rows
        .into_values()
        .filter(|r| r.origins.annotated || r.origins.listed || seen(&r.stats))
        .collect();
    out.sort_by(|a, b| a.term.cmp(&b.term));
    out
}

fn seen(stats: &TermStats) -> bool {
    stats.adverse_seen + stats.other_seen > 0
}

/// Adds one section's matches to the rows' statistics (a term once per section).
fn count_occurrences(
    matcher: &Matcher,
    section: &AnnotatedSection,
    rows: &mut BTreeMap<String, CuratedTerm>,
) {
    let group = SectionGroup::of_section(&section.section);
    let gold: BTreeSet<String> = section.mentions.iter().map(|m| key_of(m)).collect();
    let found: BTreeSet<String> = matcher
        .find(&section.text, Purpose::AdverseReactions(group))
        .into_iter()
        .map(|m| m.key)
        .collect();
    for key in found {
        let Some(entry) = matcher.lexicon().get(&key) else {
            continue;
        };
        let row = rows.entry(key.clone()).or_insert_with(|| CuratedTerm {
            term: key.clone(),
            origins: Origins {
                vocabulary: entry.origins.vocabulary,
                ..Origins::default()
            },
            stats: TermStats::default(),
        });
        row.origins.vocabulary |= entry.origins.vocabulary;
        let annotated = u32::from(gold.contains(&key));
        match group {
            SectionGroup::AdverseReactions => {
                row.stats.adverse_seen += 1;
                row.stats.adverse_annotated += annotated;
            }
            SectionGroup::Other => {
                row.stats.other_seen += 1;
                row.stats.other_annotated += annotated;
            }
        }
    }
}

/// Items of the "most common adverse reactions were …" lists of a JSON Lines label file
/// (optionally gzipped), with the number of lists naming each.
pub fn listed_reactions(labels: &Path) -> anyhow::Result<BTreeMap<String, usize>> {
    let file = std::fs::File::open(labels)?;
    let reader: Box<dyn std::io::Read> = if labels.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut counts = BTreeMap::new();
    for line in BufReader::new(reader).lines() {
        let record: serde_json::Value = serde_json::from_str(&line?)?;
        for field in LISTING_FIELDS.iter() {
            let texts = record[field.as_str()].as_array().into_iter().flatten();
            for text in texts.filter_map(|t| t.as_str()) {
                for item in list_items(text) {
                    *counts.entry(item).or_default() += 1;
                }
            }
        }
    }
    Ok(counts)
}

/// The items of every common-reactions list in `text`, lowercase, brackets removed.
pub fn list_items(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    for intro in LIST_INTRO.find_iter(text) {
        let mut end = (intro.end() + *LIST_REACH).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let rest = &text[intro.end()..end];
        let list = LIST_END.split(rest).next().unwrap_or_default();
        for item in LIST_SEPARATOR.split(list) {
            let item = BRACKETED.replace_all(item, "");
            let item = item.trim_matches(|c: char| " .:;*-".contains(c) || c.is_whitespace());
            let item = item
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            let item = LEADS
                .iter()
                .find_map(|lead| item.strip_prefix(lead.as_str()))
                .unwrap_or(&item)
                .to_owned();
            let words = item.split(' ').count();
            let (not_whole, not_last) = &*NOT_REACTIONS;
            if (1..=*MAX_LISTED_WORDS).contains(&words)
                && LIST_ITEM.is_match(&item)
                && !not_whole.contains(&item)
                && !not_last.iter().any(|last| item.ends_with(last.as_str()))
            {
                items.push(item);
            }
        }
    }
    items
}

/// True positives, found and annotated mention counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub matched: usize,
    pub found: usize,
    pub annotated: usize,
}

impl Counts {
    pub fn precision(&self) -> f64 {
        ratio(self.matched, self.found)
    }
    pub fn recall(&self) -> f64 {
        ratio(self.matched, self.annotated)
    }
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
    /// Counts one yes/no judgement against its annotation.
    pub fn judge(&mut self, predicted: bool, annotated: bool) {
        self.add(Counts {
            matched: usize::from(predicted && annotated),
            found: usize::from(predicted),
            annotated: usize::from(annotated),
        });
    }
    fn add(&mut self, other: Counts) {
        self.matched += other.matched;
        self.found += other.found;
        self.annotated += other.annotated;
    }
}

/// `a / b`, 0 when `b` is 0.
pub fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Micro-averaged counts per section name (lowercase) and `"all"`, over the sections of `half`:
/// distinct lowercase mentions found versus annotated per (label, section).
pub fn score(
    matcher: &Matcher,
    sections: &[AnnotatedSection],
    half: Half,
) -> BTreeMap<String, Counts> {
    let mut by_section: BTreeMap<String, Counts> = BTreeMap::new();
    for section in sections.iter().filter(|s| half.contains(&s.label)) {
        let found = extract_adverse_reactions(matcher, &section.section, &section.text);
        let found: BTreeSet<String> = found.into_iter().map(|m| m.to_lowercase()).collect();
        let counts = Counts {
            matched: found.intersection(&section.mentions).count(),
            found: found.len(),
            annotated: section.mentions.len(),
        };
        by_section
            .entry(section.section.to_lowercase())
            .or_default()
            .add(counts);
        by_section.entry("all".into()).or_default().add(counts);
    }
    by_section
}

/// The adverse-reaction mentions' texts in one section, as `drugcite extract` reports them.
fn extract_adverse_reactions(matcher: &Matcher, section: &str, text: &str) -> Vec<String> {
    let purpose = Purpose::AdverseReactions(SectionGroup::of_section(section));
    matcher
        .find(text, purpose)
        .into_iter()
        .map(|m| text[m.span].to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_common_reactions_list_gives_its_reaction_items() {
        let text = "The most common adverse reactions (>= 5%) were nausea, placebo, vomiting and \
                    nervous system disorders. Others were rare.";
        assert_eq!(list_items(text), ["nausea", "vomiting"]);
        let no_list = "Adverse reactions were nausea and vomiting.";
        assert!(list_items(no_list).is_empty(), "no opener");
    }
}
