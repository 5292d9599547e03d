//! The accounts database: SQLite in the data dir by default, PostgreSQL when given a
//! `postgres://` URL; one schema for both, from `migrations/`, applied in order at open.
//! Owns connecting and migrating only; queries live with the concept they serve.

use std::path::Path;
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, ConnectOptions, Executor};

use super::AccountError;

/// The schema, in order; each applied once, in its own transaction.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/0001_accounts.sql")),
    (
        2,
        include_str!("../migrations/0002_key_cache_and_leases.sql"),
    ),
    (3, include_str!("../migrations/0003_email_tokens.sql")),
];

/// Where accounts live.
#[derive(Clone, Debug)]
pub enum Database {
    /// `DIR/accounts.sqlite`, the default.
    Sqlite(std::path::PathBuf),
    /// A `postgres://` URL shared by several servers.
    Postgres(String),
}

impl Database {
    /// `--database-url`: a `postgres://`/`postgresql://` URL, else the SQLite file in `data_dir`.
    pub fn choose(url: Option<&str>, data_dir: &Path) -> Result<Self, AccountError> {
        match url {
            None => Ok(Self::Sqlite(data_dir.join("accounts.sqlite"))),
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Ok(Self::Postgres(url.to_owned()))
            }
            Some(_) => Err(AccountError::BadDatabaseUrl),
        }
    }

    fn url(&self) -> String {
        match self {
            Self::Sqlite(path) => format!("sqlite://{}?mode=rwc", path.display()),
            Self::Postgres(url) => url.clone(),
        }
    }
}

/// Connects and applies the migrations not yet applied.
pub async fn open(database: &Database) -> Result<AnyPool, AccountError> {
    sqlx::any::install_default_drivers();
    if let Database::Sqlite(path) = database {
        create_private(path)
            .map_err(|e| AccountError::Database(format!("{}: {e}", path.display())))?;
    }
    let options = AnyConnectOptions::from_str(&database.url())?.disable_statement_logging();
    let is_sqlite = matches!(database, Database::Sqlite(_));
    let pool = AnyPoolOptions::new()
        .max_connections(if is_sqlite { 4 } else { 8 })
        .acquire_timeout(Duration::from_secs(10))
        .after_connect(move |connection, _| {
            Box::pin(async move {
                if is_sqlite {
                    connection
                        .execute("PRAGMA busy_timeout = 10000; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
                        .await?;
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await?;
    if is_sqlite {
        write_ahead_log(&pool).await?;
    }
    migrate(&pool).await?;
    Ok(pool)
}

/// Puts a SQLite database in write-ahead-log mode (readers never wait for the writer), once:
/// the mode is kept in the file, and switching needs an exclusive lock that SQLite does not wait
/// for, so a connection that finds the mode already set must not ask for it again (servers and
/// tools opening one file together answered "database is locked"). A switch that meets another
/// connection is retried for the busy timeout.
async fn write_ahead_log(pool: &AnyPool) -> Result<(), AccountError> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(pool)
            .await?;
        if mode.eq_ignore_ascii_case("wal") {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(AccountError::Database(format!(
                "the accounts database stays in {mode} mode: another program holds it"
            )));
        }
        let switched = sqlx::query_scalar::<_, String>("PRAGMA journal_mode = WAL")
            .fetch_one(pool)
            .await;
        match switched {
            Ok(mode) if mode.eq_ignore_ascii_case("wal") => return Ok(()),
            Err(e) if !is_busy(&e) => return Err(e.into()),
            _ => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

/// SQLite's SQLITE_BUSY ("database is locked").
fn is_busy(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .and_then(|e| e.code())
        .is_some_and(|code| code == "5")
}

/// Creates the SQLite file, if missing, readable by its owner only (SQLite gives its WAL
/// and shared-memory files the same mode).
fn create_private(path: &Path) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(()),
    }
}

/// Applies each migration not yet recorded. Claiming the version is the transaction's first
/// statement (a write), so concurrent starts on one database apply each migration once: the
/// others wait for the claim's commit and then find it taken.
async fn migrate(pool: &AnyPool) -> Result<(), AccountError> {
    pool.execute("CREATE TABLE IF NOT EXISTS drugcite_migrations (version BIGINT PRIMARY KEY)")
        .await?;
    for (version, sql) in MIGRATIONS {
        let mut tx = pool.begin().await?;
        let claimed = sqlx::query(
            "INSERT INTO drugcite_migrations (version) VALUES ($1) ON CONFLICT (version) DO NOTHING",
        )
        .bind(version)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 0 {
            continue;
        }
        sqlx::raw_sql(sql).execute(&mut *tx).await?;
        tx.commit().await?;
    }
    Ok(())
}
