//! The texts of a label that name a partner drug (`labels_texts_naming`, behind the ranking
//! features `names_partner` and `partner_names_subject`): exactly the current texts of the
//! given labels holding the name, a phrase only with its words in order, over the subset of the
//! shared corpus; a partner's text naming the subject answering a pair question; and a partner
//! named only by the condition it treats.

use std::collections::{BTreeSet, HashSet};

use drugcite_core::domain::TextHash;
use drugcite_engine::index::{LiveIndex, OpenOptions};
use drugcite_engine::search::lexical::labels_texts_naming;
use drugcite_store::DataDir;

use crate::helpers::{embedded_index_of, results, spawn_app_with, subset_index, GENEROUS};

fn names(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

#[test]
fn the_texts_naming_a_partner_are_the_labels_texts_holding_its_name() {
    let options = OpenOptions {
        space: None,
        embedded_graph: false,
    };
    let index = LiveIndex::open(DataDir::new(&subset_index().data_dir), options).unwrap();
    let live = index.current();
    let snapshot = &live.snapshot;
    let sertraline: BTreeSet<u32> = snapshot
        .current_labels()
        .filter(|(_, label)| label.drug.name.to_lowercase().contains("sertraline"))
        .map(|(ordinal, _)| ordinal)
        .collect();
    assert!(!sertraline.is_empty(), "the subset holds sertraline");
    let (mut pimozide, mut maoi) = (HashSet::<TextHash>::new(), HashSet::<TextHash>::new());
    snapshot
        .visit_segments(|segment| {
            let text = segment.text.to_lowercase();
            if segment.current && sertraline.contains(&segment.label) {
                if text.contains("pimozide") {
                    pimozide.insert(segment.text_hash);
                }
                if text.contains("monoamine oxidase inhibitor") {
                    maoi.insert(segment.text_hash);
                }
            }
        })
        .unwrap();
    assert!(!pimozide.is_empty() && !maoi.is_empty());
    let found = |n: &[&str]| labels_texts_naming(&live, &names(n), &sertraline).unwrap();
    assert_eq!(found(&["pimozide"]), pimozide);
    let phrase = found(&["monoamine oxidase inhibitors"]);
    assert!(
        maoi.is_subset(&phrase),
        "a plural finds the singular's stem"
    );
    assert!(found(&["oxidase monoamine"]).is_empty(), "words in order");
    let either = found(&["pimozide", "monoamine oxidase inhibitors"]);
    assert_eq!(either, &pimozide | &phrase);
    assert!(found(&["the"]).is_empty(), "a stop word names nothing");
    assert!(
        labels_texts_naming(&live, &names(&["pimozide"]), &BTreeSet::new())
            .unwrap()
            .is_empty()
    );
}

/// Two drugs named together: the partner's text naming the subject answers beside the
/// subject's own (`partner_names_subject`), so methotrexate's warning about NSAIDs answers
/// "ibuprofen with methotrexate" although ibuprofen is named first.
#[tokio::test]
async fn a_partner_text_naming_the_subject_answers_the_pair() {
    let dir = embedded_index_of(&["ibuprofen sodium", "methotrexate", "allopurinol"]);
    let app = spawn_app_with(&dir.path().join("data"), GENEROUS).await;
    let reply = app
        .search("is it ok to take ibuprofen with my weekly methotrexate", 10)
        .await;
    let first_of_partner = results(&reply)
        .iter()
        .find(|result| result["drug"]["name"] == "methotrexate")
        .expect("methotrexate answers too");
    let text = first_of_partner["text"].as_str().unwrap().to_lowercase();
    assert!(
        ["nsaid", "nonsteroidal anti-inflammatory", "ibuprofen"]
            .iter()
            .any(|name| text.contains(name)),
        "methotrexate's first text names the subject: {first_of_partner}"
    );
}

/// A partner named only by what it treats ("gout medicine"): the labels indicated for gout are
/// the partners, so azathioprine's text naming allopurinol (a xanthine oxidase inhibitor)
/// answers first.
#[tokio::test]
async fn a_partner_named_by_its_condition_is_the_labels_indicated_for_it() {
    let dir = embedded_index_of(&["azathioprine", "allopurinol", "methotrexate"]);
    let app = spawn_app_with(&dir.path().join("data"), GENEROUS).await;
    let reply = app.search("azathioprine with gout medicine", 3).await;
    let first = &results(&reply)[0];
    let text = first["text"].as_str().unwrap().to_lowercase();
    assert_eq!(first["drug"]["name"], "azathioprine");
    assert!(
        text.contains("allopurinol") || text.contains("xanthine oxidase"),
        "the subject's text naming a gout medicine comes first: {first}"
    );
}
