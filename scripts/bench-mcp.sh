#!/usr/bin/env bash
# MCP round-trip times per tool (over streamable HTTP at /mcp and over stdio with `drugcite
# mcp`) and the quote check's latency on a 10-quote answer (POST /v1/verify/quote: cited
# quotes, and uncited ones that need a search each). Serves DATA_DIR with BINARY; prints the
# client-side median and p95 of ROUNDS calls each (the first call of each kind is a warm-up).
# Usage: scripts/bench-mcp.sh BINARY DATA_DIR [PORT] [ROUNDS]   (needs python3 and curl)
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$1 DATA=$2 PORT=${3:-18082} ROUNDS=${4:-30}
KEY=$("$BIN" --data-dir "$DATA" keys create --name bench-mcp | tail -n 1)
"$BIN" --data-dir "$DATA" serve --addr "127.0.0.1:$PORT" \
  --rate-limit-per-key 1000000 --rate-limit-per-address 1000000 >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do curl -sf "127.0.0.1:$PORT/health" >/dev/null && break; sleep 1; done

python3 - "$PORT" "$KEY" "$BIN" "$DATA" "$ROUNDS" <<'PY'
import http.client, json, statistics, subprocess, sys, time
port, key, binary, data, rounds = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
connection = http.client.HTTPConnection("127.0.0.1", port)
HEADERS = {"x-api-key": key, "content-type": "application/json",
           "accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}

def post(path, body):
    connection.request("POST", path, json.dumps(body), HEADERS)
    response = connection.getresponse()
    payload = response.read()
    assert response.status == 200, (response.status, payload[:300])
    return json.loads(payload)

def http_call(message):
    return post("/mcp", message)

class Stdio:
    def __init__(self):
        self.child = subprocess.Popen([binary, "--data-dir", data, "mcp"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.call({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
        self.child.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        self.child.stdin.flush()
    def call(self, message):
        self.child.stdin.write(json.dumps(message) + "\n")
        self.child.stdin.flush()
        return json.loads(self.child.stdout.readline())
    def close(self):
        self.child.stdin.close()
        self.child.wait(timeout=10)

def tool(send, name, arguments):
    reply = send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
    result = reply["result"]
    assert not result.get("isError"), result
    return result["structuredContent"]

def timed(work):
    work()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)]

http_call({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
found = [r for r in tool(http_call, "search_labels", {"question": "serotonin syndrome with MAO inhibitors", "top_k": 40})["results"]
         if not set('"\u201c\u201d') & set(r["text"][:100])]
first = found[0]
cases = {
    "search_labels": {"question": "Does sertraline interact with pimozide?", "top_k": 10},
    "verify_citation": {"fingerprint": first["fingerprint"]},
    "check_quote": {"quote": first["text"][:120], "fingerprint": first["fingerprint"]},
    "ask_graph": {"question": "Which drugs interact with clopidogrel and also cause bleeding?"},
    "label_history": {"set_id": first["set_id"]},
}
stdio = Stdio()
for transport, send in (("http", http_call), ("stdio", stdio.call)):
    for name, arguments in cases.items():
        p50, p95 = timed(lambda: tool(send, name, arguments))
        print(f"MCP {transport:5} {name:15} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  ({rounds} calls)")
stdio.close()

def answer(cited):
    parts = []
    for r in found[:10]:
        quote = r["text"][:100].strip()
        parts.append(f'"{quote}"' + (f' [fp:{r["fingerprint"]}]' if cited else ""))
    return "The labels say " + ", ".join(parts) + "."
for cited in (True, False):
    body = {"answer": answer(cited)}
    report = post("/v1/verify/quote", body)["data"]["summary"]
    p50, p95 = timed(lambda: post("/v1/verify/quote", body))
    kind = "cited" if cited else "uncited (a search per quote)"
    print(f"quote check, 10-quote answer, {kind}: p50 {p50:.1f} ms  p95 {p95:.1f} ms  "
          f"(exact {report['exact']}, normalised {report['normalised']}, other {report['count'] - report['exact'] - report['normalised']})")
PY
