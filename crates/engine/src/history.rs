//! A label's history as users read it: every version ingested, with dates, manufacturer,
//! status, DailyMed links, and what changed from the version before (sections and segments).
//! Reads the live generation's history; no HTTP here.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use drugcite_core::domain::{Fingerprint, SetId};
use drugcite_core::label::{dailymed_url, section_name};
use drugcite_store::history::Withdrawal;
use drugcite_store::{SetHistory, Snapshot, VersionEntry, VersionStatus};

/// One label (set id) and its versions, newest first.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LabelHistoryView {
    pub set_id: String,
    /// `current`, or `withdrawn` when a full snapshot no longer contained the label.
    pub status: VersionStatus,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub withdrawn: Option<WithdrawalView>,
    /// The label's DailyMed page.
    pub dailymed_url: String,
    /// DailyMed's own version list of the label (web service, JSON).
    pub dailymed_history_url: String,
    /// DailyMed's current SPL XML of the label (DailyMed may hold versions newer than ours;
    /// older versions have no public URL derivable from their number).
    pub dailymed_current_spl_url: String,
    pub versions: Vec<VersionView>,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WithdrawalView {
    /// When the full ingest that no longer contained the label ran (UTC, RFC 3339).
    pub at: String,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VersionView {
    /// The SPL document id of this version.
    pub label_id: String,
    pub version: String,
    /// As the label states it (YYYYMMDD).
    pub effective_time: String,
    pub status: VersionStatus,
    pub drug: String,
    pub brand_names: Vec<String>,
    pub manufacturer: String,
    /// Segments (citable passages) in this version.
    pub segments: usize,
    pub changes: VersionChanges,
}

/// What changed from the previous version (for the first version: everything is added).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VersionChanges {
    /// The version compared with; null for the first version.
    pub previous_version: Option<String>,
    pub sections_added: Vec<String>,
    pub sections_removed: Vec<String>,
    /// Sections in both versions whose text differs.
    pub sections_changed: Vec<String>,
    pub segments_kept: usize,
    pub segments_added: usize,
    pub segments_removed: usize,
}

/// The history of `set_id` in `snapshot`, if it holds the label.
pub fn label_history(snapshot: &Snapshot, set_id: &SetId) -> Option<LabelHistoryView> {
    let set = snapshot.history().get(set_id.as_str())?;
    let last = set.versions.len() - 1;
    let mut versions: Vec<VersionView> = set
        .versions
        .iter()
        .enumerate()
        .map(|(at, entry)| {
            let previous = at.checked_sub(1).map(|p| &set.versions[p]);
            version_view(snapshot, set, at, entry, previous)
        })
        .collect();
    versions.reverse();
    let set_id = set.set_id.clone();
    Some(LabelHistoryView {
        status: set.status_of(last),
        withdrawn: set
            .withdrawn
            .as_ref()
            .map(|Withdrawal { at, .. }| WithdrawalView { at: at.clone() }),
        dailymed_url: dailymed_url(&set_id),
        dailymed_history_url: format!(
            "https://dailymed.nlm.nih.gov/dailymed/services/v2/spls/{set_id}/history.json"
        ),
        dailymed_current_spl_url: format!(
            "https://dailymed.nlm.nih.gov/dailymed/services/v2/spls/{set_id}.xml"
        ),
        set_id,
        versions,
    })
}

fn version_view(
    snapshot: &Snapshot,
    set: &SetHistory,
    at: usize,
    entry: &VersionEntry,
    previous: Option<&VersionEntry>,
) -> VersionView {
    let meta = snapshot
        .label_ordinal(&entry.label_id)
        .map(|i| &snapshot.labels()[i as usize]);
    let field = |f: fn(&drugcite_core::label::Drug) -> &String| {
        meta.map(|m| f(&m.drug).clone()).unwrap_or_default()
    };
    VersionView {
        label_id: entry.label_id.clone(),
        version: entry.version.clone(),
        effective_time: entry.effective_time.clone(),
        status: set.status_of(at),
        drug: field(|d| &d.name),
        brand_names: meta.map(|m| m.drug.brand_names.clone()).unwrap_or_default(),
        manufacturer: field(|d| &d.manufacturer),
        segments: entry.fingerprints().count(),
        changes: changes(previous, entry),
    }
}

/// Sections and segments of `entry` against `previous`.
pub fn changes(previous: Option<&VersionEntry>, entry: &VersionEntry) -> VersionChanges {
    let (before, now) = (
        previous.map(by_section).unwrap_or_default(),
        by_section(entry),
    );
    let all = |m: &BTreeMap<String, BTreeSet<Fingerprint>>| -> BTreeSet<Fingerprint> {
        m.values().flatten().copied().collect()
    };
    let (all_before, all_now) = (all(&before), all(&now));
    let names = |keys: Vec<&String>| {
        keys.into_iter()
            .map(|k| section_name(k).into_owned())
            .collect()
    };
    VersionChanges {
        previous_version: previous.map(|p| p.version.clone()),
        sections_added: names(now.keys().filter(|k| !before.contains_key(*k)).collect()),
        sections_removed: names(before.keys().filter(|k| !now.contains_key(*k)).collect()),
        sections_changed: names(
            now.iter()
                .filter(|(k, fps)| before.get(*k).is_some_and(|b| b != *fps))
                .map(|(k, _)| k)
                .collect(),
        ),
        segments_kept: all_now.intersection(&all_before).count(),
        segments_added: all_now.difference(&all_before).count(),
        segments_removed: all_before.difference(&all_now).count(),
    }
}

fn by_section(entry: &VersionEntry) -> BTreeMap<String, BTreeSet<Fingerprint>> {
    let mut sections: BTreeMap<String, BTreeSet<Fingerprint>> = BTreeMap::new();
    for section in &entry.sections {
        sections
            .entry(section.key.clone())
            .or_default()
            .extend(section.fingerprints.iter().copied());
    }
    sections
}

#[cfg(test)]
mod tests {
    use super::*;
    use drugcite_store::history::SectionEntry;

    fn fp(n: u8) -> Fingerprint {
        Fingerprint::of_segment("s", "k", &n.to_string())
    }

    fn entry(version: &str, sections: &[(&str, &[u8])]) -> VersionEntry {
        VersionEntry {
            label_id: format!("id-{version}"),
            version: version.into(),
            effective_time: "20200101".into(),
            sections: sections
                .iter()
                .map(|(key, fps)| SectionEntry {
                    key: (*key).into(),
                    fingerprints: fps.iter().map(|&n| fp(n)).collect(),
                })
                .collect(),
            retired: Vec::new(),
        }
    }

    #[test]
    fn changes_name_sections_and_count_segments() {
        let old = entry("1", &[("boxed_warning", &[1, 2]), ("warnings", &[3])]);
        let new = entry(
            "2",
            &[("boxed_warning", &[1, 4]), ("adverse_reactions", &[5])],
        );
        let changes = changes(Some(&old), &new);
        assert_eq!(changes.previous_version.as_deref(), Some("1"));
        assert_eq!(changes.sections_added, ["Adverse Reactions"]);
        assert_eq!(changes.sections_removed, ["Warnings"]);
        assert_eq!(changes.sections_changed, ["Boxed Warning"]);
        let counts = (
            changes.segments_kept,
            changes.segments_added,
            changes.segments_removed,
        );
        assert_eq!(counts, (1, 2, 2));
    }

    #[test]
    fn the_first_version_adds_everything() {
        let first = entry("1", &[("warnings", &[1, 2])]);
        let changes = changes(None, &first);
        assert_eq!(changes.previous_version, None);
        assert_eq!(changes.sections_added, ["Warnings"]);
        assert_eq!((changes.segments_added, changes.segments_kept), (2, 0));
    }
}
