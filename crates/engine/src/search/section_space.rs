//! Section intent by meaning: each clinical section's description (what the section answers, in
//! the words of FDA's labeling rule, 21 CFR 201.57) embedded once by the question model, and a
//! learned prototype of each group of sections — the mean topic vector of the fit questions
//! answered there (`section-prototypes.json`, made by `crates/lab/scripts/fit-section-prototypes.py`). A
//! question's similarity to both gives the `section_similarity` ranking feature. Knows no cue
//! words and no drugs; never ranks by itself.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde::Deserialize;

use super::provenance::Fit;
use crate::embed::{dot, EmbedError, Embedder};
use crate::tables::search as tables;
use drugcite_store::VectorSpace;

/// Section keys sharing one description, and the description, in file order
/// (`tables/search/section-descriptions.tsv`).
static DESCRIPTIONS: LazyLock<Vec<(Vec<String>, String)>> = LazyLock::new(|| {
    let table = tables::SECTION_DESCRIPTIONS.rows();
    let (keys, text) = (table.column("sections"), table.column("description"));
    let row = |row: &drugcite_core::table::Row| {
        let keys = row.cell(keys).split(';').map(str::to_owned).collect();
        (keys, row.cell(text).to_owned())
    };
    table.rows().iter().map(row).collect()
});

/// The learned prototypes, with the id of the model whose vectors they average and the fit
/// they come from.
const PROTOTYPES: &str = include_str!("section-prototypes.json");
/// The lab script the prototypes' fit must name.
const FIT_SCRIPT: &str = "crates/lab/scripts/fit-section-prototypes.py";

#[derive(Deserialize)]
struct Learned {
    model_id: String,
    provenance: Fit,
    prototypes: Vec<Prototype>,
}

#[derive(Deserialize)]
struct Prototype {
    sections: Vec<String>,
    vector: Vec<f32>,
}

/// Why the learned prototypes cannot measure a model's question vectors.
#[derive(Debug, thiserror::Error)]
pub enum PrototypeError {
    #[error("section prototypes unreadable: {0}")]
    Unreadable(#[from] serde_json::Error),
    #[error("section prototypes were learned with model {learned}, not with {model}; refit them")]
    OtherModel { learned: String, model: String },
    #[error("section prototypes' provenance: {0}")]
    Provenance(String),
}

/// Vectors standing for sections, by section key: the embedded descriptions, or the prototypes.
struct Anchors {
    vectors: Vec<Vec<f32>>,
    by_key: HashMap<String, usize>,
}

/// The embedded descriptions and, when they were learned with the same model, the prototypes.
pub struct SectionSpace {
    descriptions: Anchors,
    prototypes: Option<Anchors>,
}

impl SectionSpace {
    pub fn embed(embedder: &Embedder) -> Result<Self, EmbedError> {
        let texts: Vec<&str> = DESCRIPTIONS.iter().map(|(_, text)| text.as_str()).collect();
        let vectors = embedder.embed(&texts)?;
        let by_key = DESCRIPTIONS
            .iter()
            .enumerate()
            .flat_map(|(i, (keys, _))| keys.iter().map(move |key| (key.clone(), i)))
            .collect();
        let prototypes = match prototypes(PROTOTYPES, &embedder.vector_space()) {
            Ok(prototypes) => Some(prototypes),
            Err(error) => {
                tracing::warn!(%error, "section meaning from the descriptions alone");
                None
            }
        };
        Ok(Self {
            descriptions: Anchors { vectors, by_key },
            prototypes,
        })
    }

    /// Whether the learned prototypes measure this model's questions (they were learned with
    /// it); without them section meaning is the descriptions' alone.
    pub fn has_prototypes(&self) -> bool {
        self.prototypes.is_some()
    }

    /// The question's similarity to every section, relative to the best: 0 for the most
    /// similar section, negative for the others; sections without a vector get the lowest
    /// value. With prototypes, the mean of the description's and the prototype's.
    pub fn relative_similarity(&self, question: &[f32]) -> SectionSimilarity<'_> {
        let descriptions = Relative::of(&self.descriptions, question);
        let prototypes = self.prototypes.as_ref().map(|p| Relative::of(p, question));
        SectionSimilarity {
            descriptions,
            prototypes,
        }
    }
}

/// The prototypes of `json`, when they were learned in `space` (the same model's vectors).
fn prototypes(json: &str, space: &VectorSpace) -> Result<Anchors, PrototypeError> {
    let learned: Learned = serde_json::from_str(json)?;
    learned
        .provenance
        .check(FIT_SCRIPT)
        .map_err(PrototypeError::Provenance)?;
    let model = space.model_id_hex();
    let fits = |p: &Prototype| p.vector.len() == space.dimensions;
    if learned.model_id != model || !learned.prototypes.iter().all(fits) {
        return Err(PrototypeError::OtherModel {
            learned: learned.model_id,
            model,
        });
    }
    let by_key = learned
        .prototypes
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.sections.iter().map(move |key| (key.clone(), i)))
        .collect();
    let vectors = learned.prototypes.into_iter().map(|p| p.vector).collect();
    Ok(Anchors { vectors, by_key })
}

/// A question's similarity to each of some anchors, relative to the best.
struct Relative<'a> {
    anchors: &'a Anchors,
    relative: Vec<f32>,
    floor: f32,
    margin: f32,
}

impl<'a> Relative<'a> {
    fn of(anchors: &'a Anchors, question: &[f32]) -> Self {
        let similarities: Vec<f32> = anchors.vectors.iter().map(|v| dot(question, v)).collect();
        let best = similarities.iter().copied().fold(f32::MIN, f32::max);
        let lowest = similarities.iter().copied().fold(f32::MAX, f32::min);
        let second = similarities
            .iter()
            .copied()
            .filter(|s| *s < best)
            .fold(lowest, f32::max);
        Self {
            anchors,
            relative: similarities.iter().map(|s| s - best).collect(),
            floor: lowest - best,
            margin: best - second,
        }
    }

    fn of_section(&self, section_key: &str) -> f32 {
        self.anchors
            .by_key
            .get(section_key)
            .map_or(self.floor, |&i| self.relative[i])
    }
}

/// One question's relative similarity to the sections.
pub struct SectionSimilarity<'a> {
    descriptions: Relative<'a>,
    prototypes: Option<Relative<'a>>,
}

impl SectionSimilarity<'_> {
    /// How much more similar the question is to its best description than to the next.
    pub fn margin(&self) -> f32 {
        self.descriptions.margin
    }

    pub fn of(&self, section_key: &str) -> f32 {
        let described = self.descriptions.of_section(section_key);
        match &self.prototypes {
            Some(learned) => (described + learned.of_section(section_key)) / 2.0,
            None => described,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(model_id: [u8; 16]) -> VectorSpace {
        VectorSpace {
            model_id,
            dimensions: 2,
        }
    }

    fn anchors(keys: &[&[&str]], vectors: &[[f32; 2]]) -> Anchors {
        Anchors {
            vectors: vectors.iter().map(|v| v.to_vec()).collect(),
            by_key: keys
                .iter()
                .enumerate()
                .flat_map(|(i, ks)| ks.iter().map(move |k| (k.to_string(), i)))
                .collect(),
        }
    }

    const TWO: &str = r#"{"model_id": "01000000000000000000000000000000",
        "provenance": {"date": "2026-11-29", "script": "crates/lab/scripts/fit-section-prototypes.py",
            "dataset": {"part": "fit", "files": ["dev-questions.jsonl"], "questions": 2}},
        "prototypes": [
        {"sections": ["contraindications"], "vector": [1.0, 0.0]},
        {"sections": ["warnings", "precautions"], "vector": [0.0, 1.0]}]}"#;

    #[test]
    fn section_meaning_is_the_mean_of_the_descriptions_and_the_learned_prototypes() {
        let mut id = [0; 16];
        id[0] = 1;
        let space = SectionSpace {
            descriptions: anchors(
                &[&["contraindications"], &["warnings", "precautions"]],
                &[[0.6, 0.8], [0.0, 1.0]],
            ),
            prototypes: Some(prototypes(TWO, &space(id)).expect("prototypes of this model")),
        };
        let similarity = space.relative_similarity(&[0.8, 0.6]);
        // Descriptions: 0.96 and 0.6 (contraindications best by 0.36); prototypes: 0.8 and 0.6.
        assert_eq!(similarity.of("contraindications"), 0.0);
        assert!((similarity.of("precautions") + (0.36 + 0.2) / 2.0).abs() < 1e-6);
        assert_eq!(similarity.of("warnings"), similarity.of("precautions"));
        assert!(
            (similarity.margin() - 0.36).abs() < 1e-6,
            "the margin is the descriptions'"
        );
        assert_eq!(
            similarity.of("overdosage"),
            similarity.of("warnings"),
            "a section without a vector gets the lowest similarity"
        );
    }

    #[test]
    fn prototypes_of_another_model_are_refused() {
        let refused = prototypes(TWO, &space([2; 16]));
        assert!(matches!(refused, Err(PrototypeError::OtherModel { .. })));
    }

    #[test]
    fn the_committed_prototypes_parse() {
        let learned: Learned = serde_json::from_str(PROTOTYPES).expect("committed prototypes");
        assert!(learned.prototypes.len() >= 10);
        assert_eq!(learned.model_id.len(), 32);
        assert_eq!(learned.provenance.check(FIT_SCRIPT), Ok(()));
    }

    #[test]
    fn prototypes_fitted_otherwise_are_refused() {
        let mut id = [0; 16];
        id[0] = 1;
        let held = TWO.replace(r#""part": "fit""#, r#""part": "held""#);
        let refused = prototypes(&held, &space(id));
        assert!(matches!(refused, Err(PrototypeError::Provenance(_))));
    }

    #[test]
    fn every_description_names_known_sections_but_lactation() {
        let known: Vec<&str> = drugcite_core::label::section_keys().collect();
        let unknown: Vec<&str> = DESCRIPTIONS
            .iter()
            .flat_map(|(keys, _)| keys.iter().map(String::as_str))
            .filter(|key| !known.contains(key))
            .collect();
        // "lactation" names the PLR subsection 8.2, for which openFDA has no field: no copy
        // has that key, so the key reads nothing.
        assert_eq!(unknown, ["lactation"]);
        assert_eq!(DESCRIPTIONS.len(), 15);
    }
}
