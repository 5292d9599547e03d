#!/usr/bin/env bash
# HTTP throughput with wrk (Debian package `wrk`) over a data dir made by `drugcite ingest`:
#   verify, cache misses  — each request a different fingerprint (the graph's evidence, walked once)
#   verify, cache hits    — one fingerprint over and over (keyless, then with a key: metered)
#   search                — one question over and over (its embedding cached)
#   search, dev questions — the 140 dev questions in turn, their vectors cached by a first pass
#                           (each request a different ranking): req/s and server CPU per request
# Prints requests/s for each. Usage: scripts/bench-http.sh DATA_DIR [DRUGCITE_BINARY]
# (default target/release/drugcite). Runs the server on 127.0.0.1:18600 and stops it. The
# fingerprints come from examples/graph_evidence (built by `cargo run` if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:?usage: scripts/bench-http.sh DATA_DIR [BINARY]}"
bin="${2:-target/release/drugcite}"
command -v wrk >/dev/null || { echo "error: wrk not found (apt-get install wrk)" >&2; exit 1; }
work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

cargo run --quiet --release --example graph_evidence -- \
    "$data/indexes/$(cat "$data/CURRENT")" > "$work/fps.txt"
cat > "$work/walk.lua" <<LUA
local fps = {}
for line in io.lines("$work/fps.txt") do fps[#fps + 1] = line end
local threads = {}
function setup(thread) thread:set("id", #threads); table.insert(threads, thread) end
function init(args) offset = id * math.floor(#fps / 2); i = 0 end
function request()
  i = i + 1
  return wrk.format("GET", "/v1/verify/" .. fps[((offset + i) % #fps) + 1])
end
LUA
key="$("$bin" keys create --data-dir "$data" --name bench-http | tail -n 1)"
cat > "$work/search.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"question":"sertraline pimozide","top_k":10}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["x-api-key"] = "$key"
LUA
python3 - "$work/bodies.txt" ../shared/data/eval/dev-questions.jsonl ../shared/data/eval/dev-questions-2.jsonl <<'PY'
import json, sys
with open(sys.argv[1], "w") as out:
    for path in sys.argv[2:]:
        for line in open(path):
            out.write(json.dumps({"question": json.loads(line)["question"], "top_k": 10}) + "\n")
PY
cat > "$work/questions.lua" <<LUA
local bodies = {}
for line in io.lines("$work/bodies.txt") do bodies[#bodies + 1] = line end
local threads = {}
function setup(thread) thread:set("id", #threads); table.insert(threads, thread) end
function init(args) i = id * math.floor(#bodies / 2) end
function request()
  i = i + 1
  local headers = {["Content-Type"] = "application/json", ["x-api-key"] = "$key"}
  return wrk.format("POST", "/v1/search", headers, bodies[(i % #bodies) + 1])
end
LUA
"$bin" serve --data-dir "$data" --addr 127.0.0.1:18600 --rate-limit-per-key 100000000 \
    --rate-limit-per-address 100000000 > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 240); do curl -sf localhost:18600/health >/dev/null && break; sleep 0.5; done
rate() { awk '/Requests\/sec/ {print $2}'; }
url=http://127.0.0.1:18600
echo "fingerprints walked: $(wc -l < "$work/fps.txt")"
# One second: about one pass over the fingerprints at ~25,000/s, so nearly every request misses.
echo "verify, cache misses: $(wrk -t2 -c16 -d1s -s "$work/walk.lua" "$url" | rate) req/s"
echo "verify, cache hits:   $(wrk -t2 -c16 -d5s "$url/v1/verify/$(head -n 100 "$work/fps.txt" | tail -n 1)" | rate) req/s"
echo "verify, cache hits, keyed: $(wrk -t2 -c16 -d5s -H "x-api-key: $key" "$url/v1/verify/$(head -n 100 "$work/fps.txt" | tail -n 1)" | rate) req/s"
echo "search, same question: $(wrk -t2 -c16 -d5s -s "$work/search.lua" "$url/v1/search" | rate) req/s"
# A first pass embeds every question once; then each request costs what a cached search costs.
wrk -t1 -c1 -d3s -s "$work/questions.lua" "$url" > /dev/null
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
before="$(cpu_ticks)"
out="$(wrk -t2 -c8 -d10s -s "$work/questions.lua" "$url")"
ticks=$(( $(cpu_ticks) - before ))
requests="$(echo "$out" | awk '/requests in/ {print $1}')"
per_request="$(awk -v t="$ticks" -v n="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz * 1000 / n }')"
echo "search, 140 dev questions in turn (vectors cached): $(echo "$out" | rate) req/s, server CPU $per_request ms per request"
