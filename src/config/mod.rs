//! Settings from three places over the built-in defaults, layered in one place: the TOML file
//! (`--config F` or `DRUGCITE_CONFIG`) < `DRUGCITE_<FLAG>` environment variables < command-line
//! flags. Works on any clap command (the file's values become the flags' defaults), so every
//! flag of `serve` and `ingest` is a setting by construction; no command logic here.

pub mod check;
pub mod file;
pub mod logging;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::FalseyValueParser;
use clap::{Arg, ArgAction, Command, CommandFactory, FromArgMatches};

pub use file::{ConfigError, ConfigFile};

/// Environment variable naming the settings file.
pub const CONFIG_ENV: &str = "DRUGCITE_CONFIG";
/// The subcommands whose flags the file and `DRUGCITE_<FLAG>` variables set.
pub const CONFIGURED_SUBCOMMANDS: [&str; 3] = ["serve", "ingest", "sync-neo4j"];

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

/// The environment variable of a flag: `--max-connections` → `DRUGCITE_MAX_CONNECTIONS`.
pub fn env_name(long: &str) -> String {
    format!("DRUGCITE_{}", long.to_uppercase().replace('-', "_"))
}

/// Gives every option of the root command and of the configured subcommands its
/// `DRUGCITE_<FLAG>` variable (keeping a name it already has); on/off flags read it as
/// true unless it is one of `0`, `false`, `no`, `off`, `n`, `f` or empty.
pub(crate) fn with_env_names(command: Command) -> Command {
    let command = name_envs(command);
    CONFIGURED_SUBCOMMANDS
        .into_iter()
        .fold(command, |command, name| {
            command.mut_subcommand(name, name_envs)
        })
}

fn name_envs(mut command: Command) -> Command {
    let settings: Vec<(clap::Id, String, bool)> = command
        .get_arguments()
        .filter(|arg| is_setting(arg))
        .filter_map(|arg| {
            let long = arg.get_long()?.to_owned();
            Some((arg.get_id().clone(), long, arg.get_env().is_some()))
        })
        .collect();
    for (id, long, named) in settings {
        command = command.mut_arg(id, |arg| {
            let arg = if named { arg } else { arg.env(env_name(&long)) };
            if is_switch(&arg) {
                arg.value_parser(FalseyValueParser::new())
            } else {
                arg
            }
        });
    }
    command
}

/// An option a file or variable may set: named, not help or version, not a positional.
pub fn is_setting(arg: &Arg) -> bool {
    arg.get_long().is_some()
        && !matches!(
            arg.get_action(),
            ArgAction::Help | ArgAction::HelpLong | ArgAction::HelpShort | ArgAction::Version
        )
        && arg.get_id() != "config"
}

/// An on/off flag (no value on the command line).
pub fn is_switch(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::SetTrue)
}

#[cfg(test)]
mod tests;
