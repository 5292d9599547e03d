//! Which label version holds each fingerprint, derived from the label history when a
//! generation is opened: the newest version holding it, that version's status, and whether the
//! segment is current (searchable). No I/O.

use std::collections::HashMap;
use std::sync::Arc;

use super::history::{LabelHistory, VersionStatus};
use super::prehashed::Prehashed;
use crate::domain::Fingerprint;
use crate::label::LabelMeta;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    /// Ordinal of the newest label version holding the fingerprint.
    pub label: u32,
    /// In a section of the current version of a published label.
    pub current: bool,
}

pub struct Holders {
    by_fingerprint: HashMap<Fingerprint, Holder, Prehashed>,
    label_ordinals: HashMap<String, u32>,
    /// By label ordinal; `None` for a label version the history does not list.
    label_status: Vec<Option<VersionStatus>>,
}

impl Holders {
    /// Fails (with the reason) when the history names a label version `labels` lacks.
    pub fn build(history: &LabelHistory, labels: &[Arc<LabelMeta>]) -> Result<Self, String> {
        let label_ordinals: HashMap<String, u32> = labels
            .iter()
            .enumerate()
            .map(|(i, label)| (label.label_id.clone(), i as u32))
            .collect();
        let held = history
            .sets()
            .flat_map(|set| &set.versions)
            .map(|version| version.fingerprints().count() + version.retired.len())
            .sum();
        let mut by_fingerprint = HashMap::with_capacity_and_hasher(held, Default::default());
        let mut label_status = vec![None; labels.len()];
        for set in history.sets() {
            for (position, version) in set.versions.iter().enumerate() {
                let label = *label_ordinals.get(&version.label_id).ok_or_else(|| {
                    format!("label version {} is not in labels.jsonl", version.label_id)
                })?;
                let status = set.status_of(position);
                label_status[label as usize] = Some(status);
                let current = status == VersionStatus::Current;
                for fingerprint in version.fingerprints() {
                    by_fingerprint.insert(fingerprint, Holder { label, current });
                }
                for &fingerprint in &version.retired {
                    by_fingerprint
                        .entry(fingerprint)
                        .and_modify(|h: &mut Holder| h.label = label)
                        .or_insert(Holder {
                            label,
                            current: false,
                        });
                }
            }
        }
        Ok(Self {
            by_fingerprint,
            label_ordinals,
            label_status,
        })
    }

    pub fn of(&self, fingerprint: Fingerprint) -> Option<Holder> {
        self.by_fingerprint.get(&fingerprint).copied()
    }

    /// Every fingerprint some label version holds.
    pub fn fingerprints(&self) -> impl Iterator<Item = Fingerprint> + '_ {
        self.by_fingerprint.keys().copied()
    }

    pub fn label_ordinal(&self, label_id: &str) -> Option<u32> {
        self.label_ordinals.get(label_id).copied()
    }

    pub fn label_status(&self, label: u32) -> Option<VersionStatus> {
        self.label_status.get(label as usize).copied().flatten()
    }
}
