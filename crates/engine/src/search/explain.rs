//! What the ranking sees of a question, for the lab that fits its weights: every candidate text
//! the searcher retrieves, with each searchable copy's label drug, section and features exactly
//! as `rank` would score them. Reads the index; never changes the ranking, judges nothing.

use super::collapse::searchable;
use super::features::CopyFeatures;
use super::ranking::{fused_texts, Candidates, FusedText};
use super::searcher::{Retrieved, Searcher, CANDIDATES};
use crate::error::EngineError;
use drugcite_core::domain::Question;
use drugcite_store::SegmentInfo;

/// One candidate text: its exact words and every searchable copy.
pub struct CandidateText {
    pub text: String,
    pub copies: Vec<CandidateCopy>,
}

/// One copy of a candidate text: its label's drug, its section key and its features.
pub struct CandidateCopy {
    pub drug: String,
    pub section_key: String,
    pub features: CopyFeatures,
}

/// A question's candidate texts and the vector of its topic (the question without its
/// subject's words) that section meaning is measured with (`None` without a model).
#[derive(Default)]
pub struct CandidateFeatures {
    pub texts: Vec<CandidateText>,
    pub topic_vector: Option<Vec<f32>>,
}

impl Searcher {
    /// The candidate texts of `question` with their copies' features (empty when the question
    /// has nothing to search).
    pub fn candidate_features(
        &self,
        question: &Question,
    ) -> Result<CandidateFeatures, EngineError> {
        let found = self.retrieve(question, CANDIDATES)?;
        let texts = self.with_candidates(&found, |candidates| {
            fused_texts(candidates)
                .iter()
                .map(|text| candidate_text(&found, text, candidates))
                .collect::<Result<Vec<_>, _>>()
        })?;
        Ok(CandidateFeatures {
            texts,
            topic_vector: found.query_vector.as_deref().cloned(),
        })
    }
}

fn candidate_text(
    found: &Retrieved,
    text: &FusedText,
    candidates: &Candidates,
) -> Result<CandidateText, EngineError> {
    let live = &found.live;
    let copies: Vec<SegmentInfo> = live
        .copies
        .of(text.text, &live.catalog)
        .map(|(_, info)| info)
        .filter(searchable)
        .collect();
    let Some(first) = copies.first() else {
        return Ok(CandidateText {
            text: String::new(),
            copies: Vec::new(),
        });
    };
    let body = live.snapshot.segment(first.address)?.text;
    let question = (
        &found.understanding,
        candidates.partners,
        candidates.sections,
        candidates.other_form,
    );
    let copies = copies
        .iter()
        .map(|info| CandidateCopy {
            drug: live.snapshot.labels()[info.label as usize]
                .drug
                .name
                .clone(),
            section_key: info.section_key.to_string(),
            features: CopyFeatures::of(text.scores, info, question),
        })
        .collect();
    Ok(CandidateText { text: body, copies })
}
