//! Settings from three places over the built-in defaults, layered in one place: the TOML file
//! (`--config F` or `DRUGCITE_CONFIG`) < `DRUGCITE_<FLAG>` environment variables < command-line
//! flags. Works on any clap command (the file's values become the flags' defaults), so every
//! flag of `serve` and `ingest` is a setting by construction; no command logic here.

pub mod check;
mod env_names;
pub mod file;
mod flags;
pub mod logging;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Command, CommandFactory, FromArgMatches};

use env_names::with_env_names;
pub use file::{ConfigError, ConfigFile};

/// Environment variable naming the settings file.
pub const CONFIG_ENV: &str = "DRUGCITE_CONFIG";

/// Parses the process's arguments as `P` over the settings file and the environment; clap's
/// own errors (and `--help`) exit the process as usual.
pub fn parse<P: CommandFactory + FromArgMatches>() -> Result<P, ConfigError> {
    let args: Vec<OsString> = std::env::args_os().collect();
    let command = layered(P::command(), &args)?;
    let matches = command.get_matches_from(args);
    Ok(P::from_arg_matches(&matches).unwrap_or_else(|e| e.exit()))
}

/// `command` with `DRUGCITE_<FLAG>` on every configured flag and the settings file `args` (or
/// the environment) names under them.
pub fn layered(command: Command, args: &[OsString]) -> Result<Command, ConfigError> {
    let command = with_env_names(command);
    match config_path(args) {
        Some(path) => ConfigFile::read(&path)?.apply(command),
        None => Ok(command),
    }
}

/// The settings file named by `--config` among `args`, else by `DRUGCITE_CONFIG`.
pub fn config_path(args: &[OsString]) -> Option<PathBuf> {
    let mut args = args.iter().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--" {
            break;
        }
        if arg == "--config" {
            return args.next().map(PathBuf::from);
        }
        if let Some(path) = arg.to_str().and_then(|a| a.strip_prefix("--config=")) {
            return Some(PathBuf::from(path));
        }
    }
    std::env::var_os(CONFIG_ENV)
        .filter(|path| !path.is_empty())
        .map(PathBuf::from)
}

#[cfg(test)]
mod tests;
