//! The `drugcite` binary's contract (DESIGN "Command line"): ingest, keys, serve's
//! "listening on" line, and one-line errors with a non-zero exit.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::helpers::{corpus_lines, scratch_dir, within_a_second, write_jsonl};
use crate::verify::{
    alter_a_set_id, alter_stored_text, copy_of_subset, live_generation, originals,
};

pub fn drugcite(data_dir: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_drugcite"));
    command
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("DRUGCITE_DATA_DIR");
    command
}

#[tokio::test]
async fn ingest_keys_and_serve_from_the_command_line() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let input = write_jsonl(dir.path(), "two.jsonl", &corpus_lines(2));
    let ingest = drugcite(&data_dir)
        .arg("ingest")
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        ingest.status.success(),
        "{}",
        String::from_utf8_lossy(&ingest.stderr)
    );
    assert!(String::from_utf8_lossy(&ingest.stdout).contains("labels indexed:    2"));

    let created = drugcite(&data_dir)
        .args(["keys", "create", "--name", "cli", "--scopes", "search"])
        .output()
        .unwrap();
    assert!(created.status.success());
    let stdout = String::from_utf8(created.stdout).unwrap();
    let key = stdout.lines().last().unwrap().trim().to_owned();
    assert!(key.starts_with("dck_"));
    let listed = drugcite(&data_dir).args(["keys", "list"]).output().unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(
        listed.contains("cli") && !listed.contains(&key),
        "list never shows the key"
    );

    let mut server = drugcite(&data_dir)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(server.stderr.take().unwrap());
    let addr = stderr
        .lines()
        .map(Result::unwrap)
        .find_map(|line| {
            line.split("listening on ")
                .nth(1)
                .map(|a| a.trim().to_owned())
        })
        .expect("a 'listening on' line");
    let client = reqwest::Client::new();
    let health = client
        .get(format!("http://{addr}/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let search = client
        .post(format!("http://{addr}/v1/search"))
        .header("x-api-key", &key)
        .body(r#"{"question":"meningococcal infections","top_k":2}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(search.status(), 200);
    let id = &key[4..16];
    assert!(drugcite(&data_dir)
        .args(["keys", "revoke", id])
        .status()
        .unwrap()
        .success());
    within_a_second(401, async || {
        let revoked = client
            .post(format!("http://{addr}/v1/search"))
            .header("x-api-key", &key)
            .body(r#"{"question":"meningococcal"}"#)
            .send()
            .await
            .unwrap();
        revoked.status().as_u16()
    })
    .await;
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn failures_exit_non_zero_with_one_line() {
    let dir = scratch_dir();
    let data_dir = dir.path().join("data");
    let cases: Vec<Vec<&str>> = vec![
        vec!["ingest", "/no/such/file.jsonl"],
        vec!["serve", "--addr", "127.0.0.1:0"],
        vec!["keys", "create", "--name", "x", "--scopes", "admin"],
        vec!["keys", "revoke", "000000000000"],
    ];
    for args in cases {
        let output = drugcite(&data_dir).args(&args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        let error_lines: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .collect();
        assert_eq!(error_lines.len(), 1, "{args:?}: {stderr}");
    }
}

/// Runs `drugcite check`; (success, stdout, stderr).
fn check(data_dir: &std::path::Path) -> (bool, String, String) {
    let output = drugcite(data_dir).arg("check").output().unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn check_passes_a_clean_index_and_names_every_altered_file() {
    let dir = scratch_dir();
    let data_dir = copy_of_subset(dir.path());
    let (ok, stdout, stderr) = check(&data_dir);
    assert!(ok, "{stdout}{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with("ok: ") && stdout.contains(" 0 mismatches"),
        "{stdout}"
    );

    let generation = live_generation(&data_dir);
    let originals = originals(&data_dir);
    let store = alter_stored_text(&generation, originals.values().map(|(_, t)| t.as_str()));
    alter_a_set_id(&generation);
    let (ok, stdout, stderr) = check(&data_dir);
    assert!(!ok, "{stdout}");
    assert!(
        stdout.contains(&format!("MISMATCH file {store}:")),
        "{stdout}"
    );
    assert!(stdout.contains("MISMATCH file labels.jsonl:"), "{stdout}");
    assert!(stdout.contains("MISMATCH segment "), "{stdout}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
}
