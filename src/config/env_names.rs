//! The `DRUGCITE_<FLAG>` variable of every setting of the configured commands, and how an on/off
//! flag reads one. Names variables; reads none.

use clap::builder::FalseyValueParser;
use clap::Command;

use super::flags::{is_setting, is_switch};

/// The subcommands whose flags the file and `DRUGCITE_<FLAG>` variables set.
pub const CONFIGURED_SUBCOMMANDS: [&str; 3] = ["serve", "ingest", "sync-neo4j"];

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
