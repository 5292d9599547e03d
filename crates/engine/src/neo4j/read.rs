//! What the server reads from Neo4j: the knowledge graph for petgraph (in the stored graph's
//! order, so answers match the embedded store's), a segment by fingerprint for verify, the nearest
//! fingerprint by the same 8-block pigeonhole the embedded index uses, and counts. Read-only;
//! a segment whose text no longer hashes to its fingerprint is an error, never served.

use std::collections::BTreeMap;
use std::sync::Arc;

use neo4rs::{query, Row};
use serde::de::DeserializeOwned;

use super::names::{node_label, relationship_type};
use super::{Neo4jClient, Neo4jError};
use crate::graph::{Evidence, GraphData, Node, NodeKind, RelationType, Relationship, Severity};
use drugcite_core::domain::Fingerprint;
use drugcite_core::domain::MAX_HAMMING_RADIUS;
use drugcite_core::label::{Drug, LabelMeta, NameSource};
use drugcite_store::{Standing, StoredSegment, VersionRef};

/// Nodes per label and relationships per type, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredCounts {
    pub nodes: BTreeMap<String, u64>,
    pub relationships: BTreeMap<String, u64>,
}

const NODE_LABELS: [&str; 6] = [
    "Drug",
    "DrugClass",
    "Condition",
    "Label",
    "Section",
    "Segment",
];
const STRUCTURE_TYPES: [&str; 3] = ["HAS_LABEL", "HAS_SECTION", "HAS_SEGMENT"];

/// Drugs (or classes) whose relationships one read fetches: bounds each query's time and size.
const DRUGS_PER_READ: usize = 100;

/// Every knowledge-graph relationship starts at a drug, or at a class for what a label states
/// for its drug's whole class (the graph model), so reading them node by node of those two
/// labels reads them all.
fn relationships_from(label: &str) -> String {
    format!(
        "UNWIND $ids AS id MATCH (a:{label} {{id: id}})-[r]->(b) WHERE type(r) IN $types \
         RETURN a.id AS from, b.id AS to, type(r) AS type, r.severity AS severity, \
         r.evidence AS evidence, r.sections AS sections"
    )
}

const SEGMENT_BY_FINGERPRINT: &str = "\
    MATCH (l:Label)-[:HAS_SECTION]->(s:Section)-[:HAS_SEGMENT]->(g:Segment {fingerprint: $fingerprint}) \
    RETURN g.text AS text, s.key AS section_key, l.label_id AS label_id, l.set_id AS set_id, \
        l.version AS version, l.effective_time AS effective_time, l.drug AS drug, \
        l.brand_names AS brand_names, l.manufacturer AS manufacturer, l.ndc AS ndc, \
        l.route AS route, l.name_source AS name_source, l.search_names AS search_names, \
        l.classes AS classes, l.stated_class AS stated_class, l.status AS status, l.newest_label_id AS newest_label_id, \
        l.newest_version AS newest_version, l.newest_effective_time AS newest_effective_time \
    ORDER BY l.version_rank DESC, l.effective_time DESC, l.label_id DESC LIMIT 1";

const SHARING_A_BLOCK: &str = "\
    MATCH (g:Segment) \
    WHERE g.block0 = $b0 OR g.block1 = $b1 OR g.block2 = $b2 OR g.block3 = $b3 \
       OR g.block4 = $b4 OR g.block5 = $b5 OR g.block6 = $b6 OR g.block7 = $b7 \
    RETURN g.fingerprint AS fingerprint";

impl Neo4jClient {
    /// The stored knowledge graph, nodes sorted by id and relationships by (from, to, type),
    /// as the generation's graph file keeps them.
    pub fn read_graph(&self) -> Result<GraphData, Neo4jError> {
        let mut nodes = Vec::new();
        for kind in NodeKind::ALL {
            let statement = format!(
                "MATCH (n:{}) RETURN n.id AS id, n.name AS name, \
                 coalesce(n.unlabelled, false) AS unlabelled",
                node_label(kind)
            );
            for row in self.rows(query(&statement))? {
                nodes.push(Node {
                    id: self.column(&row, "id")?,
                    kind,
                    name: self.column(&row, "name")?,
                    unlabelled: self.column(&row, "unlabelled")?,
                });
            }
        }
        let types: Vec<&str> = RelationType::ALL
            .iter()
            .map(|&t| relationship_type(t))
            .collect();
        let mut relationships = Vec::new();
        for kind in [NodeKind::Drug, NodeKind::DrugClass] {
            let ids: Vec<String> = nodes
                .iter()
                .filter(|n| n.kind == kind)
                .map(|n| n.id.clone())
                .collect();
            let statement = relationships_from(node_label(kind));
            for ids in ids.chunks(DRUGS_PER_READ) {
                let statement = query(&statement)
                    .param("ids", ids.to_vec())
                    .param("types", types.clone());
                for row in self.rows(statement)? {
                    relationships.push(self.relationship(&row)?);
                }
            }
        }
        nodes.sort();
        relationships.sort_by(|a, b| (&a.from, &a.to, a.kind).cmp(&(&b.from, &b.to, b.kind)));
        Ok(GraphData {
            nodes,
            relationships,
        })
    }

    fn relationship(&self, row: &Row) -> Result<Relationship, Neo4jError> {
        let type_name: String = self.column(row, "type")?;
        let kind = RelationType::ALL
            .into_iter()
            .find(|&t| relationship_type(t) == type_name)
            .ok_or_else(|| self.unexpected(format!("relationship type {type_name}")))?;
        let severity: Option<String> = self.column(row, "severity")?;
        let severity = severity
            .map(|s| serde_json::from_value::<Severity>(serde_json::Value::String(s)))
            .transpose()
            .map_err(|e| self.unexpected(e))?;
        let fingerprints: Option<Vec<String>> = self.column(row, "evidence")?;
        let sections: Option<Vec<String>> = self.column(row, "sections")?;
        let evidence = fingerprints
            .unwrap_or_default()
            .iter()
            .zip(sections.unwrap_or_default())
            .map(|(hex, section)| {
                Fingerprint::from_hex(hex)
                    .map(|fingerprint| Evidence {
                        fingerprint,
                        section,
                    })
                    .ok_or_else(|| {
                        self.unexpected(format!("evidence {hex:?} is not a fingerprint"))
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(Relationship {
            from: self.column(row, "from")?,
            to: self.column(row, "to")?,
            kind,
            severity,
            evidence,
        })
    }

    /// The segment with this exact fingerprint, with its newest label version.
    pub fn segment(&self, fingerprint: Fingerprint) -> Result<Option<StoredSegment>, Neo4jError> {
        let statement = query(SEGMENT_BY_FINGERPRINT).param("fingerprint", fingerprint.to_hex());
        let Some(row) = self.rows(statement)?.into_iter().next() else {
            return Ok(None);
        };
        let name_source: String = self.column(&row, "name_source")?;
        let name_source: NameSource =
            serde_json::from_value(serde_json::Value::String(name_source))
                .map_err(|e| self.unexpected(e))?;
        let label = LabelMeta {
            label_id: self.column(&row, "label_id")?,
            set_id: self.column(&row, "set_id")?,
            version: self.column(&row, "version")?,
            effective_time: self.column(&row, "effective_time")?,
            drug: Drug {
                name: self.column(&row, "drug")?,
                brand_names: self.column(&row, "brand_names")?,
                manufacturer: self.column(&row, "manufacturer")?,
                ndc: self.column(&row, "ndc")?,
                route: self.column(&row, "route")?,
            },
            name_source,
            search_names: self.column(&row, "search_names")?,
            classes: self.column(&row, "classes")?,
            stated_class: self.column(&row, "stated_class")?,
        };
        let status: String = self.column(&row, "status")?;
        let standing = Standing {
            status: serde_json::from_value(serde_json::Value::String(status))
                .map_err(|e| self.unexpected(e))?,
            newest: VersionRef {
                label_id: self.column(&row, "newest_label_id")?,
                version: self.column(&row, "newest_version")?,
                effective_time: self.column(&row, "newest_effective_time")?,
            },
        };
        let segment = StoredSegment {
            text: self.column(&row, "text")?,
            section_key: self.column(&row, "section_key")?,
            fingerprint,
            label: Arc::new(label),
            standing,
        };
        self.recheck(&segment)?;
        Ok(Some(segment))
    }

    /// Re-hashes a segment read from Neo4j (its label's set id, section, text) against the
    /// fingerprint it was found by; a mismatch is logged loudly and is an error.
    fn recheck(&self, segment: &StoredSegment) -> Result<(), Neo4jError> {
        let StoredSegment {
            text,
            section_key,
            fingerprint,
            label,
            ..
        } = segment;
        let recomputed = Fingerprint::of_segment(&label.set_id, section_key, text);
        if recomputed == *fingerprint {
            return Ok(());
        }
        let detail = format!(
            "segment {} recomputes to {} from set id {:?}, section {section_key:?} and its text",
            fingerprint.to_hex(),
            recomputed.to_hex(),
            label.set_id
        );
        tracing::error!(uri = self.uri(), %detail, "TAMPERED OR CORRUPT SEGMENT in Neo4j: not served");
        Err(self.unexpected(detail))
    }

    /// The nearest stored fingerprint within the verify radius, as (distance, fingerprint);
    /// ties go to the smaller fingerprint. Candidates share a 16-bit block with the query.
    pub fn nearest(
        &self,
        fingerprint: Fingerprint,
    ) -> Result<Option<(u32, Fingerprint)>, Neo4jError> {
        let statement = (0..8).fold(query(SHARING_A_BLOCK), |statement, b| {
            statement.param(&format!("b{b}"), i64::from(fingerprint.block(b)))
        });
        let mut best: Option<(u32, Fingerprint)> = None;
        for row in self.rows(statement)? {
            let hex: String = self.column(&row, "fingerprint")?;
            let candidate = Fingerprint::from_hex(&hex)
                .ok_or_else(|| self.unexpected(format!("{hex:?} is not a fingerprint")))?;
            let distance = candidate.hamming_distance(fingerprint);
            if distance <= MAX_HAMMING_RADIUS && best.is_none_or(|b| (distance, candidate) < b) {
                best = Some((distance, candidate));
            }
        }
        Ok(best)
    }

    /// The digest of the graph the last completed sync wrote; `None` if none completed.
    pub fn synced_graph_digest(&self) -> Result<Option<String>, Neo4jError> {
        let statement =
            query("MATCH (s:DrugciteSync {id: \"drugcite\"}) RETURN s.graph_digest AS digest");
        match self.rows(statement)?.first() {
            Some(row) => self.column(row, "digest"),
            None => Ok(None),
        }
    }

    /// Nodes per drugcite label and relationships per drugcite type.
    pub fn counts(&self) -> Result<StoredCounts, Neo4jError> {
        let mut counts = StoredCounts::default();
        for label in NODE_LABELS {
            let statement = format!("MATCH (n:{label}) RETURN count(n) AS n");
            counts
                .nodes
                .insert(label.to_owned(), self.count(&statement)?);
        }
        let types = RelationType::ALL.map(relationship_type);
        for kind in types.iter().chain(&STRUCTURE_TYPES) {
            let statement = format!("MATCH ()-[r:{kind}]->() RETURN count(r) AS n");
            counts
                .relationships
                .insert((*kind).to_owned(), self.count(&statement)?);
        }
        Ok(counts)
    }

    fn count(&self, statement: &str) -> Result<u64, Neo4jError> {
        let row = self.rows(query(statement))?.into_iter().next();
        let row = row.ok_or_else(|| self.unexpected("a count query returned no row"))?;
        let n: i64 = self.column(&row, "n")?;
        Ok(n.max(0) as u64)
    }

    fn column<T: DeserializeOwned>(&self, row: &Row, name: &str) -> Result<T, Neo4jError> {
        row.get(name)
            .map_err(|e| self.unexpected(format!("column {name}: {e}")))
    }
}
