//! API keys' vocabulary: scopes, the public record of a key, why a key is refused, and the
//! reader of the legacy `DIR/keys.json` (SHA-256 hashes only) that `accounts` migrates from.
//! Keys themselves live in the accounts database (`crate`); nothing here stores them.

use std::path::Path;

use serde::Deserialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Search,
    Verify,
    Graph,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Search, Scope::Verify, Scope::Graph];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Search => "search",
            Scope::Verify => "verify",
            Scope::Graph => "graph",
        }
    }

    /// Parses a comma-separated list such as `search,verify`.
    pub fn parse_list(list: &str) -> Result<Vec<Scope>, KeyError> {
        let mut scopes = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let scope = Scope::ALL
                .into_iter()
                .find(|scope| scope.as_str() == name)
                .ok_or_else(|| KeyError::UnknownScope(name.to_owned()))?;
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        if scopes.is_empty() {
            return Err(KeyError::UnknownScope(list.to_owned()));
        }
        scopes.sort();
        Ok(scopes)
    }

    /// The comma-separated form `parse_list` reads.
    pub fn join(scopes: &[Scope]) -> String {
        scopes
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// What may be shown about a key: never the key or its hash.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct KeyRecord {
    pub id: String,
    pub name: String,
    pub scopes: Vec<Scope>,
    /// Unix seconds.
    pub created_at: u64,
    pub revoked_at: Option<u64>,
    /// Unix seconds of the last request made with it (as of its server's last usage write).
    #[serde(default)]
    pub last_used_at: Option<u64>,
}

impl KeyRecord {
    /// `last_used_at` as RFC 3339 (UTC), as the key list shows it in JSON; `None`: never used.
    pub fn last_used_rfc3339(&self) -> Option<String> {
        let at = i64::try_from(self.last_used_at?).ok()?;
        let at = time::OffsetDateTime::from_unix_timestamp(at).ok()?;
        at.format(&time::format_description::well_known::Rfc3339)
            .ok()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("unknown scope {0:?}: use a comma-separated list of search, verify, graph")]
    UnknownScope(String),
    #[error("key file {path}: {reason}")]
    File { path: String, reason: String },
}

/// Why a presented key was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthFailure {
    Invalid,
    Revoked,
}

/// A key of the legacy key file: its record and the hex SHA-256 of the whole key.
#[derive(Clone, Debug, Deserialize)]
pub struct LegacyKey {
    #[serde(flatten)]
    pub record: KeyRecord,
    pub sha256: String,
}

#[derive(Default, Deserialize)]
struct KeyFile {
    keys: Vec<LegacyKey>,
}

/// The keys of a legacy `keys.json`; no file, no keys.
pub fn read_legacy_key_file(path: &Path) -> Result<Vec<LegacyKey>, KeyError> {
    let error = |reason: String| KeyError::File {
        path: path.display().to_string(),
        reason,
    };
    match std::fs::read(path) {
        Ok(body) => serde_json::from_slice::<KeyFile>(&body)
            .map(|file| file.keys)
            .map_err(|e| error(e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(error(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_lists() {
        assert_eq!(
            Scope::parse_list("verify, search,search").unwrap(),
            [Scope::Search, Scope::Verify]
        );
        assert_eq!(Scope::join(&Scope::ALL), "search,verify,graph");
        assert!(Scope::parse_list("admin").is_err());
        assert!(Scope::parse_list(" , ").is_err());
    }

    #[test]
    fn a_legacy_key_file_reads_with_its_hashes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys.json");
        assert!(read_legacy_key_file(&path).unwrap().is_empty());
        std::fs::write(&path, r#"{"keys":[{"id":"0123456789ab","name":"ci","scopes":["search"],"created_at":1,"revoked_at":null,"sha256":"ff"}]}"#).unwrap();
        let keys = read_legacy_key_file(&path).unwrap();
        assert_eq!(keys[0].record.scopes, [Scope::Search]);
        assert_eq!(keys[0].sha256, "ff");
        std::fs::write(&path, "{ not json").unwrap();
        assert!(read_legacy_key_file(&path).is_err());
    }

    #[test]
    fn last_use_reads_as_rfc3339_or_nothing() {
        let mut key = KeyRecord {
            id: "0123456789ab".into(),
            name: "ci".into(),
            scopes: vec![Scope::Verify],
            created_at: 1,
            revoked_at: None,
            last_used_at: None,
        };
        assert_eq!(key.last_used_rfc3339(), None);
        key.last_used_at = Some(1_700_000_000);
        assert_eq!(key.last_used_rfc3339().unwrap(), "2023-11-14T22:13:20Z");
    }
}
