//! The distinct-text index answers as BM25 over every copy did: over real labels with word-for-word
//! copies (the donepezil repackagers and the pegfilgrastim biosimilars, plus repackager copies
//! of each made here under new set ids), lexical candidates, section candidates, candidates
//! within a drug's labels (also both from one query) and whole searches are compared between the generation as ingested
//! and the same generation without its distinct-text index (read as one written before it).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use drugcite_core::domain::{Question, SearchFilters, TopK};
use drugcite_engine::index::{LiveIndex, OpenOptions};
use drugcite_engine::ingest::IngestMode;
use drugcite_engine::search::lexical::{
    analyse, lexical_candidates, lexical_candidates_and_within, section_candidates, LexicalHit,
};
use drugcite_engine::search::Searcher;
use drugcite_store::DataDir;
use serde_json::Value;

use crate::duplicates::duplicate_inputs;
use crate::helpers::{ingest_lexical, scratch_dir, vocabulary, write_jsonl};

const TEXTS_DIR: &str = "tantivy-texts";
const REPACKAGED: usize = 4;
const QUESTIONS: [&str; 8] = [
    "donepezil dizziness and fainting",
    "Aricept slow heart rate",
    "pegfilgrastim splenic rupture",
    "Neulasta allergic reactions",
    "what is the dose for a child",
    "keep out of reach of children",
    "nausea vomiting diarrhea",
    "store in refrigerator do not freeze",
];

/// Each record of `inputs` again under `REPACKAGED` new set ids and labelers, word for word.
fn with_repackagers(dir: &Path, inputs: &[PathBuf]) -> Vec<PathBuf> {
    let mut copies = Vec::new();
    for input in inputs {
        for line in std::fs::read_to_string(input).unwrap().lines() {
            let record: Value = serde_json::from_str(line).unwrap();
            for n in 0..REPACKAGED {
                let mut copy = record.clone();
                let set_id = record["set_id"].as_str().unwrap();
                copy["set_id"] = Value::from(format!("{set_id}-repack-{n}"));
                copy["id"] = Value::from(format!("{}-repack-{n}", record["id"]));
                copy["openfda"]["manufacturer_name"] = Value::from(vec![format!("Repackager {n}")]);
                copies.push(copy.to_string());
            }
        }
    }
    let mut all = inputs.to_vec();
    all.push(write_jsonl(dir, "repackaged.jsonl", &copies));
    all
}

/// A second data dir holding the generation of `data_dir` without its distinct-text index,
/// its manifest's checksums no longer listing it.
fn without_distinct_texts(data_dir: &Path, to: &Path) {
    let current = std::fs::read_to_string(data_dir.join("CURRENT")).unwrap();
    let name = current.trim();
    let generation = to.join("indexes").join(name);
    copy_dir(&data_dir.join("indexes").join(name), &generation);
    std::fs::write(to.join("CURRENT"), &current).unwrap();
    std::fs::remove_dir_all(generation.join(TEXTS_DIR)).unwrap();
    let manifest_path = generation.join("manifest.json");
    let mut manifest: Value =
        serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    let files = manifest["checksums"]["files"].as_object_mut().unwrap();
    files.retain(|file, _| !file.starts_with(TEXTS_DIR));
    std::fs::write(&manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn open(data_dir: &Path) -> Arc<LiveIndex> {
    let options = OpenOptions {
        space: None,
        embedded_graph: false,
    };
    Arc::new(LiveIndex::open(DataDir::new(data_dir), options).unwrap())
}

/// Equal texts in equal order with the same best copy; scores equal but for the order in
/// which tantivy summed the clauses (a few units in the last place).
fn assert_same(question: &str, distinct: &[LexicalHit], every_copy: &[LexicalHit]) {
    let texts = |hits: &[LexicalHit]| hits.iter().map(|h| (h.text, h.best)).collect::<Vec<_>>();
    assert_eq!(texts(distinct), texts(every_copy), "{question}");
    for (a, b) in distinct.iter().zip(every_copy) {
        assert!(
            (a.score - b.score).abs() <= 1e-5 * b.score.abs(),
            "{question}: {a:?} {b:?}"
        );
    }
}

#[test]
fn the_distinct_text_index_answers_as_bm25_over_every_copy() {
    let dir = scratch_dir();
    let inputs = with_repackagers(dir.path(), &duplicate_inputs(dir.path()));
    let data_dir = dir.path().join("data");
    ingest_lexical(&data_dir, &inputs, IngestMode::Full, vocabulary());
    let before = dir.path().join("before");
    without_distinct_texts(&data_dir, &before);
    let (distinct, every_copy) = (open(&data_dir), open(&before));
    let (live, old) = (distinct.current(), every_copy.current());
    assert!(live.snapshot.generation().join(TEXTS_DIR).is_dir());
    let donepezil = live.vocabulary.understand("donepezil").drugs[0]
        .labels
        .clone();
    assert!(
        donepezil.len() > REPACKAGED,
        "the donepezil labels and their copies"
    );
    let (searcher, old_searcher) = (
        Searcher::new(Arc::clone(&distinct), None),
        Searcher::new(Arc::clone(&every_copy), None),
    );
    for question in QUESTIONS {
        let all = |l| lexical_candidates(l, question, 50, None).unwrap();
        assert!(!all(&live).is_empty(), "{question}");
        assert_same(question, &all(&live), &all(&old));
        let within = |l| lexical_candidates(l, question, 20, Some(&donepezil)).unwrap();
        assert_same(question, &within(&live), &within(&old));
        for l in [&live, &old] {
            let (both_all, both_within) =
                lexical_candidates_and_within(l, question, 50, (&donepezil, 20)).unwrap();
            assert_eq!(both_all, all(l), "one query, whole index: {question}");
            assert_eq!(both_within, within(l), "one query, within: {question}");
        }
        let terms = analyse(&live.snapshot, question);
        let section = |l| section_candidates(l, &terms, "adverse_reactions", 20).unwrap();
        assert_same(question, &section(&live), &section(&old));
        let search = |s: &Searcher| {
            let question = Question::parse(Some(question.into())).unwrap();
            let hits = s.search(
                &question,
                TopK::parse(Some(10)).unwrap(),
                &SearchFilters::default(),
            );
            let hits = hits.unwrap().hits;
            hits.iter()
                .map(|h| (h.segment.fingerprint, h.also_in.count))
                .collect::<Vec<_>>()
        };
        assert_eq!(search(&searcher), search(&old_searcher), "{question}");
    }
}

#[test]
fn an_update_over_a_generation_without_distinct_texts_asks_for_a_full_ingest() {
    let dir = scratch_dir();
    let inputs = duplicate_inputs(dir.path());
    let data_dir = dir.path().join("data");
    ingest_lexical(&data_dir, &inputs[..1], IngestMode::Full, vocabulary());
    let before = dir.path().join("before");
    without_distinct_texts(&data_dir, &before);
    let options = drugcite_engine::ingest::IngestOptions {
        progress: drugcite_store::progress::ProgressMode::Silent,
        mode: IngestMode::Update,
        embedder: None,
        vocabulary: vocabulary(),
    };
    let error = drugcite_engine::ingest::ingest(&DataDir::new(&before), &inputs[1..], &options)
        .expect_err("an update needs the distinct-text index of its base")
        .to_string();
    assert!(error.contains("full ingest"), "{error}");
}
