//! Unit tests of what a label sentence states (`relations.rs`).

use std::sync::Arc;

use super::drugs::is_drug_name;
use super::*;
use crate::conditions::{Lexicon, VocabularyTerm};
use crate::understand::{DrugVocabulary, LabelNames};
use drugcite_core::label::{Drug, LabelMeta, NameSource};

fn matcher() -> Matcher {
    let term = |id: &str, name: &str| VocabularyTerm {
        id: id.into(),
        name: name.into(),
        synonyms: vec![],
    };
    let vocabulary = [
        term("DOID:1", "renal impairment"),
        term("DOID:2", "bleeding"),
        term("DOID:3", "agranulocytosis"),
        term("DOID:4", "nausea"),
        term("DOID:5", "liver failure"),
        term("DOID:9352", "type 2 diabetes mellitus"),
        term("DOID:9744", "type 1 diabetes mellitus"),
    ];
    Matcher::new(Lexicon::build(&vocabulary, &[]))
}

fn label(name: &str, brand: &str) -> Arc<LabelMeta> {
    Arc::new(LabelMeta {
        label_id: name.into(),
        set_id: name.into(),
        version: "1".into(),
        effective_time: "20240101".into(),
        drug: Drug {
            name: name.into(),
            brand_names: vec![brand.into()],
            ..Drug::default()
        },
        name_source: NameSource::GenericName,
        search_names: vec![name.into(), brand.to_lowercase()],
        classes: vec![],
        stated_class: None,
    })
}

/// The question reader's vocabulary of `labels`, by their names and classes.
fn vocabulary_of(labels: &[Arc<LabelMeta>]) -> DrugVocabulary {
    DrugVocabulary::build(labels.iter().enumerate().map(|(i, l)| LabelNames {
        label: i as u32,
        generic: &l.drug.name,
        names: &l.search_names,
        brands: &l.drug.brand_names,
        classes: &l.classes,
        routes: &l.drug.route,
    }))
}

fn statements_of(text: &str, section: &str) -> Vec<(String, RelationType, Option<Severity>)> {
    let labels = [
        label("warfarin sodium", "Coumadin"),
        label("aspirin", "Bayer"),
    ];
    let vocabulary = vocabulary_of(&labels);
    let drugs = Drugs::new(&vocabulary, &labels);
    statements(text, section, &matcher(), &drugs)
        .into_iter()
        .map(|s| {
            let target = match s.target {
                Target::Condition { name, .. } => name,
                Target::Drug(labels) => format!("drug {labels:?}"),
                Target::Ingredient(name) => format!("ingredient {name}"),
                Target::Class(name) => format!("class {name}"),
                Target::Unlabelled(name) => format!("unlabelled {name}"),
                Target::Population(name) => format!("population {name}"),
                Target::Member { member, class } => format!("{member:?} in {class}"),
            };
            (target, s.kind, s.severity)
        })
        .collect()
}

#[test]
fn a_hedged_contraindication_is_a_warning_and_a_plain_one_is_serious() {
    let found = statements_of(
        "Contraindicated in patients with renal impairment. Use in patients with bleeding is not recommended.",
        "contraindications",
    );
    assert_eq!(
        found,
        [
            (
                "renal impairment".into(),
                RelationType::Contraindication,
                Some(Severity::Serious)
            ),
            (
                "population renal impairment".into(),
                RelationType::Contraindication,
                Some(Severity::Serious)
            ),
            (
                "bleeding".into(),
                RelationType::Warning,
                Some(Severity::Moderate)
            ),
        ]
    );
}

#[test]
fn the_reason_given_is_not_the_target_and_enzyme_classes_are_targets() {
    let found = statements_of(
        "Contraindicated in pregnancy because of the risk of bleeding.",
        "contraindications",
    );
    assert_eq!(
        found,
        [(
            "population pregnancy".into(),
            RelationType::Contraindication,
            Some(Severity::Serious)
        )]
    );
    let found = statements_of(
        "Avoid strong CYP3A4 inhibitors (e.g., ketoconazole).",
        "drug_interactions",
    );
    let class_interaction = (
        "class strong cyp3a inhibitors".to_owned(),
        RelationType::Interaction,
        Some(Severity::Serious),
    );
    assert!(found.contains(&class_interaction), "{found:?}");
    assert!(
        found
            .iter()
            .any(|(target, kind, _)| *kind == RelationType::MemberOf
                && target.contains("ketoconazole")
                && target.ends_with("in strong cyp3a inhibitors")),
        "the listed example is a member of the class: {found:?}"
    );
}

#[test]
fn denied_conditions_are_not_adverse_reactions() {
    let found = statements_of(
        "Nausea occurred in 5% of patients. No cases of agranulocytosis were reported. \
         Bleeding was not observed.",
        "adverse_reactions",
    );
    assert_eq!(
        found,
        [("nausea".into(), RelationType::AdverseReaction, None)]
    );
}

#[test]
fn severity_reads_the_words_near_the_condition_and_the_section() {
    let fatal = statements_of(
        "Cases of fatal liver failure have been reported.",
        "warnings_and_cautions",
    );
    assert_eq!(fatal[0].2, Some(Severity::LifeThreatening));
    let boxed = statements_of("WARNING: BLEEDING.", "boxed_warning");
    assert_eq!(boxed[0].2, Some(Severity::Serious));
    let listed = statements_of(
        "Hepatobiliary: fatal liver failure Gastrointestinal: nausea",
        "adverse_reactions",
    );
    assert_eq!(
        listed[1],
        ("nausea".into(), RelationType::AdverseReaction, None)
    );
    let mild = statements_of("Mild nausea was reported.", "adverse_reactions");
    assert_eq!(mild[0].2, Some(Severity::Mild));
    assert!(statements_of("Nausea was reported.", "how_supplied").is_empty());
}

#[test]
fn drugs_a_warning_names_for_concomitant_use_are_interactions_at_its_level() {
    let found = statements_of(
        "The risk is increased with concomitant use of other drugs (including aspirin).",
        "warnings_and_cautions",
    );
    assert_eq!(
        found,
        [(
            "drug [1]".into(),
            RelationType::Interaction,
            Some(Severity::Moderate)
        )]
    );
    assert!(
        statements_of("Aspirin was studied in adults.", "warnings_and_cautions").is_empty(),
        "a warning that does not speak of using them together names no interaction"
    );
}

#[test]
fn label_text_is_read_as_written_and_stemmed_names_without_a_label_are_drugs() {
    let found = statements_of("Avoid warfarn.", "drug_interactions");
    assert!(
        found
            .iter()
            .all(|(target, _, _)| !target.starts_with("drug")),
        "a misspelling is forgiven in questions, not in labels: {found:?}"
    );
    assert!(is_drug_name("clarithromycin") && !is_drug_name("tablets"));
}

#[test]
fn interactions_name_drugs_by_generic_or_brand_but_not_their_absence() {
    let found = statements_of(
        "Avoid concomitant use of Coumadin, which increases the risk of bleeding. \
         No clinically significant interaction with aspirin was observed.",
        "drug_interactions",
    );
    assert_eq!(
        found,
        [(
            "drug [0]".into(),
            RelationType::Interaction,
            Some(Severity::Serious)
        )]
    );
}

#[test]
fn a_limitation_of_use_is_not_an_indication() {
    let found = statements_of(
        "JARDIANCE is indicated as an adjunct to diet and exercise to improve glycemic control in adults with type 2 diabetes mellitus. Limitations of Use: Not recommended for use to improve glycemic control in patients with type 1 diabetes mellitus.",
        "indications_and_usage",
    );
    let targets: Vec<&str> = found.iter().map(|(t, ..)| t.as_str()).collect();
    assert!(targets.contains(&"type 2 diabetes mellitus"), "{found:?}");
    assert!(!targets.contains(&"type 1 diabetes mellitus"), "{found:?}");
}

#[test]
fn an_abbreviation_s_full_stop_does_not_end_a_sentence() {
    let text =
        "Use with tramadol, buspirone and St. John's Wort is warranted. Monitor (e.g. ECG). Next.";
    let found: Vec<&str> = sentences(text)
        .into_iter()
        .map(|r| text[r].trim())
        .collect();
    assert_eq!(
        found,
        [
            "Use with tramadol, buspirone and St. John's Wort is warranted.",
            "Monitor (e.g. ECG).",
            "Next."
        ]
    );
}

#[test]
fn a_drug_is_named_by_its_whole_generic_its_brand_s_first_words_or_a_curated_abbreviation() {
    let labels = [
        label("testosterone undecanoate", "Jatenzo"),
        label("ioversol", "Optiray 320"),
        label(
            "calcium, magnesium, potassium, and sodium oxybates",
            "XYWAV",
        ),
        label("hydrochlorothiazide", "HYDROCHLOROTHIAZIDE"),
        label(
            "valsartan and hydrochlorothiazide",
            "Valsartan and Hydrochlorothiazide",
        ),
        label("valsartan", "Diovan"),
        label("porfimer sodium", "Photofrin"),
        label(
            "sodium chloride, potassium chloride and calcium chloride",
            "Plasma Mix",
        ),
        label("potassium chloride", "K-Tab"),
    ];
    let vocabulary = vocabulary_of(&labels);
    let drugs = Drugs::new(&vocabulary, &labels);
    let named = |word: &str, of: &[u32]| drugs.named(word, &of.iter().copied().collect());
    let drug = |labels: &[u32]| Some(Target::Drug(labels.to_vec()));
    assert_eq!(
        named("testosterone undecanoate", &[0]),
        drug(&[0]),
        "narrowed"
    );
    assert_eq!(named("optiray", &[1]), drug(&[1]), "a brand's first word");
    let both = named("photofrin porfimer", &[6]);
    assert_eq!(both, drug(&[6]), "a brand with its generic");
    assert_eq!(named("xywav", &[2]), drug(&[2]), "a combination's brand");
    assert_eq!(named("hctz", &[3]), drug(&[3]), "a curated abbreviation");
    assert_eq!(named("valsartan", &[4, 5]), drug(&[5]));
    let ingredients = named("valsartan hydrochlorothiazide", &[4]);
    assert_eq!(ingredients, drug(&[4]), "a combination by its ingredients");
    let salt = named("potassium chloride", &[7, 8]);
    assert_eq!(
        salt,
        drug(&[8]),
        "one ingredient of a mix is not the mix, its own label is"
    );
    assert_eq!(
        named("valsartan", &[4]),
        Some(Target::Ingredient("valsartan".into())),
        "a generic written as a brand names no product"
    );
}
