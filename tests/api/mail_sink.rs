//! A local SMTP server for the tests: `tests/browser/smtp_sink.py` (aiosmtpd, which
//! `scripts/test.sh` installs from PyPI) receives the console's real SMTP mail and writes each
//! message, decoded, as JSON; the tests read them back and follow their links.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use drugcite_server::mail::{MailSettings, MailTransport};

pub struct MailSink {
    child: Child,
    dir: tempfile::TempDir,
    port: u16,
}

/// One received message.
#[derive(Debug)]
pub struct Received {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
}

impl MailSink {
    pub fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/smtp_sink.py");
        let mut child = Command::new("python3")
            .arg(script)
            .arg(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 with aiosmtpd (scripts/test.sh installs it)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().unwrap_or_else(|_| {
            panic!("the SMTP sink did not start (is aiosmtpd installed?): {line:?}")
        });
        Self { child, dir, port }
    }

    /// Mail settings that send to this sink over SMTP.
    pub fn settings(&self) -> MailSettings {
        MailSettings {
            transport: Some(MailTransport::Smtp(format!(
                "smtp://127.0.0.1:{}",
                self.port
            ))),
            from: "drugcite tests <tests@drugcite.test>".into(),
        }
    }

    pub fn dir(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    /// Every message received so far for `to`, oldest first.
    pub fn messages_to(&self, to: &str) -> Vec<Received> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|path| {
                let json: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
                Received {
                    to: json["to"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|t| t.as_str().unwrap().to_owned())
                        .collect(),
                    subject: json["subject"].as_str().unwrap().to_owned(),
                    body: json["body"].as_str().unwrap().to_owned(),
                }
            })
            .filter(|message| message.to.iter().any(|t| t == to))
            .collect()
    }

    /// Waits (up to 10 s) for the `n`th message to `to` and returns it.
    pub async fn wait_for(&self, to: &str, n: usize) -> Received {
        let started = Instant::now();
        loop {
            let mut messages = self.messages_to(to);
            if messages.len() >= n {
                return messages.swap_remove(n - 1);
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no message {n} to {to} after 10 s"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for MailSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The path of the first link in `body` under `prefix` (`/console/confirm/`), e.g.
/// `/console/confirm/3f…`.
pub fn link_path(body: &str, prefix: &str) -> String {
    let start = body
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} link in {body}"));
    body[start..].split_whitespace().next().unwrap().to_owned()
}
