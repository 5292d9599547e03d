//! What ranking knows of one copy of a candidate text (its BM25 and embedding scores, how its
//! drug and section relate to the question) and the learned weights that turn it into a score
//! (`ranking-weights.json`, fitted by `crates/lab/scripts/fit-ranking.py`). Pure; no retrieval.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::provenance::fitted_values;
use super::section_view::SectionView;
use crate::tables::search::threshold;
use crate::understand::{Understanding, PERIPHERAL_SECTIONS};
use drugcite_core::domain::TextHash;
use drugcite_store::SegmentInfo;

/// The fitted weights, kept in the repository beside this file, with the fits they come from.
const LEARNED: &str = include_str!("ranking-weights.json");
/// The lab script every fit of `LEARNED` must name.
const FIT_SCRIPT: &str = "crates/lab/scripts/fit-ranking.py";
/// The most asked sections a copy's section rank counts (`section_rank_cap`).
static SECTION_RANK_CAP: LazyLock<usize> = LazyLock::new(|| threshold("section_rank_cap") as usize);

/// A text's retrieval scores, each scaled to the best candidate's (0 when absent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct TextScores {
    pub lexical: f32,
    pub semantic: f32,
}

/// One copy's features: the text's scores and the copy's relation to the question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct CopyFeatures {
    pub lexical: f32,
    pub semantic: f32,
    /// Similarity of the question's topic to the copy's section (its description and its
    /// learned prototype, `section_space.rs`), minus that of the section it is most similar to
    /// (0 for the best-matching section, below 0 for others); for a copy of the subject's
    /// label, the most similar of the sections its label has (a label without a Pregnancy
    /// section answers a pregnancy question in its nearest one).
    pub section_similarity: f32,
    /// How much more similar the question is to its best section description than to the
    /// next one (for a copy of the subject's label, at most its label's best over its next):
    /// a wide margin means the meaning asks for a section.
    pub section_margin: f32,
    /// A label of the subject that combines it with other ingredients.
    pub combination: bool,
    /// A label of another drug the question names, not of its subject.
    pub other_drug: bool,
    /// A label of no drug the question names (the question has a subject).
    pub unnamed_drug: bool,
    /// Outside the sections the wording asks for (when it asks for any).
    pub off_section: bool,
    /// Position among the asked-for sections the copy's label has (0 when first or none
    /// asked): a label without a Pregnancy section of its own answers in its Boxed Warning.
    pub section_rank: f32,
    /// A package label, patient leaflet or other peripheral section nobody asked for.
    pub peripheral: bool,
    /// Text addressed to the patient inside a professional section.
    pub patient_voice: bool,
    /// A copy of the subject's label, in a section the question asks for (or any when it asks
    /// for none), whose text names a partner the question names.
    pub names_partner: bool,
    /// A copy of a partner's label, in a section the question asks for (or any), whose text
    /// names the subject: the pair's evidence in the other label ("methotrexate" naming NSAIDs
    /// for "ibuprofen with methotrexate").
    pub partner_names_subject: bool,
    /// For a copy of the subject's label in a section the question asks for (or any), whose
    /// text names an effect nearest the question among those the subject's texts name
    /// ("cardiovascular death" for "dying from heart problems"): that effect's similarity to
    /// the question (0 otherwise).
    pub names_effect: f32,
    /// The question names a medicine by its form ("fish oil pills", "eye drops") and the
    /// copy's label is given by none of that form's routes — never a copy of a subject that is
    /// not a class: a drug named by its name ("ranibizumab injection" names the drug, whatever
    /// the word) or the medicines for a condition, which `indicated.rs` chose by the form.
    pub other_form: bool,
}

/// The texts of the subject's labels that name the question's partners, of the partners'
/// labels that name the subject (both empty without a partner), and of the subject's labels
/// that name the effect the question asks about (`effects.rs`; empty without one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NamedTexts {
    pub naming_partner: HashSet<TextHash>,
    pub naming_subject: HashSet<TextHash>,
    pub naming_effect: HashMap<TextHash, f32>,
}

/// Score = (lexical + semantic weight × semantic) × exp(Σ weight × feature + the prior of the
/// copy's section).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Weights {
    pub semantic: f32,
    /// Margin from which the best-matching section counts as asked for by meaning, and the
    /// weight of a copy in that section.
    pub meaning_margin: f32,
    pub meaning_asked: f32,
    pub section_similarity: f32,
    pub combination: f32,
    pub other_drug: f32,
    pub unnamed_drug: f32,
    pub off_section: f32,
    pub section_rank: f32,
    pub peripheral: f32,
    pub patient_voice: f32,
    #[serde(default)]
    pub names_partner: f32,
    #[serde(default)]
    pub partner_names_subject: f32,
    #[serde(default)]
    pub names_effect: f32,
    #[serde(default)]
    pub other_form: f32,
    /// Learned log-prior per section key (0 for a section not listed).
    #[serde(default)]
    pub section_prior: BTreeMap<String, f32>,
}

impl Weights {
    /// The weights fitted on the dev questions' fit part.
    pub fn learned() -> &'static Weights {
        static WEIGHTS: LazyLock<Weights> = LazyLock::new(|| {
            fitted_values(LEARNED, FIT_SCRIPT)
                .unwrap_or_else(|e| panic!("ranking-weights.json: {e} (it is unit-tested)"))
        });
        &WEIGHTS
    }

    pub fn score(&self, f: &CopyFeatures, section_key: &str) -> f32 {
        let flag = |on: bool, weight: f32| if on { weight } else { 0.0 };
        let meant = f.section_similarity >= 0.0 && f.section_margin >= self.meaning_margin;
        let exponent = self.section_similarity * f.section_similarity
            + flag(meant, self.meaning_asked)
            + flag(f.combination, self.combination)
            + flag(f.other_drug, self.other_drug)
            + flag(f.unnamed_drug, self.unnamed_drug)
            + flag(f.off_section, self.off_section)
            + self.section_rank * f.section_rank
            + flag(f.peripheral, self.peripheral)
            + flag(f.patient_voice, self.patient_voice)
            + flag(f.names_partner, self.names_partner)
            + flag(f.partner_names_subject, self.partner_names_subject)
            + self.names_effect * f.names_effect
            + flag(f.other_form, self.other_form)
            + self.section_prior.get(section_key).copied().unwrap_or(0.0);
        (f.lexical + self.semantic * f.semantic) * exponent.exp()
    }
}

impl CopyFeatures {
    /// The features of the copy `info` of a text scored `scores`, given the question's view of
    /// the sections (their similarity relative to the best section of all, and which each label
    /// has), the texts of the subject's labels naming its partners and whether a label is given
    /// otherwise than the form the question names.
    pub fn of(
        scores: TextScores,
        info: &SegmentInfo,
        (understanding, partners, sections, other_form): (
            &Understanding,
            &NamedTexts,
            &SectionView,
            &dyn Fn(u32) -> bool,
        ),
    ) -> Self {
        let section = info.section_key.as_ref();
        let asked = understanding.sections.iter().position(|s| *s == section);
        let rank = asked.and_then(|_| sections.asked_rank(info.label, section));
        let is_peripheral = PERIPHERAL_SECTIONS.contains(&section);
        let drug = drug_relation(info, understanding);
        let own = matches!(drug, DrugRelation::Subject | DrugRelation::Combination);
        let named_drug = understanding.subject().is_some_and(|s| s.class.is_none());
        let names = |texts: &HashSet<TextHash>| texts.contains(&info.text_hash);
        let off_section = asked.is_none() && !understanding.sections.is_empty();
        let (mut section_similarity, mut section_margin) = sections.score(section);
        if own && understanding.subject().is_some() {
            let (best, lead) = sections.best_of_label(info.label);
            section_similarity -= best;
            section_margin = section_margin.min(lead);
        }
        Self {
            lexical: scores.lexical,
            semantic: scores.semantic,
            section_similarity,
            section_margin,
            combination: drug == DrugRelation::Combination,
            other_drug: drug == DrugRelation::Other,
            unnamed_drug: drug == DrugRelation::Unnamed,
            off_section,
            section_rank: rank.unwrap_or(0).min(*SECTION_RANK_CAP) as f32,
            peripheral: is_peripheral && asked.is_none(),
            patient_voice: info.addresses_patient && !is_peripheral,
            names_partner: own && !off_section && names(&partners.naming_partner),
            partner_names_subject: drug == DrugRelation::Other
                && !off_section
                && names(&partners.naming_subject),
            names_effect: match partners.naming_effect.get(&info.text_hash) {
                Some(&similarity) if own && !off_section => similarity,
                _ => 0.0,
            },
            other_form: !(own && named_drug) && other_form(info.label),
        }
    }
}

#[derive(PartialEq)]
enum DrugRelation {
    Subject,
    Combination,
    Other,
    Unnamed,
}

fn drug_relation(info: &SegmentInfo, understanding: &Understanding) -> DrugRelation {
    if understanding.subject().is_none() {
        return DrugRelation::Subject;
    }
    match understanding
        .drugs
        .iter()
        .position(|d| d.labels.contains(&info.label))
    {
        Some(0) if understanding.drugs[0].combinations.contains(&info.label) => {
            DrugRelation::Combination
        }
        Some(0) => DrugRelation::Subject,
        Some(_) => DrugRelation::Other,
        None => DrugRelation::Unnamed,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::search::ranking::tests::{fp, info};
    use crate::understand::DrugMention;
    use drugcite_store::LabelSections;

    /// Every section equally similar to the question.
    fn flat(_: &str) -> (f32, f32) {
        (0.0, 0.0)
    }

    /// No label is given otherwise than a form the question names.
    fn no_form() -> &'static dyn Fn(u32) -> bool {
        &|_| false
    }

    fn mention(labels: &[u32]) -> DrugMention {
        DrugMention {
            word: "x".into(),
            class: None,
            labels: labels.iter().copied().collect(),
            combinations: BTreeSet::new(),
        }
    }

    #[test]
    fn a_text_of_one_named_drug_naming_the_other_in_an_asked_section_is_marked() {
        let understanding = Understanding {
            drugs: vec![mention(&[0]), mention(&[1])],
            sections: vec!["drug_interactions"],
            ..Understanding::default()
        };
        let naming = "Avoid use with clarithromycin.";
        let naming_subject = "Increases exposure of colchicine.";
        let partners = NamedTexts {
            naming_partner: HashSet::from([TextHash::of(naming)]),
            naming_subject: HashSet::from([TextHash::of(naming_subject)]),
            ..NamedTexts::default()
        };
        let sections = LabelSections::default();
        let view = SectionView::new(&sections, &flat, &understanding);
        let features = |info: &SegmentInfo| {
            let question = (&understanding, &partners, &view, no_form());
            let scores = TextScores {
                lexical: 1.0,
                semantic: 1.0,
            };
            CopyFeatures::of(scores, info, question)
        };
        let subject = features(&info(0, "drug_interactions", naming));
        assert!(subject.names_partner);
        let elsewhere = features(&info(0, "clinical_pharmacology", naming));
        assert!(
            !elsewhere.names_partner,
            "not in a section the question asks for"
        );
        let partner = features(&info(1, "drug_interactions", naming));
        assert!(!partner.names_partner && !partner.partner_names_subject);
        let partner = features(&info(1, "drug_interactions", naming_subject));
        assert!(partner.partner_names_subject && !partner.names_partner);
        let unnamed = features(&info(2, "drug_interactions", naming_subject));
        assert!(!unnamed.partner_names_subject, "a label of no named drug");
        let silent = features(&info(0, "drug_interactions", "Take with food."));
        assert!(!silent.names_partner);
        let weights = Weights::learned();
        assert!(
            weights.score(&subject, "x")
                > weights.score(
                    &CopyFeatures {
                        names_partner: false,
                        ..subject
                    },
                    "x"
                ),
            "naming the partner raises the score"
        );
    }

    #[test]
    fn a_text_of_the_subject_naming_the_asked_effect_carries_its_similarity() {
        let understanding = Understanding {
            drugs: vec![mention(&[0])],
            sections: vec!["warnings_and_cautions"],
            ..Understanding::default()
        };
        let warning = "Cardiovascular death was higher with febuxostat.";
        let named = NamedTexts {
            naming_effect: HashMap::from([(TextHash::of(warning), 0.62)]),
            ..NamedTexts::default()
        };
        let sections = LabelSections::default();
        let view = SectionView::new(&sections, &flat, &understanding);
        let effect = |info: &SegmentInfo| {
            let question = (&understanding, &named, &view, no_form());
            CopyFeatures::of(TextScores::default(), info, question).names_effect
        };
        assert_eq!(effect(&info(0, "warnings_and_cautions", warning)), 0.62);
        assert_eq!(
            effect(&info(0, "clinical_studies", warning)),
            0.0,
            "not asked for"
        );
        assert_eq!(
            effect(&info(1, "warnings_and_cautions", warning)),
            0.0,
            "another drug's"
        );
        assert_eq!(
            effect(&info(0, "warnings_and_cautions", "Gout flares.")),
            0.0
        );
    }

    #[test]
    fn a_label_given_otherwise_than_the_named_form_is_marked_unless_a_named_drugs_own() {
        let given_otherwise = |label: u32| label == 1;
        let other_form = |understanding: &Understanding, label| {
            let named = NamedTexts::default();
            let sections = LabelSections::default();
            let view = SectionView::new(&sections, &flat, understanding);
            let question = (
                understanding,
                &named,
                &view,
                &given_otherwise as &dyn Fn(u32) -> bool,
            );
            let info = info(label, "warnings_and_cautions", "Atrial fibrillation.");
            CopyFeatures::of(TextScores::default(), &info, question).other_form
        };
        let no_subject = Understanding::default();
        assert!(other_form(&no_subject, 1));
        assert!(!other_form(&no_subject, 0));
        let drug = Understanding {
            drugs: vec![mention(&[1])],
            ..Understanding::default()
        };
        assert!(
            !other_form(&drug, 1),
            "\"ranibizumab injection\" names the drug, whatever its route"
        );
        let class = Understanding {
            drugs: vec![DrugMention {
                class: Some("opioid agonist".into()),
                ..mention(&[1])
            }],
            ..Understanding::default()
        };
        assert!(other_form(&class, 1), "a member of a class given otherwise");
        assert!(Weights::learned().other_form < 0.0, "it lowers the score");
    }

    #[test]
    fn the_learned_weights_parse_and_penalties_lower_the_score() {
        let weights = Weights::learned();
        let base = CopyFeatures {
            lexical: 1.0,
            semantic: 1.0,
            ..CopyFeatures::default()
        };
        let elsewhere = CopyFeatures {
            off_section: true,
            unnamed_drug: true,
            ..base
        };
        assert!(weights.score(&elsewhere, "x") < weights.score(&base, "x"));
        let better_text = CopyFeatures {
            lexical: 2.0,
            ..base
        };
        assert!(weights.score(&better_text, "x") > weights.score(&base, "x"));
    }

    #[test]
    fn the_committed_weights_name_their_fits() {
        let fitted: Result<Weights, String> = fitted_values(LEARNED, FIT_SCRIPT);
        assert_eq!(fitted.as_ref(), Ok(Weights::learned()));
    }

    #[test]
    fn the_section_rank_counts_only_the_asked_sections_the_label_has() {
        let catalog = drugcite_store::SegmentCatalog::build([
            (fp(0), info(0, "boxed_warning", "0")),
            (fp(1), info(1, "pregnancy", "1")),
            (fp(2), info(1, "boxed_warning", "2")),
        ]);
        let sections = catalog.label_sections();
        let understanding = Understanding {
            sections: vec!["pregnancy", "boxed_warning"],
            ..Understanding::default()
        };
        let partners = NamedTexts::default();
        let view = SectionView::new(&sections, &flat, &understanding);
        let rank = |info: &SegmentInfo| {
            let question = (&understanding, &partners, &view, no_form());
            CopyFeatures::of(TextScores::default(), info, question).section_rank
        };
        assert_eq!(
            rank(&info(0, "boxed_warning", "0")),
            0.0,
            "first among the sections its label has"
        );
        assert_eq!(
            rank(&info(1, "boxed_warning", "2")),
            1.0,
            "its label answers in Pregnancy first"
        );
        assert_eq!(
            rank(&info(7, "boxed_warning", "7")),
            1.0,
            "a label it knows nothing of has every asked section"
        );
    }

    #[test]
    fn the_subjects_label_is_near_the_asked_meaning_in_its_nearest_own_section() {
        let catalog = drugcite_store::SegmentCatalog::build([
            (fp(0), info(0, "boxed_warning", "0")),
            (fp(1), info(0, "adverse_reactions", "1")),
            (fp(2), info(1, "pregnancy", "2")),
            (fp(3), info(1, "boxed_warning", "3")),
            (fp(4), info(2, "boxed_warning", "4")),
            (fp(5), info(2, "warnings_and_cautions", "5")),
            (fp(6), info(3, "boxed_warning", "6")),
        ]);
        let sections = catalog.label_sections();
        let relative = |key: &str| match key {
            "pregnancy" => (0.0, 0.1),
            "boxed_warning" => (-0.1, 0.1),
            "warnings_and_cautions" => (-0.15, 0.1),
            _ => (-0.3, 0.1),
        };
        let partners = NamedTexts::default();
        let about = |label: u32| Understanding {
            drugs: vec![mention(&[label])],
            ..Understanding::default()
        };
        let features = |understanding: &Understanding, info: &SegmentInfo| {
            let view = SectionView::new(&sections, &relative, understanding);
            let question = (understanding, &partners, &view, no_form());
            let f = CopyFeatures::of(TextScores::default(), info, question);
            (
                (f.section_similarity * 100.0).round(),
                (f.section_margin * 100.0).round(),
            )
        };
        let boxed = info(0, "boxed_warning", "0");
        assert_eq!(
            features(&about(0), &boxed),
            (0.0, 10.0),
            "the nearest section label 0 has"
        );
        assert_eq!(
            features(&about(0), &info(1, "boxed_warning", "3")),
            (-10.0, 10.0),
            "another label's copy keeps its place among all sections"
        );
        assert_eq!(
            features(&about(1), &info(1, "boxed_warning", "3")),
            (-10.0, 10.0),
            "its label has the nearest section"
        );
        assert_eq!(
            features(&about(2), &info(2, "boxed_warning", "4")),
            (0.0, 5.0),
            "the margin over the label's next section"
        );
        assert_eq!(
            features(&about(3), &info(3, "boxed_warning", "6")),
            (0.0, 0.0),
            "a label's only section is meant over no other"
        );
        assert_eq!(
            features(&Understanding::default(), &boxed),
            (-10.0, 10.0),
            "without a subject every label is compared with all sections"
        );
    }
}
