//! The console in a real browser: `tests/browser/console.py` drives Debian's headless
//! chromium over WebDriver against a real server (sign up, key, copy, search, usage chart,
//! playground, revoke, 401) and saves a screenshot of each page.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use crate::helpers::{serve_config, start_server, subset_index, GENEROUS};

/// `$DRUGCITE_SCREENSHOT_DIR`, else a directory under cargo's target temp dir.
fn screenshot_dir() -> PathBuf {
    std::env::var_os("DRUGCITE_SCREENSHOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("console-screenshots"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_works_in_a_real_browser() {
    let mut config = serve_config(&subset_index().data_dir, GENEROUS);
    config.accounts.console = true;
    let addr = start_server(config).await;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser/console.py");
    let shots = screenshot_dir();
    let started = Instant::now();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(script)
            .arg(format!("http://{addr}"))
            .arg(&shots)
            .output()
            .expect("python3 (with selenium: scripts/test.sh installs it)")
    })
    .await
    .unwrap();
    eprintln!(
        "browser test: {:.1} s\n{}{}",
        started.elapsed().as_secs_f64(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "the browser test failed (see above)"
    );
}
