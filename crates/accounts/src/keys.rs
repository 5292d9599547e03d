//! API keys owned by accounts: made (the key shown once, its SHA-256 stored), listed,
//! revoked, and checked on every keyed request against the database (constant-time hash
//! comparison), so a revocation holds on every server at once. Never stores or logs a key.

use subtle::ConstantTimeEq;

use crate::grant::KeyGrant;
use crate::ids::{hex, now};
use crate::{AccountError, Accounts, KeyName};
use drugcite_core::domain::ApiKey;
use std::path::Path;

use crate::scopes::{read_legacy_key_file, AuthFailure, KeyRecord, LegacyKey, Scope};

type KeyRow = (String, String, String, i64, Option<i64>);

fn record((id, name, scopes, created_at, revoked_at): KeyRow) -> KeyRecord {
    KeyRecord {
        id,
        name,
        scopes: Scope::parse_list(&scopes).unwrap_or_default(),
        created_at: u64::try_from(created_at).unwrap_or(0),
        revoked_at: revoked_at.map(|t| u64::try_from(t).unwrap_or(0)),
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
        );
        Ok((record(row), key))
    }

    /// The keys of one account, newest first.
    pub async fn keys_of(&self, account_id: &str) -> Result<Vec<KeyRecord>, AccountError> {
        let rows: Vec<KeyRow> = sqlx::query_as(
            "SELECT id, name, scopes, created_at, revoked_at FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(record).collect())
    }

    /// Every key with its account's email (the operator's `keys list`).
    pub async fn all_keys(&self) -> Result<Vec<(KeyRecord, String)>, AccountError> {
        let rows: Vec<(String, String, String, i64, Option<i64>, String)> = sqlx::query_as(
            "SELECT k.id, k.name, k.scopes, k.created_at, k.revoked_at, a.email FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.created_at, k.id",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, name, scopes, created, revoked, email)| {
                (record((id, name, scopes, created, revoked)), email)
            })
            .collect())
    }

    /// Revokes a key; with `owner`, only if that account owns it (the console), else any (the CLI).
    pub async fn revoke_key(
        &self,
        owner: Option<&str>,
        key_id: &str,
    ) -> Result<KeyRecord, AccountError> {
        let select = "SELECT id, name, scopes, created_at, revoked_at FROM api_keys WHERE id = $1";
        let row: Option<KeyRow> = match owner {
            Some(owner) => {
                sqlx::query_as(&format!("{select} AND account_id = $2"))
                    .bind(key_id)
                    .bind(owner)
                    .fetch_optional(&self.pool)
                    .await?
            }
            None => {
                sqlx::query_as(select)
                    .bind(key_id)
                    .fetch_optional(&self.pool)
                    .await?
            }
        };
        let mut key = row
            .map(record)
            .ok_or_else(|| AccountError::UnknownKey(key_id.to_owned()))?;
        let at = now();
        sqlx::query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
            .bind(at)
            .bind(key_id)
            .execute(&self.pool)
            .await?;
        key.revoked_at.get_or_insert(u64::try_from(at).unwrap_or(0));
        Ok(key)
    }

    /// Checks a presented key against the stored hash, in constant time.
    pub async fn authenticate_key(
        &self,
        key: &ApiKey,
    ) -> Result<Result<KeyGrant, AuthFailure>, AccountError> {
        let row: Option<(String, String, String, Option<i64>)> = sqlx::query_as(
            "SELECT account_id, scopes, sha256, revoked_at FROM api_keys WHERE id = $1",
        )
        .bind(key.id())
        .fetch_optional(&self.pool)
        .await?;
        let Some((account_id, scopes, sha256, revoked_at)) = row else {
            return Ok(Err(AuthFailure::Invalid));
        };
        if !bool::from(sha256.as_bytes().ct_eq(hex(&key.hash()).as_bytes())) {
            return Ok(Err(AuthFailure::Invalid));
        }
        if revoked_at.is_some() {
            return Ok(Err(AuthFailure::Revoked));
        }
        Ok(Ok(KeyGrant {
            key_id: key.id().to_owned(),
            account_id,
            scopes: Scope::parse_list(&scopes).unwrap_or_default(),
        }))
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
