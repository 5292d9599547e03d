#!/usr/bin/env bash
# The load benchmark of issues 17 and 57: what users do, against a bare axum hello-world
# (examples/hello_axum.rs) on the same machine in the same run. drugcite serves normally
# (embeddings loaded; LEXICAL=1 serves --lexical-only) with its default logging; its accounts
# live in a scratch copy of DATA_DIR's accounts (DATA_DIR's index is linked, never changed).
# Each round, alternating, wrk -t2 -c32 for DURATION (default 5s) on: hello; /health;
# /v1/verify/{fp} without a key; the same with a metered key (an account with credit, not
# unlimited); /v1/search with that key on one repeated question (vector cached); then wrk -t1 -c1
# for the p50 latency of keyed and keyless verify. ROUNDS (default 5) rounds; prints each round,
# then the median and the spread (min–max) of every number and of each rate's ratio to hello
# (ratios taken within a round).
# Usage: scripts/bench-hello-ratio.sh DATA_DIR [DRUGCITE_BINARY [HELLO_BINARY]]
# (defaults target/release/drugcite, target/release/examples/hello_axum: build them with
# `cargo build --release --bin drugcite --example hello_axum`; the fingerprint comes from
# examples/graph_evidence, built by `cargo run` if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
data="$(realpath "${1:?usage: scripts/bench-hello-ratio.sh DATA_DIR [DRUGCITE_BINARY [HELLO_BINARY]]}")"
target="${CARGO_TARGET_DIR:-target}"
bin="$(realpath "${2:-$target/release/drugcite}")"
hello_bin="${3:-$target/release/examples/hello_axum}"
rounds="${ROUNDS:-5}"
duration="${DURATION:-5s}"
command -v wrk >/dev/null || { echo "error: wrk not found (apt-get install wrk)" >&2; exit 1; }
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# A data dir of our own: the index linked, the accounts fresh.
mkdir "$work/data"
ln -s "$data/indexes" "$work/data/indexes"
cp "$data/CURRENT" "$work/data/CURRENT"
dc() { "$bin" --data-dir "$work/data" "$@"; }
dc accounts create --email bench@example.org >/dev/null
dc accounts grant --email bench@example.org --usd 1000000 --reason bench >/dev/null
key="$(dc keys create --name bench --account bench@example.org | tail -n 1)"

fp="$(cargo run --quiet --release --example graph_evidence -- "$data/indexes/$(cat "$data/CURRENT")" | sed -n 1p)"
serve_flags=()
[ "${LEXICAL:-0}" = 1 ] && serve_flags+=(--lexical-only)
"$hello_bin" 127.0.0.1:18610 > "$work/hello.log" 2>&1 &
pids+=($!)
"$bin" serve --data-dir "$work/data" "${serve_flags[@]}" --addr 127.0.0.1:18611 \
    --rate-limit-per-key 1000000000 --rate-limit-per-address 1000000000 > "$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 240); do
    curl -sf localhost:18611/health >/dev/null && curl -sf localhost:18610/ >/dev/null && break
    sleep 0.5
done
verify="http://127.0.0.1:18611/v1/verify/$fp"
curl -sf "$verify" | grep -q '"verified":true' || { echo "error: $fp does not verify" >&2; exit 1; }
curl -sf -H "x-api-key: $key" "$verify" | grep -q '"verified":true' || { echo "error: the key is refused" >&2; exit 1; }
cat > "$work/search.lua" <<EOF
wrk.method = "POST"
wrk.body = '{"question":"sertraline pimozide","top_k":5}'
wrk.headers["content-type"] = "application/json"
wrk.headers["x-api-key"] = "$key"
EOF
curl -sf -H "x-api-key: $key" -d '{"question":"sertraline pimozide","top_k":5}' \
    http://127.0.0.1:18611/v1/search >/dev/null || { echo "error: search fails" >&2; exit 1; }

rate() { wrk -t2 -c32 -d"$duration" "$@" | awk '/Requests\/sec/ {print $2}'; }
# p50 of one connection, in ms.
p50() {
    wrk -t1 -c1 -d"$duration" --latency "$@" | awk '$1 == "50%" {
        v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
        print (unit == "us" ? v / 1000 : unit == "s" ? v * 1000 : v) }'
}
results="$work/results"
for round in $(seq "$rounds"); do
    hello="$(rate http://127.0.0.1:18610/)"
    health="$(rate http://127.0.0.1:18611/health)"
    keyless="$(rate "$verify")"
    keyed="$(rate -H "x-api-key: $key" "$verify")"
    search="$(rate -s "$work/search.lua" http://127.0.0.1:18611/v1/search)"
    keyed_p50="$(p50 -H "x-api-key: $key" "$verify")"
    keyless_p50="$(p50 "$verify")"
    echo "$hello $health $keyless $keyed $search $keyed_p50 $keyless_p50" >> "$results"
    echo "round $round: hello $hello; /health $health; verify $keyless, keyed $keyed; keyed search $search req/s; one connection p50: keyed verify $keyed_p50 ms, keyless $keyless_p50 ms"
done
python3 - "$results" <<'EOF'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
names = ["hello req/s", "/health req/s", "verify, no key, req/s", "verify, metered key, req/s",
         "search, metered key, cached, req/s", "keyed verify p50 ms (1 connection)",
         "keyless verify p50 ms (1 connection)"]
def line(name, values, fmt):
    print(f"{name:40} median {fmt.format(statistics.median(values))}  "
          f"(spread {fmt.format(min(values))}–{fmt.format(max(values))}, {len(values)} rounds)")
for i, name in enumerate(names):
    line(name, [r[i] for r in rows], "{:.3f}" if "ms" in name else "{:.0f}")
for i, name in [(1, "/health / hello"), (2, "verify no key / hello"), (3, "verify metered key / hello")]:
    line(name, [r[i] / r[0] for r in rows], "{:.2f}")
EOF
