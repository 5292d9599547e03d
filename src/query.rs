//! Question understanding without a language model: which drugs a question names (generic,
//! brand or substance names of the indexed labels) and which label sections its wording asks
//! for ("contraindicated", "side effects", "black box", "overdose", "pregnant", "kidney"…).
//! Pure functions over a vocabulary built from the labels; no I/O, no ranking.

use std::collections::{BTreeSet, HashMap};

/// Words that name a salt, a form or a route rather than a drug; never taken as a drug mention.
const NOT_DRUG_WORDS: &[&str] = &[
    "acetate",
    "and",
    "anhydrous",
    "besylate",
    "bisulfate",
    "bromide",
    "calcium",
    "capsule",
    "capsules",
    "chloride",
    "citrate",
    "delayed",
    "dihydrate",
    "disodium",
    "extended",
    "fumarate",
    "hcl",
    "hydrobromide",
    "hydrochloride",
    "injection",
    "kit",
    "lotion",
    "magnesium",
    "maleate",
    "mesylate",
    "monohydrate",
    "ophthalmic",
    "oral",
    "phosphate",
    "potassium",
    "release",
    "sodium",
    "solution",
    "succinate",
    "sulfate",
    "suspension",
    "tablet",
    "tablets",
    "tartrate",
    "topical",
    "with",
    "cream",
    "gel",
    "ointment",
    "spray",
    "nasal",
    "for",
    "film",
    "coated",
];
/// Shortest word taken as a drug name on its own (shorter ones collide with ordinary words).
const MIN_NAME_WORD: usize = 4;

/// Section keys a wording asks for, most specific first. Matched on lowercased word prefixes.
const SECTION_INTENTS: &[(&[&str], &[&str])] = &[
    (
        &[
            "contraindicat",
            "should not take",
            "should not be used",
            "must not",
            "who should not",
        ],
        &["contraindications"],
    ),
    (&["black box", "boxed"], &["boxed_warning"]),
    (
        &[
            "interact",
            "taken with",
            "together with",
            "combined with",
            "combining",
            "concomitant",
            "coadminist",
            "co-administ",
            "inhibitor",
            "inducer",
            "juice",
        ],
        &[
            "drug_interactions",
            "contraindications",
            "warnings_and_cautions",
            "precautions",
            "warnings",
            "dosage_and_administration",
        ],
    ),
    (
        &["side effect", "adverse", "cause", "common reaction"],
        &[
            "adverse_reactions",
            "warnings_and_cautions",
            "warnings",
            "boxed_warning",
        ],
    ),
    (&["overdos", "too much", "toxicity"], &["overdosage"]),
    (
        &[
            "pregnan",
            "fetal",
            "fetus",
            "birth defect",
            "cleft",
            "breastfeed",
            "breast-feed",
            "lactat",
            "nursing",
        ],
        &[
            "pregnancy",
            "use_in_specific_populations",
            "teratogenic_effects",
            "nursing_mothers",
            "boxed_warning",
            "warnings_and_cautions",
        ],
    ),
    (
        &[
            "kidney",
            "renal",
            "egfr",
            "creatinine clearance",
            "dialysis",
        ],
        &[
            "dosage_and_administration",
            "use_in_specific_populations",
            "contraindications",
            "warnings_and_cautions",
        ],
    ),
    (
        &["liver", "hepatic"],
        &[
            "warnings_and_cautions",
            "use_in_specific_populations",
            "dosage_and_administration",
            "contraindications",
            "adverse_reactions",
        ],
    ),
    (
        &["used for", "use for", "indicat", "treat", "approved for"],
        &["indications_and_usage"],
    ),
    (
        &[
            "dose",
            "dosage",
            "dosing",
            "how much",
            "how often",
            "titrat",
        ],
        &["dosage_and_administration"],
    ),
    (
        &["mechanism", "how does", "work"],
        &[
            "mechanism_of_action",
            "clinical_pharmacology",
            "pharmacodynamics",
        ],
    ),
    (
        &[
            "warning",
            "risk",
            "precaution",
            "monitor",
            "danger",
            "withdraw",
            "stopping",
            "discontinu",
            "drows",
            "driving",
            "impair",
        ],
        &[
            "warnings_and_cautions",
            "warnings",
            "precautions",
            "boxed_warning",
        ],
    ),
];

/// Sections that describe the product or address patients rather than state clinical facts;
/// ranked below the professional sections unless a question asks for them.
pub const PERIPHERAL_SECTIONS: &[&str] = &[
    "package_label_principal_display_panel",
    "spl_unclassified_section",
    "description",
    "how_supplied",
    "storage_and_handling",
    "references",
    "recent_major_changes",
    "spl_medguide",
    "spl_patient_package_insert",
    "information_for_patients",
    "patient_medication_information",
    "instructions_for_use",
    "clinical_studies",
    "inactive_ingredient",
    "questions",
    "dosage_forms_and_strengths",
];

/// A drug the question names, and the labels (by ordinal) that carry that name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrugMention {
    pub word: String,
    pub labels: BTreeSet<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Understanding {
    /// In order of first mention: the first is the question's subject.
    pub drugs: Vec<DrugMention>,
    /// Requested section keys, strongest first, without repeats.
    pub sections: Vec<&'static str>,
}

/// Name words of the indexed labels → the labels that carry them.
#[derive(Default)]
pub struct DrugVocabulary {
    labels_by_word: HashMap<String, BTreeSet<u32>>,
}

impl DrugVocabulary {
    /// `names[i]` are the lowercase names (generic, brands, substances) of label ordinal `i`.
    pub fn build<'a>(names: impl IntoIterator<Item = (u32, &'a [String])>) -> Self {
        let mut labels_by_word: HashMap<String, BTreeSet<u32>> = HashMap::new();
        for (label, label_names) in names {
            for name in label_names {
                for word in words(name).filter(|w| is_name_word(w)) {
                    labels_by_word
                        .entry(word.to_owned())
                        .or_default()
                        .insert(label);
                }
            }
        }
        Self { labels_by_word }
    }

    pub fn understand(&self, question: &str) -> Understanding {
        let lower = question.to_lowercase();
        let mut drugs: Vec<DrugMention> = Vec::new();
        for word in words(&lower) {
            let Some(labels) = self
                .labels_by_word
                .get(word)
                .or_else(|| self.labels_by_word.get(singular(word)?))
            else {
                continue;
            };
            match drugs.iter_mut().find(|d| d.labels == *labels) {
                Some(_) => {}
                None => drugs.push(DrugMention {
                    word: word.to_owned(),
                    labels: labels.clone(),
                }),
            }
        }
        Understanding {
            drugs,
            sections: section_intents(&lower),
        }
    }
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
}

fn is_name_word(word: &str) -> bool {
    word.chars().count() >= MIN_NAME_WORD
        && word.chars().any(char::is_alphabetic)
        && !NOT_DRUG_WORDS.contains(&word)
}

fn singular(word: &str) -> Option<&str> {
    word.strip_suffix('s').filter(|w| w.len() >= MIN_NAME_WORD)
}

fn section_intents(lower: &str) -> Vec<&'static str> {
    let padded = format!(" {lower} ");
    let mut sections: Vec<&'static str> = Vec::new();
    for (cues, wanted) in SECTION_INTENTS {
        let asked = cues.iter().any(|cue| {
            padded.match_indices(cue).any(|(at, _)| {
                let before = padded[..at].chars().next_back();
                before.is_none_or(|c| !c.is_alphanumeric())
            })
        });
        if asked {
            for section in *wanted {
                if !sections.contains(section) {
                    sections.push(section);
                }
            }
        }
    }
    sections
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocabulary() -> DrugVocabulary {
        let names: Vec<Vec<String>> = vec![
            vec!["sertraline hydrochloride".into(), "zoloft".into()],
            vec!["pimozide".into()],
            vec!["atorvastatin calcium".into(), "lipitor".into()],
            vec!["carbidopa and levodopa".into()],
        ];
        DrugVocabulary::build(
            names
                .iter()
                .enumerate()
                .map(|(i, n)| (i as u32, n.as_slice())),
        )
    }

    #[test]
    fn drugs_by_generic_brand_and_component_in_order_of_mention() {
        let v = vocabulary();
        let u = v.understand("Does Zoloft interact with pimozide?");
        let labels: Vec<Vec<u32>> = u
            .drugs
            .iter()
            .map(|d| d.labels.iter().copied().collect())
            .collect();
        assert_eq!(labels, [vec![0], vec![1]]);
        assert_eq!(
            v.understand("levodopa dosing").drugs[0].labels,
            BTreeSet::from([3])
        );
        assert!(
            v.understand("calcium and sodium in tablets")
                .drugs
                .is_empty(),
            "salts and forms are not drugs"
        );
        assert_eq!(v.understand("Lipitors").drugs.len(), 1);
    }

    #[test]
    fn section_intents_follow_the_wording() {
        let v = vocabulary();
        assert_eq!(
            v.understand("Who should not take atorvastatin?").sections[0],
            "contraindications"
        );
        assert_eq!(
            v.understand("Does it have a black box warning?").sections[0],
            "boxed_warning"
        );
        assert!(v
            .understand("most common side effects")
            .sections
            .contains(&"adverse_reactions"));
        assert_eq!(v.understand("overdose symptoms").sections, ["overdosage"]);
        assert_eq!(
            v.understand("What is tamsulosin used for?").sections,
            ["indications_and_usage"]
        );
        assert!(v
            .understand("safe in pregnancy?")
            .sections
            .contains(&"pregnancy"));
        assert!(v
            .understand("kidney impairment")
            .sections
            .contains(&"use_in_specific_populations"));
        assert!(v.understand("sertraline pimozide").sections.is_empty());
        assert!(
            v.understand("uncontraindicated").sections.is_empty(),
            "cues start at a word boundary"
        );
    }
}
