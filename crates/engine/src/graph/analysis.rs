//! What the graph build learns from one text in one section — its statements, targets as
//! nodes — computed once per distinct (text, section) however many labels repeat it. Kept in
//! the generation (`analysis.jsonl`, sealed by the manifest's checksums like every file) and
//! reused by the next ingest while the inputs that shape it are the same. Data and files only.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::model::{Node, RelationType, Severity};
use crate::conditions::VocabularyTerm;
use drugcite_core::domain::TextHash;
use drugcite_core::label::LabelMeta;

pub const ANALYSIS_FILE: &str = "analysis.jsonl";
/// Bump when extraction (`relations.rs`, the curated tables) changes what a text yields.
const FORMAT: &str = "drugcite.analysis.v7";

/// One statement of a text: its relation, severity and the nodes its target stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    pub kind: RelationType,
    pub severity: Option<Severity>,
    pub targets: Vec<Node>,
    /// The sentence of the text that states it (statements of one sentence go together).
    #[serde(default)]
    pub sentence: usize,
}

/// The analysis of every (text, section) of a generation, and where each came from.
pub struct Analyses {
    inputs: String,
    previous: HashMap<(TextHash, String), Arc<Vec<Found>>>,
    current: BTreeMap<(TextHash, String), Arc<Vec<Found>>>,
    pub computed: u64,
    pub reused: u64,
}

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    inputs: String,
}

#[derive(Serialize, Deserialize)]
struct Line {
    text: TextHash,
    section: String,
    found: Vec<Found>,
}

impl Analyses {
    /// Empty, with the analysis of `previous` (a generation) usable when it was made from
    /// the same `inputs` (see `inputs_digest`); an unreadable or foreign file is not used.
    pub fn new(inputs: String, previous: Option<&Path>) -> Self {
        let previous = previous
            .and_then(|generation| read(&generation.join(ANALYSIS_FILE), &inputs))
            .unwrap_or_default();
        Self {
            inputs,
            previous,
            current: BTreeMap::new(),
            computed: 0,
            reused: 0,
        }
    }

    /// The statements of `text` in `section`: this build's, else the previous generation's,
    /// else `analyse()`'s.
    pub fn of(
        &mut self,
        text: TextHash,
        section: &str,
        analyse: impl FnOnce() -> Vec<Found>,
    ) -> Arc<Vec<Found>> {
        let key = (text, section.to_owned());
        if let Some(found) = self.current.get(&key) {
            return Arc::clone(found);
        }
        let found = match self.previous.get(&key) {
            Some(found) => {
                self.reused += 1;
                Arc::clone(found)
            }
            None => {
                self.computed += 1;
                Arc::new(analyse())
            }
        };
        self.current.insert(key, Arc::clone(&found));
        found
    }

    /// This build's (text, section) pairs and their statements, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (TextHash, &str, &[Found])> {
        self.current
            .iter()
            .map(|((text, section), found)| (*text, section.as_str(), found.as_slice()))
    }

    /// Distinct (text, section) pairs analysed or reused by this build.
    pub fn len(&self) -> usize {
        self.current.len()
    }

    pub fn is_empty(&self) -> bool {
        self.current.is_empty()
    }

    /// Writes this build's analyses into `generation`, in key order.
    pub fn write(&self, generation: &Path) -> std::io::Result<()> {
        let mut out = BufWriter::new(File::create(generation.join(ANALYSIS_FILE))?);
        let header = Header {
            format: FORMAT.to_owned(),
            inputs: self.inputs.clone(),
        };
        serde_json::to_writer(&mut out, &header)?;
        out.write_all(b"\n")?;
        for ((text, section), found) in &self.current {
            let line = Line {
                text: *text,
                section: section.clone(),
                found: found.as_ref().clone(),
            };
            serde_json::to_writer(&mut out, &line)?;
            out.write_all(b"\n")?;
        }
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    }
}

/// A digest of everything besides the text that decides what it yields: the format, the
/// condition vocabulary and the drug names, brands and classes of the generation's labels.
pub fn inputs_digest(vocabulary: &[VocabularyTerm], labels: &[Arc<LabelMeta>]) -> String {
    let mut hasher = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_be_bytes());
        hasher.update(bytes);
    };
    part(FORMAT.as_bytes());
    part(env!("CARGO_PKG_VERSION").as_bytes());
    for term in vocabulary {
        part(&serde_json::to_vec(term).unwrap_or_default());
    }
    let names: std::collections::BTreeSet<Vec<u8>> = labels
        .iter()
        .map(|l| {
            let names = (
                &l.drug.name,
                &l.drug.brand_names,
                &l.search_names,
                &l.classes,
                &l.stated_class,
            );
            serde_json::to_vec(&names).unwrap_or_default()
        })
        .collect();
    for name in &names {
        part(name);
    }
    format!("{:x}", hasher.finalize())
}

type Table = HashMap<(TextHash, String), Arc<Vec<Found>>>;

fn read(path: &Path, inputs: &str) -> Option<Table> {
    let mut lines = BufReader::new(File::open(path).ok()?).lines();
    let header: Header = serde_json::from_str(&lines.next()?.ok()?).ok()?;
    if header.format != FORMAT || header.inputs != inputs {
        tracing::info!(
            "the live generation's text analysis was made from other inputs: not reused"
        );
        return None;
    }
    let mut table = HashMap::new();
    for line in lines {
        let line: Line = serde_json::from_str(&line.ok()?).ok()?;
        table.insert((line.text, line.section), Arc::new(line.found));
    }
    Some(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(name: &str) -> Vec<Found> {
        vec![Found {
            kind: RelationType::AdverseReaction,
            severity: None,
            targets: vec![Node::condition("drugcite:x", name)],
            sentence: 0,
        }]
    }

    #[test]
    fn each_text_is_analysed_once_and_the_next_build_reuses_it() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (TextHash::of("a"), TextHash::of("b"));
        let mut first = Analyses::new("inputs".into(), None);
        let mut calls = 0;
        for _ in 0..3 {
            first.of(a, "warnings", || {
                calls += 1;
                found("nausea")
            });
        }
        assert_eq!((calls, first.computed, first.reused), (1, 1, 0));
        first.write(dir.path()).unwrap();

        let mut next = Analyses::new("inputs".into(), Some(dir.path()));
        let reused = next.of(a, "warnings", || unreachable!("reused"));
        assert_eq!(*reused, found("nausea"));
        next.of(a, "boxed_warning", || found("rash"));
        next.of(b, "warnings", || found("rash"));
        assert_eq!((next.computed, next.reused, next.len()), (2, 1, 3));

        let mut other = Analyses::new("changed".into(), Some(dir.path()));
        other.of(a, "warnings", || found("headache"));
        assert_eq!(
            (other.computed, other.reused),
            (1, 0),
            "other inputs: nothing reused"
        );
    }
}
