//! The knowledge graph as stored in a generation (`graph.json`) and as Neo4j would hold it:
//! Drug (labelled or only named in other labels' text), DrugClass (FDA classes, curated
//! classes, enzyme/transporter classes with strength), Condition and Population nodes; typed relationships with a severity and the
//! fingerprints of the segments that state them. Data and (de)serialisation only.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::domain::Fingerprint;

pub const GRAPH_FILE: &str = "graph.json";

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
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelationType {
    Contraindication,
    Warning,
    AdverseReaction,
    Indication,
    Interaction,
    /// Drug → the class it belongs to (no evidence: from openFDA and graph/drug-classes.tsv).
    MemberOf,
}

impl RelationType {
    pub const ALL: [RelationType; 6] = [
        Self::Contraindication,
        Self::Warning,
        Self::AdverseReaction,
        Self::Indication,
        Self::Interaction,
        Self::MemberOf,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Contraindication => "contraindication",
            Self::Warning => "warning",
            Self::AdverseReaction => "adverse_reaction",
            Self::Indication => "indication",
            Self::Interaction => "interaction",
            Self::MemberOf => "member_of",
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
    #[serde(with = "hex")]
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
        let file = std::fs::File::create(generation.join(GRAPH_FILE))?;
        let mut out = std::io::BufWriter::new(file);
        serde_json::to_writer(&mut out, self)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    }

    /// The generation's graph; `None` if it was built before graphs existed. The file is
    /// mapped and parsed in place (serde_json parses a slice several times faster than a
    /// reader, and a map costs no copy of a file that reaches GBs at scale).
    pub fn read(generation: &Path) -> std::io::Result<Option<Self>> {
        let path = generation.join(GRAPH_FILE);
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

mod hex {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::domain::Fingerprint;

    pub fn serialize<S: Serializer>(fp: &Fingerprint, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&fp.to_hex())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fingerprint, D::Error> {
        let text = String::deserialize(d)?;
        Fingerprint::from_hex(&text)
            .ok_or_else(|| serde::de::Error::custom("fingerprint: expected 32 hex digits"))
    }
}
