//! Two `Accounts` on one SQLite file stand for two servers: credit spent from their leases is
//! never overspent, the ledger balances to the micro-dollar after their writes, and a server
//! that stops without closing loses at most its lease, forfeit with a ledger line.

use std::time::Duration;

use crate::db::Database;
use crate::ids::now;
use crate::lease::forfeit_expired;
use crate::scopes::Scope;
use crate::{Account, AccountError, Accounts, Credit, Email, KeyGrant, KeyName, Metering, Policy};

const SEARCH_MICROS: i64 = 5_000;
const LEASE_SEARCHES: i64 = 4;

async fn two_servers(dir: &std::path::Path) -> [Accounts; 2] {
    let policy = Policy {
        metering: Metering {
            lease: Credit::from_micros(SEARCH_MICROS * LEASE_SEARCHES),
            lease_ttl: Duration::from_secs(30),
            ..Metering::default()
        },
        ..Policy::default()
    };
    let database = Database::Sqlite(dir.join("accounts.sqlite"));
    [
        Accounts::open(&database, policy).await.unwrap(),
        Accounts::open(&database, policy).await.unwrap(),
    ]
}

/// An account with credit for `searches` and the grant of a key of it.
async fn account_with(accounts: &Accounts, searches: i64) -> (Account, KeyGrant) {
    let email = Email::parse("ann@example.org").unwrap();
    let account = accounts.create_account(&email, None, false).await.unwrap();
    let adjust = searches * SEARCH_MICROS - account.credit.micros();
    accounts
        .grant(&account.id, Credit::from_micros(adjust), "test")
        .await
        .unwrap();
    let (record, _) = accounts
        .create_key(&account.id, &KeyName::parse("k").unwrap(), &Scope::ALL)
        .await
        .unwrap();
    let grant = KeyGrant {
        key_id: record.id,
        account_id: account.id.clone(),
        scopes: Scope::ALL.to_vec(),
        unlimited: false,
    };
    (account, grant)
}

async fn balance_and_ledger_sum(accounts: &Accounts, id: &str) -> (i64, i64) {
    let balance = accounts.account(id).await.unwrap().credit.micros();
    let ledger = accounts.ledger(id).await.unwrap();
    (balance, ledger.iter().map(|e| e.amount.micros()).sum())
}

#[tokio::test]
async fn two_servers_spend_exactly_the_credit_and_the_ledger_balances() {
    let dir = tempfile::tempdir().unwrap();
    let servers = two_servers(dir.path()).await;
    let (account, grant) = account_with(&servers[0], 30).await;
    let mut served = 0;
    for n in 0..200 {
        match servers[n % 2].charge(&grant, Scope::Search).await {
            Ok(_) => served += 1,
            Err(AccountError::CreditExhausted) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(served, 30);
    let failed = servers[1].charge(&grant, Scope::Verify).await.unwrap();
    servers[1].refund(&grant, failed);
    for server in &servers {
        server.close().await.unwrap();
    }
    assert_eq!(
        balance_and_ledger_sum(&servers[0], &account.id).await,
        (0, 0)
    );
    let usage = servers[0].usage(&account.id, 0).await.unwrap();
    let requests: Vec<(String, i64)> = usage
        .into_iter()
        .map(|u| (u.endpoint, u.requests))
        .collect();
    assert_eq!(
        requests,
        [("search".to_owned(), 30)],
        "refunded requests are not counted"
    );
}

#[tokio::test]
async fn a_server_that_stops_without_closing_costs_at_most_its_lease() {
    let dir = tempfile::tempdir().unwrap();
    let [survivor, dead] = two_servers(dir.path()).await;
    let (account, grant) = account_with(&survivor, 10).await;
    dead.charge(&grant, Scope::Search).await.unwrap();
    dead.settle().await.unwrap();
    dead.charge(&grant, Scope::Search).await.unwrap();
    drop(dead);
    let mut served = 2;
    while survivor.charge(&grant, Scope::Search).await.is_ok() {
        served += 1;
    }
    // The dead server served 2 from its lease of 4; the 2 it had left are lost with it.
    assert_eq!(served, 10 - (LEASE_SEARCHES - 2));
    survivor.close().await.unwrap();
    assert_eq!(
        forfeit_expired(&survivor.pool, now() + 31).await.unwrap(),
        1
    );
    let (balance, sum) = balance_and_ledger_sum(&survivor, &account.id).await;
    assert_eq!((balance, sum), (0, 0));
    let ledger = survivor.ledger(&account.id).await.unwrap();
    let forfeit: i64 = ledger
        .iter()
        .filter(|e| e.reason.contains("forfeit"))
        .map(|e| -e.amount.micros())
        .sum();
    assert_eq!(
        forfeit,
        (LEASE_SEARCHES - 1) * SEARCH_MICROS,
        "its unwritten search and its rest"
    );
}
