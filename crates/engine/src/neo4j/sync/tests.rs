use super::*;
use crate::graph::{Evidence, Node, Severity};

fn graph() -> GraphData {
    let fingerprint = |hex: &str| Fingerprint::from_hex(hex).unwrap();
    GraphData {
        nodes: vec![Node::condition("SYMP:1", "nausea"), Node::drug("x")],
        relationships: vec![Relationship {
            from: "drug:x".into(),
            to: "SYMP:1".into(),
            kind: RelationType::Warning,
            severity: Some(Severity::Serious),
            evidence: vec![
                Evidence {
                    fingerprint: fingerprint(&"0".repeat(32)),
                    section: "warnings_and_cautions".into(),
                },
                Evidence {
                    fingerprint: fingerprint(&"f".repeat(32)),
                    section: "boxed_warning".into(),
                },
            ],
        }],
    }
}

#[test]
fn a_relationship_row_keeps_evidence_order_and_marks_boxed_warnings() {
    let row = relationship_row(&graph().relationships[0], "d");
    assert_eq!(row["evidence"], json!(["0".repeat(32), "f".repeat(32)]));
    assert_eq!(
        row["sections"],
        json!(["warnings_and_cautions", "boxed_warning"])
    );
    assert_eq!(row["boxed"], true);
    assert_eq!(row["severity"], "serious");
}

#[test]
fn the_digest_is_stable_and_changes_with_the_graph() {
    let mut changed = graph();
    assert_eq!(graph_digest(&graph()), graph_digest(&graph()));
    changed.relationships[0].severity = None;
    assert_ne!(graph_digest(&changed), graph_digest(&graph()));
}

#[test]
fn only_versions_whose_drug_is_a_graph_node_are_counted_as_linked() {
    let version = |label_id: &str, name: &str| {
        Arc::new(LabelMeta {
            label_id: label_id.into(),
            set_id: "s".into(),
            version: "1".into(),
            effective_time: "20240101".into(),
            drug: drugcite_core::label::Drug {
                name: name.into(),
                ..Default::default()
            },
            name_source: drugcite_core::label::NameSource::GenericName,
            search_names: vec![],
            classes: vec![],
            stated_class: None,
        })
    };
    let labels = [version("new", "x"), version("old", "x salt")];
    assert_eq!(drug_linked(&graph(), &labels), 1);
}

#[test]
fn relationships_are_grouped_by_type_and_end_labels() {
    let graph = graph();
    let groups = relationship_groups(&graph);
    let keys: Vec<_> = groups.keys().collect();
    assert_eq!(keys, [&(RelationType::Warning, "Drug", "Condition")]);
}
