//! The bare axum server `scripts/bench-hello-ratio.sh` measures drugcite against (issue 17:
//! verify throughput as a fraction of a hello-world on the same machine, in the same run):
//! one route answering `hello world`, axum's own `serve`, tokio's default multi-thread runtime.
//! Usage: `cargo run --release --example hello_axum -- 127.0.0.1:18610`.

use axum::routing::get;
use axum::Router;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18610".to_owned());
    let app = Router::new().route("/", get(|| async { "hello world" }));
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("listening on {}", listener.local_addr()?);
    axum::serve(listener, app).await
}
