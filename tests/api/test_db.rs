//! The accounts databases the tests run on: the SQLite file of the subset's data dir, or a
//! fresh PostgreSQL database per test on the server named by `$DRUGCITE_TEST_POSTGRES_URL`
//! (`scripts/postgres.sh` starts one; `scripts/test.sh` does so before the tests), and accounts
//! made on them with an exact credit.

use drugcite_accounts::scopes::Scope;
use drugcite_accounts::{Account, Accounts, Credit, Email, KeyName};
use drugcite_core::domain::ApiKey;
use drugcite_server::startup::AccountsConfig;
use drugcite_store::DataDir;
use sqlx::Executor;

use crate::helpers::subset_index;

pub enum TestDb {
    Sqlite,
    Postgres(String),
}

impl TestDb {
    pub fn sqlite() -> Self {
        Self::Sqlite
    }

    /// A new, empty database on the test PostgreSQL server.
    pub async fn postgres() -> Self {
        let server = std::env::var("DRUGCITE_TEST_POSTGRES_URL").expect(
            "DRUGCITE_TEST_POSTGRES_URL must name a PostgreSQL server: run the tests with scripts/test.sh",
        );
        sqlx::any::install_default_drivers();
        let admin = sqlx::AnyPool::connect(&server)
            .await
            .expect("connect to PostgreSQL");
        let name = format!(
            "drugcite_test_{}",
            drugcite_core::domain::ApiKey::generate().id()
        );
        admin
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .expect("create database");
        admin.close().await;
        let (base, _) = server.rsplit_once('/').expect("a URL ending in /DATABASE");
        Self::Postgres(format!("{base}/{name}"))
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::Sqlite => "SQLite",
            Self::Postgres(_) => "PostgreSQL",
        }
    }

    /// The PostgreSQL database's URL.
    pub fn url(&self) -> String {
        match self {
            Self::Sqlite => panic!("a SQLite test database has no URL"),
            Self::Postgres(url) => url.clone(),
        }
    }

    pub fn config(&self) -> AccountsConfig {
        AccountsConfig {
            database_url: match self {
                Self::Sqlite => None,
                Self::Postgres(url) => Some(url.clone()),
            },
            ..AccountsConfig::default()
        }
    }

    pub async fn open(&self) -> Accounts {
        self.config()
            .open(&DataDir::new(&subset_index().data_dir))
            .await
            .expect("accounts database")
    }
}

/// A new account with exactly `credit` left, and a key of it with every scope.
pub async fn account_with(accounts: &Accounts, credit: Credit) -> (Account, String) {
    let email = Email::parse(&format!("{}@example.org", ApiKey::generate().id())).unwrap();
    let account = accounts.create_account(&email, None, false).await.unwrap();
    let adjust = Credit::from_micros(credit.micros() - account.credit.micros());
    accounts
        .grant(&account.id, adjust, "test setup")
        .await
        .unwrap();
    let (_, key) = accounts
        .create_key(&account.id, &KeyName::parse("test").unwrap(), &Scope::ALL)
        .await
        .unwrap();
    (account, key.expose().to_owned())
}
