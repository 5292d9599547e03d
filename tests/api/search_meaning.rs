//! A medicine named by a condition in lay words whose Indications text shares no word with it
//! ("overactive thyroid" for hyperthyroidism) is found by the opening vectors ingest stores
//! for Indications texts and for patient sections' answers to "What is (drug)?" ("eczema"),
//! beside the labels BM25 finds; a medicine named by what it is for
//! ("drug for …", "what treats …", "drugs for …", "treatment options for …") is answered from
//! the Indications of the labels for it; a condition no Indications text words as the question
//! does is found by the labels' wording.
//! The section a question means is looked for among the sections the subject's label has, and
//! measured with the committed section prototypes, learned with the installed model.

use std::sync::Arc;

use drugcite_engine::index::{Live, LiveIndex, OpenOptions};
use drugcite_engine::search::indicated::{with_indicated_subject, EmbedPhrase};
use drugcite_engine::search::section_space::SectionSpace;
use drugcite_engine::understand::Understanding;
use drugcite_store::DataDir;

use crate::helpers::{
    embedded_index_of, embedder, open_embedded, results, spawn_app_with, Reply, GENEROUS,
};

/// The lowercase names of the labels of every drug mention `understood` holds, in order.
fn drug_names(live: &Live, understood: &Understanding) -> Vec<String> {
    let labels = understood.drugs.iter().flat_map(|d| d.labels.iter());
    labels
        .map(|&l| live.snapshot.labels()[l as usize].drug.name.to_lowercase())
        .collect()
}

#[tokio::test]
async fn a_medicine_named_by_what_it_is_for_answers_from_the_indications_for_it() {
    let dir = embedded_index_of(&[
        "macitentan",
        "amlodipine besylate",
        "nitric oxide",
        "carfilzomib",
    ]);
    let app = spawn_app_with(&dir.path().join("data"), GENEROUS).await;
    for question in [
        "drug for pulmonary arterial hypertension",
        "what treats pulmonary arterial hypertension",
    ] {
        let reply = app.search(question, 5).await;
        let first = &results(&reply)[0];
        assert_eq!(
            (first["drug"]["name"].as_str(), first["section"].as_str()),
            (Some("macitentan"), Some("Indications and Usage")),
            "{question}: {first}"
        );
    }
}

#[tokio::test]
async fn drugs_asked_for_by_what_they_are_for_answer_from_the_indications_for_it() {
    let dir = embedded_index_of(&[
        "sodium zirconium cyclosilicate",
        "eplerenone",
        "candesartan cilexetil",
        "potassium citrate",
    ]);
    let app = spawn_app_with(&dir.path().join("data"), GENEROUS).await;
    let first = |reply: &Reply| {
        let first = &results(reply)[0];
        let place = (first["drug"]["name"].as_str(), first["section"].as_str());
        (place.0.map(str::to_owned), place.1.map(str::to_owned))
    };
    let treating = (
        Some("sodium zirconium cyclosilicate".to_owned()),
        Some("Indications and Usage".to_owned()),
    );
    for question in [
        "drugs for hyperkalemia",
        "treatment options for hyperkalemia",
    ] {
        let reply = app.search(question, 5).await;
        assert_eq!(first(&reply), treating, "{question}: {}", reply.body);
    }
    let reply = app.search("drugs that cause hyperkalemia", 5).await;
    assert_ne!(
        first(&reply),
        treating,
        "drugs that cause a condition are not those indicated for it: {}",
        reply.body
    );
}

#[tokio::test]
async fn a_label_without_the_asked_section_answers_in_its_nearest_own_section() {
    let dir = embedded_index_of(&[
        "benazepril hydrochloride",
        "chlorambucil",
        "ioflupane i-123",
        "tiagabine hydrochloride",
    ]);
    let app = spawn_app_with(&dir.path().join("data"), GENEROUS).await;
    let reply = app
        .search("just found out I am pregnant and I take benazepril", 3)
        .await;
    let first = &results(&reply)[0];
    assert_eq!(
        first["drug"]["name"].as_str(),
        Some("benazepril hydrochloride"),
        "benazepril has no Pregnancy section of its own, the others' Pregnancy texts are no \
         answer: {first}"
    );
}

#[test]
fn a_condition_the_labels_word_otherwise_is_found_by_their_wording() {
    let dir = embedded_index_of(&["tadalafil", "amlodipine besylate"]);
    let options = OpenOptions {
        space: None,
        embedded_graph: false,
    };
    let index = LiveIndex::open(DataDir::new(dir.path().join("data")), options).unwrap();
    let live = index.current();
    let understanding = live.vocabulary.understand("erection pill and headache");
    let understood = with_indicated_subject(&live, understanding, None).unwrap();
    let subject = drug_names(&live, &understood);
    assert_eq!(
        subject,
        ["tadalafil"],
        "no Indications text says 'erection'; the gloss 'erectile' finds tadalafil's"
    );
}

#[test]
fn a_condition_in_lay_words_finds_the_label_indicated_for_it_by_meaning() {
    let dir = embedded_index_of(&[
        "propylthiouracil",
        "liothyronine sodium",
        "atorvastatin calcium",
    ]);
    let data_dir = dir.path().join("data");
    let embedder = embedder();
    let live = open_embedded(&data_dir).current();
    let subject = |with_meaning: bool| {
        let understanding = live
            .vocabulary
            .understand("overactive thyroid pill side effects");
        let embed = |phrase: &str| Ok(Arc::new(embedder.embed(&[phrase])?.remove(0)));
        let meaning: Option<&EmbedPhrase<'_>> = with_meaning.then_some(&embed);
        let understood = with_indicated_subject(&live, understanding, meaning).unwrap();
        drug_names(&live, &understood)
    };
    let by_words = subject(false);
    assert!(
        !by_words.iter().any(|n| n == "propylthiouracil"),
        "BM25 alone finds no word of the condition in its Indications: {by_words:?}"
    );
    let with_meaning = subject(true);
    assert!(
        with_meaning.iter().any(|n| n == "propylthiouracil"),
        "{with_meaning:?}"
    );
    assert!(
        !with_meaning.iter().any(|n| n == "atorvastatin calcium"),
        "{with_meaning:?}"
    );
}

#[test]
fn a_patient_sections_answer_to_what_the_drug_is_matches_everyday_words() {
    let dir = embedded_index_of(&[
        "crisaborole",
        "fluocinolone acetonide, hydroquinone, and tretinoin",
        "atorvastatin calcium",
    ]);
    let embedder = embedder();
    let live = open_embedded(&dir.path().join("data")).current();
    let openings = live.openings.as_ref().expect("opening vectors were stored");
    let eczema = embedder.embed(&["eczema"]).unwrap().remove(0);
    let crisaborole_by_section = |section: &str| {
        let nearest = openings.nearest(&eczema, 50);
        nearest.into_iter().find_map(|(text, similarity)| {
            let (_, info) = live.copies.of(text, &live.catalog).next()?;
            let name = &live.snapshot.labels()[info.label as usize].drug.name;
            (name == "crisaborole" && &*info.section_key == section).then_some(similarity)
        })
    };
    let answer = crisaborole_by_section("spl_patient_package_insert");
    let indications = crisaborole_by_section("indications_and_usage");
    assert!(
        answer.unwrap() > indications.unwrap(),
        "its Patient Information says it treats eczema, its Indications atopic dermatitis: \
         {answer:?} vs {indications:?}"
    );
}

/// A prototypes file learned with another model would silently leave section meaning to the
/// descriptions alone; the committed one must measure the installed model's questions.
#[test]
fn the_committed_section_prototypes_were_learned_with_the_installed_model() {
    let space = SectionSpace::embed(&embedder()).expect("section descriptions embedded");
    assert!(
        space.has_prototypes(),
        "refit them: crates/lab/scripts/fit-section-prototypes.py (docs/lab.md)"
    );
}
