//! An effect a question names in lay words is read as the labels' own name for it: ingest with
//! a model embeds the names of the effects the graph build finds (`effects.bin`), and search
//! compares the question with those its subject's texts name ("dying from heart problems" →
//! "cardiovascular death"), the same labels always giving the same file.

use drugcite_engine::index::effects::EFFECTS_FILE;
use drugcite_store::DataDir;

use crate::helpers::{
    embedded_index_of, embedder, ingest_embedded, open_embedded, results, spawn_app_with, GENEROUS,
};

#[tokio::test]
async fn an_effect_in_lay_words_is_found_as_the_labels_name_for_it() {
    let dir = embedded_index_of(&["febuxostat", "allopurinol"]);
    let data_dir = dir.path().join("data");
    let embedder = embedder();
    let live = open_embedded(&data_dir).current();
    let effects = live
        .effects
        .as_ref()
        .expect("ingest with a model embeds effect names");
    let texts: Vec<_> = live
        .catalog
        .iter()
        .map(|(_, info)| info.text_hash)
        .collect();
    let vector = embedder
        .embed(&["raises the risk of dying from heart problems"])
        .unwrap()
        .remove(0);
    let named = effects
        .nearest(texts, &vector, &|_| false)
        .expect("an effect");
    assert!(
        named.names.iter().any(|n| n == "cardiovascular death"),
        "{named:?}"
    );
    let febuxostat_texts = live
        .catalog
        .iter()
        .filter(|(_, info)| named.texts.contains_key(&info.text_hash))
        .map(|(_, info)| {
            live.snapshot.labels()[info.label as usize]
                .drug
                .name
                .clone()
        });
    assert!(febuxostat_texts
        .into_iter()
        .all(|name| name == "febuxostat"));

    let app = spawn_app_with(&data_dir, GENEROUS).await;
    let reply = app
        .search(
            "gout medicine that raises the risk of dying from heart problems",
            3,
        )
        .await;
    let first_three = results(&reply);
    assert!(
        first_three.iter().any(|r| r["text"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("cardiovascular death")),
        "{}",
        reply.body
    );
}

#[test]
fn the_same_labels_give_the_same_effects_file() {
    let dir = embedded_index_of(&["febuxostat"]);
    let data_dir = dir.path().join("data");
    let generation = DataDir::new(&data_dir).current_generation().unwrap();
    let first = std::fs::read(generation.join(EFFECTS_FILE)).expect("effects.bin written");
    let again = tempfile::tempdir().unwrap();
    let inputs: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    ingest_embedded(&again.path().join("data"), &inputs);
    let regenerated = DataDir::new(again.path().join("data"))
        .current_generation()
        .unwrap();
    assert_eq!(
        std::fs::read(regenerated.join(EFFECTS_FILE)).unwrap(),
        first,
        "the same labels give the same file, byte for byte"
    );
}
