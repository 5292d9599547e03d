//! API keys: created, listed and revoked by the CLI, checked by the server. Only SHA-256
//! hashes are stored (`DIR/keys.json`, mode 0600, replaced atomically under a lock);
//! comparison is constant-time. The server re-reads the file when it changes, so revocation
//! is immediate; checking a key never touches the disk (see `KeyRing::refresh_if_changed`).

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use crate::domain::ApiKey;

const MAX_NAME_CHARS: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Search,
    Verify,
    Graph,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Search, Scope::Verify, Scope::Graph];

    /// Parses a comma-separated list such as `search,verify`.
    pub fn parse_list(list: &str) -> Result<Vec<Scope>, KeyError> {
        let mut scopes = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let scope = match name {
                "search" => Scope::Search,
                "verify" => Scope::Verify,
                "graph" => Scope::Graph,
                other => return Err(KeyError::UnknownScope(other.to_owned())),
            };
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
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRecord {
    pub id: String,
    pub name: String,
    pub scopes: Vec<Scope>,
    /// Unix seconds.
    pub created_at: u64,
    pub revoked_at: Option<u64>,
    /// Hex SHA-256 of the whole key.
    sha256: String,
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("unknown scope {0:?}: use a comma-separated list of search, verify, graph")]
    UnknownScope(String),
    #[error("key name must be 1 to {MAX_NAME_CHARS} characters")]
    BadName,
    #[error("no key with id {0}")]
    UnknownId(String),
    #[error("key file {path}: {reason}")]
    File { path: String, reason: String },
}

/// Why a presented key was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthFailure {
    Invalid,
    Revoked,
}

#[derive(Default, Serialize, Deserialize)]
struct KeyFile {
    keys: Vec<KeyRecord>,
}

/// The key file, for the CLI's create / list / revoke.
pub struct KeyStore {
    path: PathBuf,
}

impl KeyStore {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    pub fn create(&self, name: &str, scopes: Vec<Scope>) -> Result<(KeyRecord, ApiKey), KeyError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
            return Err(KeyError::BadName);
        }
        let key = ApiKey::generate();
        let record = KeyRecord {
            id: key.id().to_owned(),
            name: name.to_owned(),
            scopes,
            created_at: now(),
            revoked_at: None,
            sha256: hex(&key.hash()),
        };
        self.update(|file| file.keys.push(record.clone()))?;
        Ok((record, key))
    }

    pub fn list(&self) -> Result<Vec<KeyRecord>, KeyError> {
        Ok(read_key_file(&self.path)?.keys)
    }

    pub fn revoke(&self, id: &str) -> Result<KeyRecord, KeyError> {
        let mut revoked = None;
        self.update(|file| {
            if let Some(record) = file.keys.iter_mut().find(|k| k.id == id) {
                record.revoked_at.get_or_insert_with(now);
                revoked = Some(record.clone());
            }
        })?;
        revoked.ok_or_else(|| KeyError::UnknownId(id.to_owned()))
    }

    /// Read-modify-write under an exclusive lock, replacing the file by rename.
    fn update(&self, change: impl FnOnce(&mut KeyFile)) -> Result<(), KeyError> {
        let err = |reason: String| KeyError::File {
            path: self.path.display().to_string(),
            reason,
        };
        if let Some(parent) = self.path.parent() {
            fs::create_dir_all(parent).map_err(|e| err(e.to_string()))?;
        }
        let lock =
            File::create(self.path.with_extension("lock")).map_err(|e| err(e.to_string()))?;
        lock.lock().map_err(|e| err(e.to_string()))?;
        let mut file = read_key_file(&self.path)?;
        change(&mut file);
        let staged = self.path.with_extension("json.new");
        let body = serde_json::to_vec_pretty(&file).map_err(|e| err(e.to_string()))?;
        let _ = fs::remove_file(&staged);
        private_file(&staged)
            .and_then(|mut f| f.write_all(&body).and_then(|()| f.sync_all()))
            .map_err(|e| err(e.to_string()))?;
        fs::rename(&staged, &self.path).map_err(|e| err(e.to_string()))
    }
}

/// A new file only its owner may read or write (0600 whatever the umask).
fn private_file(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Warns when others than the owner may read or write the key file.
fn warn_if_shared(path: &Path, metadata: &fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = metadata.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            tracing::warn!(
                path = %path.display(),
                "the key file has mode {mode:o}: others may read it; chmod 600 it"
            );
        }
    }
    #[cfg(not(unix))]
    let _ = (path, metadata);
}

/// The server's view of the keys: held in memory, reloaded by `refresh_if_changed` when the
/// file's size or mtime changes. A file that cannot be read or parsed keeps the previous keys
/// and is reported once per change.
pub struct KeyRing {
    path: PathBuf,
    loaded: RwLock<Loaded>,
}

#[derive(Default)]
struct Loaded {
    /// Size and mtime of the file last looked at (`None`: no file).
    stamp: Option<FileStamp>,
    keys: Arc<Vec<KeyRecord>>,
}

type FileStamp = (SystemTime, u64);

impl KeyRing {
    /// Loads the key file now (blocking I/O: call it before serving, or off the async threads).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        let ring = Self {
            path: path.into(),
            loaded: RwLock::new(Loaded::default()),
        };
        ring.refresh_if_changed();
        ring
    }

    /// Blocking: re-reads the key file if it changed since the last look.
    pub fn refresh_if_changed(&self) {
        let metadata = fs::metadata(&self.path).ok();
        let stamp = metadata
            .as_ref()
            .map(|m| (m.modified().unwrap_or(UNIX_EPOCH), m.len()));
        if self.read_loaded().stamp == stamp {
            return;
        }
        if let Some(metadata) = &metadata {
            warn_if_shared(&self.path, metadata);
        }
        let keys = match read_key_file(&self.path) {
            Ok(file) => Arc::new(file.keys),
            Err(e) => {
                tracing::error!("keeping the previous keys: {e}");
                Arc::clone(&self.read_loaded().keys)
            }
        };
        let mut loaded = self.loaded.write().unwrap_or_else(|e| e.into_inner());
        *loaded = Loaded { stamp, keys };
    }

    /// Checks a key against the keys in memory; no I/O.
    pub fn authenticate(&self, key: &ApiKey) -> Result<KeyRecord, AuthFailure> {
        let keys = Arc::clone(&self.read_loaded().keys);
        let record = keys
            .iter()
            .find(|k| k.id == key.id())
            .ok_or(AuthFailure::Invalid)?;
        let stored = unhex(&record.sha256).ok_or(AuthFailure::Invalid)?;
        if !bool::from(stored.as_slice().ct_eq(&key.hash())) {
            return Err(AuthFailure::Invalid);
        }
        if record.revoked_at.is_some() {
            return Err(AuthFailure::Revoked);
        }
        Ok(record.clone())
    }

    fn read_loaded(&self) -> std::sync::RwLockReadGuard<'_, Loaded> {
        self.loaded.read().unwrap_or_else(|e| e.into_inner())
    }
}

fn read_key_file(path: &Path) -> Result<KeyFile, KeyError> {
    match fs::read(path) {
        Ok(body) => serde_json::from_slice(&body).map_err(|e| KeyError::File {
            path: path.display().to_string(),
            reason: e.to_string(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(KeyFile::default()),
        Err(e) => Err(KeyError::File {
            path: path.display().to_string(),
            reason: e.to_string(),
        }),
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_authenticate_revoke() {
        let dir = tempfile::tempdir().unwrap();
        let store = KeyStore::new(dir.path().join("keys.json"));
        let ring = KeyRing::new(dir.path().join("keys.json"));
        let (record, key) = store.create("ci", vec![Scope::Search]).unwrap();
        assert_eq!(
            ring.authenticate(&key),
            Err(AuthFailure::Invalid),
            "not reloaded yet"
        );
        ring.refresh_if_changed();
        assert_eq!(ring.authenticate(&key).unwrap().scopes, [Scope::Search]);
        let stored = fs::read_to_string(dir.path().join("keys.json")).unwrap();
        assert!(
            !stored.contains(key.expose()),
            "the key itself is never stored"
        );
        let forged = ApiKey::parse(&format!("dck_{}_{}", record.id, "0".repeat(40))).unwrap();
        assert_eq!(ring.authenticate(&forged), Err(AuthFailure::Invalid));
        assert_eq!(
            ring.authenticate(&ApiKey::generate()),
            Err(AuthFailure::Invalid)
        );
        store.revoke(&record.id).unwrap();
        ring.refresh_if_changed();
        assert_eq!(ring.authenticate(&key), Err(AuthFailure::Revoked));
        assert!(matches!(store.revoke("nope"), Err(KeyError::UnknownId(_))));
        assert_eq!(store.list().unwrap().len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn the_key_file_is_private_and_a_corrupt_one_keeps_the_keys() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys.json");
        let store = KeyStore::new(&path);
        let (_, key) = store.create("ci", vec![Scope::Search]).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let ring = KeyRing::new(&path);
        fs::write(&path, "{ not json").unwrap();
        ring.refresh_if_changed();
        assert!(ring.authenticate(&key).is_ok(), "previous keys kept");
    }

    #[test]
    fn scope_lists() {
        assert_eq!(
            Scope::parse_list("verify, search,search").unwrap(),
            [Scope::Search, Scope::Verify]
        );
        assert!(Scope::parse_list("admin").is_err());
        assert!(Scope::parse_list(" , ").is_err());
    }
}
