//! `drugcite extract`: the JSON Lines contract; scoring the extractor is the lab's
//! (`drugcite-lab extract --score`, in crates/lab/tests).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::helpers::shared_data;

fn extract(args: &[&str], stdin: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_drugcite"))
        .arg("extract")
        .arg("--vocab")
        .arg(shared_data().join("vocab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn extract_answers_each_line_with_character_offsets_into_its_text() {
    let text = "The most common adverse reactions (≥10%) were nausea, headache, and elevated ALT. \
                No cases of agranulocytosis were reported.";
    let input = format!(
        "{}\n\n{}\n",
        serde_json::json!({"id": "a", "section": "adverse reactions", "text": text}),
        serde_json::json!({"id": 2, "section": "warnings and precautions", "text": "Hepatotoxicity: monitor liver tests."})
    );
    let output = extract(&[], &input);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], "a");
    assert_eq!(lines[1]["id"], 2);
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for mention in lines[0]["mentions"].as_array().unwrap() {
        let (start, end) = (
            mention["start"].as_u64().unwrap() as usize,
            mention["end"].as_u64().unwrap() as usize,
        );
        let quoted: String = chars[start..end].iter().collect();
        assert_eq!(mention["text"], quoted.as_str());
        assert!(!mention["condition_id"].as_str().unwrap().is_empty());
        found.push(quoted);
    }
    assert_eq!(found, ["nausea", "headache", "elevated ALT"]);
    assert_eq!(lines[1]["mentions"][0]["text"], "Hepatotoxicity");
}

#[test]
fn a_line_that_is_not_a_request_stops_extract_with_its_line_number() {
    let output = extract(&[], "{\"id\":1,\"text\":\"nausea\"}\nnot json\n");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 2"));
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 1);
}

/// Scoring and learning moved to the lab binary: the operator binary says where, and reads no
/// annotations.
#[test]
fn extract_score_names_the_lab_binary_it_moved_to() {
    let annotations = shared_data().join("eval/adr-train-labels.json");
    let output = extract(&["--score", annotations.to_str().unwrap()], "");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("drugcite-lab extract --score"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
