//! POST /v1/search reads questions as people type them: a drug without a label is named in
//! `metadata.unmatched_drugs`, a brand is known from the label text naming it beside its drug,
//! a misspelled drug still finds its label, a misspelled word is
//! read as the label word it stands for (`metadata.read_as`), and a question worded
//! with "avoid" or "not be used" reaches Contraindications without a cue word for it, a
//! medicine named only by the condition it treats finds the labels indicated for that condition
//! (given the way its noun says: a shot, a pill), a name read past its first word ("insulin
//! degludec") names only its own labels, a lay phrase the labels gloss reaches the
//! clinical word, and the subject's text in the asked section answers though its words differ.

use drugcite_engine::ingest::IngestMode;

use crate::helpers::{
    corpus_lines, ingest_lexical, results, scratch_dir, spawn_app, spawn_app_with, write_jsonl,
    TestApp, GENEROUS,
};

fn top(reply: &crate::helpers::Reply, n: usize) -> Vec<(String, String)> {
    results(reply)
        .iter()
        .take(n)
        .map(|r| {
            let drug = r["drug"]["name"].as_str().unwrap_or_default().to_owned();
            (drug, r["section"].as_str().unwrap_or_default().to_owned())
        })
        .collect()
}

#[tokio::test]
async fn a_drug_without_a_label_is_named_in_unmatched_drugs() {
    let app = spawn_app().await;
    let reply = app.search("warfarin and sertraline bleeding risk", 5).await;
    assert_eq!(
        reply.body["data"]["metadata"]["unmatched_drugs"],
        serde_json::json!(["warfarin"]),
        "warfarin has no label in the subset; sertraline has"
    );
    assert!(!results(&reply).is_empty(), "still answers from sertraline");
    let reply = app.search("Zoloft with lisinopril", 5).await;
    assert_eq!(
        reply.body["data"]["metadata"]["unmatched_drugs"],
        serde_json::json!(["lisinopril"]),
        "a name with a drug stem"
    );
    let reply = app.search("sertraline nausea", 5).await;
    assert_eq!(
        reply.body["data"]["metadata"]["unmatched_drugs"],
        serde_json::json!([])
    );
}

#[tokio::test]
async fn a_brand_the_label_text_names_beside_its_drug_is_known_by_that_drug() {
    let app = spawn_app().await;
    let reply = app.search("sertraline with orap", 5).await;
    assert_eq!(
        reply.body["data"]["metadata"]["unmatched_drugs"],
        serde_json::json!(["orap"]),
        "sertraline's medication guide says \"pimozide (Orap®)\"; pimozide has no label"
    );
    let names_pimozide = results(&reply).iter().take(3).any(|r| {
        let text = r["text"].as_str().unwrap_or_default().to_lowercase();
        r["drug"]["name"] == "sertraline hydrochloride" && text.contains("pimozide")
    });
    assert!(
        names_pimozide,
        "searched by the generic the labels use: {:?}",
        top(&reply, 3)
    );
}

#[tokio::test]
async fn a_misspelled_word_is_read_as_the_label_word_it_stands_for() {
    let app = spawn_app().await;
    let reply = app.search("setraline siezures", 3).await;
    assert_eq!(
        reply.body["data"]["metadata"]["read_as"],
        serde_json::json!([{"asked": "siezures", "read": "seizures"}]),
        "the drug name is read by the vocabulary, not listed"
    );
    let first = &results(&reply)[0];
    assert_eq!(first["drug"]["name"], "sertraline hydrochloride");
    let text = first["text"].as_str().unwrap_or_default().to_lowercase();
    assert!(text.contains("seizure"), "{text}");
    let reply = app.search("sertraline seizures", 3).await;
    assert_eq!(
        reply.body["data"]["metadata"]["read_as"],
        serde_json::json!([])
    );
}

#[tokio::test]
async fn a_misspelled_drug_still_finds_its_label() {
    let app = spawn_app().await;
    for question in ["temozolamide nausea", "setraline and nausea"] {
        let reply = app.search(question, 3).await;
        let wanted = if question.starts_with("temo") {
            "temozolomide"
        } else {
            "sertraline hydrochloride"
        };
        assert!(
            top(&reply, 3).iter().all(|(drug, _)| drug == wanted),
            "{question}: {:?}",
            top(&reply, 3)
        );
        assert_eq!(
            reply.body["data"]["metadata"]["unmatched_drugs"],
            serde_json::json!([])
        );
    }
}

#[tokio::test]
async fn avoid_and_not_be_used_reach_contraindications() {
    let app = spawn_app().await;
    for question in [
        "When should esmolol not be used?",
        "who must avoid temozolomide",
    ] {
        let reply = app.search(question, 3).await;
        let found = top(&reply, 3);
        assert!(
            found
                .iter()
                .any(|(_, section)| section == "Contraindications"),
            "{question}: {found:?}"
        );
    }
}

#[tokio::test]
async fn the_asked_section_of_the_subject_answers_though_its_words_differ() {
    let app = spawn_app().await;
    for question in ["apraclonidine overdose", "iopidine overdose"] {
        let reply = app.search(question, 3).await;
        let found = top(&reply, 1);
        assert_eq!(
            found,
            [(
                "apraclonidine hydrochloride ophthalmic solution".to_owned(),
                "Overdosage".to_owned()
            )],
            "{question}: its Overdosage says \"overdosage\", never \"overdose\""
        );
    }
}

/// Corpus records in the index of the next test: enough labels for Indications statistics.
const CONDITION_RECORDS: usize = 300;

/// A server over the first `CONDITION_RECORDS` corpus records, indexed in `dir`.
async fn app_over_corpus_start(dir: &tempfile::TempDir) -> TestApp {
    let inputs = [write_jsonl(
        dir.path(),
        "labels.jsonl",
        &corpus_lines(CONDITION_RECORDS),
    )];
    let data_dir = dir.path().join("data");
    ingest_lexical(&data_dir, &inputs, IngestMode::Full, &[]);
    spawn_app_with(&data_dir, GENEROUS).await
}

#[tokio::test]
async fn a_medicine_named_by_its_condition_finds_the_labels_indicated_for_it() {
    let dir = scratch_dir();
    let app = app_over_corpus_start(&dir).await;
    let reply = app
        .search("parkinson medicine that can cause hallucinations", 3)
        .await;
    let found = top(&reply, 3);
    assert!(
        found
            .first()
            .is_some_and(|(drug, _)| drug.contains("levodopa") || drug.contains("selegiline")),
        "first from a label indicated for Parkinson's disease: {found:?}"
    );
}

#[tokio::test]
async fn a_shot_is_injected_and_a_gloss_reaches_the_clinical_word() {
    let dir = scratch_dir();
    let app = app_over_corpus_start(&dir).await;
    let first_drug = |reply: &crate::helpers::Reply| {
        top(reply, 1)
            .first()
            .map(|(drug, _)| drug.clone())
            .unwrap_or_default()
    };
    let shot = app
        .search("migraine shot that can cause constipation", 3)
        .await;
    assert!(
        first_drug(&shot).starts_with("galcanezumab"),
        "the subset's one migraine medicine given by injection: {:?}",
        top(&shot, 3)
    );
    let pill = app
        .search("migraine pill that can cause dizziness", 3)
        .await;
    assert!(
        first_drug(&pill).starts_with("rizatriptan"),
        "the subset's one migraine medicine taken by mouth: {:?}",
        top(&pill, 3)
    );
    let gloss = app.search("bicalutamide breast enlargement", 3).await;
    assert!(
        results(&gloss).iter().any(|r| r["text"]
            .as_str()
            .is_some_and(|t| t.to_lowercase().contains("gynecomastia"))),
        "the labels' own gloss 'breast enlargement (gynecomastia)': {:?}",
        top(&gloss, 3)
    );
}

#[tokio::test]
async fn a_name_s_later_word_narrows_its_first_word() {
    let dir = scratch_dir();
    let app = app_over_corpus_start(&dir).await;
    let reply = app.search("insulin degludec hypoglycemia", 5).await;
    assert_eq!(
        reply.body["data"]["metadata"]["unmatched_drugs"],
        serde_json::json!([]),
        "degludec is the later word of an indexed name"
    );
    let found = top(&reply, 5);
    assert!(
        !found.is_empty() && found.iter().all(|(drug, _)| drug.contains("degludec")),
        "insulin degludec's label, not insulin human's (the label carrying the Insulin class): {found:?}"
    );
}
