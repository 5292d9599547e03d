//! Label history: every version of every label set the store has ingested, the segments
//! (fingerprints by section) each version holds, which version is current and which sets a
//! full snapshot withdrew. Pure data and its file (`history.bin`; `history.jsonl` in older
//! generations); no tantivy, no HTTP.

use crate::files::{HISTORY_FILE, HISTORY_JSONL_FILE};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{encoded, io_error, read_json_lines, StoreError};
use drugcite_core::domain::Fingerprint;

/// The tag of `history.bin`: the structure and its format version.
const HISTORY_TAG: &[u8; 8] = b"DCHIST01";

/// Which of two versions of one set id is newer: version number, then effective time.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct VersionRank(u64, String);

impl VersionRank {
    pub fn new(version: &str, effective_time: &str) -> Self {
        Self(
            version.trim().parse().unwrap_or(0),
            effective_time.to_owned(),
        )
    }
}

/// Where a version stands in its label's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum VersionStatus {
    /// The newest version of a label still published.
    Current,
    /// A newer version of the label exists.
    Superseded,
    /// The newest version of a label that a later full snapshot no longer contained.
    Withdrawn,
}

/// One section of one version: its openFDA key and its segments in document order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionEntry {
    pub key: String,
    #[serde(with = "encoded::fingerprints")]
    pub fingerprints: Vec<Fingerprint>,
}

/// One ingested version of a label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionEntry {
    pub label_id: String,
    pub version: String,
    pub effective_time: String,
    pub sections: Vec<SectionEntry>,
    /// Fingerprints an earlier ingest of this same version produced and the current
    /// segmentation no longer does: still resolvable, never searched.
    #[serde(default, with = "encoded::fingerprints")]
    pub retired: Vec<Fingerprint>,
}

impl VersionEntry {
    pub fn rank(&self) -> VersionRank {
        VersionRank::new(&self.version, &self.effective_time)
    }

    /// Every fingerprint of the version's sections, in document order.
    pub fn fingerprints(&self) -> impl Iterator<Item = Fingerprint> + '_ {
        self.sections
            .iter()
            .flat_map(|s| s.fingerprints.iter().copied())
    }
}

/// When a full snapshot no longer contained a label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawal {
    /// UTC, RFC 3339: when the full ingest that withdrew the label ran.
    pub at: String,
    /// The generation that first marked it withdrawn.
    pub generation: String,
}

/// The history of one set id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetHistory {
    pub set_id: String,
    /// Oldest first by `VersionRank`.
    pub versions: Vec<VersionEntry>,
    #[serde(default)]
    pub withdrawn: Option<Withdrawal>,
}

impl SetHistory {
    pub fn newest(&self) -> &VersionEntry {
        self.versions
            .last()
            .expect("a set history holds at least one version")
    }

    pub fn status_of(&self, position: usize) -> VersionStatus {
        match (position + 1 == self.versions.len(), &self.withdrawn) {
            (false, _) => VersionStatus::Superseded,
            (true, None) => VersionStatus::Current,
            (true, Some(_)) => VersionStatus::Withdrawn,
        }
    }

    /// Adds a version, or replaces the entry of the same label id; keeps rank order.
    /// Fingerprints the replaced entry had and the new one lacks are kept as retired.
    pub fn put(&mut self, mut entry: VersionEntry) {
        if let Some(at) = self
            .versions
            .iter()
            .position(|v| v.label_id == entry.label_id)
        {
            let old = self.versions.remove(at);
            let now: BTreeSet<Fingerprint> = entry.fingerprints().collect();
            let retired: BTreeSet<Fingerprint> = old
                .fingerprints()
                .chain(old.retired.iter().copied())
                .filter(|fp| !now.contains(fp))
                .collect();
            entry.retired = retired.into_iter().collect();
        }
        let at = self.versions.partition_point(|v| v.rank() <= entry.rank());
        self.versions.insert(at, entry);
    }

    /// Whether a version of this rank (or this label id) is already recorded.
    pub fn holds(&self, label_id: &str, rank: &VersionRank) -> bool {
        self.versions
            .iter()
            .any(|v| v.label_id == label_id || &v.rank() == rank)
    }
}

/// Every set's history, by set id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelHistory {
    sets: BTreeMap<String, SetHistory>,
}

impl LabelHistory {
    pub fn get(&self, set_id: &str) -> Option<&SetHistory> {
        self.sets.get(set_id)
    }

    pub fn sets(&self) -> impl Iterator<Item = &SetHistory> {
        self.sets.values()
    }

    pub fn len(&self) -> usize {
        self.sets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// Records a version (see `SetHistory::put`); a set that reappears is no longer withdrawn.
    pub fn put(&mut self, set_id: &str, entry: VersionEntry) {
        let set = self
            .sets
            .entry(set_id.to_owned())
            .or_insert_with(|| SetHistory {
                set_id: set_id.to_owned(),
                versions: Vec::new(),
                withdrawn: None,
            });
        set.withdrawn = None;
        set.put(entry);
    }

    /// Marks withdrawn every set not in `present` that is not withdrawn already; returns how
    /// many it marked.
    pub fn withdraw_absent(&mut self, present: &BTreeSet<String>, withdrawal: &Withdrawal) -> u64 {
        let mut marked = 0;
        for set in self.sets.values_mut() {
            if set.withdrawn.is_none() && !present.contains(&set.set_id) {
                set.withdrawn = Some(withdrawal.clone());
                marked += 1;
            }
        }
        marked
    }

    /// The history of the generation in `dir`: `history.bin`, or the `history.jsonl` of a
    /// generation written before it.
    pub fn read(dir: &Path) -> Result<Self, StoreError> {
        let path = dir.join(HISTORY_FILE);
        let corrupt = |path: &Path, reason: String| StoreError::Corrupt {
            path: path.display().to_string(),
            reason,
        };
        let sets: Vec<SetHistory> = match encoded::read(&path, HISTORY_TAG) {
            Ok(sets) => sets,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Self::read_jsonl(&dir.join(HISTORY_JSONL_FILE))
            }
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(corrupt(&path, e.to_string()))
            }
            Err(e) => return Err(io_error(format!("reading {}", path.display()))(e)),
        };
        let mut history = Self::default();
        for set in sets {
            if set.versions.is_empty() {
                return Err(corrupt(
                    &path,
                    format!("set {} has no versions", set.set_id),
                ));
            }
            history.sets.insert(set.set_id.clone(), set);
        }
        Ok(history)
    }

    fn read_jsonl(path: &Path) -> Result<Self, StoreError> {
        if !path.exists() {
            return Err(StoreError::Corrupt {
                path: path.display().to_string(),
                reason: "missing: the generation predates label history; run a full ingest".into(),
            });
        }
        let mut sets = BTreeMap::new();
        for (number, set) in read_json_lines::<SetHistory>(path)?.into_iter().enumerate() {
            if set.versions.is_empty() {
                return Err(StoreError::Corrupt {
                    path: path.display().to_string(),
                    reason: format!("line {}: a set without versions", number + 1),
                });
            }
            sets.insert(set.set_id.clone(), set);
        }
        Ok(Self { sets })
    }

    /// Writes `history.bin` into `dir` (the sets by set id) and syncs it.
    pub fn write(&self, dir: &Path) -> Result<(), StoreError> {
        let sets: Vec<&SetHistory> = self.sets.values().collect();
        encoded::write(&dir.join(HISTORY_FILE), HISTORY_TAG, &sets)
            .map_err(io_error("writing the label history"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(n: u8) -> Fingerprint {
        Fingerprint::of_segment("s", "k", &n.to_string())
    }

    fn version(label_id: &str, version: &str, fps: &[u8]) -> VersionEntry {
        VersionEntry {
            label_id: label_id.into(),
            version: version.into(),
            effective_time: format!("2020010{version}"),
            sections: vec![SectionEntry {
                key: "warnings".into(),
                fingerprints: fps.iter().map(|&n| fp(n)).collect(),
            }],
            retired: Vec::new(),
        }
    }

    #[test]
    fn versions_are_kept_in_rank_order_whatever_the_arrival_order() {
        let mut history = LabelHistory::default();
        for (id, v) in [("c", "3"), ("a", "1"), ("b", "2")] {
            history.put("s", version(id, v, &[1]));
        }
        let set = history.get("s").unwrap();
        let order: Vec<&str> = set.versions.iter().map(|v| v.version.as_str()).collect();
        assert_eq!(order, ["1", "2", "3"]);
        assert_eq!(set.status_of(2), VersionStatus::Current);
        assert_eq!(set.status_of(0), VersionStatus::Superseded);
        assert!(set.holds("zz", &VersionRank::new("2", "20200102")));
        assert!(!set.holds("zz", &VersionRank::new("4", "20200104")));
    }

    #[test]
    fn re_ingesting_a_version_retires_what_it_no_longer_produces() {
        let mut history = LabelHistory::default();
        history.put("s", version("a", "1", &[1, 2]));
        history.put("s", version("a", "1", &[2, 3]));
        let set = history.get("s").unwrap();
        assert_eq!(set.versions.len(), 1);
        assert_eq!(set.versions[0].retired, vec![fp(1)]);
    }

    #[test]
    fn an_absent_set_is_withdrawn_and_a_returning_one_is_not() {
        let mut history = LabelHistory::default();
        history.put("s", version("a", "1", &[1]));
        history.put("t", version("b", "1", &[2]));
        let withdrawal = Withdrawal {
            at: "2026-01-01T00:00:00Z".into(),
            generation: "g".into(),
        };
        let present = BTreeSet::from(["t".to_owned()]);
        assert_eq!(history.withdraw_absent(&present, &withdrawal), 1);
        assert_eq!(history.withdraw_absent(&present, &withdrawal), 0);
        assert_eq!(
            history.get("s").unwrap().status_of(0),
            VersionStatus::Withdrawn
        );
        history.put("s", version("c", "2", &[1]));
        let set = history.get("s").unwrap();
        assert_eq!(set.status_of(1), VersionStatus::Current);
        assert_eq!(set.status_of(0), VersionStatus::Superseded);
    }

    fn two_versions() -> LabelHistory {
        let mut history = LabelHistory::default();
        history.put("s", version("a", "1", &[1, 2]));
        history.put("s", version("a", "1", &[2]));
        history.put("s", version("b", "2", &[2]));
        history
    }

    #[test]
    fn the_file_round_trips_and_a_damaged_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let history = two_versions();
        history.write(dir.path()).unwrap();
        assert_eq!(LabelHistory::read(dir.path()).unwrap(), history);
        let path = dir.path().join(HISTORY_FILE);
        let body = std::fs::read(&path).unwrap();
        std::fs::write(&path, &body[..body.len() / 2]).unwrap();
        let error = LabelHistory::read(dir.path()).unwrap_err();
        assert!(matches!(error, StoreError::Corrupt { .. }), "{error}");
    }

    #[test]
    fn a_generation_written_before_history_bin_is_read_from_its_json_lines() {
        let dir = tempfile::tempdir().unwrap();
        let history = two_versions();
        let lines: String = history
            .sets()
            .map(|set| serde_json::to_string(set).unwrap() + "\n")
            .collect();
        assert!(lines.contains(&fp(1).to_hex()), "hex fingerprints in JSON");
        std::fs::write(dir.path().join(HISTORY_JSONL_FILE), lines).unwrap();
        assert_eq!(LabelHistory::read(dir.path()).unwrap(), history);
        let empty = tempfile::tempdir().unwrap();
        let error = LabelHistory::read(empty.path()).unwrap_err().to_string();
        assert!(error.contains("full ingest"), "{error}");
    }
}
