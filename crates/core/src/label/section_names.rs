//! openFDA section field key → the human section name a client sees (`section` in results).
//! The table covers every text field of the openFDA drug-label schema; README lists it.

use std::borrow::Cow;

const SECTION_NAMES: &[(&str, &str)] = &[
    ("abuse", "Abuse"),
    ("accessories", "Accessories"),
    ("active_ingredient", "Active Ingredient"),
    ("adverse_reactions", "Adverse Reactions"),
    ("alarms", "Alarms"),
    (
        "animal_pharmacology_and_or_toxicology",
        "Animal Pharmacology and/or Toxicology",
    ),
    ("ask_doctor", "Ask Doctor"),
    ("ask_doctor_or_pharmacist", "Ask Doctor or Pharmacist"),
    (
        "assembly_or_installation_instructions",
        "Assembly or Installation Instructions",
    ),
    ("boxed_warning", "Boxed Warning"),
    ("calibration_instructions", "Calibration Instructions"),
    (
        "carcinogenesis_and_mutagenesis_and_impairment_of_fertility",
        "Carcinogenesis, Mutagenesis, Impairment of Fertility",
    ),
    (
        "cleaning",
        "Cleaning, Disinfecting, and Sterilization Instructions",
    ),
    ("clinical_pharmacology", "Clinical Pharmacology"),
    ("clinical_studies", "Clinical Studies"),
    ("compatible_accessories", "Compatible Accessories"),
    ("components", "Components"),
    ("contraindications", "Contraindications"),
    ("controlled_substance", "Controlled Substance"),
    ("dependence", "Dependence"),
    ("description", "Description"),
    ("diagram_of_device", "Diagram of Device"),
    ("disposal_and_waste_handling", "Disposal and Waste Handling"),
    ("do_not_use", "Do Not Use"),
    ("dosage_and_administration", "Dosage and Administration"),
    ("dosage_forms_and_strengths", "Dosage Forms and Strengths"),
    ("drug_abuse_and_dependence", "Drug Abuse and Dependence"),
    (
        "drug_and_or_laboratory_test_interactions",
        "Drug and/or Laboratory Test Interactions",
    ),
    ("drug_interactions", "Drug Interactions"),
    ("environmental_warning", "Environmental Warning"),
    ("food_safety_warning", "Food Safety Warning"),
    ("general_precautions", "General Precautions"),
    ("geriatric_use", "Geriatric Use"),
    ("guaranteed_analysis_of_feed", "Guaranteed Analysis of Feed"),
    ("health_care_provider_letter", "Health Care Provider Letter"),
    ("health_claim", "Health Claim"),
    ("how_supplied", "How Supplied"),
    ("inactive_ingredient", "Inactive Ingredient"),
    ("indications_and_usage", "Indications and Usage"),
    (
        "information_for_owners_or_caregivers",
        "Information for Owners or Caregivers",
    ),
    ("information_for_patients", "Information for Patients"),
    ("instructions_for_use", "Instructions for Use"),
    ("intended_use_of_the_device", "Intended Use of the Device"),
    (
        "keep_out_of_reach_of_children",
        "Keep Out of Reach of Children",
    ),
    ("labor_and_delivery", "Labor and Delivery"),
    ("laboratory_tests", "Laboratory Tests"),
    ("mechanism_of_action", "Mechanism of Action"),
    ("microbiology", "Microbiology"),
    ("nonclinical_toxicology", "Nonclinical Toxicology"),
    ("nonteratogenic_effects", "Nonteratogenic Effects"),
    ("nursing_mothers", "Nursing Mothers"),
    ("other_safety_information", "Other Safety Information"),
    ("overdosage", "Overdosage"),
    ("package_label_principal_display_panel", "Package Label"),
    (
        "patient_medication_information",
        "Patient Medication Information",
    ),
    ("pediatric_use", "Pediatric Use"),
    ("pharmacodynamics", "Pharmacodynamics"),
    ("pharmacogenomics", "Pharmacogenomics"),
    ("pharmacokinetics", "Pharmacokinetics"),
    ("precautions", "Precautions"),
    ("pregnancy", "Pregnancy"),
    ("pregnancy_or_breast_feeding", "Pregnancy or Breast Feeding"),
    ("purpose", "Purpose"),
    ("questions", "Questions"),
    ("recent_major_changes", "Recent Major Changes"),
    ("references", "References"),
    ("residue_warning", "Residue Warning"),
    ("risks", "Risks"),
    ("safe_handling_warning", "Safe Handling Warning"),
    ("spl_medguide", "Medication Guide"),
    ("spl_patient_package_insert", "Patient Package Insert"),
    ("spl_unclassified_section", "Unclassified Section"),
    ("statement_of_identity", "Statement of Identity"),
    ("stop_use", "Stop Use"),
    ("storage_and_handling", "Storage and Handling"),
    (
        "summary_of_safety_and_effectiveness",
        "Summary of Safety and Effectiveness",
    ),
    ("teratogenic_effects", "Teratogenic Effects"),
    ("troubleshooting", "Troubleshooting"),
    ("use_in_specific_populations", "Use in Specific Populations"),
    ("user_safety_warnings", "User Safety Warnings"),
    ("veterinary_indications", "Veterinary Indications"),
    ("warnings", "Warnings"),
    ("warnings_and_cautions", "Warnings and Precautions"),
    ("when_using", "When Using"),
];

/// Every section key the table names.
pub fn section_keys() -> impl Iterator<Item = &'static str> {
    SECTION_NAMES.iter().map(|(key, _)| *key)
}

/// The human name of a section key; a key the table lacks (a future openFDA field) is shown
/// with underscores as spaces and each word capitalised rather than rejected.
pub fn section_name(key: &str) -> Cow<'static, str> {
    match SECTION_NAMES.binary_search_by(|(k, _)| k.cmp(&key)) {
        Ok(found) => Cow::Borrowed(SECTION_NAMES[found].1),
        Err(_) => Cow::Owned(title_case(key)),
    }
}

fn title_case(key: &str) -> String {
    key.split('_')
        .filter(|w| !w.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_for_binary_search() {
        assert!(SECTION_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn known_and_unknown_keys() {
        assert_eq!(
            section_name("warnings_and_cautions"),
            "Warnings and Precautions"
        );
        assert_eq!(section_name("boxed_warning"), "Boxed Warning");
        assert_eq!(section_name("new_field_x"), "New Field X");
    }
}
