use super::*;
use crate::conditions::lexicon::parse_curated;
use crate::conditions::VocabularyTerm;

fn matcher() -> Matcher {
    let vocabulary = vec![
        VocabularyTerm {
            id: "SYMP:0000099".into(),
            name: "nausea".into(),
            synonyms: vec![],
        },
        VocabularyTerm {
            id: "DOID:10283".into(),
            name: "prostate cancer".into(),
            synonyms: vec![],
        },
        VocabularyTerm {
            id: "DOID:2377".into(),
            name: "multiple sclerosis".into(),
            synonyms: vec!["MS".into()],
        },
    ];
    let curated = parse_curated(
        "alt increased\tannotated\t3\t3\t0\t0\n\
         chest pain\tannotated\t3\t3\t0\t0\nabdominal pain\tannotated\t3\t3\t0\t0\n\
         back pain\tannotated\t3\t3\t0\t0\npain\tannotated\t3\t3\t0\t0\n\
         infection\tannotated\t9\t1\t0\t0\n",
    );
    Matcher::new(Lexicon::build(&vocabulary, &curated))
}

fn found(text: &str, purpose: Purpose) -> Vec<String> {
    matcher()
        .find(text, purpose)
        .into_iter()
        .map(|m| text[m.span].to_owned())
        .collect()
}

const ADVERSE: Purpose = Purpose::AdverseReactions(SectionGroup::AdverseReactions);

#[test]
fn the_longest_term_wins_and_plurals_match() {
    assert_eq!(
        found("Chest pains and nausea.", ADVERSE),
        ["Chest pains", "nausea"]
    );
}

#[test]
fn laboratory_findings_are_read_in_every_order() {
    assert_eq!(
        found(
            "elevated ALT, ALT increased, increases in serum ALT",
            ADVERSE
        ),
        ["elevated ALT", "ALT increased", "increases in serum ALT"]
    );
}

#[test]
fn curated_analytes_make_findings_without_annotated_examples() {
    assert_eq!(
        found(
            "Hemoglobin low, platelet count decreased, weight: 70 kg",
            ADVERSE
        ),
        ["Hemoglobin low", "platelet count decreased"]
    );
}

#[test]
fn site_reactions_and_named_places_extend_a_head_word() {
    assert_eq!(
        found("injection site pain; oropharyngeal pain", ADVERSE),
        ["injection site pain", "oropharyngeal pain"]
    );
}

#[test]
fn headings_populations_and_rarely_annotated_terms_are_skipped() {
    let text = "Infections and infestations: nausea. In patients with prostate cancer, infection";
    assert_eq!(found(text, ADVERSE), ["nausea"]);
    assert_eq!(
        found(text, Purpose::Conditions),
        ["nausea", "prostate cancer", "infection"]
    );
}

#[test]
fn abbreviations_match_only_in_capitals_and_unknown_findings_by_their_ending() {
    assert_eq!(found("MS relapse; ms ", Purpose::Conditions), ["MS"]);
    assert_eq!(found("hypernatremia", ADVERSE), ["hypernatremia"]);
    assert!(found("hypernatremia", Purpose::Conditions).is_empty());
}
