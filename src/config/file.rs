//! The settings file: TOML with top-level keys for the global flags and the sections `[serve]`,
//! `[ingest]` and `[neo4j]`; each key is a flag's name with `_` for `-`. Read strictly: an
//! unknown section or key, or a value the flag would refuse, is an error naming the file and
//! key. Knows the flags only through the clap command it is applied to.

use std::path::{Path, PathBuf};

use clap::{Arg, Command};

use super::flags::{is_setting, is_switch};

/// Where in the file a setting is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Top-level keys: the flags every command takes (`data_dir`, `model_dir`, …).
    Global,
    Serve,
    Ingest,
    /// Neo4j connection, for `serve`, `ingest` and `sync-neo4j`: `uri`, `user`, `password`,
    /// `timeout_secs`.
    Neo4j,
}

impl Section {
    pub const ALL: [Section; 4] = [
        Section::Global,
        Section::Serve,
        Section::Ingest,
        Section::Neo4j,
    ];

    /// The `[name]` of the section, empty for top-level keys.
    pub fn name(self) -> &'static str {
        match self {
            Section::Global => "",
            Section::Serve => "serve",
            Section::Ingest => "ingest",
            Section::Neo4j => "neo4j",
        }
    }

    /// The subcommands whose flags the section sets; none for the root command's.
    pub fn subcommands(self) -> &'static [&'static str] {
        match self {
            Section::Global => &[],
            Section::Serve => &["serve"],
            Section::Ingest => &["ingest"],
            Section::Neo4j => &["serve", "ingest", "sync-neo4j"],
        }
    }

    /// The flag a key of this section sets (`max_connections` → `max-connections`; in
    /// `[neo4j]`, `uri` → `neo4j` and `user` → `neo4j-user`).
    pub fn flag(self, key: &str) -> String {
        let flag = key.replace('_', "-");
        match (self, flag.as_str()) {
            (Section::Neo4j, "uri") => "neo4j".into(),
            (Section::Neo4j, _) => format!("neo4j-{flag}"),
            _ => flag,
        }
    }

    /// The key of a flag in this section, if the section holds it.
    pub fn key(self, flag: &str) -> Option<String> {
        let key = match (self, flag) {
            (Section::Neo4j, "neo4j") => "uri".to_owned(),
            (Section::Neo4j, _) => flag.strip_prefix("neo4j-")?.to_owned(),
            (_, flag) if flag == "neo4j" || flag.starts_with("neo4j-") => return None,
            _ => flag.to_owned(),
        };
        Some(key.replace('-', "_"))
    }

    /// `serve.addr`, or `data_dir` at the top level.
    pub fn qualified(self, key: &str) -> String {
        match self {
            Section::Global => key.to_owned(),
            section => format!("{}.{key}", section.name()),
        }
    }

    fn named(name: &str) -> Option<Section> {
        Section::ALL
            .into_iter()
            .find(|s| *s != Section::Global && s.name() == name)
    }
}

/// One `key = value` of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub section: Section,
    pub key: String,
    /// The value as the flag would be given it.
    pub value: String,
    /// Written as a TOML boolean (on/off flags take only those).
    pub boolean: bool,
}

#[derive(Debug)]
pub struct ConfigFile {
    pub path: PathBuf,
    pub settings: Vec<Setting>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("reading the settings file {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not valid TOML: {message}")]
    Syntax { path: PathBuf, message: String },
    #[error("{path}: unknown section [{section}] (known: [serve], [ingest], [neo4j])")]
    UnknownSection { path: PathBuf, section: String },
    #[error("{path}: unknown setting `{key}` (known here: {known})")]
    UnknownKey {
        path: PathBuf,
        key: String,
        known: String,
    },
    #[error("{origin}: `{key}`: {message}")]
    BadValue {
        origin: String,
        key: String,
        message: String,
    },
}

impl ConfigFile {
    pub fn read(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Self, ConfigError> {
        let table: toml::Table =
            text.parse()
                .map_err(|e: toml::de::Error| ConfigError::Syntax {
                    path: path.to_owned(),
                    message: e.message().to_owned(),
                })?;
        let mut settings = Vec::new();
        for (name, value) in table {
            match value {
                toml::Value::Table(entries) => {
                    let section =
                        Section::named(&name).ok_or_else(|| ConfigError::UnknownSection {
                            path: path.to_owned(),
                            section: name.clone(),
                        })?;
                    for (key, value) in entries {
                        settings.push(setting(path, section, key, value)?);
                    }
                }
                value => settings.push(setting(path, Section::Global, name, value)?),
            }
        }
        Ok(Self {
            path: path.to_owned(),
            settings,
        })
    }

    /// `command` with each setting as its flag's default (so the environment and the command
    /// line still override it); refuses a key no flag has, or a value the flag would refuse.
    pub fn apply(&self, mut command: Command) -> Result<Command, ConfigError> {
        for setting in &self.settings {
            command = self.apply_one(command, setting)?;
        }
        Ok(command)
    }

    fn apply_one(&self, command: Command, setting: &Setting) -> Result<Command, ConfigError> {
        let flag = setting.section.flag(&setting.key);
        let targets: Vec<&str> = match setting.section {
            Section::Global => vec![""],
            section => section.subcommands().to_vec(),
        };
        let mut found = false;
        let mut command = command;
        for target in targets {
            let Some(owner) = subcommand(&command, target) else {
                continue;
            };
            let Some(arg) = find_setting(owner, &flag) else {
                continue;
            };
            if setting.section.key(&flag).is_none() {
                continue;
            }
            self.check(arg, setting)?;
            found = true;
            let id = arg.get_id().clone();
            let value = setting.value.clone();
            let set = move |arg: Arg| arg.default_value(value);
            command = match target {
                "" => command.mut_arg(id, set),
                name => command.mut_subcommand(name, |sub| sub.mut_arg(id, set)),
            };
        }
        if found {
            return Ok(command);
        }
        Err(ConfigError::UnknownKey {
            path: self.path.clone(),
            key: setting.section.qualified(&setting.key),
            known: known_keys(&command, setting.section).join(", "),
        })
    }

    fn check(&self, arg: &Arg, setting: &Setting) -> Result<(), ConfigError> {
        let key = setting.section.qualified(&setting.key);
        let origin = self.path.display().to_string();
        if is_switch(arg) && !setting.boolean {
            return Err(ConfigError::BadValue {
                origin,
                key,
                message: format!("must be true or false, not {:?}", setting.value),
            });
        }
        check_value(arg, &setting.value).map_err(|message| ConfigError::BadValue {
            origin,
            key,
            message,
        })
    }
}

/// Whether the flag `arg` takes `value` (on/off flags take anything: see `with_env_names`);
/// else clap's reason, in one line.
pub fn check_value(arg: &Arg, value: &str) -> Result<(), String> {
    if is_switch(arg) {
        return Ok(());
    }
    let long = arg.get_long().unwrap_or("value").to_owned();
    let alone = Arg::new("value")
        .long(long.clone())
        .value_parser(arg.get_value_parser().clone());
    Command::new("drugcite")
        .no_binary_name(true)
        .arg(alone)
        .try_get_matches_from([format!("--{long}"), value.to_owned()])
        .map(drop)
        .map_err(|e| {
            let rendered = e.to_string();
            let first = rendered.lines().next().unwrap_or_default();
            first.trim_start_matches("error: ").to_owned()
        })
}

/// The root command for `""`, else the named subcommand.
pub fn subcommand<'c>(command: &'c Command, name: &str) -> Option<&'c Command> {
    match name {
        "" => Some(command),
        name => command.find_subcommand(name),
    }
}

fn find_setting<'c>(command: &'c Command, flag: &str) -> Option<&'c Arg> {
    command
        .get_arguments()
        .find(|arg| is_setting(arg) && arg.get_long() == Some(flag))
}

/// The keys a section takes, in flag order.
pub fn known_keys(command: &Command, section: Section) -> Vec<String> {
    let targets: Vec<&str> = match section {
        Section::Global => vec![""],
        section => section.subcommands().to_vec(),
    };
    let mut keys: Vec<String> = Vec::new();
    for owner in targets.into_iter().filter_map(|t| subcommand(command, t)) {
        for arg in owner.get_arguments().filter(|arg| is_setting(arg)) {
            let key = arg.get_long().and_then(|flag| section.key(flag));
            if let Some(key) = key.filter(|k| !keys.contains(k)) {
                keys.push(key);
            }
        }
    }
    keys
}

fn setting(
    path: &Path,
    section: Section,
    key: String,
    value: toml::Value,
) -> Result<Setting, ConfigError> {
    let (value, boolean) = match value {
        toml::Value::String(text) => (text, false),
        toml::Value::Integer(n) => (n.to_string(), false),
        toml::Value::Float(x) => (x.to_string(), false),
        toml::Value::Boolean(b) => (b.to_string(), true),
        other => {
            return Err(ConfigError::BadValue {
                origin: path.display().to_string(),
                key: section.qualified(&key),
                message: format!(
                    "must be a string, number or boolean, not {}",
                    other.type_str()
                ),
            })
        }
    };
    Ok(Setting {
        section,
        key,
        value,
        boolean,
    })
}
