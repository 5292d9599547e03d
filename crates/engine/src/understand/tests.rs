//! Unit tests of the question understanding, over a small vocabulary also used by `intent.rs`.
use super::*;

pub(super) fn vocabulary() -> DrugVocabulary {
    let names: Vec<Vec<String>> = vec![
        vec!["sertraline hydrochloride".into(), "zoloft".into()],
        vec!["pimozide".into()],
        vec!["atorvastatin calcium".into(), "lipitor".into()],
        vec!["carbidopa and levodopa".into()],
        vec!["lactic acid, l-, and citric acid".into()],
        vec!["rosuvastatin calcium".into()],
        vec!["insulin aspart".into()],
        vec!["sodium ferric gluconate complex".into(), "ferrlecit".into()],
        vec!["omeprazole magnesium, amoxicillin and rifabutin".into()],
    ];
    vocabulary_of(&names)
}

/// A vocabulary of labels with these names (the generic first), in order.
fn vocabulary_of(names: &[Vec<String>]) -> DrugVocabulary {
    let unclassed: Vec<(Vec<String>, Vec<String>)> =
        names.iter().map(|n| (n.clone(), Vec::new())).collect();
    vocabulary_with_classes(&unclassed)
}

/// A vocabulary of labels with these names (the generic first) and FDA classes, in order.
pub(super) fn vocabulary_with_classes(labels: &[(Vec<String>, Vec<String>)]) -> DrugVocabulary {
    DrugVocabulary::build(labels.iter().enumerate().map(|(i, (n, c))| LabelNames {
        label: i as u32,
        generic: &n[0],
        names: n.as_slice(),
        brands: &[],
        classes: c.as_slice(),
        routes: &[],
    }))
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
fn curated_brands_reach_generic_labels_and_classes_their_members() {
    let v = vocabulary();
    let labels = |q: &str| -> Vec<BTreeSet<u32>> {
        v.understand(q)
            .drugs
            .into_iter()
            .map(|d| d.labels)
            .collect()
    };
    assert_eq!(labels("Crestor and muscle pain"), [BTreeSet::from([5])]);
    assert_eq!(
        labels("cholesterol medicine and muscle breakdown"),
        [BTreeSet::from([2, 5])]
    );
    assert_eq!(
        labels("do statins interact with Zoloft?"),
        [BTreeSet::from([2, 5]), BTreeSet::from([0])],
        "in question order: the class named first, then the brand's generic"
    );
    assert_eq!(labels("SSRIs and bleeding"), [BTreeSet::from([0])]);
    assert!(
        labels("beta blockers and asthma").is_empty(),
        "no member indexed"
    );
}

#[test]
fn a_name_word_only_seen_before_a_head_noun_needs_it() {
    let v = vocabulary();
    assert!(v.understand("lactic acidosis risk").drugs.is_empty());
    assert_eq!(
        v.understand("lactic acid burns").drugs[0].labels,
        BTreeSet::from([4])
    );
    assert_eq!(v.understand("citric acid").drugs.len(), 1);
    assert_eq!(
        v.understand("insulin and hypoglycemia").drugs[0].labels,
        BTreeSet::from([6]),
        "only head nouns like 'acid' make a name word an adjective"
    );
}

#[test]
fn a_misspelled_name_finds_its_labels_and_searches_as_spelled_right() {
    let v = vocabulary();
    let u = v.understand("setraline and pimozide");
    assert_eq!(u.drugs[0].labels, BTreeSet::from([0]));
    assert!(u.keywords.starts_with("sertraline "), "{}", u.keywords);
    assert!(u.unlabelled_drugs.is_empty());
}

#[test]
fn drugs_without_a_label_are_named_in_question_order() {
    let v = vocabulary();
    let u = v.understand("Coumadin, lisinopril and sertraline bleeding");
    assert_eq!(u.unlabelled_drugs, ["coumadin", "lisinopril"]);
    assert_eq!(u.drugs.len(), 1, "sertraline is indexed");
    assert!(v.understand("muscle pain").unlabelled_drugs.is_empty());
}

#[test]
fn a_question_asking_which_drugs_has_no_subject() {
    let v = vocabulary();
    assert!(
        v.understand("drugs contraindicated with pimozide")
            .subject_open
    );
    assert!(
        v.understand("which drug interacts with pimozide")
            .subject_open
    );
    assert!(!v.understand("drug interactions of pimozide").subject_open);
    assert!(
        !v.understand("pimozide and other drugs").subject_open,
        "named first"
    );
}

#[test]
fn the_label_wording_of_a_class_subject_s_own_phrase_is_not_searched() {
    let v = vocabulary_of(&[vec!["amlodipine besylate".into()]]);
    let u = v.understand("blood pressure pill dry cough");
    assert_eq!(u.drugs[0].labels, BTreeSet::from([0]));
    assert_eq!(
        (u.keywords.as_str(), u.subject_keywords.as_str()),
        ("dry cough", "dry cough"),
        "'blood pressure' is glossed 'antihypertensives', which every label of the class says"
    );
    assert!(v
        .understand("amlodipine and high blood pressure")
        .keywords
        .contains("hypertension"));
}

#[test]
fn lay_phrases_match_on_stems_and_add_the_label_wording() {
    let v = vocabulary();
    assert!(v
        .understand("can sertraline make my ankles swell")
        .keywords
        .contains("edema"));
    assert!(v
        .understand("sertraline and ringing in the ears")
        .keywords
        .contains("tinnitus"));
    assert!(v
        .understand("sertraline breast enlargement")
        .keywords
        .contains("gynecomastia"));
    assert!(v
        .understand("sertraline pins and needles in my fingers")
        .keywords
        .contains("paresthesia"));
    assert!(!v.understand("sertraline dosing").keywords.contains("edema"));
    assert!(
        v.understand("can I drink beer while taking sertraline")
            .keywords
            .contains("alcohol"),
        "a drink is named for the alcohol labels warn of"
    );
}

#[test]
fn the_subject_query_drops_the_subjects_names_unless_a_partner_is_named() {
    let v = vocabulary();
    let u = v.understand("sertralin breast enlargement in men");
    assert!(u.keywords.starts_with("sertraline "), "{}", u.keywords);
    assert!(
        u.subject_keywords.starts_with("breast enlargement in men")
            && u.subject_keywords.contains("gynecomastia"),
        "{}",
        u.subject_keywords
    );
    let combination = v.understand("carbidopa levodopa nausea");
    assert_eq!(
        combination.subject_keywords, "nausea",
        "its own ingredients too"
    );
    let partner = v.understand("Zoloft with pimozide");
    assert_eq!(partner.subject_keywords, partner.keywords);
    let class = v.understand("cholesterol medicine and muscle breakdown");
    assert_eq!(class.subject_keywords, class.keywords);
}

#[test]
fn only_words_a_name_begins_with_are_read_through_misspellings() {
    let names = vec!["ozanimod".to_owned(), "zeposia starter kit".to_owned()];
    let v = DrugVocabulary::build([LabelNames {
        label: 0,
        generic: "ozanimod",
        names: &names,
        brands: &[],
        classes: &[],
        routes: &[],
    }]);
    let started = v.understand("heart rhythm medicine that has to be started in the hospital");
    assert!(started.drugs.is_empty(), "{:?}", started.drugs);
    assert_eq!(v.understand("ozanimd and heart rate").drugs.len(), 1);
    assert_eq!(v.understand("zeposa and heart rate").drugs.len(), 1);
}

#[test]
fn a_salt_word_is_never_read_as_a_misspelled_name() {
    let v = vocabulary_of(&[vec!["sodium phosphates".to_owned()]]);
    assert_eq!(v.understand("phosphates enema").drugs.len(), 1);
    let low = v.understand("low phosphate after iron infusion");
    assert!(low.drugs.is_empty(), "{:?}", low.drugs);
    assert_eq!(low.topic, "low phosphate after iron infusion");
}

#[test]
fn a_word_the_labels_use_often_is_never_read_as_a_misspelled_name() {
    let v = vocabulary_of(&[vec!["chromic chloride".to_owned()]]);
    assert_eq!(
        v.understand("chronic kidney disease anemia").drugs.len(),
        1,
        "without the labels' words, one edit from chromic reads as it"
    );
    let label_words = [("chronic".to_owned(), 900), ("chromic".to_owned(), 40)];
    let v = v.with_label_words(LabelWords::new(label_words));
    let u = v.understand("chronic kidney disease anemia");
    assert!(u.drugs.is_empty(), "{:?}", u.drugs);
    assert_eq!(
        v.understand("chromc chloride dose").drugs.len(),
        1,
        "a misspelling no label uses is still read as the name"
    );
    let v = vocabulary_of(&[vec!["zonisamide".to_owned()]])
        .with_label_words(LabelWords::new([("zonisamide".to_owned(), 300)]));
    assert_eq!(
        v.understand("zonisamid kidney stones").drugs.len(),
        1,
        "a misspelling that stems as the name does is still one"
    );
}

#[test]
fn a_curated_brand_beside_another_drug_is_searched_by_its_generic() {
    let v = vocabulary();
    let u = v.understand("Crestor and pimozide");
    assert_eq!(
        u.drugs[0].word, "crestor",
        "the question's word, for the graph"
    );
    assert!(u.keywords.contains("rosuvastatin"), "{u:?}");
    assert!(!u.keywords.contains("crestor"), "no label's text says it");
    let alone = v.understand("Crestor and muscle pain");
    assert!(alone.keywords.contains("crestor"), "{alone:?}");
    let own = v.understand("Lipitor and pimozide");
    assert!(
        own.keywords.contains("lipitor"),
        "a brand a label carries stays"
    );
}

#[test]
fn a_mixture_is_named_by_its_brand_not_by_one_of_its_ingredients() {
    let kit = "plantago major - pork kidney - sus scrofa urinary bladder - quinhydrone - \
               sarsaparilla - succinic acid - methylene blue";
    let kit_names = vec![
        kit.to_owned(),
        "guna-kidney".to_owned(),
        "sus scrofa urinary bladder".to_owned(),
    ];
    let kit_brands = vec!["GUNA-KIDNEY".to_owned()];
    let iron = vec!["iron sucrose".to_owned(), "venofer".to_owned()];
    let v = DrugVocabulary::build([
        LabelNames {
            label: 0,
            generic: kit,
            names: &kit_names,
            brands: &kit_brands,
            classes: &[],
            routes: &[],
        },
        LabelNames {
            label: 1,
            generic: "iron sucrose",
            names: &iron,
            brands: &[],
            classes: &[],
            routes: &[],
        },
    ]);
    for question in ["bladder pill confusion", "dose for kidney disease"] {
        assert!(v.understand(question).drugs.is_empty(), "{question}");
    }
    assert_eq!(v.understand("guna-kidney dose").drugs.len(), 1);
    assert_eq!(
        v.understand("levothyroxine with iron").drugs[0].labels,
        BTreeSet::from([1]),
        "a single-ingredient generic keeps its words"
    );
}

#[test]
fn a_cue_word_heading_other_sections_leaves_the_subject_query() {
    let v = vocabulary();
    let used = v.understand("what is sertraline used for");
    assert_eq!(used.sections, ["indications_and_usage"]);
    assert!(!used.subject_keywords.contains("used"), "{used:?}");
    assert!(
        used.keywords.contains("used"),
        "the whole-index query keeps it"
    );
    let pregnancy = v.understand("sertraline safe in pregnancy");
    assert!(
        pregnancy.subject_keywords.contains("pregnancy"),
        "the asked section's own heading word stays: {pregnancy:?}"
    );
    let boxed = v.understand("sertraline boxed warning");
    assert!(boxed.subject_keywords.contains("warning"), "{boxed:?}");
}

#[test]
fn a_word_no_name_begins_with_names_no_drug_alone() {
    let names = vec![
        "mannitol".to_owned(),
        "aridol bronchial challenge test kit".to_owned(),
    ];
    let v = DrugVocabulary::build([LabelNames {
        label: 0,
        generic: "mannitol",
        names: &names,
        brands: &[],
        classes: &[],
        routes: &[],
    }]);
    assert!(v
        .understand("arthritis injection need tb test first")
        .drugs
        .is_empty());
    assert_eq!(v.understand("aridol asthma").drugs.len(), 1);
    assert_eq!(v.understand("mannitol kidney").drugs.len(), 1);
}

#[test]
fn a_salt_word_before_the_name_does_not_begin_it() {
    let names = vec!["sodium zirconium cyclosilicate".to_owned()];
    let v = DrugVocabulary::build([LabelNames {
        label: 0,
        generic: "sodium zirconium cyclosilicate",
        names: &names,
        brands: &[],
        classes: &[],
        routes: &[],
    }]);
    let understood = v.understand("how far apart from my other pills should I take zirconium");
    assert_eq!(understood.drugs.len(), 1);
    assert_eq!(
        understood.sections[0], "drug_interactions",
        "other pills name a second medicine"
    );
}

#[test]
fn the_forms_a_question_names_give_routes_that_tell_labels_given_otherwise() {
    let names = vec!["smoflipid".to_owned(), "fish oil".to_owned()];
    let intravenous = vec!["INTRAVENOUS".to_owned()];
    let oral = vec!["ORAL".to_owned()];
    let label = |label, generic, names, routes| LabelNames {
        label,
        generic,
        names,
        brands: &[],
        classes: &[],
        routes,
    };
    let v = DrugVocabulary::build([
        label(0, "smoflipid", &names, &intravenous),
        label(1, "icosapent ethyl", &[], &oral),
        label(2, "unrouted", &[], &[]),
    ]);
    let pills = v.understand("can fish oil pills cause afib").form_routes;
    assert_eq!(pills, BTreeSet::from(["oral".to_owned()]));
    assert!(v.given_otherwise(0, &pills), "an infusion is no pill");
    assert!(!v.given_otherwise(1, &pills));
    assert!(!v.given_otherwise(2, &pills), "a label that says no route");
    let none = v.understand("fish oil allergy").form_routes;
    assert!(none.is_empty(), "no form named: {none:?}");
    assert!(!v.given_otherwise(0, &none));
    let drops = v.understand("eye drops that sting").form_routes;
    assert!(drops.contains("ophthalmic"), "{drops:?}");
    assert!(v
        .understand("cholesterol medicine and muscle pain")
        .form_routes
        .is_empty());
}

#[test]
fn words_no_label_uses_are_read_as_label_words_but_names_stay_the_vocabularys() {
    let label_words =
        ["seizures", "contraindicated", "warfarin", "sertraline"].map(|w| (w.to_owned(), 40));
    let v = vocabulary().with_label_words(LabelWords::new(label_words));
    let u = v.understand("setraline siezures, contrandicated with lisinopril or warfarn?");
    assert_eq!(u.drugs[0].word, "sertraline", "the drug name's own reading");
    assert_eq!(
        u.read_as,
        [
            ReadAs {
                asked: "siezures".into(),
                read: "seizures".into()
            },
            ReadAs {
                asked: "contrandicated".into(),
                read: "contraindicated".into()
            },
            ReadAs {
                asked: "warfarn".into(),
                read: "warfarin".into()
            }
        ]
    );
    assert!(u.keywords.contains("seizures"), "{}", u.keywords);
    assert_eq!(u.sections[0], "contraindications", "the cue read through");
    assert!(
        u.unlabelled_drugs.contains(&"lisinopril".to_owned()),
        "a name shaped like a drug is not read as another word"
    );
}

#[test]
fn ingredients_named_back_to_back_name_their_combination() {
    let v = vocabulary_of(&[
        vec!["lamivudine".into()],
        vec!["lamivudine and zidovudine".into()],
        vec!["abacavir, lamivudine and dolutegravir".into()],
        vec!["zidovudine".into()],
        vec!["sertraline hydrochloride".into()],
    ]);
    for combination in [
        "lamivudine/zidovudine renal dosing",
        "lamivudine zidovudine renal dosing",
    ] {
        let u = v.understand(combination);
        assert_eq!(u.drugs.len(), 1, "{combination}: {u:?}");
        assert_eq!(u.drugs[0].labels, BTreeSet::from([1]), "{combination}");
    }
    let pair = v.understand("lamivudine sertraline");
    assert_eq!(pair.drugs.len(), 2, "no label holds both: a pair");
    let apart = v.understand("lamivudine with zidovudine");
    assert_eq!(apart.drugs[0].labels, BTreeSet::from([0, 1, 2]));
}

#[test]
fn a_drug_named_by_its_generic_then_its_brand_is_one_mention_under_the_generic() {
    let v = vocabulary();
    for question in [
        "Can I take sertraline (Zoloft) with glaucoma?",
        "sertraline zoloft and pimozide",
    ] {
        let u = v.understand(question);
        assert_eq!(u.drugs[0].word, "sertraline", "{question}: {u:?}");
        assert_eq!(u.drugs[0].labels, BTreeSet::from([0]), "{question}");
    }
    let brand_first = v.understand("Zoloft (sertraline) with pimozide");
    assert_eq!(brand_first.drugs.len(), 2, "{brand_first:?}");
    assert_eq!(brand_first.drugs[0].labels, BTreeSet::from([0]));
}

#[test]
fn a_drug_abbreviation_names_its_drug_or_is_reported_without_a_label() {
    let v = vocabulary_of(&[vec!["propylthiouracil".into()], vec!["sertraline".into()]]);
    let ptu = v.understand("PTU black box liver failure");
    assert_eq!(ptu.drugs[0].labels, BTreeSet::from([0]), "{ptu:?}");
    let asa = v.understand("sertraline with asa");
    assert_eq!(asa.unlabelled_drugs, ["asa"], "aspirin has no label here");
}

#[test]
fn a_brand_naming_its_generic_after_other_words_names_the_drug_by_the_generic_only() {
    let names = [
        vec![
            "levocetirizine dihydrochloride".to_owned(),
            "good sense levocetirizine".to_owned(),
        ],
        vec!["ibuprofen".to_owned(), "advil".to_owned()],
    ];
    let brands = [vec![names[0][1].clone()], vec![names[1][1].clone()]];
    let v = DrugVocabulary::build(names.iter().zip(&brands).enumerate().map(|(i, (n, b))| {
        LabelNames {
            label: i as u32,
            generic: &n[0],
            names: n.as_slice(),
            brands: b.as_slice(),
            classes: &[],
            routes: &[],
        }
    }));
    let words =
        |q: &str| -> Vec<String> { v.understand(q).drugs.into_iter().map(|d| d.word).collect() };
    assert_eq!(words("is it good to take advil with food"), ["advil"]);
    assert_eq!(words("levocetirizine and alcohol"), ["levocetirizine"]);
}

#[test]
fn peripheral_sections_are_keys_of_the_label_schema() {
    assert!(PERIPHERAL_SECTIONS.contains(&"spl_medguide"));
    assert!(!PERIPHERAL_SECTIONS.contains(&"adverse_reactions"));
}

#[test]
fn acronyms_in_capitals_name_the_class_their_long_form_names() {
    let v = vocabulary_with_classes(&[
        (
            vec!["lisinopril".into()],
            vec!["Angiotensin Converting Enzyme Inhibitor [EPC]".into()],
        ),
        (
            vec!["omeprazole".into()],
            vec!["Proton Pump Inhibitor [EPC]".into()],
        ),
    ]);
    let class_labels = |question: &str| -> Vec<u32> {
        let u = v.understand(question);
        let classes = u.drugs.iter().filter(|d| d.class.is_some());
        classes.flat_map(|d| d.labels.iter().copied()).collect()
    };
    assert_eq!(class_labels("ACEi in pregnancy?"), [0]);
    assert_eq!(class_labels("long-term PPIs and fractures"), [1]);
    assert!(
        class_labels("acei in pregnancy").is_empty(),
        "not in capitals"
    );
    let read_as = v.understand("ACEi in pregnancy?").read_as;
    assert_eq!(read_as[0].asked, "ACEi");
    let (enzyme, read_as) = v.respelled("strong CYP3A4 inhibitors and HIV");
    assert_eq!(
        (enzyme.as_str(), read_as.len()),
        ("strong cyp3a4 inhibitors and hiv", 0),
        "acronyms the labels write by themselves stay as written"
    );
}

#[test]
fn a_name_made_of_salt_words_is_named_by_the_whole_phrase() {
    let v = vocabulary_of(&[
        vec!["potassium citrate".into()],
        vec!["potassium chloride".into()],
        vec!["losartan potassium".into()],
    ]);
    let labels = |question: &str| -> Vec<Vec<u32>> {
        let u = v.understand(question);
        u.drugs
            .iter()
            .map(|d| d.labels.iter().copied().collect())
            .collect()
    };
    assert_eq!(
        labels("Is potassium citrate contraindicated in ulcers?"),
        [vec![0]]
    );
    assert_eq!(
        labels("potassium chloride with losartan"),
        [vec![1], vec![2]]
    );
    assert!(
        labels("high potassium levels").is_empty(),
        "a salt word alone names nothing"
    );
}

#[test]
fn a_metal_s_symbol_before_its_salt_names_the_salt_but_not_after_a_number() {
    let v = vocabulary_of(&[
        vec!["potassium citrate".into()],
        vec!["magnesium citrate".into()],
    ]);
    let named = |q: &str| -> Vec<String> {
        v.understand(q)
            .drugs
            .iter()
            .map(|d| d.word.clone())
            .collect()
    };
    assert_eq!(named("K citrate ER w/ K 5.8?"), ["potassium citrate"]);
    assert_eq!(
        named("Mg citrate before a colonoscopy"),
        ["magnesium citrate"]
    );
    assert!(named("take 40 mg citrate").is_empty());
}

#[test]
fn clinicians_shorthand_of_a_combination_is_read_in_a_question() {
    let v = vocabulary_of(&[
        vec!["piperacillin and tazobactam".into()],
        vec!["ceftriaxone".into()],
    ]);
    let u = v.understand("pip-tazo in pt w/ hx of anaphylaxis to ceftriaxone?");
    let named: Vec<&str> = u.drugs.iter().map(|d| d.word.as_str()).collect();
    assert_eq!(named, ["piperacillin tazobactam", "ceftriaxone"]);
}
