//! The order of an answer: severity, then evidence strength, then names and type — the same
//! order for the same graph every time — and the set operations of "shared" questions. Part of
//! the reasoner; no traversal here.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::found::Found;
use crate::graph::model::Severity;

/// Keeps, in every group, only relationships whose target every group reaches.
pub fn keep_shared_targets(groups: &mut [Vec<Found>]) {
    let targets =
        |g: &Vec<Found>| -> BTreeSet<String> { g.iter().map(|f| f.target.id.clone()).collect() };
    let mut common = targets(&groups[0]);
    for group in groups.iter().skip(1) {
        common = common.intersection(&targets(group)).cloned().collect();
    }
    for group in groups.iter_mut() {
        group.retain(|f| common.contains(&f.target.id));
    }
}

/// The strongest of one constraint's relationships among its shortest chains: what a label
/// states directly ("contraindicated with strong CYP3A inhibitors") before what is inferred
/// through a class member ("contraindicated with clarithromycin", a listed member).
pub fn strongest(mut found: Vec<Found>) -> Option<Found> {
    let shortest = found.iter().map(|f| f.path.len()).min()?;
    found.retain(|f| f.path.len() == shortest);
    rank(&mut found);
    found.into_iter().next()
}

/// Brings each shared target's relationships together, targets in the order of their
/// strongest relationship (the ranked order of `found`).
pub fn group_by_target(found: &mut [Found]) {
    let mut first_seen: HashMap<String, usize> = HashMap::new();
    for (at, f) in found.iter().enumerate() {
        first_seen.entry(f.target.id.clone()).or_insert(at);
    }
    found.sort_by_key(|f| first_seen[&f.target.id]);
}

pub fn strength(found: &Found) -> (Option<Severity>, usize) {
    (found.edge.severity, found.edge.evidence.len())
}

pub fn answer_strength(answer: &[Found]) -> (Option<Severity>, usize) {
    let severity = answer.iter().map(|f| f.edge.severity).max().flatten();
    (severity, answer.iter().map(|f| f.edge.evidence.len()).sum())
}

/// Severity first, then evidence strength (number of stating segments), then names and type:
/// the same order for the same graph every time. Repeated relationships are dropped.
pub fn rank(found: &mut Vec<Found>) {
    found.sort_by(|a, b| {
        strength(b)
            .cmp(&strength(a))
            .then_with(|| a.drug.name.cmp(&b.drug.name))
            .then_with(|| a.target.name.cmp(&b.target.name))
            .then_with(|| a.edge.kind.cmp(&b.edge.kind))
            .then_with(|| a.path.len().cmp(&b.path.len()))
    });
    let mut seen = BTreeMap::new();
    found.retain(|f| {
        seen.insert((f.drug.id.clone(), f.target.id.clone(), f.edge.kind), ())
            .is_none()
    });
}
