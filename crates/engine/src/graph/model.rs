//! The knowledge graph as stored in a generation (`graph.bin`) and as Neo4j would hold it:
//! Drug (labelled or only named in other labels' text), DrugClass (FDA classes, curated
//! classes, enzyme/transporter classes with strength), Condition and Population nodes; typed relationships with a severity and the
//! fingerprints of the segments that state them. Data and (de)serialisation only.

use std::path::Path;

use serde::{Deserialize, Serialize};

use drugcite_core::domain::Fingerprint;
/// The relationship types, a domain value the question reader shares (`understand`).
pub use drugcite_core::domain::RelationType;
use drugcite_store::encoded;

pub const GRAPH_FILE: &str = "graph.bin";
/// The JSON form of generations written before `graph.bin`; still read.
const GRAPH_JSON_FILE: &str = "graph.json";
/// The tag of `graph.bin`: the structure and its format version.
const GRAPH_TAG: &[u8; 8] = b"DCGRAPH1";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Drug,
    DrugClass,
    Condition,
    /// A population or setting: pregnancy, lactation, pediatric or geriatric patients, CABG
    /// surgery, hepatic or renal impairment with its grade.
    Population,
}

impl NodeKind {
    pub const ALL: [NodeKind; 4] = [
        Self::Drug,
        Self::DrugClass,
        Self::Condition,
        Self::Population,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Drug => "drug",
            Self::DrugClass => "drug_class",
            Self::Condition => "condition",
            Self::Population => "population",
        }
    }
}

/// A node: `id` is `drug:<generic name>`, `class:<class name>`, `population:<name>` (all
/// lowercase), or the condition's vocabulary id (`DOID:…`, `SYMP:…`) or drugcite id
/// (`drugcite:…`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Node {
    pub id: String,
    pub kind: NodeKind,
    pub name: String,
    /// A drug the index has no label of its own for, known from other labels' text.
    #[serde(default)]
    pub unlabelled: bool,
}

impl Node {
    /// The id of the drug node named `name`.
    pub fn drug_id(name: &str) -> String {
        format!("drug:{name}")
    }

    pub fn drug(name: &str) -> Self {
        Self {
            id: Self::drug_id(name),
            kind: NodeKind::Drug,
            name: name.to_owned(),
            unlabelled: false,
        }
    }

    /// A drug named in label text that has no label in the index.
    pub fn unlabelled_drug(name: &str) -> Self {
        Self {
            unlabelled: true,
            ..Self::drug(name)
        }
    }

    pub fn population(name: &str) -> Self {
        Self {
            id: format!("population:{name}"),
            kind: NodeKind::Population,
            name: name.to_owned(),
            unlabelled: false,
        }
    }

    pub fn class(name: &str) -> Self {
        Self {
            id: format!("class:{name}"),
            kind: NodeKind::DrugClass,
            name: name.to_owned(),
            unlabelled: false,
        }
    }

    pub fn condition(id: &str, name: &str) -> Self {
        Self {
            id: id.to_owned(),
            kind: NodeKind::Condition,
            name: name.to_owned(),
            unlabelled: false,
        }
    }
}

/// Ordered from least to most severe; `None` (no rule applies) sorts below `Mild`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Mild,
    Moderate,
    Serious,
    LifeThreatening,
}

/// A segment stating a relationship: its fingerprint (32 hex digits) and openFDA section key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Evidence {
    #[serde(with = "encoded::fingerprint")]
    pub fingerprint: Fingerprint,
    pub section: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relationship {
    /// Node ids.
    pub from: String,
    pub to: String,
    #[serde(rename = "type")]
    pub kind: RelationType,
    pub severity: Option<Severity>,
    /// Sorted by fingerprint; empty only for `member_of`.
    pub evidence: Vec<Evidence>,
}

/// The whole graph; nodes sorted by id, relationships by (from, to, type).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphData {
    pub nodes: Vec<Node>,
    pub relationships: Vec<Relationship>,
}

impl GraphData {
    pub fn write(&self, generation: &Path) -> std::io::Result<()> {
        encoded::write(&generation.join(GRAPH_FILE), GRAPH_TAG, self)
    }

    /// The generation's graph (`graph.bin`, or the `graph.json` of a generation written before
    /// it); `None` if it was built before graphs existed.
    pub fn read(generation: &Path) -> std::io::Result<Option<Self>> {
        match encoded::read(&generation.join(GRAPH_FILE), GRAPH_TAG) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Self::read_json(generation),
            read => read.map(Some),
        }
    }

    /// `graph.json`, mapped and parsed in place (serde_json parses a slice several times faster
    /// than a reader, and a map costs no copy of a file that reaches GBs at scale).
    fn read_json(generation: &Path) -> std::io::Result<Option<Self>> {
        let path = generation.join(GRAPH_JSON_FILE);
        let file = match std::fs::File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        // SAFETY: a published generation's files never change (written once, sealed by the
        // checksums); the map lives only while this parse reads it.
        let map = unsafe { memmap2::Mmap::map(&file) }?;
        serde_json::from_slice(&map)
            .map(Some)
            .map_err(std::io::Error::from)
    }

    /// Node and relationship counts by kind, for reports.
    pub fn counts(&self) -> GraphCounts {
        let mut counts = GraphCounts::default();
        for node in &self.nodes {
            *counts.nodes.entry(node.kind).or_default() += 1;
        }
        for relationship in &self.relationships {
            *counts.relationships.entry(relationship.kind).or_default() += 1;
        }
        counts
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GraphCounts {
    pub nodes: std::collections::BTreeMap<NodeKind, usize>,
    pub relationships: std::collections::BTreeMap<RelationType, usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph() -> GraphData {
        let evidence = Evidence {
            fingerprint: Fingerprint::of_segment("set", "warnings", "text"),
            section: "warnings".into(),
        };
        GraphData {
            nodes: vec![Node::drug("warfarin"), Node::unlabelled_drug("aspirin")],
            relationships: vec![Relationship {
                from: Node::drug_id("warfarin"),
                to: Node::drug_id("aspirin"),
                kind: RelationType::Interaction,
                severity: Some(Severity::Serious),
                evidence: vec![evidence],
            }],
        }
    }

    #[test]
    fn the_graph_round_trips_and_one_written_as_json_is_still_read() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(GraphData::read(dir.path()).unwrap(), None);
        std::fs::write(
            dir.path().join(GRAPH_JSON_FILE),
            serde_json::to_vec(&graph()).unwrap(),
        )
        .unwrap();
        assert_eq!(GraphData::read(dir.path()).unwrap(), Some(graph()));
        let binary = tempfile::tempdir().unwrap();
        graph().write(binary.path()).unwrap();
        assert_eq!(GraphData::read(binary.path()).unwrap(), Some(graph()));
        let path = binary.path().join(GRAPH_FILE);
        let body = std::fs::read(&path).unwrap();
        std::fs::write(&path, &body[..body.len() - 1]).unwrap();
        let error = GraphData::read(binary.path()).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
    }
}
