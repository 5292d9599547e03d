//! The console in a real browser: `tests/browser/console.py` drives Debian's headless
//! chromium over WebDriver against a real server whose mail goes over SMTP to a local sink,
//! walking sign-up to revoke and password reset at 1280 and 390 px, with axe-core's checks on
//! every page; its screenshots go to `target/ci-artifacts/console/` (CI keeps them).

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use drugcite_accounts::Credit;

use crate::helpers::{serve_config, start_server, subset_index, GENEROUS};
use crate::mail_sink::MailSink;

/// `$DRUGCITE_SCREENSHOT_DIR`, else `ci-artifacts/console` in cargo's target dir.
fn screenshot_dir() -> PathBuf {
    std::env::var_os("DRUGCITE_SCREENSHOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
            tmp.parent().unwrap_or(&tmp).join("ci-artifacts/console")
        })
}

/// axe-core's browser build: `$DRUGCITE_AXE_JS`, else where `scripts/test.sh` installs it.
fn axe_js() -> PathBuf {
    let path = std::env::var_os("DRUGCITE_AXE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME").unwrap_or_default();
            PathBuf::from(home).join(".cache/drugcite-test/npm/node_modules/axe-core/axe.min.js")
        });
    assert!(
        path.is_file(),
        "axe-core not found at {} (scripts/test.sh installs it from npm)",
        path.display()
    );
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_works_in_a_real_browser_at_desktop_and_phone_widths() {
    let sink = MailSink::start();
    let mut config = serve_config(&subset_index().data_dir, GENEROUS);
    config.accounts.console = true;
    config.accounts.mail = sink.settings();
    // Little credit, so three searches bring the low-credit banner.
    config.accounts.policy.starting_credit = Credit::from_micros(50_000);
    config.accounts.low_credit = Credit::from_micros(40_000);
    let addr = start_server(config).await;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser/console.py");
    let (shots, mail_dir, axe) = (screenshot_dir(), sink.dir(), axe_js());
    let started = Instant::now();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(script)
            .arg(format!("http://{addr}"))
            .arg(&shots)
            .arg(mail_dir)
            .arg(axe)
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
