//! LOINC section code → openFDA section key: how openFDA names the sections of an SPL
//! document (FDA/openfda `openfda/spl/data/sections.csv`, CC0; keys as its converter derives
//! them). Data only.

/// Sorted by code for binary search.
const LOINC_SECTIONS: &[(&str, &str)] = &[
    ("34066-1", "boxed_warning"),
    ("34067-9", "indications_and_usage"),
    ("34068-7", "dosage_and_administration"),
    ("34069-5", "how_supplied"),
    ("34070-3", "contraindications"),
    ("34071-1", "warnings"),
    ("34072-9", "general_precautions"),
    ("34073-7", "drug_interactions"),
    ("34074-5", "drug_and_or_laboratory_test_interactions"),
    ("34075-2", "laboratory_tests"),
    ("34076-0", "information_for_patients"),
    ("34077-8", "teratogenic_effects"),
    ("34078-6", "nonteratogenic_effects"),
    ("34079-4", "labor_and_delivery"),
    ("34080-2", "nursing_mothers"),
    ("34081-0", "pediatric_use"),
    ("34082-8", "geriatric_use"),
    (
        "34083-6",
        "carcinogenesis_and_mutagenesis_and_impairment_of_fertility",
    ),
    ("34084-4", "adverse_reactions"),
    ("34085-1", "controlled_substance"),
    ("34086-9", "abuse"),
    ("34087-7", "dependence"),
    ("34088-5", "overdosage"),
    ("34089-3", "description"),
    ("34090-1", "clinical_pharmacology"),
    ("34091-9", "animal_pharmacology_and_or_toxicology"),
    ("34092-7", "clinical_studies"),
    ("34093-5", "references"),
    ("42227-9", "drug_abuse_and_dependence"),
    ("42228-7", "pregnancy"),
    ("42229-5", "spl_unclassified_section"),
    ("42230-3", "spl_patient_package_insert"),
    ("42231-1", "spl_medguide"),
    ("42232-9", "precautions"),
    ("43678-2", "dosage_forms_and_strengths"),
    ("43679-0", "mechanism_of_action"),
    ("43680-8", "nonclinical_toxicology"),
    ("43681-6", "pharmacodynamics"),
    ("43682-4", "pharmacokinetics"),
    ("43683-2", "recent_major_changes"),
    ("43684-0", "use_in_specific_populations"),
    ("43685-7", "warnings_and_cautions"),
    ("44425-7", "storage_and_handling"),
    ("48779-3", "spl_indexing_data_elements"),
    ("48780-1", "spl_product_data_elements"),
    ("49489-8", "microbiology"),
    ("50565-1", "keep_out_of_reach_of_children"),
    ("50566-9", "stop_use"),
    ("50567-7", "when_using"),
    ("50568-5", "ask_doctor_or_pharmacist"),
    ("50569-3", "ask_doctor"),
    ("50570-1", "do_not_use"),
    ("50740-0", "guaranteed_analysis_of_feed"),
    ("50741-8", "safe_handling_warning"),
    ("50742-6", "environmental_warning"),
    ("50743-4", "food_safety_warning"),
    ("50744-2", "information_for_owners_or_caregivers"),
    ("50745-9", "veterinary_indications"),
    ("51727-6", "inactive_ingredient"),
    ("51945-4", "package_label_principal_display_panel"),
    ("53412-3", "residue_warning"),
    ("53413-1", "questions"),
    ("53414-9", "pregnancy_or_breast_feeding"),
    ("54433-8", "user_safety_warnings"),
    ("55105-1", "purpose"),
    ("55106-9", "active_ingredient"),
    ("59845-8", "instructions_for_use"),
    ("60555-0", "accessories"),
    ("60556-8", "assembly_or_installation_instructions"),
    ("60557-6", "calibration_instructions"),
    ("60558-4", "cleaning"),
    ("60559-2", "components"),
    ("60560-0", "intended_use_of_the_device"),
    ("60561-8", "other_safety_information"),
    ("60562-6", "route"),
    ("60563-4", "summary_of_safety_and_effectiveness"),
    ("60684-8", "cellular_therapy"),
    ("66106-6", "pharmacogenomics"),
    ("68498-5", "patient_medication_information"),
    ("69718-5", "statement_of_identity"),
    ("69719-3", "health_claim"),
    ("69758-1", "diagram_of_device"),
    ("69759-9", "risks"),
    ("69760-7", "compatible_accessories"),
    ("69761-5", "alarms"),
    ("69762-3", "troubleshooting"),
    ("69763-1", "disposal_and_waste_handling"),
    ("71744-7", "health_care_provider_letter"),
];

/// The openFDA key of a LOINC section code, if openFDA names it.
pub fn section_key(code: &str) -> Option<&'static str> {
    LOINC_SECTIONS
        .binary_search_by(|(c, _)| c.cmp(&code))
        .ok()
        .map(|found| LOINC_SECTIONS[found].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_sorted_and_name_known_sections() {
        assert!(LOINC_SECTIONS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(section_key("34070-3"), Some("contraindications"));
        assert_eq!(section_key("43685-7"), Some("warnings_and_cautions"));
        assert_eq!(section_key("34066-1"), Some("boxed_warning"));
        assert_eq!(section_key("42229-5"), Some("spl_unclassified_section"));
        assert_eq!(section_key("00000-0"), None);
    }
}
