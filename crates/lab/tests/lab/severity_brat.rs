//! `drugcite-lab severity-agreement` and the brat agreement behind it, on a few real annotated
//! files of the TAC 2017 labels: the graph's own severity and negation rules find some of what
//! the annotators marked and miss or over-call some (numbers between the extremes), the learned
//! cues change the outcome, and the command prints both rule sets.

use std::path::{Path, PathBuf};
use std::process::Command;

use drugcite_engine::graph::cues::Cues;
use drugcite_lab::agreement::{cases, measure};
use drugcite_lab::brat::read_dir;
use drugcite_lab::eval::Part;

use crate::shared_data;

/// Files with many Severity and Negation annotations, from both sections.
const FILES: &[&str] = &[
    "ASENAPINE_adverse_reactions",
    "ASENAPINE_warnings_and_precautions",
    "BELATACEPT_adverse_reactions",
    "ESLICARBAZEPINE_warnings_and_precautions",
    "FINGOLIMOD_warnings_and_precautions",
];

fn subset() -> tempfile::TempDir {
    let from = shared_data().join("eval/tac2017-ars");
    let dir = tempfile::tempdir().unwrap();
    for (sub, ext) in [("txt", "txt"), ("brat", "ann")] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        for file in FILES {
            let name = format!("{file}.{ext}");
            std::fs::copy(from.join(sub).join(&name), dir.path().join(sub).join(&name)).unwrap();
        }
    }
    dir
}

#[test]
fn the_rules_agree_with_the_annotations_partly_with_and_without_the_learned_cues() {
    let dir = subset();
    let documents = read_dir(dir.path()).unwrap();
    assert_eq!(documents.len(), FILES.len());
    let cases = cases(&documents, Part::All);
    let annotated_negations = cases.iter().filter(|c| c.is_negated()).count();
    let annotated_grades = cases.iter().filter(|c| c.grade().is_some()).count();
    assert!(cases.len() > 300, "{} reactions", cases.len());
    assert!(
        annotated_negations >= 5 && annotated_grades >= 20,
        "{annotated_negations} negated, {annotated_grades} graded"
    );

    let curated = measure(&cases, &Cues::none());
    let learned = measure(&cases, Cues::learned());
    for agreement in [&curated, &learned] {
        let negation = agreement.negation.f1();
        let severe = agreement.grades[2].f1();
        assert!(negation > 0.2 && negation < 1.0, "negation F1 {negation}");
        assert!(severe > 0.2 && severe < 1.0, "severe F1 {severe}");
        assert!(agreement.both_graded > 10);
    }
    assert_ne!(
        learned, curated,
        "the learned cues change what the rules say"
    );
}

#[test]
fn the_command_prints_curated_and_learned_rows_for_a_part() {
    let dir = subset();
    let output = run(dir.path(), &["--part", "all"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains(&format!("All part: {} files", FILES.len())),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("curated") || l.starts_with("learned"))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");

    let missing: PathBuf = dir.path().join("nothing");
    assert!(!run(&missing, &[]).status.success());
}

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_drugcite-lab"))
        .arg("severity-agreement")
        .arg(dir)
        .args(args)
        .output()
        .unwrap()
}
