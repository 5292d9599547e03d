//! Writes a published generation into Neo4j: Drug/DrugClass/Condition nodes, Label, Section
//! and Segment nodes, and the typed relationships, in batched `UNWIND … MERGE` statements.
//! Idempotent: MERGE on each node's key and SET of its properties; whatever an earlier sync
//! wrote and this one did not is removed at the end (stale.rs), so Neo4j holds exactly this
//! generation, then the graph's digest is recorded as the completed sync. Never reads the
//! database back.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::held::{held_segments, HeldSegment};
use super::names::{node_label, relationship_type};
use super::stale::{generation_digest, hex, remove_stale};
use super::{Neo4jClient, Neo4jError, SchemaReport};
use crate::graph::{GraphData, Node, NodeKind, RelationType, Relationship};
use drugcite_core::domain::Fingerprint;
use drugcite_core::label::{dailymed_url, section_name, LabelMeta};
use drugcite_store::progress::{Progress, ProgressMode, Unit};
use drugcite_store::{Snapshot, Standing, StoreError};

/// Rows per statement: small enough for any Bolt endpoint, large enough to amortise a trip.
const BATCH_ROWS: usize = 1_000;
/// Segment rows carry ~100 words of text each.
const SEGMENT_BATCH_ROWS: usize = 250;

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Neo4j(#[from] Neo4jError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a sync wrote: rows per node label and relationship type, and how long it took.
#[derive(Clone, Debug, Default)]
pub struct SyncReport {
    pub schema: SchemaReport,
    pub nodes: BTreeMap<&'static str, usize>,
    pub relationships: BTreeMap<&'static str, usize>,
    pub elapsed: Duration,
}

impl SyncReport {
    pub fn rows(&self) -> usize {
        self.nodes.values().chain(self.relationships.values()).sum()
    }
}

impl std::fmt::Display for SyncReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |counts: &BTreeMap<&str, usize>| {
            counts
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let seconds = self.elapsed.as_secs_f64();
        writeln!(
            f,
            "neo4j schema: {} indexes created, {} already there",
            self.schema.created, self.schema.existing
        )?;
        writeln!(f, "neo4j nodes: {}", list(&self.nodes))?;
        writeln!(f, "neo4j relationships: {}", list(&self.relationships))?;
        write!(
            f,
            "neo4j sync: {} rows in {seconds:.1} s ({:.0} rows/s)",
            self.rows(),
            self.rows() as f64 / seconds.max(1e-3)
        )
    }
}

/// Writes `snapshot` and its `graph` into Neo4j, schema first.
pub fn sync_generation(
    client: &Neo4jClient,
    snapshot: &Snapshot,
    graph: &GraphData,
    mode: ProgressMode,
) -> Result<SyncReport, SyncError> {
    let started = Instant::now();
    let mut report = SyncReport {
        schema: client.apply_schema()?,
        ..SyncReport::default()
    };
    let live = held_segments(snapshot)?;
    let generation = generation_digest(
        snapshot.labels().iter().map(|l| l.label_id.as_str()),
        live.iter().map(|s| {
            let section = section_id(&s.label_id, &s.section_key);
            (s.fingerprint.to_hex(), section)
        }),
    );
    let sections = section_keys(&live);
    let total = graph.nodes.len()
        + graph.relationships.len()
        + snapshot.labels().len() * 2
        + sections.len() * 2
        + live.len() * 2;
    let mut progress = Progress::start(mode, "neo4j sync", total as u64, Unit::Items("rows"));
    let mut writer = Writer {
        client,
        progress: &mut progress,
        written: 0,
    };
    let digest = graph_digest(graph);
    for kind in NodeKind::ALL {
        let label = node_label(kind);
        let nodes: Vec<&Node> = graph.nodes.iter().filter(|n| n.kind == kind).collect();
        let statement = format!(
            "UNWIND $rows AS row MERGE (n:{label} {{id: row.id}}) \
             SET n.name = row.name, n.unlabelled = row.unlabelled, n.graph_digest = row.digest"
        );
        let row = |n: &&Node| json!({"id": n.id, "name": n.name, "unlabelled": n.unlabelled, "digest": digest});
        report
            .nodes
            .insert(label, writer.write(&statement, &nodes, BATCH_ROWS, 1, row)?);
    }
    let labels: Vec<(u32, &Arc<LabelMeta>)> = (0..).zip(snapshot.labels()).collect();
    report.nodes.insert("Label", labels.len());
    let row = |(i, l): &(u32, &Arc<LabelMeta>)| label_row(l, &snapshot.standing(*i), &generation);
    writer.write(WRITE_LABELS, &labels, BATCH_ROWS, 2, row)?;
    report
        .relationships
        .insert("HAS_LABEL", drug_linked(graph, snapshot.labels()));
    report.nodes.insert("Section", sections.len());
    let row = |(label_id, key): &(&str, &str)| section_row(label_id, key, &generation);
    report.relationships.insert(
        "HAS_SECTION",
        writer.write(WRITE_SECTIONS, &sections, BATCH_ROWS, 2, row)?,
    );
    let distinct: BTreeSet<Fingerprint> = live.iter().map(|s| s.fingerprint).collect();
    report.nodes.insert("Segment", distinct.len());
    let row = |s: &HeldSegment| segment_row(s, &generation);
    report.relationships.insert(
        "HAS_SEGMENT",
        writer.write(WRITE_SEGMENTS, &live, SEGMENT_BATCH_ROWS, 2, row)?,
    );
    for ((kind, from, to), rows) in relationship_groups(graph) {
        let kind_name = relationship_type(kind);
        let statement = format!(
            "UNWIND $rows AS row MATCH (a:{from} {{id: row.from}}), (b:{to} {{id: row.to}}) \
             MERGE (a)-[r:{kind_name}]->(b) SET r.severity = row.severity, \
             r.evidence = row.evidence, r.sections = row.sections, r.boxed = row.boxed, \
             r.graph_digest = row.digest"
        );
        let row = |r: &&Relationship| relationship_row(r, &digest);
        *report.relationships.entry(kind_name).or_default() +=
            writer.write(&statement, &rows, BATCH_ROWS, 1, row)?;
    }
    remove_stale(client, &digest, &generation)?;
    client.run(neo4rs::query(MARK_COMPLETED).param("digest", digest.as_str()))?;
    progress.finish();
    report.elapsed = started.elapsed();
    Ok(report)
}

/// Written last: servers on Neo4j reload their graph when this digest changes, so they never
/// load a half-written one.
const MARK_COMPLETED: &str =
    "MERGE (s:DrugciteSync {id: \"drugcite\"}) SET s.graph_digest = $digest";

const WRITE_LABELS: &str = "UNWIND $rows AS row \
    MERGE (l:Label {label_id: row.label_id}) \
    SET l.generation_digest = row.digest, l.set_id = row.set_id, l.version = row.version, l.effective_time = row.effective_time, \
        l.drug = row.drug, l.brand_names = row.brand_names, l.manufacturer = row.manufacturer, \
        l.ndc = row.ndc, l.route = row.route, l.name_source = row.name_source, \
        l.search_names = row.search_names, l.classes = row.classes, \
        l.stated_class = row.stated_class, l.source_url = row.source_url, \
        l.version_rank = row.version_rank, l.status = row.status, \
        l.newest_label_id = row.newest_label_id, l.newest_version = row.newest_version, \
        l.newest_effective_time = row.newest_effective_time \
    WITH l, row MATCH (d:Drug {id: row.drug_id}) \
    MERGE (d)-[h:HAS_LABEL]->(l) SET h.generation_digest = row.digest";

const WRITE_SECTIONS: &str = "UNWIND $rows AS row \
    MERGE (s:Section {id: row.id}) \
    SET s.key = row.key, s.name = row.name, s.label_id = row.label_id, \
        s.generation_digest = row.digest \
    WITH s, row MATCH (l:Label {label_id: row.label_id}) \
    MERGE (l)-[h:HAS_SECTION]->(s) SET h.generation_digest = row.digest";

const WRITE_SEGMENTS: &str = "UNWIND $rows AS row \
    MERGE (g:Segment {fingerprint: row.fingerprint}) \
    SET g.fp_hi = row.fp_hi, g.fp_lo = row.fp_lo, g.text = row.text, g.set_id = row.set_id, \
        g.section_key = row.section_key, g.text_hash = row.text_hash, \
        g.block0 = row.blocks[0], g.block1 = row.blocks[1], g.block2 = row.blocks[2], \
        g.block3 = row.blocks[3], g.block4 = row.blocks[4], g.block5 = row.blocks[5], \
        g.block6 = row.blocks[6], g.block7 = row.blocks[7], g.generation_digest = row.digest \
    WITH g, row MATCH (s:Section {id: row.section}) \
    MERGE (s)-[h:HAS_SEGMENT]->(g) SET h.generation_digest = row.digest";

fn label_row(label: &LabelMeta, standing: &Standing, digest: &str) -> Value {
    json!({
        "version_rank": label.version.trim().parse::<i64>().unwrap_or(0),
        "status": standing.status,
        "newest_label_id": standing.newest.label_id,
        "newest_version": standing.newest.version,
        "newest_effective_time": standing.newest.effective_time,
        "digest": digest,
        "label_id": label.label_id,
        "set_id": label.set_id,
        "version": label.version,
        "effective_time": label.effective_time,
        "drug": label.drug.name,
        "drug_id": Node::drug_id(&label.drug.name),
        "brand_names": label.drug.brand_names,
        "manufacturer": label.drug.manufacturer,
        "ndc": label.drug.ndc,
        "route": label.drug.route,
        "name_source": label.name_source,
        "search_names": label.search_names,
        "classes": label.classes,
        "stated_class": label.stated_class,
        "source_url": dailymed_url(&label.set_id),
    })
}

/// Label versions whose drug is a graph node, i.e. that get a HAS_LABEL. The graph is built
/// from current versions, so a superseded version named otherwise than its set's current one
/// (e.g. "tafamidis meglumine" before "tafamidis meglumine, tafamidis") has no Drug to link to.
fn drug_linked(graph: &GraphData, labels: &[Arc<LabelMeta>]) -> usize {
    let drugs: BTreeSet<&str> = graph
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Drug)
        .map(|n| n.id.as_str())
        .collect();
    labels
        .iter()
        .filter(|l| drugs.contains(Node::drug_id(&l.drug.name).as_str()))
        .count()
}

/// The Section node id of a label version's section.
pub fn section_id(label_id: &str, section_key: &str) -> String {
    format!("{label_id}/{section_key}")
}

/// One row per live segment: its node's properties and the section it links to (a segment
/// stated alike in two label versions is one node with two sections).
fn segment_row(segment: &HeldSegment, digest: &str) -> Value {
    let fp = segment.fingerprint;
    json!({
        "digest": digest,
        "fingerprint": fp.to_hex(),
        "fp_hi": fp.high() as i64,
        "fp_lo": fp.low() as i64,
        "blocks": (0..8).map(|b| fp.block(b)).collect::<Vec<_>>(),
        "text": segment.text.as_ref(),
        "text_hash": segment.text_hash.to_string(),
        "set_id": segment.set_id.as_ref(),
        "section_key": segment.section_key.as_ref(),
        "section": section_id(&segment.label_id, &segment.section_key),
    })
}

/// The (label version, section) pairs that hold a live segment, in order.
fn section_keys(segments: &[HeldSegment]) -> Vec<(&str, &str)> {
    let keys: BTreeSet<(&str, &str)> = segments
        .iter()
        .map(|s| (&*s.label_id, &*s.section_key))
        .collect();
    keys.into_iter().collect()
}

fn section_row(label_id: &str, key: &str, digest: &str) -> Value {
    json!({
        "id": section_id(label_id, key),
        "key": key,
        "name": section_name(key),
        "label_id": label_id,
        "digest": digest,
    })
}

type GroupKey = (RelationType, &'static str, &'static str);

/// Relationships grouped by type and the labels of their ends (a statement names both).
fn relationship_groups(graph: &GraphData) -> BTreeMap<GroupKey, Vec<&Relationship>> {
    let kinds: BTreeMap<&str, NodeKind> = graph
        .nodes
        .iter()
        .map(|n| (n.id.as_str(), n.kind))
        .collect();
    let mut groups: BTreeMap<GroupKey, Vec<&Relationship>> = BTreeMap::new();
    for relationship in &graph.relationships {
        let (Some(&from), Some(&to)) = (
            kinds.get(relationship.from.as_str()),
            kinds.get(relationship.to.as_str()),
        ) else {
            continue;
        };
        groups
            .entry((relationship.kind, node_label(from), node_label(to)))
            .or_default()
            .push(relationship);
    }
    groups
}

fn relationship_row(relationship: &Relationship, digest: &str) -> Value {
    json!({
        "from": relationship.from,
        "to": relationship.to,
        "severity": relationship.severity,
        "evidence": relationship.evidence.iter().map(|e| e.fingerprint.to_hex()).collect::<Vec<_>>(),
        "sections": relationship.evidence.iter().map(|e| e.section.as_str()).collect::<Vec<_>>(),
        "boxed": relationship.evidence.iter().any(|e| e.section == "boxed_warning"),
        "digest": digest,
    })
}

/// Identifies a graph's content: relationships carry it, so a sync can remove the ones an
/// earlier, different graph wrote, and an identical re-sync changes nothing.
fn graph_digest(graph: &GraphData) -> String {
    let bytes = serde_json::to_vec(graph).unwrap_or_default();
    hex(&Sha256::digest(&bytes)[..8])
}

/// Sends items in batches, each made into its row only when its batch is sent (a whole
/// generation's rows at once would hold every text twice more); each row stands for `items`
/// progress items (a node and its link).
struct Writer<'a> {
    client: &'a Neo4jClient,
    progress: &'a mut Progress,
    written: u64,
}

impl Writer<'_> {
    fn write<T>(
        &mut self,
        statement: &str,
        rows: &[T],
        batch: usize,
        items: u64,
        row: impl Fn(&T) -> Value,
    ) -> Result<usize, Neo4jError> {
        for chunk in rows.chunks(batch) {
            let rows = Value::Array(chunk.iter().map(&row).collect());
            let rows: neo4rs::BoltType = rows
                .try_into()
                .map_err(|e: neo4rs::Error| self.client.unexpected(e))?;
            self.client
                .run(neo4rs::query(statement).param("rows", rows))?;
            self.written += chunk.len() as u64 * items;
            self.progress.update(self.written, String::new);
        }
        Ok(rows.len())
    }
}

#[cfg(test)]
mod tests;
