//! API keys owned by accounts: made (the key shown once, its SHA-256 stored), listed,
//! revoked (bumping the key revision, so every server's cache lets go within its poll), and
//! checked on every keyed request through the key cache (constant-time hash comparison).
//! Never stores or logs a key.

use std::path::Path;
use std::sync::Arc;

use crate::grant::KeyGrant;
use crate::ids::{hex, now};
use crate::key_cache::bump_revision;
use crate::{AccountError, Accounts, KeyName};
use drugcite_core::domain::ApiKey;

use crate::scopes::{read_legacy_key_file, AuthFailure, KeyRecord, LegacyKey, Scope};

type KeyRow = (String, String, String, i64, Option<i64>, Option<i64>);

const KEY_COLUMNS: &str = "k.id, k.name, k.scopes, k.created_at, k.revoked_at, k.last_used_at";

fn record((id, name, scopes, created_at, revoked_at, last_used_at): KeyRow) -> KeyRecord {
    let unix = |t: i64| u64::try_from(t).unwrap_or(0);
    KeyRecord {
        id,
        name,
        scopes: Scope::parse_list(&scopes).unwrap_or_default(),
        created_at: unix(created_at),
        revoked_at: revoked_at.map(unix),
        last_used_at: last_used_at.map(unix),
    }
}

impl Accounts {
    /// A new key for `account_id`; the returned `ApiKey` is the only copy of the key.
    pub async fn create_key(
        &self,
        account_id: &str,
        name: &KeyName,
        scopes: &[Scope],
    ) -> Result<(KeyRecord, ApiKey), AccountError> {
        let key = ApiKey::generate();
        let created_at = now();
        sqlx::query("INSERT INTO api_keys (id, account_id, name, scopes, sha256, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(key.id())
            .bind(account_id)
            .bind(name.as_str())
            .bind(Scope::join(scopes))
            .bind(hex(&key.hash()))
            .bind(created_at)
            .execute(&self.pool)
            .await?;
        let row = (
            key.id().to_owned(),
            name.as_str().to_owned(),
            Scope::join(scopes),
            created_at,
            None,
            None,
        );
        Ok((record(row), key))
    }

    /// The keys of one account, newest first (`last_used_at` as of this server's last usage
    /// write, which this call makes first).
    pub async fn keys_of(&self, account_id: &str) -> Result<Vec<KeyRecord>, AccountError> {
        self.settle().await?;
        let rows: Vec<KeyRow> = sqlx::query_as(&format!(
            "SELECT {KEY_COLUMNS} FROM api_keys k WHERE k.account_id = $1 ORDER BY k.created_at DESC, k.id"
        ))
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(record).collect())
    }

    /// Every key with its account's email (the operator's `keys list`).
    pub async fn all_keys(&self) -> Result<Vec<(KeyRecord, String)>, AccountError> {
        self.settle().await?;
        type Row = (
            String,
            String,
            String,
            i64,
            Option<i64>,
            Option<i64>,
            String,
        );
        let rows: Vec<Row> = sqlx::query_as(&format!(
            "SELECT {KEY_COLUMNS}, a.email FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.created_at, k.id"
        ))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, name, scopes, created, revoked, used, email)| {
                (record((id, name, scopes, created, revoked, used)), email)
            })
            .collect())
    }

    /// Revokes a key; with `owner`, only if that account owns it (the console), else any (the CLI).
    pub async fn revoke_key(
        &self,
        owner: Option<&str>,
        key_id: &str,
    ) -> Result<KeyRecord, AccountError> {
        let select = format!("SELECT {KEY_COLUMNS} FROM api_keys k WHERE k.id = $1");
        let row: Option<KeyRow> = match owner {
            Some(owner) => {
                sqlx::query_as(&format!("{select} AND k.account_id = $2"))
                    .bind(key_id)
                    .bind(owner)
                    .fetch_optional(&self.pool)
                    .await?
            }
            None => {
                sqlx::query_as(&select)
                    .bind(key_id)
                    .fetch_optional(&self.pool)
                    .await?
            }
        };
        let mut key = row
            .map(record)
            .ok_or_else(|| AccountError::UnknownKey(key_id.to_owned()))?;
        let at = now();
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
            .bind(at)
            .bind(key_id)
            .execute(&mut *tx)
            .await?;
        bump_revision(&mut tx).await?;
        tx.commit().await?;
        self.keys.forget(key_id);
        key.revoked_at.get_or_insert(u64::try_from(at).unwrap_or(0));
        Ok(key)
    }

    /// Checks a presented key against its stored hash, in constant time, through this
    /// server's key cache: the database is read on a miss only, and a revocation made on any
    /// server holds here within `Metering::key_poll_every`.
    pub async fn authenticate_key(
        &self,
        key: &ApiKey,
    ) -> Result<Result<Arc<KeyGrant>, AuthFailure>, AccountError> {
        self.keys.check(&self.pool, key.id(), &key.hash()).await
    }

    /// Moves keys of a legacy key file to the operator account, keeping ids, names, scopes,
    /// dates, revocations and hashes; keys already present are left alone. Returns how many
    /// were added.
    pub async fn import_legacy_keys(&self, keys: &[LegacyKey]) -> Result<usize, AccountError> {
        let operator = self.operator().await?;
        let mut tx = self.pool.begin().await?;
        let mut added = 0;
        for key in keys {
            let result = sqlx::query("INSERT INTO api_keys (id, account_id, name, scopes, sha256, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING")
                .bind(&key.record.id)
                .bind(&operator.id)
                .bind(&key.record.name)
                .bind(Scope::join(&key.record.scopes))
                .bind(&key.sha256)
                .bind(i64::try_from(key.record.created_at).unwrap_or(0))
                .bind(key.record.revoked_at.map(|t| i64::try_from(t).unwrap_or(0)))
                .execute(&mut *tx)
                .await?;
            added += usize::try_from(result.rows_affected()).unwrap_or(0);
        }
        tx.commit().await?;
        Ok(added)
    }

    /// Imports a legacy `keys.json` (see `import_legacy_keys`) and renames it
    /// `keys.json.migrated`, so it is read once. Returns how many keys were added.
    pub async fn migrate_key_file(&self, path: &Path) -> Result<usize, AccountError> {
        let keys = read_legacy_key_file(path).map_err(|e| AccountError::Database(e.to_string()))?;
        if keys.is_empty() && !path.exists() {
            return Ok(0);
        }
        let added = self.import_legacy_keys(&keys).await?;
        std::fs::rename(path, path.with_extension("json.migrated"))
            .map_err(|e| AccountError::Database(format!("renaming {}: {e}", path.display())))?;
        Ok(added)
    }
}
