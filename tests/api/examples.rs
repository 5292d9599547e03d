//! The client examples of `examples/` run against a spawned server: curl (shell + jq), Python
//! with the standard library only, and the scripted MCP agent; each must exit 0 and print
//! what it checked.

use std::process::Command;

use crate::helpers::spawn_app;

/// Runs `program example` with the server's URL and key; returns its standard output.
async fn run_example(program: &str, example: &str) -> String {
    let app = spawn_app().await;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(example);
    let (program, base, key) = (program.to_owned(), app.base.clone(), app.key.clone());
    let output = tokio::task::spawn_blocking(move || {
        Command::new(program)
            .arg(path)
            .env("DRUGCITE_URL", base)
            .env("DRUGCITE_API_KEY", key)
            .output()
            .expect("run the example")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{example} failed\nstdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[tokio::test]
async fn the_curl_example_searches_verifies_and_checks_quotes() {
    let out = run_example("bash", "curl.sh").await;
    assert!(out.contains("verify: exact text of the segment"), "{out}");
    let checks: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("quote check:"))
        .collect();
    assert_eq!(checks.len(), 3, "{out}");
    assert!(checks[0].starts_with("quote check: exact"), "{out}");
    assert!(
        checks[1].starts_with("quote check: normalised [\"case\"]"),
        "{out}"
    );
    assert!(checks[2].starts_with("quote check: near_miss"), "{out}");
}

#[tokio::test]
async fn the_python_example_checks_an_answer_and_shows_the_diff() {
    let out = run_example("python3", "python_client.py").await;
    assert!(out.contains("quote check: exact"), "{out}");
    assert!(out.contains("quote check: near_miss"), "{out}");
    assert!(out.contains("[quote_only:"), "{out}");
}

#[tokio::test]
async fn the_scripted_agent_repairs_its_misquote_before_answering() {
    let out = run_example("python3", "agent.py").await;
    assert!(
        out.contains(
            "tools: ask_graph, check_quote, label_history, search_labels, verify_citation"
        ),
        "{out}"
    );
    assert!(out.contains("draft check: ['exact', 'near_miss']"), "{out}");
    assert!(out.contains("repaired check: ['exact', 'exact']"), "{out}");
    assert!(
        out.contains("source: https://dailymed.nlm.nih.gov/"),
        "{out}"
    );
}
