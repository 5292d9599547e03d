#!/usr/bin/env bash
# What label history costs on the real files, with the embedding model: a full ingest of the
# main corpus, then `--update` with the 1,797 label versions (time and size of each), and a
# 50-label `--update` on the main corpus against a full rebuild of the same 1,180 labels.
# Usage: scripts/bench-history.sh [BINARY]   (default target/release/drugcite; build it first)
# Reads ../shared/data (or $DRUGCITE_SHARED_DATA); writes only to a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${1:-target/release/drugcite}
SHARED=${DRUGCITE_SHARED_DATA:-../shared/data}
MAIN=$SHARED/labels/openfda-labels.jsonl.gz
VERSIONS=$SHARED/labels/openfda-label-versions.jsonl.gz
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# 50 labels the main corpus lacks: the newest version of the first 50 such set ids.
python3 - "$MAIN" "$VERSIONS" "$WORK/fifty.jsonl" <<'EOF'
import gzip, json, sys
main = {json.loads(l)["set_id"] for l in gzip.open(sys.argv[1], "rt")}
newest = {}
for line in gzip.open(sys.argv[2], "rt"):
    record = json.loads(line)
    if record["set_id"] not in main:
        newest[record["set_id"]] = line
with open(sys.argv[3], "w") as out:
    out.writelines(list(newest.values())[:50])
EOF

seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >"$WORK/last.log" 2>&1 || { cat "$WORK/last.log"; exit 1; }
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.1f}')"
}
generation_size() {
  du -sh "$1/indexes/$(cat "$1/CURRENT")" | cut -f1
}
summary() {
  grep -E "^(labels indexed|segments|history|embeddings):" "$WORK/last.log" | sed 's/^/    /'
}

echo "full ingest, main corpus (1,130 labels):"
t=$(seconds "$BIN" --data-dir "$WORK/a" ingest "$MAIN")
echo "  $t s, generation $(generation_size "$WORK/a")"; summary
echo "ingest --update, + 1,797 label versions (450 labels):"
t=$(seconds "$BIN" --data-dir "$WORK/a" ingest --update "$VERSIONS")
echo "  $t s, generation $(generation_size "$WORK/a")"; summary
echo "the same --update again (idempotent):"
t=$(seconds "$BIN" --data-dir "$WORK/a" ingest --update "$VERSIONS")
echo "  $t s"; summary

echo "50 new labels on the main corpus:"
"$BIN" --data-dir "$WORK/b" ingest "$MAIN" >/dev/null 2>&1
t=$(seconds "$BIN" --data-dir "$WORK/b" ingest --update "$WORK/fifty.jsonl")
echo "  ingest --update:                      $t s"; summary
t=$(seconds "$BIN" --data-dir "$WORK/c" ingest "$MAIN" "$WORK/fifty.jsonl")
echo "  full rebuild, fresh data directory:   $t s"
t=$(seconds "$BIN" --data-dir "$WORK/b" ingest "$MAIN" "$WORK/fifty.jsonl")
echo "  full re-ingest over the live index:   $t s (embeddings reused)"
