//! Connection bounds: half-open connections are closed by the header timeout, the connection
//! cap holds, and the real binary exits after SIGTERM with idle and half-open connections
//! open. Times asserted are safety bounds only.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use drugcite_server::http::ConnectionBounds;
use drugcite_server::startup::ServeConfig;

use crate::helpers::{serve_config, start_server, subset_index, GENEROUS};

/// Serves the subset index (lexical, no rate limits) through `startup` with `bounds`, after
/// `adjust` changes the configuration; returns the bound address.
pub async fn serve_subset(
    bounds: ConnectionBounds,
    adjust: impl FnOnce(&mut ServeConfig),
) -> SocketAddr {
    let mut config = serve_config(&subset_index().data_dir, GENEROUS);
    config.connections = bounds;
    adjust(&mut config);
    start_server(config).await
}

const PARTIAL_HEAD: &[u8] = b"GET /health HTTP/1.1\r\nHost: drugcite\r\nX-Slow: ";

/// Blocks until the server closes `stream` (EOF or reset) or `deadline` passes.
fn closed_by(stream: &mut TcpStream, deadline: Instant) -> bool {
    let mut buf = [0u8; 512];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return false,
            Err(_) => return true,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_are_closed_by_the_header_timeout() {
    let config = ConnectionBounds {
        header_timeout: Duration::from_secs(2),
        ..ConnectionBounds::default()
    };
    let addr = serve_subset(config, |_| {}).await;
    let closed = tokio::task::spawn_blocking(move || {
        let mut streams: Vec<TcpStream> = (0..200)
            .map(|_| {
                let mut stream = TcpStream::connect(addr).unwrap();
                stream.write_all(PARTIAL_HEAD).unwrap();
                stream
            })
            .collect();
        let deadline = Instant::now() + Duration::from_secs(30);
        streams
            .iter_mut()
            .map(|s| closed_by(s, deadline))
            .filter(|closed| *closed)
            .count()
    })
    .await
    .unwrap();
    assert_eq!(closed, 200, "every half-open connection is closed");
    let health = reqwest::get(format!("http://{addr}/health")).await.unwrap();
    assert_eq!(health.status(), 200, "the server still answers");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_cap_wait_for_a_free_slot() {
    let config = ConnectionBounds {
        max_connections: 2,
        ..ConnectionBounds::default()
    };
    let addr = serve_subset(config, |_| {}).await;
    let holders: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let client = reqwest::Client::new();
    let url = format!("http://{addr}/health");
    let waiting = client
        .get(&url)
        .timeout(Duration::from_secs(1))
        .send()
        .await;
    assert!(
        waiting.is_err(),
        "a third connection is not served while two are open"
    );
    drop(holders);
    let served = client
        .get(&url)
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .expect("served once a slot is free");
    assert_eq!(served.status(), 200);
}

#[test]
fn sigterm_exits_with_idle_and_half_open_connections_open() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_drugcite"))
        .arg("--data-dir")
        .arg(&subset_index().data_dir)
        .args(["serve", "--lexical-only", "--addr", "127.0.0.1:0"])
        .args(["--header-timeout-secs", "60", "--idle-timeout-secs", "120"])
        .args(["--shutdown-grace-secs", "2"])
        .env_remove("DRUGCITE_DATA_DIR")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = BufReader::new(server.stderr.take().unwrap());
    let addr = listening_address(&mut log);
    std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
    let mut open = Vec::new();
    for _ in 0..5 {
        let mut idle = TcpStream::connect(&addr).unwrap();
        idle.write_all(b"GET /health HTTP/1.1\r\nHost: drugcite\r\n\r\n")
            .unwrap();
        let mut first = [0u8; 12];
        idle.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"HTTP/1.1 200");
        open.push(idle);
        let mut half_open = TcpStream::connect(&addr).unwrap();
        half_open.write_all(PARTIAL_HEAD).unwrap();
        open.push(half_open);
    }
    let pid = server.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            server.kill().unwrap();
            panic!("still running 10 s after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    drop(open);
}

fn listening_address(log: &mut impl BufRead) -> String {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            log.read_line(&mut line).unwrap() > 0,
            "no 'listening on' line"
        );
        if let Some(addr) = line.split("listening on ").nth(1) {
            return addr.trim().to_owned();
        }
    }
}
