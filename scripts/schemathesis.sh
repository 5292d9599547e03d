#!/usr/bin/env bash
# Checks that the served OpenAPI document matches what the server does: schemathesis (pinned,
# installed here from PyPI into a venv) runs every check against a server over a small
# lexical-only index of the first 10 corpus records, once with an API key and once without.
# Fails on any check failure (5xx included); prints how many requests were made; always stops
# the server. Needs the Rust toolchain, python3 with venv/pip, and ../shared beside the checkout.
# Environment: SCHEMATHESIS_EXAMPLES (per operation, default 1000), SCHEMATHESIS_SEED (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
EXAMPLES="${SCHEMATHESIS_EXAMPLES:-1000}"
SEED="${SCHEMATHESIS_SEED:-1}"
CORPUS="${DRUGCITE_SHARED_DATA:-../shared/data}/labels/openfda-labels.jsonl.gz"
TARGET="${CARGO_TARGET_DIR:-target}"
VENV="$TARGET/schemathesis-venv"

work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ ! -x "$VENV/bin/st" ] || ! "$VENV/bin/st" --version | grep -q "$SCHEMATHESIS_VERSION"; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
fi

cargo build --release --locked --bin drugcite
cp "$TARGET/release/drugcite" "$work/drugcite"   # a private copy: the target dir may be shared
drugcite() { "$work/drugcite" --data-dir "$work/data" "$@"; }

{ gzip -dc "$CORPUS" || true; } | head -n 10 > "$work/subset.jsonl"
drugcite ingest --lexical-only "$work/subset.jsonl" > /dev/null
key="$(drugcite keys create --name schemathesis | tail -n 1)"

# Limits out of the way: schemathesis sends many requests, and many bad keys, from one address.
# The binary itself in the background (not the function), so that $! is the server's pid.
"$work/drugcite" --data-dir "$work/data" serve --lexical-only --addr 127.0.0.1:0 \
    --rate-limit-per-key 1000000 --rate-limit-per-address 1000000 \
    --auth-failures-per-address 1000000 > "$work/server.log" 2>&1 &
server=$!
addr=""
for _ in $(seq 100); do
    addr="$(sed -n 's/.*listening on \([0-9.:]*\).*/\1/p' "$work/server.log" | head -n 1)"
    [ -n "$addr" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$addr" ] || { echo "error: the server did not start" >&2; exit 1; }

venv="$(cd "$VENV" && pwd)"
run() {
    local name="$1"; shift
    # A generous timeout per request: on a loaded two-core machine a slow answer is not a dead
    # server (one CI run reported "server stopped responding" while a build ran beside it).
    # From the scratch dir, so that schemathesis's cache (.schemathesis/) stays out of the checkout.
    (cd "$work" && "$venv/bin/st" run "http://$addr/openapi.json" --checks all \
        --max-examples "$EXAMPLES" --seed "$SEED" --request-timeout 60 --no-color --report har \
        --report-dir "$work/report-$name" "$@")
}
run with-key --header "x-api-key: $key"
run without-key

requests="$(python3 -c 'import glob, json, sys
print(sum(len(json.load(open(f))["log"]["entries"]) for f in glob.glob(sys.argv[1] + "/report-*/*.json")))' "$work")"
echo "schemathesis: $requests requests, no failures"
