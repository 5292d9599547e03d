//! Which label version holds each fingerprint, derived from the label history: the newest
//! version holding it, that version's status, and whether the segment is current (searchable).
//! Built at ingest into a table of the generation (`holders.cols`) and mapped when it is opened;
//! built from the history when a generation written before that file is opened.

use crate::files::{HISTORY_FILE, HOLDERS_FILE};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::columns::catalog::fingerprint;
use super::columns::table::{le_u32, Table};
use super::history::{LabelHistory, VersionStatus};
use super::prehashed::Prehashed;
use super::StoreError;
use drugcite_core::domain::Fingerprint;
use drugcite_core::label::LabelMeta;

const TAG: &[u8; 8] = b"DCHOLDR1";
/// Label ordinal (u32 LE), then 1 if current.
const VALUE: usize = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    /// Ordinal of the newest label version holding the fingerprint.
    pub label: u32,
    /// In a section of the current version of a published label.
    pub current: bool,
}

pub struct Holders {
    /// Fingerprint (16 bytes BE) → holder.
    by_fingerprint: Table,
    label_ordinals: HashMap<String, u32>,
    /// By label ordinal; `None` for a label version the history does not list.
    label_status: Vec<Option<VersionStatus>>,
}

impl Holders {
    /// The holders of `generation`: mapped from its `holders.cols` when `stored`, else built
    /// from the history. Fails when the history names a label version `labels` lacks.
    pub fn open(
        history: &LabelHistory,
        labels: &[Arc<LabelMeta>],
        generation: &Path,
        stored: bool,
    ) -> Result<Self, StoreError> {
        let (label_ordinals, label_status) =
            label_standings(history, labels).map_err(|reason| StoreError::Corrupt {
                path: generation.join(HISTORY_FILE).display().to_string(),
                reason,
            })?;
        let by_fingerprint = match stored {
            true => Table::map(&generation.join(HOLDERS_FILE), TAG, 16, VALUE)?,
            false => holder_table(history, &label_ordinals),
        };
        Ok(Self {
            by_fingerprint,
            label_ordinals,
            label_status,
        })
    }

    pub(crate) fn write(&self, generation: &Path) -> Result<(), StoreError> {
        self.by_fingerprint.write(&generation.join(HOLDERS_FILE))
    }

    pub fn of(&self, fingerprint: Fingerprint) -> Option<Holder> {
        let row = self.by_fingerprint.find(&fingerprint.to_be_bytes())?;
        Some(self.holder(row))
    }

    fn holder(&self, row: usize) -> Holder {
        let value = self.by_fingerprint.value(row);
        Holder {
            label: le_u32(value, 0),
            current: value[4] != 0,
        }
    }

    /// Every fingerprint some label version holds, in fingerprint order.
    pub fn fingerprints(&self) -> impl Iterator<Item = Fingerprint> + '_ {
        (0..self.by_fingerprint.len()).map(|row| fingerprint(self.by_fingerprint.key(row)))
    }

    pub fn label_ordinal(&self, label_id: &str) -> Option<u32> {
        self.label_ordinals.get(label_id).copied()
    }

    pub fn label_status(&self, label: u32) -> Option<VersionStatus> {
        self.label_status.get(label as usize).copied().flatten()
    }
}

type LabelStandings = (HashMap<String, u32>, Vec<Option<VersionStatus>>);

/// Each label version's ordinal, and per ordinal its status in its label's history.
fn label_standings(
    history: &LabelHistory,
    labels: &[Arc<LabelMeta>],
) -> Result<LabelStandings, String> {
    let label_ordinals: HashMap<String, u32> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| (label.label_id.clone(), i as u32))
        .collect();
    let mut label_status = vec![None; labels.len()];
    for set in history.sets() {
        for (position, version) in set.versions.iter().enumerate() {
            let label = *label_ordinals.get(&version.label_id).ok_or_else(|| {
                format!("label version {} is not in labels.jsonl", version.label_id)
            })?;
            label_status[label as usize] = Some(set.status_of(position));
        }
    }
    Ok((label_ordinals, label_status))
}

/// Per fingerprint of the history, its holder: the last version listing it (a retired
/// fingerprint only names its label, and is current only if a version lists it as current).
fn holder_table(history: &LabelHistory, label_ordinals: &HashMap<String, u32>) -> Table {
    let held = history
        .sets()
        .flat_map(|set| &set.versions)
        .map(|version| version.fingerprints().count() + version.retired.len())
        .sum();
    let mut by_fingerprint: HashMap<Fingerprint, Holder, Prehashed> =
        HashMap::with_capacity_and_hasher(held, Default::default());
    for set in history.sets() {
        for (position, version) in set.versions.iter().enumerate() {
            let label = label_ordinals[&version.label_id];
            let current = set.status_of(position) == VersionStatus::Current;
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
    let rows = by_fingerprint
        .into_iter()
        .map(|(fingerprint, holder)| {
            let mut value = [0u8; VALUE];
            value[..4].copy_from_slice(&holder.label.to_le_bytes());
            value[4] = u8::from(holder.current);
            (fingerprint.to_be_bytes(), value)
        })
        .collect();
    Table::build(TAG, rows, &[])
}
