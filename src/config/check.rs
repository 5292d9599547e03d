//! `drugcite config check`: the settings a command would run with — each value and where it
//! comes from (built-in default, the file, a `DRUGCITE_*` variable) — as TOML a file could
//! hold, secrets redacted; a bad value anywhere is an error naming its origin.

use std::fmt::Write;
use std::path::Path;

use clap::{Arg, Command};

use super::file::{check_value, subcommand, ConfigError, ConfigFile, Section};
use super::flags::{is_setting, is_switch};

/// Flags whose values are never printed.
const SECRET_FLAGS: [&str; 1] = ["neo4j-password"];
/// Flags holding a URL whose password is never printed.
const URL_FLAGS: [&str; 2] = ["database-url", "smtp-url"];

/// The effective settings of `command` (already layered over `file`) as commented TOML.
pub fn report(command: &Command, file: Option<&ConfigFile>) -> Result<String, ConfigError> {
    let mut out = String::new();
    let file_name = file.map_or("no settings file".to_owned(), |f| {
        f.path.display().to_string()
    });
    let _ = writeln!(
        out,
        "# effective settings: built-in defaults < {file_name} < DRUGCITE_* variables; flags on a command line override them all"
    );
    for section in Section::ALL {
        if section != Section::Global {
            let _ = writeln!(out, "\n[{}]", section.name());
        }
        for (arg, key) in section_args(command, section) {
            let line = entry(arg, &key, section, file)?;
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Each flag a section sets, once, with the command that owns it.
fn section_args(command: &Command, section: Section) -> Vec<(&Arg, String)> {
    let targets: Vec<&str> = match section {
        Section::Global => vec![""],
        section => section.subcommands().to_vec(),
    };
    let mut seen: Vec<(&Arg, String)> = Vec::new();
    for owner in targets.into_iter().filter_map(|t| subcommand(command, t)) {
        for arg in owner.get_arguments().filter(|arg| is_setting(arg)) {
            let key = arg.get_long().and_then(|flag| section.key(flag));
            if let Some(key) = key {
                if !seen.iter().any(|(_, k)| *k == key) {
                    seen.push((arg, key));
                }
            }
        }
    }
    seen
}

fn entry(
    arg: &Arg,
    key: &str,
    section: Section,
    file: Option<&ConfigFile>,
) -> Result<String, ConfigError> {
    let env = arg.get_env().and_then(|name| {
        Some((
            name.to_string_lossy().into_owned(),
            std::env::var(name).ok()?,
        ))
    });
    let from_file = file.is_some_and(|f| {
        f.settings
            .iter()
            .any(|s| s.section == section && s.key == key)
    });
    let default = arg.get_default_values().first();
    let (value, origin) = match (env, default) {
        (Some((name, value)), _) => {
            check_value(arg, &value).map_err(|message| ConfigError::BadValue {
                origin: format!("environment variable {name}"),
                key: section.qualified(key),
                message,
            })?;
            (value, name)
        }
        (None, Some(value)) if from_file => (value.to_string_lossy().into_owned(), "file".into()),
        (None, Some(value)) => (value.to_string_lossy().into_owned(), "default".into()),
        (None, None) if is_switch(arg) => ("false".into(), "default".into()),
        (None, None) => return Ok(format!("# {key} is not set")),
    };
    let shown = shown(arg, &value);
    Ok(format!("{key} = {shown}  # {origin}"))
}

/// The value as TOML, secrets redacted.
fn shown(arg: &Arg, value: &str) -> String {
    let flag = arg.get_long().unwrap_or_default();
    if SECRET_FLAGS.contains(&flag) && !value.is_empty() {
        return quoted("<redacted>");
    }
    if URL_FLAGS.contains(&flag) {
        return quoted(&redact_password(value));
    }
    if is_switch(arg) {
        let on = !matches!(
            value.to_ascii_lowercase().as_str(),
            "" | "0" | "false" | "no" | "off" | "n" | "f"
        );
        return on.to_string();
    }
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return value.to_owned();
    }
    quoted(value)
}

fn quoted(value: &str) -> String {
    toml::Value::String(value.to_owned()).to_string()
}

/// `postgres://user:secret@host/db` → `postgres://user:<redacted>@host/db`.
pub fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((credentials, host)) = rest.rsplit_once('@') else {
        return url.to_owned();
    };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:<redacted>@{host}"),
        None => url.to_owned(),
    }
}

/// `report` for the file `path` names (if any), over `command` not yet layered.
pub fn report_for(command: Command, path: Option<&Path>) -> Result<String, ConfigError> {
    let file = path.map(ConfigFile::read).transpose()?;
    let command = super::env_names::with_env_names(command);
    let command = match &file {
        Some(file) => file.apply(command)?,
        None => command,
    };
    report(&command, file.as_ref())
}
