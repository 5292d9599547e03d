//! Which label sections a question's wording asks for: cue word prefixes mapped to section
//! keys, most specific first. Pure; knows nothing of drugs or ranking.

use crate::text::{occurrences, WordEdge};

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
            "take with",
            "taking with",
            "used with",
            "use with",
            "mixed with",
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
        &["pregnan", "fetal", "fetus", "birth defect", "cleft"],
        &[
            "pregnancy",
            "pregnancy_or_breast_feeding",
            "teratogenic_effects",
            "boxed_warning",
            "warnings_and_cautions",
            "use_in_specific_populations",
        ],
    ),
    (
        &[
            "breastfeed",
            "breast-feed",
            "breast milk",
            "lactat",
            "nursing",
        ],
        &[
            "nursing_mothers",
            "pregnancy_or_breast_feeding",
            "use_in_specific_populations",
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
pub(super) fn section_intents(lower: &str) -> Vec<&'static str> {
    let padded = format!(" {lower} ");
    let mut sections: Vec<&'static str> = Vec::new();
    for (cues, wanted) in SECTION_INTENTS {
        let asked = cues
            .iter()
            .any(|cue| occurrences(&padded, cue, WordEdge::Start).next().is_some());
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

/// The sections a question about two drugs taken together asks for.
pub(super) fn interaction_sections() -> Vec<&'static str> {
    section_intents("interact")
}

#[cfg(test)]
mod tests {
    use super::super::tests::vocabulary;

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
        assert!(v.understand("sertraline dosing").sections[0] == "dosage_and_administration");
        assert_eq!(
            v.understand("sertraline pimozide").sections[0],
            "drug_interactions",
            "two drugs named together ask how they interact"
        );
        assert!(
            v.understand("carbidopa levodopa").sections.is_empty(),
            "the ingredients of one combination are not partners"
        );
        assert!(v.understand("sertraline").sections.is_empty());
        assert!(
            v.understand("sertraline complex sleep behaviors")
                .sections
                .is_empty(),
            "a later word of a name is no partner"
        );
        assert_eq!(
            v.understand("sertraline and ferrlecit").sections[0],
            "drug_interactions"
        );
        assert!(
            v.understand("uncontraindicated").sections.is_empty(),
            "cues start at a word boundary"
        );
    }
}
