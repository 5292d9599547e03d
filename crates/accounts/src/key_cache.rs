//! The keys a server has seen, in memory: key id → stored hash, revocation and grant, each
//! tagged with the database's key revision it was read at, and each thread's last key found.
//! Trusts an entry only while the revision it polls has not moved past it. Reads the database
//! only for misses and the poll.

use std::cell::RefCell;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;

use moka::sync::Cache;
use sqlx::AnyPool;
use subtle::ConstantTimeEq;

use crate::grant::KeyGrant;
use crate::scopes::{AuthFailure, Scope};
use crate::AccountError;

/// Tells a process's key caches apart in the threads' last found keys.
static NEXT_CACHE: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The key this thread found last, so that a client sending one key many times finds it
    /// without the shared cache's bookkeeping (read log, housekeeping) on every request.
    static LAST_FOUND: RefCell<Option<LastFound>> = const { RefCell::new(None) };
}

/// An entry as one thread last found it in cache `cache`, when that cache had dropped entries
/// `drops` times: trusted only while it has dropped none since.
struct LastFound {
    cache: u64,
    drops: u64,
    entry: Arc<CachedKey>,
}

/// One key as stored, read at `revision`.
struct CachedKey {
    /// `None` for a corrupt stored hash, which matches no key.
    sha256: Option<[u8; 32]>,
    revoked: bool,
    grant: Arc<KeyGrant>,
    revision: i64,
}

pub(crate) struct KeyCache {
    /// foldhash: unknown ids are never cached, so a client cannot choose the keys.
    keys: Cache<String, Arc<CachedKey>, foldhash::fast::RandomState>,
    /// The newest key revision this server has read.
    revision: AtomicI64,
    /// This cache among the process's caches.
    instance: u64,
    /// How often entries were dropped (a newer revision polled, a key forgotten).
    drops: AtomicU64,
}

type KeyRow = (String, String, String, Option<i64>, i64, i64);

impl KeyCache {
    pub fn new(capacity: u64) -> Self {
        Self {
            keys: Cache::builder()
                .max_capacity(capacity)
                .build_with_hasher(foldhash::fast::RandomState::default()),
            revision: AtomicI64::new(i64::MIN),
            instance: NEXT_CACHE.fetch_add(1, Ordering::Relaxed),
            drops: AtomicU64::new(0),
        }
    }

    /// Checks a presented key (id and SHA-256 of the whole key) against the cache, reading the
    /// database on a miss; the hash comparison is constant-time.
    pub async fn check(
        &self,
        pool: &AnyPool,
        id: &str,
        sha256: &[u8; 32],
    ) -> Result<Result<Arc<KeyGrant>, AuthFailure>, AccountError> {
        let cached = match self.found(id) {
            Some(entry) if entry.revision >= self.revision.load(Ordering::Acquire) => Some(entry),
            _ => None,
        };
        let entry = match cached {
            Some(entry) => entry,
            None => match self.read(pool, id).await? {
                Some(entry) => entry,
                None => return Ok(Err(AuthFailure::Invalid)),
            },
        };
        if !entry
            .sha256
            .is_some_and(|stored| bool::from(stored.ct_eq(sha256)))
        {
            return Ok(Err(AuthFailure::Invalid));
        }
        if entry.revoked {
            return Ok(Err(AuthFailure::Revoked));
        }
        Ok(Ok(Arc::clone(&entry.grant)))
    }

    /// The entry of `id`: this thread's last found key if it is that key and nothing was
    /// dropped since, else the shared cache's (which becomes this thread's last found).
    fn found(&self, id: &str) -> Option<Arc<CachedKey>> {
        let drops = self.drops.load(Ordering::Acquire);
        let last = LAST_FOUND.with_borrow(|last| {
            last.as_ref()
                .filter(|last| last.cache == self.instance && last.drops == drops)
                .filter(|last| last.entry.grant.key_id == id)
                .map(|last| Arc::clone(&last.entry))
        });
        if last.is_some() {
            return last;
        }
        let entry = self.keys.get(id)?;
        LAST_FOUND.set(Some(LastFound {
            cache: self.instance,
            drops,
            entry: Arc::clone(&entry),
        }));
        Some(entry)
    }

    /// Reads one key with the revision in one statement (one snapshot), and caches it. Unknown
    /// ids are not cached: guesses must not fill the cache.
    async fn read(&self, pool: &AnyPool, id: &str) -> Result<Option<Arc<CachedKey>>, AccountError> {
        let row: Option<KeyRow> = sqlx::query_as(
            "SELECT k.account_id, k.scopes, k.sha256, k.revoked_at, a.unlimited, \
             (SELECT revision FROM grant_revision WHERE id = 1) \
             FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = $1",
        )
        .bind(id)
        .fetch_optional(pool)
        .await?;
        let Some((account_id, scopes, sha256, revoked_at, unlimited, revision)) = row else {
            return Ok(None);
        };
        let entry = Arc::new(CachedKey {
            sha256: parse_hex(&sha256),
            revoked: revoked_at.is_some(),
            grant: Arc::new(KeyGrant {
                key_id: id.to_owned(),
                account_id,
                scopes: Scope::parse_list(&scopes).unwrap_or_default(),
                unlimited: unlimited != 0,
            }),
            revision,
        });
        self.keys.insert(id.to_owned(), Arc::clone(&entry));
        Ok(Some(entry))
    }

    /// Reads the key revision; when it moved, every entry read before it is dropped.
    pub async fn poll(&self, pool: &AnyPool) -> Result<(), AccountError> {
        let revision: i64 = sqlx::query_scalar("SELECT revision FROM grant_revision WHERE id = 1")
            .fetch_one(pool)
            .await?;
        if self.revision.fetch_max(revision, Ordering::AcqRel) < revision {
            self.keys.invalidate_all();
            self.drops.fetch_add(1, Ordering::AcqRel);
        }
        Ok(())
    }

    /// Drops one key at once (a change made through this server).
    pub fn forget(&self, id: &str) {
        self.keys.invalidate(id);
        self.drops.fetch_add(1, Ordering::AcqRel);
    }
}

/// Bumps the key revision inside `tx`, so every server drops what it cached before the change.
pub(crate) async fn bump_revision(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
) -> Result<(), AccountError> {
    sqlx::query("UPDATE grant_revision SET revision = revision + 1 WHERE id = 1")
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// 64 hex digits as 32 bytes; anything else (a corrupt row) as `None`, which matches no key.
fn parse_hex(text: &str) -> Option<[u8; 32]> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; 32];
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_hashes_parse_and_corrupt_ones_match_nothing() {
        let hex: String = (0u8..32).map(|b| format!("{b:02x}")).collect();
        let parsed = parse_hex(&hex).unwrap();
        assert_eq!(parsed.to_vec(), (0u8..32).collect::<Vec<_>>());
        assert_eq!(parse_hex("ff"), None);
        assert_eq!(parse_hex(&"zz".repeat(32)), None);
    }

    fn entry(id: &str, revision: i64) -> Arc<CachedKey> {
        Arc::new(CachedKey {
            sha256: Some([7; 32]),
            revoked: false,
            grant: Arc::new(KeyGrant {
                key_id: id.to_owned(),
                account_id: "account".to_owned(),
                scopes: vec![Scope::Verify],
                unlimited: false,
            }),
            revision,
        })
    }

    #[test]
    fn a_threads_last_key_is_trusted_only_while_its_cache_dropped_nothing() {
        let cache = KeyCache::new(10);
        let other = KeyCache::new(10);
        cache.keys.insert("aaa".to_owned(), entry("aaa", 1));
        assert!(cache.found("aaa").is_some(), "from the shared cache");
        assert!(cache.found("aaa").is_some(), "this thread's last found");
        assert!(cache.found("bbb").is_none());
        assert!(
            other.found("aaa").is_none(),
            "another cache's key is not this one's"
        );
        cache.forget("aaa");
        assert!(
            cache.found("aaa").is_none(),
            "a forgotten key is gone for every thread"
        );
        cache.keys.insert("aaa".to_owned(), entry("aaa", 2));
        assert_eq!(cache.found("aaa").map(|e| e.revision), Some(2));
        assert_eq!(cache.found("aaa").map(|e| e.revision), Some(2));
    }
}
