//! Errors raised before any handler runs — an over-long target, too many or too large
//! headers, an oversized body, a request that outlasts the request timeout — come back as the
//! spec's error envelope, like every other error.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use drugcite_server::http::ConnectionBounds;
use serde_json::Value;

use crate::connections::serve_subset;
use crate::helpers::{assert_error, spawn_app};

/// The status and JSON body of a raw exchange (the connection is closed after one request).
fn exchange(addr: std::net::SocketAddr, request: &[u8]) -> (u16, String, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").expect("a response head");
    let status = head[9..12].parse().unwrap();
    let body = serde_json::from_str(body).unwrap_or_else(|_| panic!("envelope body: {reply}"));
    (status, head.to_lowercase(), body)
}

fn envelope(body: &Value, code: &str, msg: &str) {
    assert_eq!(body["status"], 0, "{body}");
    assert_eq!(body["errorCode"], code, "{body}");
    assert_eq!(body["msg"], msg, "{body}");
}

#[tokio::test]
async fn an_over_long_target_is_a_414_envelope() {
    let app = spawn_app().await;
    let reply = app.get(&format!("/v1/verify/{}", "0".repeat(9_000))).await;
    assert_eq!(reply.status, 414);
    envelope(&reply.body, "", "uri too long");
}

#[tokio::test]
async fn too_many_or_too_large_headers_are_a_431_envelope() {
    let app = spawn_app().await;
    let with_headers = |count: usize| {
        (0..count).fold(
            app.client.get(format!("{}/health", app.base)),
            |request, i| request.header(format!("x-extra-{i}"), "1"),
        )
    };
    // Beyond hyper's own 100, hyper answers first: the status still, no envelope.
    let beyond_hyper = with_headers(150).send().await.unwrap();
    assert_eq!(beyond_hyper.status(), 431);
    let many = with_headers(80);
    let large = app
        .client
        .get(format!("{}/health", app.base))
        .header("x-large", "a".repeat(40_000));
    for request in [many, large] {
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 431);
        envelope(
            &response.json().await.unwrap(),
            "",
            "request headers too large",
        );
    }
}

#[tokio::test]
async fn an_oversized_body_is_the_spec_400_whatever_its_framing() {
    let app = spawn_app().await;
    let body = format!(r#"{{"question":"{}"}}"#, "a".repeat(100_000));
    let reply = app.search_raw(Some(&app.key), body.clone()).await;
    assert_error(&reply, 400);
    assert!(reply.body["detail"]
        .as_str()
        .unwrap()
        .contains("larger than"));
    let addr = app.base.trim_start_matches("http://").parse().unwrap();
    let chunked = format!(
        "POST /v1/search HTTP/1.1\r\nHost: d\r\nx-api-key: {}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
        app.key,
        body.len()
    );
    let (status, _, envelope_body) =
        tokio::task::spawn_blocking(move || exchange(addr, chunked.as_bytes()))
            .await
            .unwrap();
    assert_eq!(status, 400);
    envelope(&envelope_body, "", "invalid data");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_outlasting_the_request_timeout_is_a_500_envelope_with_retry_after() {
    let config = ConnectionBounds {
        request_timeout: Duration::from_secs(1),
        ..ConnectionBounds::default()
    };
    let addr = serve_subset(config, |_| {}).await;
    let key = crate::helpers::create_key(
        &crate::helpers::subset_index().data_dir,
        &drugcite_accounts::scopes::Scope::ALL,
    )
    .await;
    let slow_body = format!(
        "POST /v1/search HTTP/1.1\r\nHost: d\r\nx-api-key: {key}\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{{\"question\":"
    );
    let (status, head, body) =
        tokio::task::spawn_blocking(move || exchange(addr, slow_body.as_bytes()))
            .await
            .unwrap();
    assert_eq!(status, 500);
    envelope(&body, "", "internal server error");
    assert!(head.contains("retry-after: 5"), "{head}");
}
