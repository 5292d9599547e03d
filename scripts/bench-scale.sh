#!/usr/bin/env bash
# The serving figures of README "Scale" for one index: open time (serve → first /health) with
# the startup log's phase lines, search p50/p99 over the 140 dev questions (new: each question
# embedded), /v1/graph p50/p99 over the 40 graph dev questions, server CPU per search request
# (user + system time of the server process from /proc/PID/stat across the search pass), and
# the server's RSS (anonymous and file-backed) after those 180 questions. One keep-alive client.
# Usage: scripts/bench-scale.sh BINARY DATA_DIR [PORT]   (needs python3 and curl)
# DATA_DIR gets a key and the server's lease; to measure an index that must not be written to,
# give a directory holding CURRENT and indexes/<generation> as a symbolic link to it.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$1 DATA=$2 PORT=${3:-18083}
EVAL=${DRUGCITE_SHARED_DATA:-../shared/data}/eval
LOG=$(mktemp)
KEY=$("$BIN" --data-dir "$DATA" keys create --name bench-scale | tail -n 1)
started=$(date +%s.%N)
"$BIN" --data-dir "$DATA" serve --addr "127.0.0.1:$PORT" \
  --rate-limit-per-key 1000000 --rate-limit-per-address 1000000 >"$LOG" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -f "$LOG"' EXIT
until curl -sf "127.0.0.1:$PORT/health" >/dev/null; do
  kill -0 $server 2>/dev/null || { cat "$LOG"; exit 1; }
  sleep 0.05
done
echo "open (serve → first /health): $(echo "$(date +%s.%N) - $started" | bc) s"
grep -o 'phase=.*' "$LOG" | sed 's/ opening the index//; s/^/  /' || true

python3 - "$PORT" "$KEY" "$server" "$EVAL" <<'PY'
import http.client, json, os, statistics, sys, time
port, key, pid, folder = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def questions(name):
    return [json.loads(line)["question"] for line in open(f"{folder}/{name}")]
search = questions("dev-questions.jsonl") + questions("dev-questions-2.jsonl")
graph = questions("graph-dev-questions.jsonl")
ticks = os.sysconf("SC_CLK_TCK")
def cpu_seconds():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks
connection = http.client.HTTPConnection("127.0.0.1", port)
def timed(path, body):
    start = time.perf_counter()
    connection.request("POST", path, json.dumps(body),
                       {"x-api-key": key, "content-type": "application/json"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, (path, response.status)
    return (time.perf_counter() - start) * 1000
def percentiles(times):
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms"
def run(what, path, bodies):
    cpu = cpu_seconds()
    times = [timed(path, body) for body in bodies]
    per_request = (cpu_seconds() - cpu) / len(bodies) * 1000
    print(f"{what}: {percentiles(times)}; server CPU {per_request:.1f} ms per request")
run(f"search, {len(search)} new questions", "/v1/search",
    [{"question": q, "top_k": 10} for q in search])
run(f"search, the {len(search)} again (query vector cached)", "/v1/search",
    [{"question": q, "top_k": 10} for q in search])
run(f"graph, {len(graph)} questions (max_hops 2)", "/v1/graph", [{"question": q} for q in graph])
status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
rss = {k: int(status[k].split()[0]) / 1024 for k in ("VmRSS", "RssAnon", "RssFile")}
print("server RSS after them: {VmRSS:.0f} MiB (anonymous {RssAnon:.0f}, file-backed {RssFile:.0f})"
      .format(**rss))
PY
