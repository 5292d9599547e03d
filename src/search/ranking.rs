//! Hybrid ranking: BM25 and embedding similarity, each scaled to its best candidate, fused
//! linearly; then shaped by what the question asked for — its subject drug first, other named
//! drugs next, and the sections its wording requests. Ties go to the smaller fingerprint, so
//! the order is the same whatever the thread count. Pure computation.

use std::collections::HashMap;

use crate::domain::Fingerprint;
use crate::search::understanding::{Understanding, PERIPHERAL_SECTIONS};
use crate::store::SegmentInfo;

const LEXICAL_WEIGHT: f32 = 0.5;
const SEMANTIC_WEIGHT: f32 = 0.5;
/// Multipliers: a segment of a product combining the subject with other ingredients, of
/// another named drug, of no named drug, outside the requested sections, and of a peripheral
/// section (package label, patient leaflet…) nobody asked for.
const COMBINATION: f32 = 0.85;
const OTHER_DRUG: f32 = 0.6;
const UNNAMED_DRUG: f32 = 0.3;
const OFF_SECTION: f32 = 0.55;
const PERIPHERAL: f32 = 0.6;
/// Multiplier for text addressed to the patient outside a peripheral section (a medication
/// guide printed inside a professional section).
const PATIENT_VOICE: f32 = 0.6;
/// The requested sections are listed strongest first; each later one counts a little less.
const SECTION_STEP: f32 = 0.03;

pub struct Candidates<'a> {
    pub lexical: &'a [(Fingerprint, f32)],
    pub semantic: &'a [(Fingerprint, f32)],
    /// Similarity of a lexical-only candidate to the query, when embeddings exist.
    pub similarity: &'a dyn Fn(Fingerprint) -> Option<f32>,
}

/// Candidates ordered best first, keeping only those `keep` accepts.
pub fn rank(
    candidates: &Candidates,
    catalog: &HashMap<Fingerprint, SegmentInfo>,
    understanding: &Understanding,
    keep: &dyn Fn(&SegmentInfo) -> bool,
) -> Vec<Fingerprint> {
    let best_lexical = candidates
        .lexical
        .first()
        .map_or(0.0, |c| c.1)
        .max(f32::EPSILON);
    let mut pool: HashMap<Fingerprint, (f32, Option<f32>)> = HashMap::new();
    for &(fp, score) in candidates.lexical {
        pool.insert(fp, (score / best_lexical, None));
    }
    for &(fp, similarity) in candidates.semantic {
        pool.entry(fp).or_insert((0.0, None)).1 = Some(similarity);
    }
    let similarities: Vec<(Fingerprint, f32, f32)> = pool
        .into_iter()
        .map(|(fp, (lexical, semantic))| {
            let semantic = semantic
                .or_else(|| (candidates.similarity)(fp))
                .unwrap_or(0.0);
            (fp, lexical, semantic)
        })
        .collect();
    let best_semantic = similarities
        .iter()
        .map(|c| c.2)
        .fold(f32::EPSILON, f32::max);
    let has_semantic = !candidates.semantic.is_empty();
    let mut scored: Vec<(Fingerprint, f32)> = similarities
        .into_iter()
        .filter_map(|(fp, lexical, semantic)| {
            let info = catalog.get(&fp).filter(|info| keep(info))?;
            let base = if has_semantic {
                LEXICAL_WEIGHT * lexical + SEMANTIC_WEIGHT * semantic.max(0.0) / best_semantic
            } else {
                lexical
            };
            Some((
                fp,
                base * drug_factor(info, understanding) * section_factor(info, understanding),
            ))
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.into_iter().map(|(fp, _)| fp).collect()
}

fn drug_factor(info: &SegmentInfo, understanding: &Understanding) -> f32 {
    if understanding.drugs.is_empty() || understanding.subject_open {
        return 1.0;
    }
    match understanding
        .drugs
        .iter()
        .position(|d| d.labels.contains(&info.label))
    {
        Some(0) if understanding.drugs[0].combinations.contains(&info.label) => COMBINATION,
        Some(0) => 1.0,
        Some(_) => OTHER_DRUG,
        None => UNNAMED_DRUG,
    }
}

fn section_factor(info: &SegmentInfo, understanding: &Understanding) -> f32 {
    let section = info.section_key.as_ref();
    let off_section = if understanding.sections.is_empty() {
        1.0
    } else {
        OFF_SECTION
    };
    let is_peripheral = PERIPHERAL_SECTIONS.contains(&section);
    let peripheral = if is_peripheral { PERIPHERAL } else { 1.0 };
    let voice = if info.addresses_patient && !is_peripheral {
        PATIENT_VOICE
    } else {
        1.0
    };
    let requested = match understanding.sections.iter().position(|s| *s == section) {
        Some(rank) => 1.0 - SECTION_STEP * rank.min(5) as f32,
        None => off_section * peripheral,
    };
    requested * voice
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use tantivy::DocAddress;

    use super::*;
    use crate::search::understanding::DrugMention;
    use crate::store::SegmentAddress;

    fn info(label: u32, section: &str) -> SegmentInfo {
        SegmentInfo {
            address: SegmentAddress(DocAddress::new(0, label)),
            label,
            current: true,
            section_key: Arc::from(section),
            addresses_patient: false,
        }
    }

    fn fp(i: u32) -> Fingerprint {
        Fingerprint::of_segment("s", "k", &i.to_string())
    }

    #[test]
    fn subject_drug_and_requested_section_rise_to_the_top() {
        let catalog: HashMap<Fingerprint, SegmentInfo> = [
            (fp(0), info(0, "adverse_reactions")),
            (fp(1), info(1, "contraindications")),
            (fp(2), info(0, "contraindications")),
        ]
        .into();
        let lexical = [(fp(0), 10.0), (fp(1), 9.0), (fp(2), 6.0)];
        let understanding = Understanding {
            drugs: vec![DrugMention {
                class: None,
                word: "x".into(),
                labels: BTreeSet::from([0]),
                combinations: BTreeSet::new(),
            }],
            sections: vec!["contraindications"],
            ..Understanding::default()
        };
        let none = |_| None;
        let candidates = Candidates {
            lexical: &lexical,
            semantic: &[],
            similarity: &none,
        };
        let ranked = rank(&candidates, &catalog, &understanding, &|_| true);
        assert_eq!(ranked, [fp(2), fp(0), fp(1)]);
        let only_label_1 = rank(&candidates, &catalog, &understanding, &|i| i.label == 1);
        assert_eq!(only_label_1, [fp(1)]);
    }

    #[test]
    fn equal_scores_order_by_fingerprint() {
        let catalog: HashMap<Fingerprint, SegmentInfo> =
            (0..20).map(|i| (fp(i), info(i, "warnings"))).collect();
        let lexical: Vec<(Fingerprint, f32)> = (0..20).map(|i| (fp(i), 1.0)).collect();
        let none = |_| None;
        let candidates = Candidates {
            lexical: &lexical,
            semantic: &[],
            similarity: &none,
        };
        let ranked = rank(&candidates, &catalog, &Understanding::default(), &|_| true);
        let mut sorted = ranked.clone();
        sorted.sort();
        assert_eq!(ranked, sorted);
    }
}
