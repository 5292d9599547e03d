//! Hybrid ranking: BM25 and embedding similarity of each distinct text, each scaled to its
//! best candidate, fused; then shaped per copy by what the question asked for — its subject
//! drug first, other named drugs next, the sections its wording and meaning ask for — with the
//! learned weights of `features.rs`, and collapsed to the best eligible copy of each text (`collapse.rs`). Ties go to the smaller
//! fingerprint, so the order is the same whatever the thread count. Pure computation.

use std::collections::HashMap;

use crate::search::collapse::{collapse, Collapsed};
use crate::search::features::{CopyFeatures, NamedTexts, TextScores, Weights};
use crate::search::lexical::LexicalHit;
use crate::search::section_view::SectionView;
use crate::understand::Understanding;
use drugcite_core::domain::{Fingerprint, TextHash};
use drugcite_store::{Copies, SegmentCatalog, SegmentInfo};

/// Candidates by distinct text.
pub struct Candidates<'a> {
    pub lexical: &'a [LexicalHit],
    pub semantic: &'a [(TextHash, f32)],
    /// Similarity of a lexical-only candidate to the query, when embeddings exist.
    pub similarity: &'a dyn Fn(TextHash) -> Option<f32>,
    /// The question's view of the sections: their `section_similarity` and `section_margin`
    /// (0 without embeddings) and which each label has.
    pub sections: &'a SectionView<'a>,
    /// The texts naming the question's partners or subject (`features::NamedTexts`).
    pub partners: &'a NamedTexts,
    /// Whether a label is given otherwise than the form the question names.
    pub other_form: &'a dyn Fn(u32) -> bool,
}

/// A candidate text: its scaled retrieval scores and the copy retrieval found best.
pub struct FusedText {
    pub text: TextHash,
    pub scores: TextScores,
    pub best: Option<Fingerprint>,
}

/// Every candidate text once, with BM25 and embedding similarity each scaled to the best
/// candidate's (semantic 0 without embeddings), in no particular order.
pub fn fused_texts(candidates: &Candidates) -> Vec<FusedText> {
    let best_lexical = candidates
        .lexical
        .first()
        .map_or(0.0, |c| c.score)
        .max(f32::EPSILON);
    let mut pool: HashMap<TextHash, (f32, Option<f32>, Option<Fingerprint>)> = HashMap::new();
    for hit in candidates.lexical {
        pool.insert(hit.text, (hit.score / best_lexical, None, Some(hit.best)));
    }
    for &(text, similarity) in candidates.semantic {
        pool.entry(text).or_insert((0.0, None, None)).1 = Some(similarity);
    }
    let mut fused: Vec<FusedText> = pool
        .into_iter()
        .map(|(text, (lexical, semantic, best))| FusedText {
            text,
            scores: TextScores {
                lexical,
                semantic: semantic
                    .or_else(|| (candidates.similarity)(text))
                    .unwrap_or(0.0)
                    .max(0.0),
            },
            best,
        })
        .collect();
    let best_semantic = fused
        .iter()
        .map(|c| c.scores.semantic)
        .fold(f32::EPSILON, f32::max);
    let has_semantic = !candidates.semantic.is_empty();
    for text in &mut fused {
        text.scores.semantic = if has_semantic {
            text.scores.semantic / best_semantic
        } else {
            0.0
        };
    }
    fused
}

/// Distinct texts ordered best first, each answered by its best copy that `keep` accepts.
pub fn rank(
    candidates: &Candidates,
    catalog: &SegmentCatalog,
    copies: &Copies,
    understanding: &Understanding,
    weights: &Weights,
    keep: &dyn Fn(&SegmentInfo) -> bool,
) -> Vec<Collapsed> {
    let mut ranked: Vec<Collapsed> = fused_texts(candidates)
        .into_iter()
        .filter_map(|text| {
            let scored = copies.of(text.text, catalog).filter_map(|(fp, info)| {
                keep(&info).then_some(())?;
                let question = (
                    understanding,
                    candidates.partners,
                    candidates.sections,
                    candidates.other_form,
                );
                let features = CopyFeatures::of(text.scores, &info, question);
                Some((fp, weights.score(&features, &info.section_key)))
            });
            collapse(scored, text.best)
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.representative.cmp(&b.representative))
    });
    ranked
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use tantivy::DocAddress;

    use super::*;
    use crate::understand::DrugMention;
    use drugcite_store::{LabelSections, SegmentAddress};

    /// A current copy of `text` in `section` of label `label` (also the features' tests).
    pub(crate) fn info(label: u32, section: &str, text: &str) -> SegmentInfo {
        SegmentInfo {
            address: SegmentAddress(DocAddress::new(0, label)),
            label,
            current: true,
            section_key: Arc::from(section),
            text_hash: TextHash::of(text),
            addresses_patient: false,
        }
    }

    pub(crate) fn fp(i: u32) -> Fingerprint {
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
        let catalog = SegmentCatalog::build([
            (fp(0), info(0, "adverse_reactions", "0")),
            (fp(1), info(1, "contraindications", "1")),
            (fp(2), info(0, "contraindications", "2")),
        ]);
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
        let no_sections = LabelSections::default();
        let flat = |_: &str| (0.0, 0.0);
        let sections = SectionView::new(&no_sections, &flat, &understanding);
        let candidates = Candidates {
            lexical: &lexical,
            semantic: &[],
            similarity: &none,
            sections: &sections,
            partners: &NamedTexts::default(),
            other_form: &|_| false,
        };
        let ranked = rank(
            &candidates,
            &catalog,
            &copies,
            &understanding,
            Weights::learned(),
            &|_| true,
        );
        let order = best(&ranked);
        assert_eq!(
            order[0],
            fp(2),
            "the subject's asked section beats higher BM25"
        );
        assert_eq!(order.len(), 3);
        let only_label_1 = rank(
            &candidates,
            &catalog,
            &copies,
            &understanding,
            Weights::learned(),
            &|i| i.label == 1,
        );
        assert_eq!(best(&only_label_1), [fp(1)]);
    }

    #[test]
    fn equal_scores_order_by_fingerprint() {
        let catalog =
            SegmentCatalog::build((0..20).map(|i| (fp(i), info(i, "warnings", &i.to_string()))));
        let copies = Copies::build(&catalog);
        let lexical = hits(&(0..20).map(|i| (i, 1.0)).collect::<Vec<_>>());
        let none = |_| None;
        let no_sections = LabelSections::default();
        let understanding = Understanding::default();
        let flat = |_: &str| (0.0, 0.0);
        let sections = SectionView::new(&no_sections, &flat, &understanding);
        let candidates = Candidates {
            lexical: &lexical,
            semantic: &[],
            similarity: &none,
            sections: &sections,
            partners: &NamedTexts::default(),
            other_form: &|_| false,
        };
        let ranked = best(&rank(
            &candidates,
            &catalog,
            &copies,
            &understanding,
            Weights::learned(),
            &|_| true,
        ));
        let mut sorted = ranked.clone();
        sorted.sort();
        assert_eq!(ranked, sorted);
    }

    #[test]
    fn copies_of_a_text_answer_once_by_the_subjects_copy_and_filters_pick_per_copy() {
        let shared = "Take with food.";
        let catalog = SegmentCatalog::build([
            (fp(0), info(0, "warnings", shared)),
            (fp(1), info(1, "warnings", shared)),
            (fp(2), info(2, "warnings", shared)),
            (fp(3), info(3, "warnings", "other")),
        ]);
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
        let no_sections = LabelSections::default();
        let flat = |_: &str| (0.0, 0.0);
        let sections = SectionView::new(&no_sections, &flat, &understanding);
        let candidates = Candidates {
            lexical: &lexical,
            semantic: &[],
            similarity: &none,
            sections: &sections,
            partners: &NamedTexts::default(),
            other_form: &|_| false,
        };
        let ranked = rank(
            &candidates,
            &catalog,
            &copies,
            &understanding,
            Weights::learned(),
            &|_| true,
        );
        assert_eq!(best(&ranked), [fp(2), fp(3)], "the subject's copy answers");
        let mut others = vec![fp(0), fp(1)];
        others.sort_by_key(|f| (*f != fp(0), *f));
        assert_eq!(
            ranked[0].others, others,
            "retrieval's best copy first among equals"
        );
        let filtered = rank(
            &candidates,
            &catalog,
            &copies,
            &understanding,
            Weights::learned(),
            &|i| i.label == 1,
        );
        assert_eq!(best(&filtered), [fp(1)]);
        assert!(filtered[0].others.is_empty());
    }
}
