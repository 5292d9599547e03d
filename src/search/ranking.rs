//! Hybrid ranking: BM25 and embedding similarity of each distinct text, each scaled to its
//! best candidate, fused linearly; then shaped per copy by what the question asked for — its
//! subject drug first, other named drugs next, and the sections its wording requests — and
//! collapsed to the best eligible copy of each text (`collapse.rs`). Ties go to the smaller
//! fingerprint, so the order is the same whatever the thread count. Pure computation.

use std::collections::HashMap;

use crate::domain::{Fingerprint, TextHash};
use crate::search::collapse::{collapse, Collapsed, Copies};
use crate::search::lexical::LexicalHit;
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

/// Candidates by distinct text.
pub struct Candidates<'a> {
    pub lexical: &'a [LexicalHit],
    pub semantic: &'a [(TextHash, f32)],
    /// Similarity of a lexical-only candidate to the query, when embeddings exist.
    pub similarity: &'a dyn Fn(TextHash) -> Option<f32>,
}

/// What a text scored before the per-copy shaping, and the copy retrieval found best.
struct TextScore {
    lexical: f32,
    semantic: Option<f32>,
    best: Option<Fingerprint>,
}

/// Distinct texts ordered best first, each answered by its best copy that `keep` accepts.
pub fn rank(
    candidates: &Candidates,
    catalog: &HashMap<Fingerprint, SegmentInfo>,
    copies: &Copies,
    understanding: &Understanding,
    keep: &dyn Fn(&SegmentInfo) -> bool,
) -> Vec<Collapsed> {
    let best_lexical = candidates
        .lexical
        .first()
        .map_or(0.0, |c| c.score)
        .max(f32::EPSILON);
    let mut pool: HashMap<TextHash, TextScore> = HashMap::new();
    for hit in candidates.lexical {
        let text = TextScore {
            lexical: hit.score / best_lexical,
            semantic: None,
            best: Some(hit.best),
        };
        pool.insert(hit.text, text);
    }
    for &(text, similarity) in candidates.semantic {
        let entry = pool.entry(text).or_insert(TextScore {
            lexical: 0.0,
            semantic: None,
            best: None,
        });
        entry.semantic = Some(similarity);
    }
    let fused: Vec<(TextHash, f32, f32, Option<Fingerprint>)> = pool
        .into_iter()
        .map(|(text, score)| {
            let semantic = score
                .semantic
                .or_else(|| (candidates.similarity)(text))
                .unwrap_or(0.0);
            (text, score.lexical, semantic, score.best)
        })
        .collect();
    let best_semantic = fused.iter().map(|c| c.2).fold(f32::EPSILON, f32::max);
    let has_semantic = !candidates.semantic.is_empty();
    let mut ranked: Vec<Collapsed> = fused
        .into_iter()
        .filter_map(|(text, lexical, semantic, best)| {
            let base = if has_semantic {
                LEXICAL_WEIGHT * lexical + SEMANTIC_WEIGHT * semantic.max(0.0) / best_semantic
            } else {
                lexical
            };
            collapse(copies.of(text), best, |fp| {
                let info = catalog.get(&fp).filter(|info| keep(info))?;
                Some(base * drug_factor(info, understanding) * section_factor(info, understanding))
            })
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.representative.cmp(&b.representative))
    });
    ranked
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

    fn info(label: u32, section: &str, text: &str) -> SegmentInfo {
        SegmentInfo {
            address: SegmentAddress(DocAddress::new(0, label)),
            label,
            current: true,
            section_key: Arc::from(section),
            text_hash: TextHash::of(text),
            addresses_patient: false,
        }
    }

    fn fp(i: u32) -> Fingerprint {
        Fingerprint::of_segment("s", "k", &i.to_string())
    }

    fn hits(scores: &[(u32, f32)]) -> Vec<LexicalHit> {
        scores
            .iter()
            .map(|&(i, score)| LexicalHit {
                text: TextHash::of(&i.to_string()),
                best: fp(i),
                score,
            })
            .collect()
    }

    fn best(ranked: &[Collapsed]) -> Vec<Fingerprint> {
        ranked.iter().map(|c| c.representative).collect()
    }

    #[test]
    fn subject_drug_and_requested_section_rise_to_the_top() {
        let catalog: HashMap<Fingerprint, SegmentInfo> = [
            (fp(0), info(0, "adverse_reactions", "0")),
            (fp(1), info(1, "contraindications", "1")),
            (fp(2), info(0, "contraindications", "2")),
        ]
        .into();
        let copies = Copies::build(&catalog);
        let lexical = hits(&[(0, 10.0), (1, 9.0), (2, 6.0)]);
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
        let ranked = rank(&candidates, &catalog, &copies, &understanding, &|_| true);
        assert_eq!(best(&ranked), [fp(2), fp(0), fp(1)]);
        let only_label_1 = rank(&candidates, &catalog, &copies, &understanding, &|i| {
            i.label == 1
        });
        assert_eq!(best(&only_label_1), [fp(1)]);
    }

    #[test]
    fn equal_scores_order_by_fingerprint() {
        let catalog: HashMap<Fingerprint, SegmentInfo> = (0..20)
            .map(|i| (fp(i), info(i, "warnings", &i.to_string())))
            .collect();
        let copies = Copies::build(&catalog);
        let lexical = hits(&(0..20).map(|i| (i, 1.0)).collect::<Vec<_>>());
        let none = |_| None;
        let candidates = Candidates {
            lexical: &lexical,
            semantic: &[],
            similarity: &none,
        };
        let ranked = best(&rank(
            &candidates,
            &catalog,
            &copies,
            &Understanding::default(),
            &|_| true,
        ));
        let mut sorted = ranked.clone();
        sorted.sort();
        assert_eq!(ranked, sorted);
    }

    #[test]
    fn copies_of_a_text_answer_once_by_the_subjects_copy_and_filters_pick_per_copy() {
        let shared = "Take with food.";
        let catalog: HashMap<Fingerprint, SegmentInfo> = [
            (fp(0), info(0, "warnings", shared)),
            (fp(1), info(1, "warnings", shared)),
            (fp(2), info(2, "warnings", shared)),
            (fp(3), info(3, "warnings", "other")),
        ]
        .into();
        let copies = Copies::build(&catalog);
        let lexical = [
            LexicalHit {
                text: TextHash::of(shared),
                best: fp(0),
                score: 5.0,
            },
            LexicalHit {
                text: TextHash::of("other"),
                best: fp(3),
                score: 4.0,
            },
        ];
        let understanding = Understanding {
            drugs: vec![DrugMention {
                class: None,
                word: "x".into(),
                labels: BTreeSet::from([2, 3]),
                combinations: BTreeSet::new(),
            }],
            ..Understanding::default()
        };
        let none = |_| None;
        let candidates = Candidates {
            lexical: &lexical,
            semantic: &[],
            similarity: &none,
        };
        let ranked = rank(&candidates, &catalog, &copies, &understanding, &|_| true);
        assert_eq!(best(&ranked), [fp(2), fp(3)], "the subject's copy answers");
        let mut others = vec![fp(0), fp(1)];
        others.sort_by_key(|f| (*f != fp(0), *f));
        assert_eq!(
            ranked[0].others, others,
            "retrieval's best copy first among equals"
        );
        let filtered = rank(&candidates, &catalog, &copies, &understanding, &|i| {
            i.label == 1
        });
        assert_eq!(best(&filtered), [fp(1)]);
        assert!(filtered[0].others.is_empty());
    }
}
