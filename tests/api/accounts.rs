//! Accounts, keys owned by accounts, and metered credit, each test on SQLite and on
//! PostgreSQL: the legacy key file migrated, credit running out exactly, the distinct 429,
//! concurrent debits from two servers never overspending, the ledger summing to the balance
//! (servers write usage in batches, so the database catches up within a few seconds).

use std::path::Path;
use std::time::{Duration, Instant};

use drugcite_accounts::scopes::Scope;
use drugcite_accounts::{Accounts, Credit};
use drugcite_core::domain::ApiKey;
use drugcite_server::startup::AccountsConfig;
use serde_json::Value;

use crate::helpers::{
    scratch_dir, serve_config, start_server, subset_index, within_a_second, GENEROUS,
};
use crate::test_db::{account_with, TestDb};

const QUESTION: &str = r#"{"question":"warfarin bleeding","top_k":1}"#;

/// A server over the subset index whose accounts live in `db`; returns its base URL.
async fn serve(db: &TestDb) -> String {
    let mut config = serve_config(&subset_index().data_dir, GENEROUS);
    config.accounts = db.config();
    format!("http://{}", start_server(config).await)
}

async fn post(base: &str, path: &str, key: &str, body: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header("x-api-key", key)
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// Waits (at most 10 s) for the servers' usage writes to bring the balance to `expected` and
/// the ledger to sum to it. (While a server holds a credit lease, or its spend is not yet
/// written, the two differ by the lease; both reads must agree once everything is settled.)
async fn settles_at(accounts: &Accounts, id: &str, expected: Credit) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let balance = accounts.account(id).await.unwrap().credit;
        let sum: i64 = accounts
            .ledger(id)
            .await
            .unwrap()
            .iter()
            .map(|e| e.amount.micros())
            .sum();
        if balance == expected && sum == balance.micros() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "balance {balance}, not {expected}, or the ledger sums to {sum} µ$, not the balance"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Requests per endpoint in the account's usage rows.
async fn requests_of(accounts: &Accounts, id: &str, endpoint: &str) -> i64 {
    let usage = accounts.usage(id, 0).await.unwrap();
    usage
        .iter()
        .filter(|u| u.endpoint == endpoint)
        .map(|u| u.requests)
        .sum()
}

async fn credit_runs_out_exactly_at_the_configured_number_of_searches(db: TestDb) {
    let base = serve(&db).await;
    let accounts = db.open().await;
    let price = accounts.policy().prices.search;
    let (account, key) = account_with(&accounts, Credit::from_micros(price.micros() * 10)).await;
    let bad = post(
        &base,
        "/v1/search",
        &key,
        r#"{"question":"warfarin","top_k":0}"#,
    )
    .await;
    assert_eq!(bad.0, 400, "a failed request is refunded, not billed");
    for n in 0..10 {
        assert_eq!(
            post(&base, "/v1/search", &key, QUESTION).await.0,
            200,
            "search {n}"
        );
    }
    let (status, body) = post(&base, "/v1/search", &key, QUESTION).await;
    assert_eq!(
        (status, body["errorCode"].as_str()),
        (429, Some("LimitExceededError"))
    );
    assert_eq!(
        body["msg"], "credit exhausted",
        "not the rate limit's message"
    );
    let verify = reqwest::Client::new()
        .get(format!("{base}/v1/verify/{}", "0".repeat(128)))
        .header("x-api-key", &key)
        .send()
        .await
        .unwrap();
    assert_eq!(verify.status(), 200, "verify is free");
    settles_at(&accounts, &account.id, Credit::ZERO).await;
    accounts.grant(&account.id, price, "top-up").await.unwrap();
    assert_eq!(post(&base, "/v1/search", &key, QUESTION).await.0, 200);
    settles_at(&accounts, &account.id, Credit::ZERO).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let counted = (
            requests_of(&accounts, &account.id, "search").await,
            requests_of(&accounts, &account.id, "verify").await,
        );
        if counted == (11, 1) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{counted:?}: refused and failed requests are not counted"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let keys = accounts.keys_of(&account.id).await.unwrap();
    assert!(
        keys[0].last_used_rfc3339().is_some(),
        "the usage write records when the key was last used"
    );
}

async fn concurrent_debits_from_two_servers_never_overspend(db: TestDb) {
    const AFFORDABLE: usize = 25;
    const ATTEMPTS: usize = 80;
    let servers = [serve(&db).await, serve(&db).await];
    let accounts = db.open().await;
    let price = accounts.policy().prices.search;
    let credit = Credit::from_micros(price.micros() * AFFORDABLE as i64);
    let (account, key) = account_with(&accounts, credit).await;
    let started = Instant::now();
    let requests = (0..ATTEMPTS).map(|i| {
        let (base, key) = (servers[i % 2].clone(), key.clone());
        tokio::spawn(async move { post(&base, "/v1/search", &key, QUESTION).await })
    });
    let mut served = 0;
    for request in requests.collect::<Vec<_>>() {
        let (status, body) = request.await.unwrap();
        match status {
            200 => served += 1,
            _ => assert_eq!(
                (status, body["msg"].as_str()),
                (429, Some("credit exhausted"))
            ),
        }
    }
    eprintln!(
        "{}: {ATTEMPTS} concurrent searches on two servers for credit of {AFFORDABLE}: {served} served in {:.0} ms",
        db.name(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    assert_eq!(served, AFFORDABLE);
    settles_at(&accounts, &account.id, Credit::ZERO).await;
}

async fn a_revocation_holds_on_every_server(db: TestDb) {
    let servers = [serve(&db).await, serve(&db).await];
    let accounts = db.open().await;
    let (account, key) = account_with(&accounts, Credit::parse_usd("1").unwrap()).await;
    for base in &servers {
        assert_eq!(post(base, "/v1/search", &key, QUESTION).await.0, 200);
    }
    let id = ApiKey::parse(&key).unwrap().id().to_owned();
    accounts.revoke_key(Some(&account.id), &id).await.unwrap();
    for base in &servers {
        within_a_second(401, async || {
            post(base, "/v1/search", &key, QUESTION).await.0
        })
        .await;
        let (status, body) = post(base, "/v1/search", &key, QUESTION).await;
        assert_eq!(
            (status, body["errorCode"].as_str()),
            (401, Some("NotAuthorizedException"))
        );
    }
}

/// Runs each scenario on SQLite and on PostgreSQL.
macro_rules! on_both_databases {
    ($($scenario:ident),*) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $scenario() { super::$scenario(crate::test_db::TestDb::sqlite()).await })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $scenario() { super::$scenario(crate::test_db::TestDb::postgres().await).await })*
        }
    };
}

on_both_databases!(
    credit_runs_out_exactly_at_the_configured_number_of_searches,
    concurrent_debits_from_two_servers_never_overspend,
    a_revocation_holds_on_every_server
);

/// A `keys.json` of the previous release, with one active and one revoked key.
fn write_legacy_key_file(data_dir: &Path) -> (ApiKey, ApiKey) {
    let (active, revoked) = (ApiKey::generate(), ApiKey::generate());
    let entry = |key: &ApiKey, revoked_at: Option<u64>| {
        let sha256: String = key.hash().iter().map(|b| format!("{b:02x}")).collect();
        serde_json::json!({"id": key.id(), "name": "legacy", "scopes": ["search", "verify"],
            "created_at": 1_700_000_000u64, "revoked_at": revoked_at, "sha256": sha256})
    };
    let file =
        serde_json::json!({"keys": [entry(&active, None), entry(&revoked, Some(1_700_000_100))]});
    std::fs::write(data_dir.join("keys.json"), file.to_string()).unwrap();
    (active, revoked)
}

#[tokio::test]
async fn legacy_keys_are_migrated_to_the_operator_account_and_keep_working() {
    let dir = scratch_dir();
    let data_dir = crate::verify::copy_of_subset(dir.path());
    let (active, revoked) = write_legacy_key_file(&data_dir);
    let addr = start_server(serve_config(&data_dir, GENEROUS)).await;
    let base = format!("http://{addr}");
    assert_eq!(
        post(&base, "/v1/search", active.expose(), QUESTION).await.0,
        200
    );
    let (status, body) = post(&base, "/v1/search", revoked.expose(), QUESTION).await;
    assert_eq!(
        (status, body["errorCode"].as_str()),
        (401, Some("NotAuthorizedException"))
    );
    assert!(!data_dir.join("keys.json").exists() && data_dir.join("keys.json.migrated").exists());
    let accounts = AccountsConfig::default()
        .open(&drugcite_store::DataDir::new(&data_dir))
        .await
        .unwrap();
    let operator = accounts.operator().await.unwrap();
    let keys = accounts.keys_of(&operator.id).await.unwrap();
    let ids: Vec<&str> = keys.iter().map(|k| k.id.as_str()).collect();
    assert!(
        ids.contains(&active.id()) && ids.contains(&revoked.id()),
        "{ids:?}"
    );
    assert!(keys
        .iter()
        .all(|k| k.name == "legacy" && k.scopes == [Scope::Search, Scope::Verify]));
}
