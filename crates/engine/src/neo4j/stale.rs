//! Removing what an earlier sync wrote and the synced generation no longer holds: every node
//! and relationship a sync writes carries the digest of what it synced (`graph_digest` for
//! the knowledge graph, `generation_digest` for labels, sections and segments), and after the
//! writes whatever carries another digest, or none, is deleted. Deletes only.

use sha2::{Digest, Sha256};

use super::names::{node_label, relationship_type};
use super::{Neo4jClient, Neo4jError};
use crate::graph::{NodeKind, RelationType};

/// Nodes and relationships that mirror the generation's labels, sections and segments.
const GENERATION_NODES: [&str; 3] = ["Segment", "Section", "Label"];
const GENERATION_RELATIONSHIPS: [&str; 3] = ["HAS_LABEL", "HAS_SECTION", "HAS_SEGMENT"];

/// Identifies what a generation puts in Neo4j: its label versions and, per segment, the
/// fingerprint and the section it belongs to (the fingerprint covers text, set id, section).
pub(super) fn generation_digest<'a>(
    label_ids: impl Iterator<Item = &'a str>,
    segments: impl Iterator<Item = (String, String)>,
) -> String {
    let mut hasher = Sha256::new();
    for label_id in label_ids {
        hasher.update(b"L");
        hasher.update((label_id.len() as u64).to_be_bytes());
        hasher.update(label_id.as_bytes());
    }
    for (fingerprint, section) in segments {
        hasher.update(b"S");
        hasher.update(fingerprint.as_bytes());
        hasher.update((section.len() as u64).to_be_bytes());
        hasher.update(section.as_bytes());
    }
    hex(&hasher.finalize()[..8])
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Deletes relationships, then nodes, that the sync of `graph` and `generation` did not write.
pub(super) fn remove_stale(
    client: &Neo4jClient,
    graph: &str,
    generation: &str,
) -> Result<(), Neo4jError> {
    let knowledge = RelationType::ALL.map(relationship_type);
    let graph_nodes = NodeKind::ALL.map(node_label);
    let relationships = knowledge
        .iter()
        .map(|kind| (kind, "graph_digest", graph))
        .chain(
            GENERATION_RELATIONSHIPS
                .iter()
                .map(|kind| (kind, "generation_digest", generation)),
        );
    for (kind, property, digest) in relationships {
        let statement = format!(
            "MATCH ()-[r:{kind}]->() WHERE r.{property} IS NULL OR r.{property} <> $digest DELETE r"
        );
        client.run(neo4rs::query(&statement).param("digest", digest))?;
    }
    let nodes = graph_nodes
        .iter()
        .map(|label| (label, "graph_digest", graph))
        .chain(
            GENERATION_NODES
                .iter()
                .map(|label| (label, "generation_digest", generation)),
        );
    for (label, property, digest) in nodes {
        let statement = format!(
            "MATCH (n:{label}) WHERE n.{property} IS NULL OR n.{property} <> $digest \
             DETACH DELETE n"
        );
        client.run(neo4rs::query(&statement).param("digest", digest))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generation_digest_changes_with_a_segment_or_its_section() {
        let labels = ["a", "b"];
        let digest = |segments: &[(&str, &str)]| {
            let owned = segments.iter().map(|(f, s)| (f.to_string(), s.to_string()));
            generation_digest(labels.into_iter(), owned)
        };
        let base = digest(&[("00", "a/warnings")]);
        assert_eq!(base, digest(&[("00", "a/warnings")]));
        assert_ne!(base, digest(&[("01", "a/warnings")]));
        assert_ne!(base, digest(&[("00", "b/warnings")]));
        assert_ne!(base, digest(&[]));
    }
}
