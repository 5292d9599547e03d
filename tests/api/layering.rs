//! The crate graph is the architecture (ARCHITECTURE.md "Crates"): each manifest may depend only
//! on the drugcite crates below it, the engine and the crates under it know no HTTP, no command
//! line and no accounts database, the core does no I/O, and nothing in the product depends on
//! the lab. Read from the manifests and the core's sources; a breach names the file and line.

use std::path::{Path, PathBuf};

/// Lists of crates.io packages a crate must not depend on.
type Forbidden = &'static [&'static [&'static str]];

/// Each crate, the drugcite crates it may depend on, and the crates.io packages it must not.
const LAYERS: &[(&str, &[&str], Forbidden)] = &[
    ("crates/core", &[], &[NO_IO]),
    (
        "crates/store",
        &["drugcite-core"],
        &[NO_HTTP, ACCOUNTS_ONLY],
    ),
    (
        "crates/engine",
        &["drugcite-core", "drugcite-store"],
        &[NO_HTTP, ACCOUNTS_ONLY],
    ),
    ("crates/accounts", &["drugcite-core"], &[NO_HTTP]),
    (
        "crates/server",
        &[
            "drugcite-core",
            "drugcite-store",
            "drugcite-engine",
            "drugcite-accounts",
        ],
        &[&["clap"]],
    ),
    (
        "crates/lab",
        &["drugcite-core", "drugcite-store", "drugcite-engine"],
        &[],
    ),
    (
        ".",
        &[
            "drugcite-core",
            "drugcite-store",
            "drugcite-engine",
            "drugcite-accounts",
            "drugcite-server",
        ],
        &[],
    ),
];

/// What a crate without HTTP must not use: web frameworks, the MCP server, the command line,
/// the accounts database, the console's templates, the metrics exporter.
const NO_HTTP: &[&str] = &[
    "axum",
    "axum-extra",
    "hyper",
    "hyper-util",
    "tower",
    "tower-http",
    "rmcp",
    "clap",
    "minijinja",
    "prometheus-client",
];

/// What the accounts crate owns: the accounts database and per-client rate limiting.
const ACCOUNTS_ONLY: &[&str] = &["sqlx", "governor"];

/// What the core must not use: besides `NO_HTTP`, anything that does I/O or runs async.
const NO_IO: &[&str] = &[
    "axum",
    "hyper",
    "tower",
    "rmcp",
    "clap",
    "sqlx",
    "tokio",
    "tantivy",
    "neo4rs",
    "reqwest",
    "candle-core",
    "memmap2",
    "flate2",
    "zip",
    "indicatif",
    "tracing",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `[dependencies]` of a manifest (not dev or build), with the line each is named on.
fn dependencies(manifest: &Path) -> Vec<(String, usize)> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut section = String::new();
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_owned();
        } else if section == "[dependencies]" && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            found.push((name.to_owned(), number + 1));
        }
    }
    found
}

#[test]
fn every_crate_depends_only_on_the_crates_below_it_and_never_on_the_lab() {
    let mut breaches = Vec::new();
    for (crate_dir, allowed, forbidden) in LAYERS {
        let manifest = root().join(crate_dir).join("Cargo.toml");
        for (dependency, line) in dependencies(&manifest) {
            let internal = dependency.starts_with("drugcite");
            let refused = if internal {
                !allowed.contains(&dependency.as_str())
            } else {
                forbidden
                    .iter()
                    .any(|list| list.contains(&dependency.as_str()))
            };
            if refused {
                breaches.push(format!("{crate_dir}/Cargo.toml:{line}: {dependency}"));
            }
        }
    }
    assert!(
        breaches.is_empty(),
        "layering breached:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn the_core_reads_no_files_and_opens_no_sockets() {
    let mut breaches = Vec::new();
    let mut folders = vec![root().join("crates/core/src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (number, line) in text.lines().enumerate() {
                if ["std::fs", "std::net", "File::open", "std::process"]
                    .iter()
                    .any(|io| line.contains(io))
                {
                    breaches.push(format!(
                        "{}:{}: {}",
                        path.display(),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        breaches.is_empty(),
        "I/O in the core:\n{}",
        breaches.join("\n")
    );
}
