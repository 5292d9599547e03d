//! The written JSON of verified answers, kept per fingerprint beside the segment it was written
//! from: a body is reused only while the verifier still serves that same segment (the same
//! `Arc`), so a new index generation or label version is never answered from an old body.
//! Holds no verify rules; a miss only costs writing the answer again.

use std::sync::Arc;

use axum::body::Bytes;
use drugcite_core::domain::Fingerprint;
use drugcite_store::StoredSegment;

/// Bytes of written answers kept (a verify answer is ~1–3 KB).
const KEPT_BYTES: u64 = 16 * 1024 * 1024;

pub struct VerifiedBodies(moka::sync::Cache<Fingerprint, (Arc<StoredSegment>, Bytes)>);

impl Default for VerifiedBodies {
    fn default() -> Self {
        Self(
            moka::sync::Cache::builder()
                .weigher(|_, (_, body): &(Arc<StoredSegment>, Bytes)| {
                    u32::try_from(body.len()).unwrap_or(u32::MAX)
                })
                .max_capacity(KEPT_BYTES)
                .build(),
        )
    }
}

impl VerifiedBodies {
    /// The body written for `fingerprint` from this very `segment`, if kept.
    pub fn get(&self, fingerprint: Fingerprint, segment: &Arc<StoredSegment>) -> Option<Bytes> {
        self.0
            .get(&fingerprint)
            .filter(|(written_from, _)| Arc::ptr_eq(written_from, segment))
            .map(|(_, body)| body)
    }

    pub fn keep(&self, fingerprint: Fingerprint, segment: Arc<StoredSegment>, body: Bytes) {
        self.0.insert(fingerprint, (segment, body));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use drugcite_core::label::LabelMeta;
    use drugcite_store::{Standing, VersionRef, VersionStatus};

    fn segment(status: VersionStatus) -> Arc<StoredSegment> {
        let label: LabelMeta = serde_json::from_value(serde_json::json!({
            "label_id": "doc-1", "set_id": "set-1", "version": "2", "effective_time": "20240101",
            "drug": {"name": "x", "brand_names": [], "manufacturer": "m", "ndc": [], "route": []},
            "name_source": "generic_name", "search_names": ["x"],
        }))
        .unwrap();
        let newest = VersionRef {
            label_id: "doc-1".into(),
            version: "2".into(),
            effective_time: "20240101".into(),
        };
        Arc::new(StoredSegment {
            text: "Do not use.".into(),
            section_key: "warnings".into(),
            fingerprint: Fingerprint::of_segment("set-1", "warnings", "Do not use."),
            label: Arc::new(label),
            standing: Standing { status, newest },
        })
    }

    #[test]
    fn a_body_is_reused_only_for_the_very_segment_it_was_written_from() {
        let bodies = VerifiedBodies::default();
        let current = segment(VersionStatus::Current);
        let fingerprint = current.fingerprint;
        bodies.keep(
            fingerprint,
            Arc::clone(&current),
            Bytes::from_static(b"{current}"),
        );
        assert_eq!(
            bodies.get(fingerprint, &current).as_deref(),
            Some(&b"{current}"[..])
        );
        let after_an_update = segment(VersionStatus::Superseded);
        assert_eq!(bodies.get(fingerprint, &after_an_update), None);
    }
}
