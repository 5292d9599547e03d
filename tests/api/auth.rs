//! x-api-key, scopes and rate limits: the 401, 403 and 429 rows of the spec; the key file's
//! accounts database's mode; failed authentications limited per client address.

use std::net::SocketAddr;
use std::num::NonZeroU32;

use drugcite_accounts::scopes::Scope;
use drugcite_server::http::ConnectionBounds;

use crate::connections::serve_subset;
use crate::helpers::{
    assert_error, create_key, revoke_key, spawn_app, spawn_app_with, subset_index, within_a_second,
    Limits,
};

const QUESTION: &str = r#"{"question":"warfarin bleeding","top_k":1}"#;

#[tokio::test]
async fn search_without_a_valid_key_is_401() {
    let app = spawn_app().await;
    let forged = format!("dck_{}_{}", &app.key[4..16], "0".repeat(40));
    for key in [
        None,
        Some(""),
        Some("not-a-key"),
        Some(forged.as_str()),
        Some("dck_000000000000_0000000000000000000000000000000000000000"),
    ] {
        assert_error(&app.search_raw(key, QUESTION).await, 401);
    }
}

#[tokio::test]
async fn auth_is_checked_before_the_body() {
    let app = spawn_app().await;
    assert_error(&app.search_raw(None, "not json").await, 401);
}

#[tokio::test]
async fn a_revoked_key_stops_working_on_a_running_server() {
    let app = spawn_app().await;
    let key = create_key(&app.data_dir, &[Scope::Search]).await;
    assert_eq!(app.search_raw(Some(&key), QUESTION).await.status, 200);
    revoke_key(&app.data_dir, &key).await;
    within_a_second(401, async || {
        app.search_raw(Some(&key), QUESTION).await.status
    })
    .await;
    assert_error(&app.search_raw(Some(&key), QUESTION).await, 401);
}

#[tokio::test]
async fn a_key_without_the_scope_is_403() {
    let app = spawn_app().await;
    let verify_only = create_key(&app.data_dir, &[Scope::Verify]).await;
    assert_error(&app.search_raw(Some(&verify_only), QUESTION).await, 403);
    let search_only = create_key(&app.data_dir, &[Scope::Search]).await;
    let fingerprint = "0".repeat(128);
    assert_error(&app.verify(&fingerprint, Some(&search_only)).await, 403);
    assert_eq!(
        app.verify(&fingerprint, Some(&verify_only)).await.status,
        200
    );
}

#[tokio::test]
async fn verify_is_open_but_a_key_that_is_sent_must_be_valid() {
    let app = spawn_app().await;
    let fingerprint = "1".repeat(128);
    assert_eq!(app.verify(&fingerprint, None).await.status, 200);
    assert_error(&app.verify(&fingerprint, Some("bogus")).await, 401);
}

#[tokio::test]
async fn per_key_rate_limit_is_429_with_retry_after() {
    let app = spawn_app_with(
        &subset_index().data_dir,
        Limits {
            per_key: 2,
            per_address: 1_000,
        },
    )
    .await;
    for _ in 0..2 {
        assert_eq!(app.search_raw(Some(&app.key), QUESTION).await.status, 200);
    }
    let limited = app.search_raw(Some(&app.key), QUESTION).await;
    assert_error(&limited, 429);
    let retry_after: u64 = limited.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let other_key = create_key(&app.data_dir, &[Scope::Search]).await;
    assert_eq!(
        app.search_raw(Some(&other_key), QUESTION).await.status,
        200,
        "limits are per key"
    );
}

#[tokio::test]
async fn keyless_verify_is_limited_per_client_address() {
    let app = spawn_app_with(
        &subset_index().data_dir,
        Limits {
            per_key: 1_000,
            per_address: 3,
        },
    )
    .await;
    let fingerprint = "0".repeat(128);
    for _ in 0..3 {
        assert_eq!(app.verify(&fingerprint, None).await.status, 200);
    }
    let limited = app.verify(&fingerprint, None).await;
    assert_error(&limited, 429);
    assert!(limited.headers.contains_key("retry-after"));
    assert_eq!(
        app.verify(&fingerprint, Some(&app.key)).await.status,
        200,
        "a key has its own budget"
    );
}

#[cfg(unix)]
#[tokio::test]
async fn the_accounts_database_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = crate::helpers::scratch_dir();
    create_key(dir.path(), &[Scope::Search]).await;
    let path = dir.path().join("accounts.sqlite");
    let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
}

/// A client whose connections come from `local` (any 127.0.0.0/8 address reaches the server).
fn client_from(local: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(local))
        .build()
        .unwrap()
}

async fn search_status(client: &reqwest::Client, addr: SocketAddr, key: &str) -> (u16, bool) {
    let response = client
        .post(format!("http://{addr}/v1/search"))
        .header("x-api-key", key)
        .body(QUESTION)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let retry_after = response.headers().contains_key("retry-after");
    let body: serde_json::Value = response.json().await.unwrap();
    let envelope_status = if status == 200 { 1 } else { 0 };
    assert_eq!(body["status"], envelope_status, "{body}");
    (status, retry_after)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_authentications_are_limited_per_client_address() {
    let failures = NonZeroU32::new(3).unwrap();
    let addr = serve_subset(ConnectionBounds::default(), |config| {
        config.auth_failures_per_minute = failures;
    })
    .await;
    let data_dir = &subset_index().data_dir;
    let key = create_key(data_dir, &[Scope::Search]).await;
    let guess = format!("dck_{}_{}", &key[4..16], "0".repeat(40));
    let guesser = client_from([127, 0, 0, 1]);
    for _ in 0..3 {
        assert_eq!(search_status(&guesser, addr, &guess).await, (401, false));
    }
    assert_eq!(search_status(&guesser, addr, &guess).await, (429, true));
    assert_eq!(
        search_status(&guesser, addr, &key).await,
        (429, true),
        "a blocked address gets 429 even for a right key"
    );
    let other = client_from([127, 0, 0, 2]);
    assert_eq!(search_status(&other, addr, &key).await, (200, false));
    revoke_key(data_dir, &key).await;
    within_a_second(401, async || search_status(&other, addr, &key).await.0).await;
    assert_eq!(search_status(&other, addr, &key).await, (401, false));
}
