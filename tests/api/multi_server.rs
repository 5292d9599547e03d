//! Several `drugcite serve` processes on one PostgreSQL (the one `scripts/test.sh` starts), as
//! `docs/operations.md` "Running more than one server" describes: credit for C searches spent
//! by two servers under 20×C concurrent requests is never overspent (exactly C without a crash;
//! with one server killed with SIGKILL mid-load, at most one lease fewer), the ledger balances
//! to the micro-dollar, and a revocation holds on both servers within 1 s.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use drugcite_accounts::{Account, Accounts, Credit};
use drugcite_core::domain::ApiKey;

use crate::helpers::subset_index;
use crate::test_db::{account_with, TestDb};

const QUESTION: &str = r#"{"question":"warfarin bleeding","top_k":1}"#;
/// The servers' lease (`--credit-lease-usd`): 20 searches at the default price.
const LEASE_USD: &str = "0.10";
const LEASE_SEARCHES: usize = 20;
/// Short, so that the killed server's lease is forfeit within the test.
const LEASE_TTL_SECS: &str = "2";
/// Requests in flight at once over both servers.
const IN_FLIGHT: usize = 32;

/// A `drugcite serve` process on the subset index with its accounts in `url`; killed on drop.
struct ServerProcess {
    child: Child,
    base: String,
}

impl ServerProcess {
    fn start(url: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_drugcite"))
            .arg("--data-dir")
            .arg(&subset_index().data_dir)
            .args(["--database-url", url, "serve", "--lexical-only"])
            .args(["--addr", "127.0.0.1:0", "--rate-limit-per-key", "100000000"])
            .args(["--credit-lease-usd", LEASE_USD])
            .args(["--credit-lease-ttl-secs", LEASE_TTL_SECS])
            .args(["--usage-flush-ms", "200"])
            .env_remove("DRUGCITE_DATA_DIR")
            .env_remove("DRUGCITE_DATABASE_URL")
            .stderr(Stdio::piped())
            .spawn()
            .expect("start drugcite serve");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let addr = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|line| {
                line.split("listening on ")
                    .nth(1)
                    .map(|a| a.trim().to_owned())
            })
            .expect("a 'listening on' line");
        // Keep reading, so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Self {
            child,
            base: format!("http://{addr}"),
        }
    }

    /// `kill -9`: no usage write, no lease returned.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the load saw: searches answered 200, and the other answers (429 credit exhausted only;
/// anything else fails the test, except refused connections to a killed server).
#[derive(Default)]
struct Tally {
    served: AtomicUsize,
    exhausted: AtomicUsize,
}

/// Fires `count` searches with `key`, `IN_FLIGHT` at a time, spread over `bases`.
async fn fire(bases: &[String], key: &str, count: usize, tally: &Arc<Tally>) {
    let client = reqwest::Client::new();
    let next = Arc::new(AtomicUsize::new(0));
    let workers = (0..IN_FLIGHT).map(|_| {
        let (client, next, tally) = (client.clone(), Arc::clone(&next), Arc::clone(tally));
        let (bases, key) = (bases.to_vec(), key.to_owned());
        tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= count {
                    return;
                }
                let sent = client
                    .post(format!("{}/v1/search", bases[n % bases.len()]))
                    .header("x-api-key", &key)
                    .body(QUESTION)
                    .send()
                    .await;
                let Ok(response) = sent else { continue };
                let status = response.status().as_u16();
                let body: serde_json::Value = match response.json().await {
                    Ok(body) => body,
                    Err(_) => continue,
                };
                match status {
                    200 => tally.served.fetch_add(1, Ordering::Relaxed),
                    429 if body["msg"] == "credit exhausted" => {
                        tally.exhausted.fetch_add(1, Ordering::Relaxed)
                    }
                    _ => panic!("unexpected answer {status}: {body}"),
                };
            }
        })
    });
    for worker in workers.collect::<Vec<_>>() {
        worker.await.unwrap();
    }
}

/// Polls until the account's balance is `expected` micro-dollars, checking on every poll that
/// the ledger sums to the balance; returns the ledger. The balance and the ledger are two
/// reads, and a server may write its usage between them: a poll whose balance changed
/// between a read before and one after the ledger proves nothing and is not checked.
async fn settled(
    accounts: &Accounts,
    account: &Account,
    expected: i64,
) -> Vec<drugcite_accounts::LedgerEntry> {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let balance = accounts.account(&account.id).await.unwrap().credit.micros();
        let ledger = accounts.ledger(&account.id).await.unwrap();
        let after = accounts.account(&account.id).await.unwrap().credit.micros();
        let sum: i64 = ledger.iter().map(|e| e.amount.micros()).sum();
        if balance == after {
            assert_eq!(
                sum, balance,
                "the ledger sums to the balance at every moment"
            );
        }
        if balance == after && balance == expected {
            return ledger;
        }
        assert!(
            Instant::now() < deadline,
            "balance {balance} never settled at {expected}: {ledger:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn searches_recorded(ledger: &[drugcite_accounts::LedgerEntry]) -> i64 {
    ledger
        .iter()
        .filter_map(|e| e.reason.split_once(" × search"))
        .map(|(n, _)| n.parse::<i64>().unwrap())
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_server_processes_spend_exactly_the_credit_of_c_searches() {
    const C: usize = 50;
    let db = TestDb::postgres().await;
    let url = db.url();
    let servers = [ServerProcess::start(&url), ServerProcess::start(&url)];
    let bases: Vec<String> = servers.iter().map(|s| s.base.clone()).collect();
    let accounts = db.open().await;
    let price = accounts.policy().prices.search.micros();
    let (account, key) = account_with(&accounts, Credit::from_micros(price * C as i64)).await;
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    fire(&bases, &key, 20 * C, &tally).await;
    let served = tally.served.load(Ordering::Relaxed);
    eprintln!(
        "two processes, {} searches for credit of {C}: {served} served, {} refused (credit exhausted) in {:.0} ms",
        20 * C,
        tally.exhausted.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64() * 1e3
    );
    assert_eq!(
        served, C,
        "exactly the credit's worth is served, never more"
    );
    let ledger = settled(&accounts, &account, 0).await;
    assert_eq!(searches_recorded(&ledger), C as i64, "{ledger:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_load_never_lets_credit_be_overspent() {
    const C: usize = 60;
    let db = TestDb::postgres().await;
    let url = db.url();
    let mut servers = [ServerProcess::start(&url), ServerProcess::start(&url)];
    let bases: Vec<String> = servers.iter().map(|s| s.base.clone()).collect();
    let accounts = db.open().await;
    let price = accounts.policy().prices.search.micros();
    let (account, key) = account_with(&accounts, Credit::from_micros(price * C as i64)).await;
    let tally = Arc::new(Tally::default());
    fire(&bases, &key, C / 2, &tally).await;
    servers[1].kill();
    fire(&bases[..1], &key, 20 * C - C / 2, &tally).await;
    let served = tally.served.load(Ordering::Relaxed);
    eprintln!("two processes, one killed with SIGKILL mid-load, credit of {C}: {served} served");
    assert!(served <= C, "{served} searches served for credit of {C}");
    assert!(
        served + LEASE_SEARCHES >= C,
        "{served} served: more than one lease ({LEASE_SEARCHES} searches) lost"
    );
    let ledger = settled(&accounts, &account, 0).await;
    let forfeit: i64 = ledger
        .iter()
        .filter(|e| e.reason.contains("forfeit"))
        .map(|e| -e.amount.micros())
        .sum();
    let lease = Credit::parse_usd(LEASE_USD).unwrap().micros();
    assert!(
        (0..=lease).contains(&forfeit),
        "the killed server took at most one lease: {forfeit}"
    );
    let recorded = searches_recorded(&ledger);
    assert!(
        recorded <= served as i64,
        "{recorded} recorded, {served} served"
    );
    assert_eq!(
        recorded * price + forfeit,
        price * C as i64,
        "every micro-dollar is usage or forfeit: {ledger:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revocation_on_one_server_process_holds_on_the_other_within_a_second() {
    let db = TestDb::postgres().await;
    let url = db.url();
    let servers = [ServerProcess::start(&url), ServerProcess::start(&url)];
    let accounts = db.open().await;
    let (account, key) = account_with(&accounts, Credit::parse_usd("1").unwrap()).await;
    let client = reqwest::Client::new();
    let search = |base: String| {
        let (client, key) = (client.clone(), key.clone());
        async move {
            let response = client
                .post(format!("{base}/v1/search"))
                .header("x-api-key", key)
                .body(QUESTION)
                .send()
                .await
                .unwrap();
            response.status().as_u16()
        }
    };
    for server in &servers {
        assert_eq!(search(server.base.clone()).await, 200, "cached on both");
    }
    let id = ApiKey::parse(&key).unwrap().id().to_owned();
    accounts.revoke_key(Some(&account.id), &id).await.unwrap();
    let revoked = Instant::now();
    for server in &servers {
        while search(server.base.clone()).await != 401 {
            assert!(
                revoked.elapsed() < Duration::from_secs(1),
                "{} still takes the key 1 s after its revocation",
                server.base
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    eprintln!(
        "a revocation held on both server processes after {:.0} ms",
        revoked.elapsed().as_secs_f64() * 1e3
    );
}
