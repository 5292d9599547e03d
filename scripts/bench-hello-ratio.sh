#!/usr/bin/env bash
# Issue 17's load benchmark: a bare axum hello-world (examples/hello_axum.rs) and drugcite on
# the same machine in the same run, wrk 2 threads × 32 connections, 5 s each; prints req/s of
# hello, drugcite /health and drugcite /v1/verify/{fp} (one fingerprint: a cache hit after the
# first request) and their ratios to hello. ROUNDS=N repeats the three (default 1).
# Usage: scripts/bench-hello-ratio.sh DATA_DIR [DRUGCITE_BINARY [HELLO_BINARY]]
# (defaults target/release/drugcite, target/release/examples/hello_axum: build them with
# `cargo build --release --bin drugcite --example hello_axum`; the fingerprint comes from
# examples/graph_evidence, built by `cargo run` if needed). drugcite serves --lexical-only
# with its default logging (access lines off, its log to a file); RUST_LOG=info adds an access line per request.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:?usage: scripts/bench-hello-ratio.sh DATA_DIR [DRUGCITE_BINARY [HELLO_BINARY]]}"
target="${CARGO_TARGET_DIR:-target}"
bin="${2:-$target/release/drugcite}"
hello_bin="${3:-$target/release/examples/hello_axum}"
rounds="${ROUNDS:-1}"
command -v wrk >/dev/null || { echo "error: wrk not found (apt-get install wrk)" >&2; exit 1; }
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

fp="$(cargo run --quiet --release --example graph_evidence -- "$data/indexes/$(cat "$data/CURRENT")" | sed -n 1p)"
"$hello_bin" 127.0.0.1:18610 > "$work/hello.log" 2>&1 &
pids+=($!)
"$bin" serve --data-dir "$data" --lexical-only --addr 127.0.0.1:18611 \
    --rate-limit-per-key 100000000 --rate-limit-per-address 100000000 > "$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 240); do
    curl -sf localhost:18611/health >/dev/null && curl -sf localhost:18610/ >/dev/null && break
    sleep 0.5
done
curl -sf "localhost:18611/v1/verify/$fp" | grep -q '"verified":true' || { echo "error: $fp does not verify" >&2; exit 1; }
rate() { wrk -t2 -c32 -d5s "$1" | awk '/Requests\/sec/ {print $2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
for round in $(seq "$rounds"); do
    hello="$(rate http://127.0.0.1:18610/)"
    health="$(rate http://127.0.0.1:18611/health)"
    verify="$(rate "http://127.0.0.1:18611/v1/verify/$fp")"
    echo "round $round: hello $hello req/s; /health $health req/s ($(ratio "$health" "$hello")×); /v1/verify/{fp} $verify req/s ($(ratio "$verify" "$hello")×)"
done
