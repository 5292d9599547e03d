//! The segments a sync writes: one row per (segment, label version holding it) over the whole
//! label history, so Neo4j resolves superseded and withdrawn versions like the embedded store.
//! Reads a snapshot; never writes.

use std::collections::HashMap;
use std::sync::Arc;

use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_store::{Snapshot, StoreError};

/// A segment with one label version that holds it.
pub struct HeldSegment {
    pub fingerprint: Fingerprint,
    pub text_hash: TextHash,
    pub text: Arc<str>,
    /// Shared by every row of the set, version and section (millions of rows at scale).
    pub set_id: Arc<str>,
    pub label_id: Arc<str>,
    pub section_key: Arc<str>,
}

/// Every (segment, version) pair of the history, in (fingerprint, label id, section) order.
pub fn held_segments(snapshot: &Snapshot) -> Result<Vec<HeldSegment>, StoreError> {
    let mut docs: HashMap<Fingerprint, (TextHash, Arc<str>, Arc<str>)> = HashMap::new();
    snapshot.visit_segments(|segment| {
        let doc = (
            segment.text_hash,
            Arc::from(segment.text),
            Arc::from(segment.section_key),
        );
        docs.insert(segment.fingerprint, doc);
    })?;
    let mut held = Vec::with_capacity(docs.len());
    for set in snapshot.history().sets() {
        let set_id: Arc<str> = Arc::from(set.set_id.as_str());
        for version in &set.versions {
            let label_id: Arc<str> = Arc::from(version.label_id.as_str());
            let in_sections = version.sections.iter().flat_map(|s| {
                let key: Arc<str> = Arc::from(s.key.as_str());
                s.fingerprints
                    .iter()
                    .map(move |fp| (*fp, Some(key.clone())))
            });
            let retired = version.retired.iter().map(|fp| (*fp, None));
            for (fingerprint, key) in in_sections.chain(retired) {
                let Some((text_hash, text, doc_key)) = docs.get(&fingerprint) else {
                    continue;
                };
                held.push(HeldSegment {
                    fingerprint,
                    text_hash: *text_hash,
                    text: Arc::clone(text),
                    set_id: Arc::clone(&set_id),
                    label_id: Arc::clone(&label_id),
                    section_key: key.unwrap_or_else(|| Arc::clone(doc_key)),
                });
            }
        }
    }
    held.sort_by(|a, b| {
        (a.fingerprint, &a.label_id, &a.section_key).cmp(&(
            b.fingerprint,
            &b.label_id,
            &b.section_key,
        ))
    });
    held.dedup_by(|a, b| (a.fingerprint, &a.label_id) == (b.fingerprint, &b.label_id));
    Ok(held)
}
