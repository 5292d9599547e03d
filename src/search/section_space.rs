//! Section intent by meaning: each clinical section's description (what the section answers, in
//! the words of FDA's labeling rule, 21 CFR 201.57) embedded once by the question model; a
//! question's similarity to each description gives the `section_similarity` ranking feature.
//! Knows no cue words and no drugs; never ranks by itself.

use std::collections::HashMap;

use crate::embed::{dot, EmbedError, Embedder};

/// Section keys sharing one description, and the description.
const DESCRIPTIONS: &[(&[&str], &str)] = &[
    (
        &["boxed_warning"],
        "boxed warning: the most serious risks of the drug, such as death or serious injury",
    ),
    (
        &["indications_and_usage"],
        "indications and usage: what the drug is used for, the diseases and conditions it treats",
    ),
    (
        &["dosage_and_administration"],
        "dosage and administration: how much of the drug to take, how often, how to take it, \
         and dose adjustments",
    ),
    (
        &["contraindications"],
        "contraindications: who must not take or must avoid the drug, when it should not be \
         used",
    ),
    (
        &["warnings_and_cautions", "warnings", "precautions"],
        "warnings and precautions: serious risks of the drug, how to monitor for them and \
         prevent them",
    ),
    (
        &["adverse_reactions"],
        "adverse reactions: the side effects the drug causes and how often they occur",
    ),
    (
        &["drug_interactions"],
        "drug interactions: other drugs, foods or alcohol that change the effect of the drug \
         when taken together",
    ),
    (
        &["use_in_specific_populations"],
        "use in specific populations: pregnancy, breastfeeding, children, older people, kidney \
         or liver impairment",
    ),
    (
        &[
            "pregnancy",
            "teratogenic_effects",
            "pregnancy_or_breast_feeding",
        ],
        "pregnancy: risks of the drug to a pregnant woman and to the unborn baby",
    ),
    (
        &["nursing_mothers", "lactation"],
        "lactation: whether the drug passes into breast milk and affects a breastfed infant",
    ),
    (
        &["pediatric_use"],
        "pediatric use: safety and effectiveness of the drug in children",
    ),
    (
        &["geriatric_use"],
        "geriatric use: use of the drug in elderly patients",
    ),
    (
        &["overdosage"],
        "overdosage: signs, symptoms and treatment of an overdose of the drug",
    ),
    (
        &[
            "clinical_pharmacology",
            "mechanism_of_action",
            "pharmacodynamics",
        ],
        "clinical pharmacology: how the drug works in the body, its mechanism of action",
    ),
    (
        &["pharmacokinetics"],
        "pharmacokinetics: absorption, distribution, metabolism and elimination of the drug",
    ),
];

/// The embedded descriptions, by section key.
pub struct SectionSpace {
    vectors: Vec<Vec<f32>>,
    by_key: HashMap<&'static str, usize>,
}

impl SectionSpace {
    pub fn embed(embedder: &Embedder) -> Result<Self, EmbedError> {
        let texts: Vec<&str> = DESCRIPTIONS.iter().map(|(_, text)| *text).collect();
        let vectors = embedder.embed(&texts)?;
        let by_key = DESCRIPTIONS
            .iter()
            .enumerate()
            .flat_map(|(i, (keys, _))| keys.iter().map(move |key| (*key, i)))
            .collect();
        Ok(Self { vectors, by_key })
    }

    /// The question's similarity to every description, relative to the best: 0 for the most
    /// similar section, negative for the others; sections without a description get the
    /// lowest value.
    pub fn relative_similarity(&self, question: &[f32]) -> SectionSimilarity<'_> {
        let similarities: Vec<f32> = self.vectors.iter().map(|v| dot(question, v)).collect();
        let best = similarities.iter().copied().fold(f32::MIN, f32::max);
        let lowest = similarities.iter().copied().fold(f32::MAX, f32::min);
        let second = similarities
            .iter()
            .copied()
            .filter(|s| *s < best)
            .fold(lowest, f32::max);
        SectionSimilarity {
            space: self,
            relative: similarities.iter().map(|s| s - best).collect(),
            floor: lowest - best,
            margin: best - second,
        }
    }
}

/// One question's relative similarity to the sections.
pub struct SectionSimilarity<'a> {
    space: &'a SectionSpace,
    relative: Vec<f32>,
    floor: f32,
    margin: f32,
}

impl SectionSimilarity<'_> {
    /// How much more similar the question is to its best description than to the next.
    pub fn margin(&self) -> f32 {
        self.margin
    }

    pub fn of(&self, section_key: &str) -> f32 {
        self.space
            .by_key
            .get(section_key)
            .map_or(self.floor, |&i| self.relative[i])
    }
}
