//! Training rows for the ranking weights: for an eval question, every candidate text the
//! engine retrieves with the features of each of its copies (`Searcher::candidate_features`),
//! judged relevant or not by the question's rules. `crates/lab/scripts/fit-ranking.py` fits
//! `ranking-weights.json` on them. Reads the index; never changes the ranking.

use std::collections::BTreeSet;

use drugcite_core::label::section_name;
use drugcite_engine::search::features::CopyFeatures;
use drugcite_engine::search::{CandidateFeatures, CandidateText};
use serde::Serialize;

use crate::eval::{EvalQuestion, Judged};

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

/// One question's training row: its candidate texts, and the vector of its topic that
/// section meaning is measured with (`None` without a model).
#[derive(Serialize)]
pub struct TrainingQuestion {
    pub texts: Vec<TrainingText>,
    pub topic_vector: Option<Vec<f32>>,
}

/// The training row of `judged` from the engine's candidates for its question.
pub fn training_question(found: CandidateFeatures, judged: &EvalQuestion) -> TrainingQuestion {
    TrainingQuestion {
        texts: found
            .texts
            .iter()
            .map(|text| training_text(text, judged))
            .collect(),
        topic_vector: found.topic_vector,
    }
}

fn training_text(text: &CandidateText, judged: &EvalQuestion) -> TrainingText {
    let mut seen = BTreeSet::new();
    let mut rows = Vec::new();
    for copy in &text.copies {
        let relevant = judged.is_relevant(&Judged {
            drug: &copy.drug,
            section: &section_name(&copy.section_key),
            text: &text.text,
        });
        let key = (
            relevant,
            format!("{:?}", copy.features),
            copy.section_key.clone(),
        );
        if seen.insert(key) {
            rows.push(TrainingCopy {
                relevant,
                section: copy.section_key.clone(),
                features: copy.features,
            });
        }
    }
    TrainingText { copies: rows }
}
