#!/usr/bin/env bash
# Search latency over loopback: serves DATA_DIR with BINARY and sends every question of both dev
# question files once (new: the query embedding is computed) and again (repeated: from the query
# cache), printing the client-side median of each pass. Alternate two binaries to compare them.
# Usage: scripts/bench-search-p50.sh BINARY DATA_DIR [PORT]   (needs python3 and curl)
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$1 DATA=$2 PORT=${3:-18081}
EVAL=${DRUGCITE_SHARED_DATA:-../shared/data}/eval
KEY=$("$BIN" --data-dir "$DATA" keys create --name p50 | tail -n 1)
"$BIN" --data-dir "$DATA" serve --addr "127.0.0.1:$PORT" \
  --rate-limit-per-key 1000000 --rate-limit-per-address 1000000 >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do curl -sf "127.0.0.1:$PORT/health" >/dev/null && break; sleep 1; done

python3 - "$PORT" "$KEY" "$EVAL/dev-questions.jsonl" "$EVAL/dev-questions-2.jsonl" <<'PY'
import http.client, json, statistics, sys, time
port, key, files = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
questions = [json.loads(line)["question"] for f in files for line in open(f)]
connection = http.client.HTTPConnection("127.0.0.1", port)
def one_pass():
    times = []
    for question in questions:
        body = json.dumps({"question": question, "top_k": 10})
        start = time.perf_counter()
        connection.request("POST", "/v1/search", body,
                           {"x-api-key": key, "content-type": "application/json"})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
print(f"search p50 over {len(questions)} questions: new {one_pass():.1f} ms, repeated {one_pass():.1f} ms")
PY
