//! `drugcite-lab extract --score`: the extractor's F1 per section on the half of the annotated
//! ADR set it was not learned from (the bar the knowledge-graph issue sets).

use std::process::Command;

use crate::shared_data;

#[test]
fn extraction_meets_the_bar_on_the_held_out_half() {
    let annotations = shared_data().join("eval/adr-train-labels.json");
    let output = Command::new(env!("CARGO_BIN_EXE_drugcite-lab"))
        .arg("extract")
        .arg("--vocab")
        .arg(shared_data().join("vocab"))
        .arg("--score")
        .arg(annotations)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let table = String::from_utf8(output.stdout).unwrap();
    let f1 = |section: &str| -> f64 {
        let row = table.lines().find(|l| l.starts_with(section)).unwrap();
        row.split_whitespace().last().unwrap().parse().unwrap()
    };
    assert!(f1("adverse reactions") >= 0.85, "{table}");
    assert!(f1("all") >= 0.75, "{table}");
}
