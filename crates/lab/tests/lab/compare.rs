//! `drugcite-lab compare`: two answer files that agree exit 0; a question answered otherwise or
//! missing on one side is named with where it differs, and the command fails.

use std::process::Command;

fn compare(before: &str, after: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = (
        dir.path().join("before.jsonl"),
        dir.path().join("after.jsonl"),
    );
    std::fs::write(&b, before).unwrap();
    std::fs::write(&a, after).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_drugcite-lab"))
        .arg("compare")
        .arg(&b)
        .arg(&a)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

const ONE: &str = r#"{"file":"q.jsonl","id":"a","endpoint":"search","answer":{"results":[{"fingerprint":"01"}]}}"#;
const TWO: &str =
    r#"{"file":"q.jsonl","id":"b","endpoint":"graph","answer":{"verdict":"warning"}}"#;

#[test]
fn the_same_answers_pass_and_a_changed_or_missing_one_is_named() {
    let same = format!("{ONE}\n{TWO}\n");
    let (passed, report) = compare(&same, &same);
    assert!(passed, "{report}");
    assert!(
        report.contains("0 of 2 questions answered differently"),
        "{report}"
    );

    let changed = format!("{ONE}\n{}\n", TWO.replace("warning", "contraindicated"));
    let (passed, report) = compare(&same, &changed);
    assert!(!passed);
    assert!(report.contains("q.jsonl\tb\t/verdict"), "{report}");

    let (passed, report) = compare(&same, &format!("{ONE}\n"));
    assert!(!passed);
    assert!(report.contains("q.jsonl\tb\tmissing after"), "{report}");
}
