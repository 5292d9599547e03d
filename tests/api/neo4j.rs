//! The Neo4j backend against a real Cypher engine over Bolt (see `bolt.rs`): the sync writes
//! the embedded graph and is idempotent, every analyst query agrees with the embedded graph,
//! /v1/graph and verify answer the same on both backends, and the server survives the
//! database going away.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use drugcite_core::domain::Fingerprint;
use drugcite_core::label::{dailymed_url, section_name};
use drugcite_engine::engine::GraphBackend;
use drugcite_engine::graph::{GraphData, NodeKind, RelationType, Relationship};
use drugcite_engine::ingest::{ingest, IngestMode, IngestOptions, ProgressMode};
use drugcite_engine::neo4j::{schema_statements, sync_generation, Neo4jClient, StoredCounts};
use drugcite_store::{DataDir, Snapshot};
use serde_json::{json, Value};

use crate::bolt::{database, empty_database, endpoint, Relay};
use crate::helpers::{
    assert_error, corpus_lines, scratch_dir, shared_data, spawn_app, spawn_app_on, spawn_app_with,
    subset_index, vocabulary, write_jsonl, TestApp, GENEROUS,
};

fn subset_snapshot() -> Snapshot {
    Snapshot::open_current(&DataDir::new(&subset_index().data_dir)).expect("subset snapshot")
}

fn subset_graph(snapshot: &Snapshot) -> GraphData {
    GraphData::read(snapshot.generation())
        .expect("graph.bin")
        .expect("the subset has a graph")
}

/// Empties the database and syncs the subset into it.
fn fresh_sync(client: &Neo4jClient) -> (Snapshot, GraphData) {
    empty_database(client);
    let snapshot = subset_snapshot();
    let graph = subset_graph(&snapshot);
    sync_generation(client, &snapshot, &graph, ProgressMode::Silent).expect("sync");
    (snapshot, graph)
}

async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(work)
        .await
        .expect("blocking work")
}

/// Every (fingerprint, label id, section key, text) of the snapshot's live segments.
fn live_segments(snapshot: &Snapshot) -> Vec<(String, String, String, String)> {
    let labels = snapshot.labels();
    let mut segments = Vec::new();
    snapshot
        .visit_segments(|s| {
            segments.push((
                s.fingerprint.to_hex(),
                labels[s.label as usize].label_id.clone(),
                s.section_key.to_owned(),
                s.text.to_owned(),
            ))
        })
        .unwrap();
    segments
}

fn neo4j_type(kind: RelationType) -> String {
    kind.as_str().to_uppercase()
}

/// What the database must hold after syncing `snapshot` and its `graph`.
fn expected_counts(snapshot: &Snapshot, graph: &GraphData) -> StoredCounts {
    let segments = live_segments(snapshot);
    let fingerprints: BTreeSet<&str> = segments.iter().map(|s| s.0.as_str()).collect();
    let sections: BTreeSet<(&str, &str)> = segments
        .iter()
        .map(|s| (s.1.as_str(), s.2.as_str()))
        .collect();
    let section_links: BTreeSet<(&str, &str, &str)> = segments
        .iter()
        .map(|s| (s.1.as_str(), s.2.as_str(), s.0.as_str()))
        .collect();
    let drug_ids: BTreeSet<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    let labelled = snapshot
        .labels()
        .iter()
        .filter(|l| drug_ids.contains(format!("drug:{}", l.drug.name).as_str()))
        .count();
    let counts = graph.counts();
    let mut nodes: BTreeMap<String, u64> = [
        ("Drug", NodeKind::Drug),
        ("DrugClass", NodeKind::DrugClass),
        ("Condition", NodeKind::Condition),
    ]
    .into_iter()
    .map(|(label, kind)| (label.to_owned(), counts.nodes[&kind] as u64))
    .collect();
    nodes.insert("Label".into(), snapshot.labels().len() as u64);
    nodes.insert("Section".into(), sections.len() as u64);
    nodes.insert("Segment".into(), fingerprints.len() as u64);
    let mut relationships: BTreeMap<String, u64> = RelationType::ALL
        .into_iter()
        .map(|kind| {
            let n = counts.relationships.get(&kind).copied().unwrap_or(0);
            (neo4j_type(kind), n as u64)
        })
        .collect();
    relationships.insert("HAS_LABEL".into(), labelled as u64);
    relationships.insert("HAS_SECTION".into(), sections.len() as u64);
    relationships.insert("HAS_SEGMENT".into(), section_links.len() as u64);
    StoredCounts {
        nodes,
        relationships,
    }
}

fn stored_segments(client: &Neo4jClient) -> Vec<(String, String)> {
    let statement = neo4rs::query(
        "MATCH (g:Segment) RETURN g.fingerprint AS fingerprint, g.text AS text ORDER BY fingerprint",
    );
    client
        .rows(statement)
        .unwrap()
        .iter()
        .map(|row| (row.get("fingerprint").unwrap(), row.get("text").unwrap()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sync_writes_the_embedded_graph_and_a_second_sync_changes_nothing() {
    let _database = database().await;
    blocking(|| {
        let client = endpoint().client();
        let (snapshot, graph) = fresh_sync(&client);
        let counts = client.counts().unwrap();
        assert_eq!(counts, expected_counts(&snapshot, &graph));
        assert_eq!(client.read_graph().unwrap(), graph);
        let segments = stored_segments(&client);
        let mut live: Vec<(String, String)> = live_segments(&snapshot)
            .into_iter()
            .map(|s| (s.0, s.3))
            .collect();
        live.sort();
        live.dedup();
        assert_eq!(segments, live);

        let again = sync_generation(&client, &snapshot, &graph, ProgressMode::Silent).unwrap();
        assert_eq!(
            again.schema.created, 0,
            "every index exists after the first sync"
        );
        assert_eq!(again.schema.existing, schema_statements().len());
        assert_eq!(client.counts().unwrap(), counts);
        assert_eq!(client.read_graph().unwrap(), graph);
        assert_eq!(stored_segments(&client), segments);
    })
    .await;
}

/// A second, smaller index: the first two records of the corpus, with their graph.
fn smaller_index(dir: &Path) -> PathBuf {
    let data_dir = dir.join("data");
    let input = write_jsonl(dir, "two.jsonl", &corpus_lines(2));
    let options = IngestOptions {
        progress: ProgressMode::Silent,
        mode: IngestMode::Full,
        embedder: None,
        vocabulary: vocabulary(),
    };
    ingest(&DataDir::new(&data_dir), &[input], &options).expect("smaller index");
    data_dir
}

/// Syncs `snapshot` and checks Neo4j then holds exactly it: counts, graph, segments.
fn sync_exactly(client: &Neo4jClient, snapshot: &Snapshot, graph: &GraphData) {
    sync_generation(client, snapshot, graph, ProgressMode::Silent).unwrap();
    assert_eq!(client.counts().unwrap(), expected_counts(snapshot, graph));
    assert_eq!(client.read_graph().unwrap(), *graph);
    let mut live: Vec<(String, String)> = live_segments(snapshot)
        .into_iter()
        .map(|s| (s.0, s.3))
        .collect();
    live.sort();
    live.dedup();
    assert_eq!(stored_segments(client), live);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_removes_what_the_new_graph_or_index_no_longer_has() {
    let _database = database().await;
    let dir = scratch_dir();
    let small_dir = smaller_index(dir.path());
    let small = Arc::new(Snapshot::open_current(&DataDir::new(&small_dir)).unwrap());
    let client = Arc::new(blocking(|| endpoint().client()).await);
    let (writer, read) = (Arc::clone(&client), Arc::clone(&small));
    blocking(move || {
        let (snapshot, graph) = fresh_sync(&writer);
        let mut smaller = graph.clone();
        let dropped = smaller
            .relationships
            .iter()
            .position(|r| r.kind == RelationType::Contraindication)
            .expect("the subset has a contraindication");
        smaller.relationships.remove(dropped);
        sync_generation(&writer, &snapshot, &smaller, ProgressMode::Silent).unwrap();
        assert_eq!(writer.read_graph().unwrap(), smaller);
        sync_exactly(&writer, &snapshot, &graph);
        sync_exactly(&writer, &read, &subset_graph(&read));
    })
    .await;

    let embedded = spawn_app_with(&small_dir, GENEROUS).await;
    let on_neo4j = spawn_app_on(&small_dir, GraphBackend::Neo4j(Arc::clone(&client))).await;
    let subset = live_segments(&subset_snapshot());
    let mut verified = BTreeSet::new();
    for (hex, ..) in subset.iter().step_by(7) {
        let fingerprint = Fingerprint::from_hex(hex).unwrap().to_string();
        let want = embedded.verify(&fingerprint, None).await;
        let got = on_neo4j.verify(&fingerprint, None).await;
        assert_eq!((got.status, &got.body), (want.status, &want.body));
        verified.insert(want.body["data"]["verified"] == true);
    }
    assert_eq!(
        verified.len(),
        2,
        "some of the subset is in the smaller index, some not"
    );
    blocking(move || {
        let snapshot = subset_snapshot();
        sync_exactly(&client, &snapshot, &subset_graph(&snapshot));
    })
    .await;
}

// --- the analyst pack -----------------------------------------------------------------------

fn query_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cypher/queries");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cypher"))
        .collect();
    files.sort();
    files
}

/// The file's statement without comments or the final semicolon.
fn statement_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let code: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    code.join("\n").trim().trim_end_matches(';').to_owned()
}

/// A row as JSON; integral floats become integers (FalkorDB's `sum()` returns a float).
fn row_json(row: &neo4rs::Row) -> Value {
    let mut object = serde_json::Map::new();
    for key in row.keys() {
        let value: Value = row.get(&key.value).unwrap();
        object.insert(key.value.clone(), integral(value));
    }
    Value::Object(object)
}

fn integral(value: Value) -> Value {
    match value.as_f64() {
        Some(f) if value.is_f64() && f.fract() == 0.0 => json!(f as i64),
        _ => value,
    }
}

/// The embedded graph with the look-ups the expectations need.
struct Embedded<'a> {
    graph: &'a GraphData,
    names: HashMap<&'a str, &'a str>,
    kinds: HashMap<&'a str, NodeKind>,
    texts: HashMap<String, String>,
}

impl<'a> Embedded<'a> {
    fn new(graph: &'a GraphData, snapshot: &Snapshot) -> Self {
        Self {
            graph,
            names: graph
                .nodes
                .iter()
                .map(|n| (n.id.as_str(), n.name.as_str()))
                .collect(),
            kinds: graph
                .nodes
                .iter()
                .map(|n| (n.id.as_str(), n.kind))
                .collect(),
            texts: live_segments(snapshot)
                .into_iter()
                .map(|s| (s.0, s.3))
                .collect(),
        }
    }

    fn name(&self, id: &str) -> &'a str {
        self.names[id]
    }

    fn is(&self, id: &str, kind: NodeKind) -> bool {
        self.kinds.get(id) == Some(&kind)
    }

    fn of_type(&self, kind: RelationType) -> impl Iterator<Item = &'a Relationship> {
        self.graph
            .relationships
            .iter()
            .filter(move |r| r.kind == kind)
    }

    fn of_drug(&self, drug: &str, kind: RelationType) -> Vec<&'a Relationship> {
        let id = format!("drug:{drug}");
        self.of_type(kind).filter(|r| r.from == id).collect()
    }

    /// Interaction neighbours of a node, either direction.
    fn interacting(&self, id: &str) -> BTreeSet<&'a str> {
        self.of_type(RelationType::Interaction)
            .filter_map(|r| {
                (r.from == id)
                    .then_some(r.to.as_str())
                    .or((r.to == id).then_some(r.from.as_str()))
            })
            .collect()
    }

    fn members(&self, class_name: &str) -> Vec<&'a str> {
        self.of_type(RelationType::MemberOf)
            .filter(|r| self.name(&r.to) == class_name)
            .map(|r| r.from.as_str())
            .collect()
    }
}

fn severity(r: &Relationship) -> Value {
    serde_json::to_value(r.severity).unwrap()
}

fn sorted_by<K: Ord>(mut rows: Vec<Value>, key: impl Fn(&Value) -> K) -> Vec<Value> {
    rows.sort_by_key(|r| key(r));
    rows
}

fn text(v: &Value, field: &str) -> String {
    v[field].as_str().unwrap_or_default().to_owned()
}

fn number(v: &Value, field: &str) -> i64 {
    v[field].as_i64().unwrap()
}

fn distinct(rows: Vec<Value>) -> Vec<Value> {
    let unique: BTreeSet<String> = rows.iter().map(|r| r.to_string()).collect();
    unique
        .into_iter()
        .map(|r| serde_json::from_str(&r).unwrap())
        .collect()
}

const DRUG: &str = "sertraline hydrochloride";
/// An enzyme class the subset's labels name (clopidogrel's CYP2C19 inhibitors).
const ENZYME_CLASS: &str = "cyp2c19 inhibitors";
const CLASS: &str = "serotonin reuptake inhibitor";

fn parameters(fingerprint: &str) -> Vec<(&'static str, String)> {
    vec![
        ("drug", DRUG.to_owned()),
        ("class", CLASS.to_owned()),
        ("words", "disorder".to_owned()),
        ("reaction", "bleeding".to_owned()),
        ("indication", "diabetes".to_owned()),
        ("contraindication", "renal".to_owned()),
        ("fingerprint", fingerprint.to_owned()),
        ("enzyme_class", ENZYME_CLASS.to_owned()),
    ]
}

/// What each query of the pack must return, computed from the embedded graph and store.
fn expected(file: &str, e: &Embedded, snapshot: &Snapshot, fingerprint: &str) -> Vec<Value> {
    use RelationType::*;
    match file {
        "01-contraindications-of-a-drug.cypher" => {
            let rows = e
                .of_drug(DRUG, Contraindication)
                .into_iter()
                .flat_map(|r| {
                    r.evidence.iter().map(move |ev| {
                        let hex = ev.fingerprint.to_hex();
                        json!({"target": e.name(&r.to), "severity": severity(r),
                               "fingerprint": hex, "text": e.texts[&hex]})
                    })
                })
                .collect();
            sorted_by(rows, |v| (text(v, "target"), text(v, "fingerprint")))
        }
        "02-drugs-sharing-adverse-reactions.cypher" => {
            let reactions = |drug_id: &str| -> BTreeSet<&str> {
                e.of_type(AdverseReaction)
                    .filter(|r| r.from == drug_id && e.is(&r.to, NodeKind::Condition))
                    .map(|r| r.to.as_str())
                    .collect()
            };
            let mine = reactions(&format!("drug:{DRUG}"));
            let rows = e
                .graph
                .nodes
                .iter()
                .filter(|n| n.kind == NodeKind::Drug && n.name != DRUG)
                .map(|n| {
                    (
                        n.name.as_str(),
                        reactions(&n.id).intersection(&mine).count(),
                    )
                })
                .filter(|(_, shared)| *shared > 0)
                .map(|(drug, shared)| json!({"drug": drug, "shared": shared}))
                .collect();
            let mut rows = sorted_by(rows, |v| (-number(v, "shared"), text(v, "drug")));
            rows.truncate(25);
            rows
        }
        "03-two-hop-interaction-chains.cypher" => {
            let a = format!("drug:{DRUG}");
            let mut rows = Vec::new();
            for b in e.interacting(&a).into_iter().filter(|b| *b != a) {
                for r in e
                    .graph
                    .relationships
                    .iter()
                    .filter(|r| matches!(r.kind, Interaction | MemberOf))
                {
                    let c = if r.from == b {
                        &r.to
                    } else if r.to == b {
                        &r.from
                    } else {
                        continue;
                    };
                    if e.is(c, NodeKind::Drug) && *c != a && c != b {
                        rows.push(json!({"via": e.name(b), "link": neo4j_type(r.kind),
                                         "reaches": e.name(c)}));
                    }
                }
            }
            sorted_by(distinct(rows), |v| {
                (text(v, "via"), text(v, "link"), text(v, "reaches"))
            })
        }
        "04-classes-with-boxed-warnings.cypher" => {
            let mut by_class: BTreeMap<&str, (BTreeSet<&str>, BTreeSet<&str>)> = BTreeMap::new();
            for member in e.of_type(MemberOf) {
                for w in e.of_type(Warning).filter(|w| {
                    w.from == member.from
                        && e.is(&w.to, NodeKind::Condition)
                        && w.evidence.iter().any(|ev| ev.section == "boxed_warning")
                }) {
                    let entry = by_class.entry(e.name(&member.to)).or_default();
                    entry.0.insert(&member.from);
                    entry.1.insert(&w.to);
                }
            }
            let rows = by_class
                .into_iter()
                .map(|(class, (d, c))| json!({"class": class, "drugs": d.len(), "conditions": c.len()}))
                .collect();
            sorted_by(rows, |v| {
                (
                    -number(v, "drugs"),
                    -number(v, "conditions"),
                    text(v, "class"),
                )
            })
        }
        "05-most-often-contraindicated-conditions.cypher" => {
            let mut drugs: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
            for r in e
                .of_type(Contraindication)
                .filter(|r| e.is(&r.from, NodeKind::Drug) && e.is(&r.to, NodeKind::Condition))
            {
                drugs.entry(&r.to).or_default().insert(&r.from);
            }
            let rows = drugs
                .into_iter()
                .map(|(id, d)| json!({"id": id, "condition": e.name(id), "drugs": d.len()}))
                .collect();
            let mut rows = sorted_by(rows, |v| (-number(v, "drugs"), text(v, "id")));
            rows.truncate(25);
            rows
        }
        "06-life-threatening-risks-of-a-drug.cypher" => {
            let rows = [AdverseReaction, Warning]
                .into_iter()
                .flat_map(|kind| e.of_drug(DRUG, kind))
                .filter(|r| {
                    e.is(&r.to, NodeKind::Condition) && severity(r) == json!("life_threatening")
                })
                .map(|r| {
                    json!({"condition": e.name(&r.to), "relation": neo4j_type(r.kind),
                                "segments": r.evidence.len()})
                })
                .collect();
            sorted_by(rows, |v| {
                (
                    -number(v, "segments"),
                    text(v, "condition"),
                    text(v, "relation"),
                )
            })
        }
        "07-drugs-indicated-for-a-condition.cypher" => {
            let rows = e
                .of_type(Indication)
                .filter(|r| {
                    e.is(&r.from, NodeKind::Drug)
                        && e.is(&r.to, NodeKind::Condition)
                        && e.name(&r.to).contains("disorder")
                })
                .map(|r| json!({"drug": e.name(&r.from), "condition": e.name(&r.to)}))
                .collect();
            sorted_by(rows, |v| (text(v, "drug"), text(v, "condition")))
        }
        "08-indicated-for-a-and-contraindicated-in-b.cypher" => {
            let mut rows = Vec::new();
            for i in e.of_type(Indication).filter(|r| {
                e.is(&r.from, NodeKind::Drug)
                    && e.is(&r.to, NodeKind::Condition)
                    && e.name(&r.to).contains("diabetes")
            }) {
                for x in e.of_type(Contraindication).filter(|x| {
                    x.from == i.from
                        && e.is(&x.to, NodeKind::Condition)
                        && e.name(&x.to).contains("renal")
                }) {
                    rows.push(
                        json!({"drug": e.name(&i.from), "indicated_for": e.name(&i.to),
                                     "contraindicated_in": e.name(&x.to)}),
                    );
                }
            }
            sorted_by(distinct(rows), |v| {
                (
                    text(v, "drug"),
                    text(v, "indicated_for"),
                    text(v, "contraindicated_in"),
                )
            })
        }
        "09-interacting-drugs-that-cause-a-condition.cypher" => {
            let a = format!("drug:{DRUG}");
            let partners: BTreeSet<&str> = e
                .interacting(&a)
                .into_iter()
                .filter(|b| *b != a && e.is(b, NodeKind::Drug))
                .collect();
            let rows = [AdverseReaction, Warning]
                .into_iter()
                .flat_map(|kind| e.of_type(kind))
                .filter(|r| {
                    partners.contains(r.from.as_str())
                        && e.is(&r.to, NodeKind::Condition)
                        && e.name(&r.to).contains("bleeding")
                })
                .map(|r| {
                    json!({"drug": e.name(&r.from), "condition": e.name(&r.to),
                                "relation": neo4j_type(r.kind)})
                })
                .collect();
            sorted_by(distinct(rows), |v| {
                (text(v, "drug"), text(v, "condition"), text(v, "relation"))
            })
        }
        "10-class-members-and-their-interactions.cypher" => {
            let rows = e
                .members(CLASS)
                .into_iter()
                .filter(|d| e.is(d, NodeKind::Drug))
                .map(|d| {
                    let n = e.of_type(Interaction).filter(|r| r.from == d).count();
                    json!({"drug": e.name(d), "interactions": n})
                })
                .collect();
            sorted_by(rows, |v| (-number(v, "interactions"), text(v, "drug")))
        }
        "11-relationships-by-type.cypher" => {
            let mut by_type: BTreeMap<String, (usize, usize)> = BTreeMap::new();
            for r in e
                .graph
                .relationships
                .iter()
                .filter(|r| e.is(&r.from, NodeKind::Drug))
            {
                let entry = by_type.entry(neo4j_type(r.kind)).or_default();
                entry.0 += 1;
                entry.1 += r.evidence.len();
            }
            let rows = by_type
                .into_iter()
                .map(|(t, (n, ev))| json!({"relation": t, "relationships": n, "evidence": ev}))
                .collect();
            sorted_by(rows, |v| (-number(v, "relationships"), text(v, "relation")))
        }
        "12-label-versions-behind-a-fingerprint.cypher" => live_segments(snapshot)
            .into_iter()
            .filter(|s| s.0 == fingerprint)
            .map(|(_, label_id, key, _)| {
                let ordinal = snapshot.label_ordinal(&label_id).unwrap();
                let label = &snapshot.labels()[ordinal as usize];
                let standing = snapshot.standing(ordinal);
                json!({"set_id": label.set_id, "version": label.version,
                       "effective_time": label.effective_time, "label_id": label.label_id,
                       "status": standing.status, "newest_version": standing.newest.version,
                       "section": section_name(&key), "source": dailymed_url(&label.set_id)})
            })
            .collect(),
        "13-labels-with-exactly-this-text.cypher" => {
            let segments = live_segments(snapshot);
            let text_of = |fp: &str| segments.iter().find(|s| s.0 == fp).map(|s| s.3.clone());
            let wanted = text_of(fingerprint).expect("the fingerprint is a live segment");
            let rows = segments
                .iter()
                .filter(|s| s.3 == wanted)
                .map(|(fp, label_id, key, _)| {
                    let label = snapshot
                        .labels()
                        .iter()
                        .find(|l| &l.label_id == label_id)
                        .unwrap();
                    json!({"set_id": label.set_id, "manufacturer": label.drug.manufacturer,
                           "fingerprint": fp, "section": section_name(key)})
                })
                .collect();
            sorted_by(rows, |v| {
                (
                    text(v, "set_id"),
                    text(v, "fingerprint"),
                    text(v, "section"),
                )
            })
        }
        "14-what-interacts-with-strong-cyp3a-inhibitors.cypher" => {
            let class = format!("class:{ENZYME_CLASS}");
            let rows = [Interaction, Contraindication]
                .into_iter()
                .flat_map(|kind| e.of_type(kind))
                .filter(|r| r.to == class && e.is(&r.from, NodeKind::Drug))
                .map(|r| {
                    json!({"drug": e.name(&r.from), "relation": neo4j_type(r.kind),
                           "segments": r.evidence.len()})
                })
                .collect();
            sorted_by(rows, |v| (text(v, "drug"), text(v, "relation")))
        }
        other => panic!("{other} has no expectation here: add one"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_analyst_query_runs_and_agrees_with_the_embedded_graph() {
    let _database = database().await;
    blocking(|| {
        let client = endpoint().client();
        let (snapshot, graph) = fresh_sync(&client);
        let embedded = Embedded::new(&graph, &snapshot);
        let fingerprint = embedded
            .of_drug(DRUG, RelationType::Contraindication)
            .first()
            .expect("the subset's drug has contraindications")
            .evidence[0]
            .fingerprint
            .to_hex();
        let files = query_files();
        assert!(files.len() >= 10, "the pack has {} queries", files.len());
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let statement = statement_of(&file);
            let query = parameters(&fingerprint)
                .into_iter()
                .filter(|(key, _)| statement.contains(&format!("${key}")))
                .fold(neo4rs::query(&statement), |q, (key, value)| {
                    q.param(key, value)
                });
            let rows = client.rows(query).unwrap_or_else(|e| panic!("{name}: {e}"));
            let got: Vec<Value> = rows.iter().map(row_json).collect();
            let want = expected(&name, &embedded, &snapshot, &fingerprint);
            assert!(
                !want.is_empty(),
                "{name}: the subset gives this query nothing to find"
            );
            assert_eq!(got, want, "{name}");
        }
    })
    .await;
}

// --- the server on Neo4j --------------------------------------------------------------------

/// A /v1/graph reply without its timing.
async fn graph_answer(app: &TestApp, question: &str) -> Value {
    let mut data = app.graph(question, 2).await;
    data["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("search_time_ms");
    data
}

const QUESTIONS: [&str; 4] = [
    "Which SSRIs carry a boxed warning about suicidal thoughts?",
    "Which type 2 diabetes drugs are contraindicated in renal impairment?",
    "What are the contraindications of esmolol?",
    "Drugs interacting with clopidogrel that also cause bleeding",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_and_verify_answer_the_same_over_both_backends() {
    let _database = database().await;
    let client = blocking(|| {
        let client = endpoint().client();
        fresh_sync(&client);
        client
    })
    .await;
    let embedded = spawn_app().await;
    let data_dir = subset_index().data_dir.clone();
    let on_neo4j = spawn_app_on(&data_dir, GraphBackend::Neo4j(Arc::new(client))).await;
    let mut fingerprints = Vec::new();
    for question in QUESTIONS {
        let want = graph_answer(&embedded, question).await;
        assert!(
            !want["relationships"].as_array().unwrap().is_empty(),
            "{question}: {want}"
        );
        assert_eq!(graph_answer(&on_neo4j, question).await, want, "{question}");
        let first = &want["relationships"][0]["evidence"][0]["fingerprint"];
        fingerprints.push(first.as_str().unwrap().to_owned());
    }
    let mut near = fingerprints[0].clone().into_bytes();
    near[7] = if near[7] == b'0' { b'1' } else { b'0' };
    fingerprints.push(String::from_utf8(near).unwrap());
    fingerprints.push("1".repeat(128));
    for fingerprint in &fingerprints {
        let want = embedded.verify(fingerprint, None).await;
        let got = on_neo4j.verify(fingerprint, None).await;
        assert_eq!((got.status, &got.body), (want.status, &want.body));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_segment_altered_in_neo4j_is_never_verified() {
    let _database = database().await;
    let (hex, ..) = live_segments(&subset_snapshot()).remove(0);
    let altered = hex.clone();
    let client = blocking(move || {
        let client = endpoint().client();
        fresh_sync(&client);
        let statement = "MATCH (g:Segment {fingerprint: $f}) SET g.text = g.text + ' (altered)'";
        client
            .run(neo4rs::query(statement).param("f", altered.as_str()))
            .unwrap();
        client
    })
    .await;
    let app = spawn_app_on(
        &subset_index().data_dir,
        GraphBackend::Neo4j(Arc::new(client)),
    )
    .await;
    let fingerprint = Fingerprint::from_hex(&hex).unwrap().to_string();
    assert_error(&app.verify(&fingerprint, None).await, 500);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_on_neo4j_answers_from_the_last_completed_sync() {
    let _database = database().await;
    let client = Arc::new(blocking(|| endpoint().client()).await);
    let synced = Arc::clone(&client);
    let (snapshot, graph) = blocking(move || fresh_sync(&synced)).await;
    let data_dir = subset_index().data_dir.clone();
    let app = spawn_app_on(&data_dir, GraphBackend::Neo4j(Arc::clone(&client))).await;
    let question = QUESTIONS[2];
    let before = graph_answer(&app, question).await;
    let first = &before["relationships"][0];
    let (drug, target) = (first["drug"].clone(), first["target_id"].clone());
    assert!(drug.is_string() && target.is_string(), "{before}");

    let mut smaller = graph.clone();
    smaller.relationships.retain(|r| {
        !(r.from == format!("drug:{}", drug.as_str().unwrap()) && r.to == target.as_str().unwrap())
    });
    let writer = Arc::clone(&client);
    let snapshot = Arc::new(snapshot);
    let read = Arc::clone(&snapshot);
    blocking(move || sync_generation(&writer, &read, &smaller, ProgressMode::Silent).unwrap())
        .await;
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let after = graph_answer(&app, question).await;
    let still = after["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["drug"] == drug && r["target_id"] == target);
    assert!(
        !still,
        "the relationship the new sync removed is gone: {after}"
    );

    let writer = Arc::clone(&client);
    blocking(move || sync_generation(&writer, &snapshot, &graph, ProgressMode::Silent).unwrap())
        .await;
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    assert_eq!(graph_answer(&app, question).await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_survives_neo4j_going_away_and_comes_back_with_it() {
    let _database = database().await;
    blocking(|| fresh_sync(&endpoint().client())).await;
    let relay = Relay::start(endpoint().address()).await;
    let timeout = Duration::from_secs(2);
    let connect = |uri: String| {
        move || {
            let client = endpoint().client_at(&uri, timeout);
            GraphBackend::Neo4j(Arc::new(client))
        }
    };
    let data_dir = subset_index().data_dir.clone();
    let app = spawn_app_on(&data_dir, blocking(connect(relay.uri())).await).await;
    let answer = graph_answer(&app, QUESTIONS[0]).await;
    let cited = answer["relationships"][0]["evidence"][0]["fingerprint"]
        .as_str()
        .unwrap()
        .to_owned();
    let search = app.search("clopidogrel bleeding risk", 5).await;
    let uncited: Vec<String> = search.body["data"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["fingerprint"].as_str().unwrap().to_owned())
        .collect();

    relay.cut();
    let refused = app.verify(&uncited[0], None).await;
    assert_error(&refused, 500);
    assert_eq!(refused.headers["retry-after"], "5");
    assert_eq!(
        app.verify(&cited, None).await.status,
        200,
        "cached verify still answers"
    );
    assert_eq!(app.search("clopidogrel bleeding risk", 5).await.status, 200);
    assert_eq!(app.get("/health").await.status, 200);
    let cold = spawn_app_on(&data_dir, blocking(connect(relay.uri())).await).await;
    let body = json!({"question": QUESTIONS[0]});
    assert_error(&cold.graph_raw(Some(&cold.key), body.clone()).await, 500);

    relay.stall().await;
    assert_error(&app.verify(&uncited[1], None).await, 500);
    assert_error(&cold.graph_raw(Some(&cold.key), body.clone()).await, 500);

    relay.restore().await;
    let back = app.verify(&uncited[1], None).await;
    assert_eq!(back.status, 200, "{}", back.body);
    assert_eq!(back.body["data"]["verified"], true);
    assert_eq!(graph_answer(&cold, QUESTIONS[0]).await, answer);
}

// --- the command line -----------------------------------------------------------------------

fn drugcite(data_dir: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_drugcite"));
    command
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("DRUGCITE_DATA_DIR")
        .env_remove("DRUGCITE_NEO4J_URI")
        .env_remove("DRUGCITE_GRAPH_BACKEND");
    command
}

fn neo4j_args() -> Vec<String> {
    let endpoint = endpoint();
    vec![
        "--neo4j".into(),
        endpoint.uri.clone(),
        "--neo4j-user".into(),
        endpoint.user.clone(),
        "--neo4j-password".into(),
        endpoint.password.clone(),
    ]
}

fn run(command: &mut std::process::Command) -> (bool, String, String) {
    let output = command.output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ingest_syncs_into_neo4j_and_a_failed_sync_keeps_the_published_index() {
    let _database = database().await;
    blocking(|| empty_database(&endpoint().client())).await;
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let input = write_jsonl(dir.path(), "three.jsonl", &corpus_lines(3));
    let vocab = shared_data().join("vocab");
    let (ok, stdout, stderr) = run(drugcite(&data_dir)
        .args(["ingest", "--lexical-only", "--vocab"])
        .arg(&vocab)
        .arg(&input)
        .args(neo4j_args()));
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("neo4j nodes: ") && stdout.contains("Label 3"),
        "{stdout}"
    );
    assert!(stdout.contains("neo4j sync: "), "{stdout}");
    let labels = blocking(|| endpoint().client().counts().unwrap().nodes["Label"]).await;
    assert_eq!(labels, 3);

    let (ok, stdout, stderr) = run(drugcite(&data_dir).arg("sync-neo4j").args(neo4j_args()));
    assert!(ok, "{stderr}");
    assert!(stdout.contains("0 indexes created"), "{stdout}");

    let published = std::fs::read_to_string(data_dir.join("CURRENT")).unwrap();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let unreachable = format!("bolt://{}", closed.local_addr().unwrap());
    drop(closed);
    let (ok, _, stderr) = run(drugcite(&data_dir)
        .args([
            "ingest",
            "--lexical-only",
            "--neo4j-timeout-secs",
            "2",
            "--neo4j",
        ])
        .arg(&unreachable)
        .arg(&input));
    assert!(!ok);
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("error: the index was published, but the Neo4j sync failed"),
        "{stderr}"
    );
    let current = std::fs::read_to_string(data_dir.join("CURRENT")).unwrap();
    assert_ne!(
        current, published,
        "the new index is live although its sync failed"
    );
    let (ok, _, stderr) = run(drugcite(&data_dir).args(["serve", "--graph-backend", "neo4j"]));
    assert!(!ok);
    assert!(stderr.contains("--neo4j URI"), "{stderr}");
}
