//! The settings file, the environment over it and flags over both, as the binary reads them;
//! `drugcite config check`; and the JSON log lines a configured server writes.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::Value;

use crate::cli::drugcite;
use crate::helpers::{create_key, scratch_dir, subset_index};
use drugcite_accounts::scopes::Scope;

/// A `drugcite serve` child whose stderr lines arrive on a channel.
struct Served {
    child: Child,
    lines: Receiver<String>,
}

impl Served {
    fn start(mut command: Command) -> Self {
        let mut child = command
            .stderr(Stdio::piped())
            .spawn()
            .expect("drugcite serve");
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Self { child, lines }
    }

    /// The first line (within 60 s) for which `pick` gives something.
    fn wait_for<T>(&self, mut pick: impl FnMut(&str) -> Option<T>) -> T {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("the server's log ended or stalled");
            if let Some(found) = pick(&line) {
                return found;
            }
        }
    }

    /// The address of the first log line containing `marker`, text or JSON.
    fn address_after(&self, marker: &str) -> String {
        self.wait_for(|line| {
            let after = line.split(marker).nth(1)?;
            Some(
                after
                    .trim_end_matches(['"', '}', '/'])
                    .split(['"', '/', ' '])
                    .next()?
                    .to_owned(),
            )
        })
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write_settings(dir: &Path, text: &str) -> std::path::PathBuf {
    let path = dir.join("drugcite.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn serve_with(settings: &Path) -> Command {
    let mut command = drugcite(&subset_index().data_dir);
    command.args(["serve", "--config"]).arg(settings);
    command
}

#[tokio::test]
async fn a_settings_file_configures_the_server_and_its_json_access_log() {
    let dir = scratch_dir();
    let settings = write_settings(
        dir.path(),
        "log_format = \"json\"\n[serve]\naddr = \"127.0.0.1:0\"\nmetrics_addr = \"127.0.0.1:0\"\nlexical_only = true\n",
    );
    let mut command = serve_with(&settings);
    command.env("RUST_LOG", "info");
    let served = Served::start(command);
    let addr = served.address_after("listening on ");
    let metrics = served.address_after("metrics on http://");
    let key = create_key(&subset_index().data_dir, &[Scope::Search]).await;
    let client = reqwest::Client::new();
    let search = client
        .post(format!("http://{addr}/v1/search"))
        .header("x-api-key", &key)
        .header("x-request-id", "config-test-1")
        .body(r#"{"question":"warfarin bleeding","top_k":1}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(search.status(), 200);
    let access = served.wait_for(|line| {
        let event: Value = serde_json::from_str(line).expect("every log line is JSON");
        assert!(!line.contains(&key), "a key in the log: {line}");
        (event["request_id"] == "config-test-1").then_some(event)
    });
    assert_eq!(access["target"], "drugcite::access");
    assert_eq!(access["method"], "POST");
    assert_eq!(access["route"], "/v1/search");
    assert_eq!(access["status"], 200);
    assert!(access["latency_ms"].as_f64().unwrap() > 0.0, "{access}");
    let scraped = client
        .get(format!("http://{metrics}/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(scraped.status(), 200);
    let text = scraped.text().await.unwrap();
    assert!(text.contains(r#"drugcite_http_requests_total{route="/v1/search",status="200"} 1"#));
}

/// Two keyless verifies of a server started with `settings` and `env`: the second one's status.
async fn second_keyless_verify(settings: &Path, env: &[(&str, &str)], flags: &[&str]) -> u16 {
    let mut command = serve_with(settings);
    command.args(flags);
    for (name, value) in env {
        command.env(name, value);
    }
    let served = Served::start(command);
    let addr = served.address_after("listening on ");
    let url = format!("http://{addr}/v1/verify/{}", "0".repeat(128));
    let client = reqwest::Client::new();
    assert_eq!(client.get(&url).send().await.unwrap().status(), 200);
    client.get(&url).send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn the_environment_overrides_the_file_and_a_flag_overrides_both() {
    let dir = scratch_dir();
    let settings = write_settings(
        dir.path(),
        "[serve]\naddr = \"127.0.0.1:0\"\nlexical_only = true\nrate_limit_per_address = 1\n",
    );
    assert_eq!(
        second_keyless_verify(&settings, &[], &[]).await,
        429,
        "the file's limit"
    );
    let env = [("DRUGCITE_RATE_LIMIT_PER_ADDRESS", "1000")];
    assert_eq!(
        second_keyless_verify(&settings, &env, &[]).await,
        200,
        "env over file"
    );
    let env = [("DRUGCITE_RATE_LIMIT_PER_ADDRESS", "1")];
    let flag = ["--rate-limit-per-address", "1000"];
    assert_eq!(
        second_keyless_verify(&settings, &env, &flag).await,
        200,
        "flag over env"
    );
}

fn config_check(settings: &Path, env: &[(&str, &str)]) -> (bool, String, String) {
    let mut command = drugcite(&subset_index().data_dir);
    command.args(["config", "check", "--config"]).arg(settings);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn config_check_prints_the_effective_settings_with_their_origins_and_no_secrets() {
    let dir = scratch_dir();
    let settings = write_settings(
        dir.path(),
        "[serve]\nmax_connections = 50\n[neo4j]\nuri = \"bolt://db:7687\"\npassword = \"hunter2\"\n",
    );
    let env = [
        ("DRUGCITE_IDLE_TIMEOUT_SECS", "77"),
        ("DRUGCITE_DATABASE_URL", "postgres://app:s3cret@db/drugcite"),
    ];
    let (ok, stdout, stderr) = config_check(&settings, &env);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("max_connections = 50  # file"), "{stdout}");
    assert!(
        stdout.contains("idle_timeout_secs = 77  # DRUGCITE_IDLE_TIMEOUT_SECS"),
        "{stdout}"
    );
    assert!(
        stdout.contains("addr = \"127.0.0.1:8080\"  # default"),
        "{stdout}"
    );
    assert!(
        stdout.contains("uri = \"bolt://db:7687\"  # file"),
        "{stdout}"
    );
    assert!(
        stdout.contains("password = \"<redacted>\"  # file"),
        "{stdout}"
    );
    assert!(
        stdout.contains("postgres://app:<redacted>@db/drugcite"),
        "{stdout}"
    );
    assert!(!stdout.contains("hunter2") && !stdout.contains("s3cret"));
}

#[test]
fn config_check_and_serve_refuse_an_unknown_key_or_a_bad_value_in_one_line() {
    let dir = scratch_dir();
    let typo = write_settings(dir.path(), "[serve]\nmax_conections = 50\n");
    let (ok, _, stderr) = config_check(&typo, &[]);
    assert!(!ok);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains("unknown setting `serve.max_conections`"),
        "{stderr}"
    );
    let served = serve_with(&typo).output().unwrap();
    assert!(!served.status.success());
    assert!(String::from_utf8_lossy(&served.stderr).contains("serve.max_conections"));

    let fine = write_settings(dir.path(), "[serve]\nmax_connections = 50\n");
    let (ok, _, stderr) = config_check(&fine, &[("DRUGCITE_MAX_CONNECTIONS", "lots")]);
    assert!(!ok);
    assert!(
        stderr.contains("DRUGCITE_MAX_CONNECTIONS") && stderr.contains("lots"),
        "{stderr}"
    );
}

#[test]
fn the_example_settings_file_is_valid() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("drugcite.example.toml");
    let (ok, stdout, stderr) = config_check(&example, &[]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("rate_limit_per_key = 600  # file"),
        "{stdout}"
    );
}
