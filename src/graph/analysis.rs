//! What the graph build learns from one text in one section — its statements, targets as
//! nodes — computed once per distinct (text, section) however many labels repeat it. Kept in
//! the generation (`analysis.jsonl`, sealed by the manifest's checksums like every file) and
//! reused by the next ingest while the inputs that shape it are the same (a text naming a drug
//! whose labels changed is analysed again, `name_words.rs`). Data and files only.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::model::{Node, RelationType, Severity};
use super::name_words::{ChangedNames, NameWords};
use crate::conditions::VocabularyTerm;
use crate::domain::TextHash;

pub const ANALYSIS_FILE: &str = "analysis.jsonl";
/// Bump when extraction (`relations.rs`, the curated tables) changes what a text yields.
const FORMAT: &str = "drugcite.analysis.v2";

/// One statement of a text: its relation, severity and the nodes its target stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    pub kind: RelationType,
    pub severity: Option<Severity>,
    pub targets: Vec<Node>,
}

/// The analysis of every (text, section) of a generation, and where each came from.
pub struct Analyses {
    inputs: String,
    names: NameWords,
    previous: HashMap<(TextHash, String), Arc<Vec<Found>>>,
    /// Words of drug names whose labels changed since the previous build.
    changed: ChangedNames,
    current: BTreeMap<(TextHash, String), Arc<Vec<Found>>>,
    pub computed: u64,
    pub reused: u64,
}

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    inputs: String,
    names: NameWords,
}

#[derive(Serialize, Deserialize)]
struct Line {
    text: TextHash,
    section: String,
    found: Vec<Found>,
}

impl Analyses {
    /// Empty, with the analysis of `previous` (a generation) usable when it was made from
    /// the same `inputs` (see `inputs_digest`), except for texts naming a drug whose labels
    /// differ from `names`; an unreadable or foreign file is not used.
    pub fn new(inputs: String, names: NameWords, previous: Option<&Path>) -> Self {
        let (previous, changed) =
            match previous.and_then(|generation| read(&generation.join(ANALYSIS_FILE), &inputs)) {
                Some((table, before)) => (table, ChangedNames::between(&before, &names)),
                None => (Table::new(), ChangedNames::none()),
            };
        Self {
            inputs,
            names,
            previous,
            changed,
            current: BTreeMap::new(),
            computed: 0,
            reused: 0,
        }
    }

    /// The statements of `text` (hashed `hash`) in `section`: this build's, else the previous
    /// generation's unless the text names a changed drug, else `analyse()`'s.
    pub fn of(
        &mut self,
        hash: TextHash,
        text: &str,
        section: &str,
        analyse: impl FnOnce() -> Vec<Found>,
    ) -> Arc<Vec<Found>> {
        let key = (hash, section.to_owned());
        if let Some(found) = self.current.get(&key) {
            return Arc::clone(found);
        }
        let reusable = self
            .previous
            .get(&key)
            .filter(|_| !self.changed.touch(text));
        let found = match reusable {
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
            names: self.names.clone(),
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

/// A digest of what, besides the text and the drug names (`name_words`), decides what a text
/// yields: the format, drugcite's version and the condition vocabulary.
pub fn inputs_digest(vocabulary: &[VocabularyTerm]) -> String {
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
    format!("{:x}", hasher.finalize())
}

type Table = HashMap<(TextHash, String), Arc<Vec<Found>>>;

fn read(path: &Path, inputs: &str) -> Option<(Table, NameWords)> {
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
    Some((table, header.names))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(name: &str) -> Vec<Found> {
        vec![Found {
            kind: RelationType::AdverseReaction,
            severity: None,
            targets: vec![Node::condition("drugcite:x", name)],
        }]
    }

    #[test]
    fn each_text_is_analysed_once_and_the_next_build_reuses_it() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (TextHash::of("a"), TextHash::of("b"));
        let mut first = Analyses::new("inputs".into(), NameWords::new(), None);
        let mut calls = 0;
        for _ in 0..3 {
            first.of(a, "a", "warnings", || {
                calls += 1;
                found("nausea")
            });
        }
        assert_eq!((calls, first.computed, first.reused), (1, 1, 0));
        first.write(dir.path()).unwrap();

        let mut next = Analyses::new("inputs".into(), NameWords::new(), Some(dir.path()));
        let reused = next.of(a, "a", "warnings", || unreachable!("reused"));
        assert_eq!(*reused, found("nausea"));
        next.of(a, "a", "boxed_warning", || found("rash"));
        next.of(b, "b", "warnings", || found("rash"));
        assert_eq!((next.computed, next.reused, next.len()), (2, 1, 3));

        let mut other = Analyses::new("changed".into(), NameWords::new(), Some(dir.path()));
        other.of(a, "a", "warnings", || found("headache"));
        assert_eq!(
            (other.computed, other.reused),
            (1, 0),
            "other inputs: nothing reused"
        );
    }
}
