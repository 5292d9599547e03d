//! The layering on a command shaped like the binary's: file < environment < flags, strictness,
//! the `[neo4j]` section, and the check report.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use super::check::{redact_password, report};
use super::env_names::env_name;
use super::*;

#[derive(Parser, Debug)]
struct Cli {
    #[arg(long, global = true, default_value = "./data")]
    data_dir: PathBuf,
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand, Debug)]
enum Sub {
    Serve {
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        #[arg(long, default_value = "1024", value_parser = clap::value_parser!(u64).range(1..))]
        max_connections: u64,
        #[arg(long, default_value = "60")]
        test_only_idle_secs: u64,
        #[arg(long)]
        console: bool,
        #[command(flatten)]
        neo4j: Neo4j,
    },
    Ingest {
        paths: Vec<PathBuf>,
        #[arg(long)]
        update: bool,
        #[command(flatten)]
        neo4j: Neo4j,
    },
    SyncNeo4j {
        #[command(flatten)]
        neo4j: Neo4j,
    },
}

#[derive(clap::Args, Debug)]
struct Neo4j {
    #[arg(long = "neo4j")]
    uri: Option<String>,
    #[arg(long, default_value = "")]
    neo4j_password: String,
}

fn args(list: &[&str]) -> Vec<OsString> {
    std::iter::once("drugcite")
        .chain(list.iter().copied())
        .map(OsString::from)
        .collect()
}

fn file(text: &str) -> ConfigFile {
    ConfigFile::parse(Path::new("drugcite.toml"), text).expect("valid TOML")
}

fn parse_with(text: &str, list: &[&str]) -> Result<Cli, ConfigError> {
    let settings = ConfigFile::parse(Path::new("drugcite.toml"), text)?;
    let command = settings.apply(with_env_names(Cli::command()))?;
    let matches = command.try_get_matches_from(args(list)).expect("arguments");
    Ok(Cli::from_arg_matches(&matches).expect("matches"))
}

fn serve_of(cli: Cli) -> (SocketAddr, u64, u64, bool, Option<String>) {
    match cli.command {
        Sub::Serve {
            addr,
            max_connections,
            test_only_idle_secs,
            console,
            neo4j,
        } => (
            addr,
            max_connections,
            test_only_idle_secs,
            console,
            neo4j.uri,
        ),
        other => panic!("not serve: {other:?}"),
    }
}

#[test]
fn the_file_sets_defaults_and_flags_override_it() {
    let text = "data_dir = \"/srv/drugcite\"\n[serve]\naddr = \"0.0.0.0:9000\"\nmax_connections = 50\nconsole = true\n";
    let cli = parse_with(text, &["serve"]).unwrap();
    assert_eq!(cli.data_dir, PathBuf::from("/srv/drugcite"));
    let (addr, max, _, console, _) = serve_of(cli);
    assert_eq!((addr.port(), max, console), (9000, 50, true));
    let cli = parse_with(text, &["serve", "--max-connections", "7"]).unwrap();
    assert_eq!(serve_of(cli).1, 7);
}

#[test]
fn the_environment_overrides_the_file_and_a_flag_overrides_both() {
    let text = "[serve]\ntest_only_idle_secs = 5\n";
    assert_eq!(serve_of(parse_with(text, &["serve"]).unwrap()).2, 5);
    std::env::set_var("DRUGCITE_TEST_ONLY_IDLE_SECS", "9");
    let from_env = serve_of(parse_with(text, &["serve"]).unwrap()).2;
    let from_flag = serve_of(parse_with(text, &["serve", "--test-only-idle-secs", "3"]).unwrap()).2;
    std::env::remove_var("DRUGCITE_TEST_ONLY_IDLE_SECS");
    assert_eq!((from_env, from_flag), (9, 3));
}

#[test]
fn the_neo4j_section_sets_every_command_that_talks_to_neo4j() {
    let text = "[neo4j]\nuri = \"bolt://db:7687\"\npassword = \"hunter2\"\n";
    let cli = parse_with(text, &["serve"]).unwrap();
    assert_eq!(serve_of(cli).4.as_deref(), Some("bolt://db:7687"));
    let cli = parse_with(text, &["ingest", "labels.jsonl"]).unwrap();
    let Sub::Ingest { neo4j, .. } = cli.command else {
        panic!("not ingest")
    };
    assert_eq!(neo4j.uri.as_deref(), Some("bolt://db:7687"));
    assert_eq!(neo4j.neo4j_password, "hunter2");
}

#[test]
fn unknown_sections_and_keys_and_bad_values_are_refused_by_name() {
    let error = |text: &str| parse_with(text, &["serve"]).unwrap_err().to_string();
    let unknown = error("[serve]\nmax_conections = 5\n");
    assert!(
        unknown.contains("unknown setting `serve.max_conections`"),
        "{unknown}"
    );
    assert!(
        unknown.contains("max_connections"),
        "lists the known keys: {unknown}"
    );
    assert!(error("[server]\naddr = \"x\"\n").contains("unknown section [server]"));
    assert!(error("addr = \"127.0.0.1:1\"\n").contains("unknown setting `addr`"));
    assert!(error("[serve]\nneo4j_password = \"x\"\n")
        .contains("unknown setting `serve.neo4j_password`"));
    assert!(error("config = \"other.toml\"\n").contains("unknown setting `config`"));
    let zero = error("[serve]\nmax_connections = 0\n");
    assert!(
        zero.contains("`serve.max_connections`") && zero.contains("'0'"),
        "{zero}"
    );
    let addr = error("[serve]\naddr = \"nowhere\"\n");
    assert!(
        addr.contains("`serve.addr`") && addr.contains("nowhere"),
        "{addr}"
    );
    let switch = error("[serve]\nconsole = \"yes\"\n");
    assert!(switch.contains("must be true or false"), "{switch}");
    let array = error("[serve]\naddr = [1]\n");
    assert!(
        array.contains("must be a string, number or boolean"),
        "{array}"
    );
    let syntax = ConfigFile::parse(Path::new("drugcite.toml"), "[serve\n").unwrap_err();
    assert!(syntax.to_string().contains("not valid TOML"), "{syntax}");
}

#[test]
fn the_report_says_where_each_value_comes_from_and_redacts_secrets() {
    let settings = file("[serve]\nmax_connections = 50\n[neo4j]\npassword = \"hunter2\"\n");
    let command = settings.apply(with_env_names(Cli::command())).unwrap();
    let text = report(&command, Some(&settings)).unwrap();
    assert!(text.contains("data_dir = \"./data\"  # default"), "{text}");
    assert!(text.contains("[serve]\n"), "{text}");
    assert!(text.contains("max_connections = 50  # file"), "{text}");
    assert!(text.contains("console = false  # default"), "{text}");
    assert!(text.contains("# uri is not set"), "{text}");
    assert!(text.contains("password = \"<redacted>\"  # file"), "{text}");
    assert!(!text.contains("hunter2"));
    let parsed: toml::Table = text.parse().expect("the report is TOML");
    assert_eq!(parsed["serve"]["max_connections"].as_integer(), Some(50));
}

#[test]
fn urls_lose_their_password_only() {
    assert_eq!(
        redact_password("postgres://app:s3cret@db:5432/drugcite"),
        "postgres://app:<redacted>@db:5432/drugcite"
    );
    assert_eq!(
        redact_password("postgres://db/drugcite"),
        "postgres://db/drugcite"
    );
}

#[test]
fn the_file_is_named_by_the_flag_in_either_spelling() {
    let named = |list: &[&str]| config_path(&args(list));
    assert_eq!(
        named(&["serve", "--config", "a.toml"]),
        Some(PathBuf::from("a.toml"))
    );
    assert_eq!(
        named(&["--config=b.toml", "serve"]),
        Some(PathBuf::from("b.toml"))
    );
    assert_eq!(env_name("max-connections"), "DRUGCITE_MAX_CONNECTIONS");
}
