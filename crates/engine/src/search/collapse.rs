//! Copies of one text under several labels (repackagers), collapsed: search and /v1/graph
//! answer each distinct text once, by its best eligible copy, and name the other copies in
//! `AlsoIn`. Owns which segments take part (`searchable`; the store's `Copies` table lists the
//! copies of each text among exactly those). Pure computation over the catalog.

use std::sync::Arc;

use drugcite_core::domain::Fingerprint;
use drugcite_core::label::LabelMeta;
use drugcite_store::{SegmentCatalog, SegmentInfo};

/// Other copies named per result; all are counted.
pub const ALSO_IN_SHOWN: usize = 10;

/// The one rule for which segments search and graph evidence show and collapse: those of the
/// current version of a published label (never superseded or withdrawn text).
pub fn searchable(info: &SegmentInfo) -> bool {
    info.current
}

/// A distinct text as it is answered: its best eligible copy and the others, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Collapsed {
    pub score: f32,
    pub representative: Fingerprint,
    pub others: Vec<Fingerprint>,
}

/// Orders the eligible copies of a text by their scores: higher score, then `preferred` (the
/// copy retrieval found best), then the smaller fingerprint. `None` when no copy is eligible.
pub fn collapse(
    eligible: impl IntoIterator<Item = (Fingerprint, f32)>,
    preferred: Option<Fingerprint>,
) -> Option<Collapsed> {
    let mut eligible: Vec<(Fingerprint, f32)> = eligible.into_iter().collect();
    eligible.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then((Some(b.0) == preferred).cmp(&(Some(a.0) == preferred)))
            .then(a.0.cmp(&b.0))
    });
    let mut ordered = eligible.into_iter();
    let (representative, score) = ordered.next()?;
    Some(Collapsed {
        score,
        representative,
        others: ordered.map(|(fp, _)| fp).collect(),
    })
}

/// Another label holding the same text: what a client needs to cite or verify that copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherCopy {
    pub set_id: String,
    pub manufacturer: String,
    pub fingerprint: Fingerprint,
    pub section_key: Arc<str>,
}

/// The other copies of a result: how many, and the first `ALSO_IN_SHOWN` in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AlsoIn {
    pub count: usize,
    pub labels: Vec<OtherCopy>,
}

impl AlsoIn {
    pub fn of(others: &[Fingerprint], catalog: &SegmentCatalog, labels: &[Arc<LabelMeta>]) -> Self {
        let shown = others.iter().take(ALSO_IN_SHOWN).filter_map(|fp| {
            let info = catalog.get(*fp)?;
            let label = labels.get(info.label as usize)?;
            Some(OtherCopy {
                set_id: label.set_id.clone(),
                manufacturer: label.drug.manufacturer.clone(),
                fingerprint: *fp,
                section_key: info.section_key,
            })
        });
        Self {
            count: others.len(),
            labels: shown.collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn fp(i: u32) -> Fingerprint {
        Fingerprint::of_segment(&format!("set-{i}"), "warnings", "the same text")
    }

    #[test]
    fn the_best_eligible_copy_answers_and_the_rest_follow_in_order() {
        let copies = [fp(0), fp(1), fp(2), fp(3)];
        let scores = HashMap::from([(fp(0), 0.5), (fp(1), 0.9), (fp(2), 0.5)]);
        let scored = || copies.iter().filter_map(|f| Some((*f, *scores.get(f)?)));
        let collapsed = collapse(scored(), None).unwrap();
        assert_eq!(collapsed.representative, fp(1));
        assert_eq!(collapsed.score, 0.9);
        let tied = [fp(0).min(fp(2)), fp(0).max(fp(2))];
        assert_eq!(
            collapsed.others, tied,
            "ties by fingerprint; fp(3) is not eligible"
        );
        let preferred = collapse(scored(), Some(tied[1])).unwrap();
        assert_eq!(
            preferred.others,
            [tied[1], tied[0]],
            "retrieval's best copy wins a tie"
        );
        assert!(collapse([], None).is_none());
    }
}
