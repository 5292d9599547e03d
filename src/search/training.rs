//! Training rows for the ranking weights: for an eval question, every candidate text the
//! searcher retrieves, with the features and relevance of each of its copies, exactly as
//! `rank` would score them. `scripts/fit-ranking.py` fits `ranking-weights.json` on them.
//! Reads the index; never changes the ranking.

use std::collections::BTreeSet;

use serde::Serialize;

use super::{Retrieved, Searcher, CANDIDATES};
use crate::domain::Question;
use crate::engine::EngineError;
use crate::eval::{EvalQuestion, Judged};
use crate::label::section_name;
use crate::search::collapse::searchable;
use crate::search::features::CopyFeatures;
use crate::search::ranking::{fused_texts, Candidates, FusedText};
use crate::store::SegmentInfo;

/// One candidate text: its copies, distinct by (features, relevance) — copies alike in both
/// score alike, so one stands for all.
#[derive(Serialize)]
pub struct TrainingText {
    pub copies: Vec<TrainingCopy>,
}

#[derive(Serialize)]
pub struct TrainingCopy {
    pub relevant: bool,
    pub section: String,
    pub features: CopyFeatures,
}

/// One question's training row: its candidate texts, and the vector of its topic (the
/// question without its subject's words) that section meaning is measured with (`None`
/// without a model).
#[derive(Serialize)]
pub struct TrainingQuestion {
    pub texts: Vec<TrainingText>,
    pub topic_vector: Option<Vec<f32>>,
}

impl Searcher {
    /// The candidate texts of `question` (the text of `judged`) with their copies' features and
    /// relevance under `judged`'s rules (empty when the question has nothing to search).
    pub fn training_question(
        &self,
        question: &Question,
        judged: &EvalQuestion,
    ) -> Result<TrainingQuestion, EngineError> {
        let found = self.retrieve(question, CANDIDATES)?;
        let texts = self.with_candidates(&found, |candidates| {
            fused_texts(candidates)
                .iter()
                .map(|text| training_text(&found, judged, text, candidates))
                .collect::<Result<_, _>>()
        })?;
        let topic_vector = found.query_vector.as_deref().cloned();
        Ok(TrainingQuestion {
            texts,
            topic_vector,
        })
    }
}

fn training_text(
    found: &Retrieved,
    judged: &EvalQuestion,
    text: &FusedText,
    candidates: &Candidates,
) -> Result<TrainingText, EngineError> {
    let live = &found.live;
    let copies: Vec<SegmentInfo> = live
        .copies
        .of(text.text, &live.catalog)
        .map(|(_, info)| info)
        .filter(searchable)
        .collect();
    let Some(first) = copies.first() else {
        return Ok(TrainingText { copies: Vec::new() });
    };
    let body = live.snapshot.segment(first.address)?.text;
    let mut seen = BTreeSet::new();
    let mut rows = Vec::new();
    for info in copies {
        let label = &live.snapshot.labels()[info.label as usize];
        let relevant = judged.is_relevant(&Judged {
            drug: &label.drug.name,
            section: &section_name(&info.section_key),
            text: &body,
        });
        let question = (
            &found.understanding,
            candidates.partners,
            candidates.label_sections,
            candidates.other_form,
        );
        let features =
            CopyFeatures::of(text.scores, &info, question, candidates.section_similarity);
        let key = (
            relevant,
            format!("{features:?}"),
            info.section_key.to_string(),
        );
        if seen.insert(key) {
            rows.push(TrainingCopy {
                relevant,
                section: info.section_key.to_string(),
                features,
            });
        }
    }
    Ok(TrainingText { copies: rows })
}
