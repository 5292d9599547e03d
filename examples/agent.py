#!/usr/bin/env python3
"""A scripted LLM agent (no real model) that uses drugcite's MCP server the way an agent
should: search, draft an answer that quotes the label and cites fingerprints, check the
draft's quotes with check_quote, repair every quote that is not verbatim, and only then show
the answer. Standard library only: MCP's streamable HTTP transport is JSON-RPC over POST.

    DRUGCITE_URL=http://127.0.0.1:8080 DRUGCITE_API_KEY=dc_... python3 examples/agent.py
"""
import json
import os
import sys
import urllib.request

URL = os.environ.get("DRUGCITE_URL", "http://127.0.0.1:8080") + "/mcp"
KEY = os.environ["DRUGCITE_API_KEY"]
PROTOCOL = "2025-06-18"


class Mcp:
    """A minimal MCP client over streamable HTTP (the server answers with plain JSON)."""

    def __init__(self):
        self.next_id = 0
        self.protocol = None
        result = self.rpc("initialize", {
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": {"name": "scripted-agent", "version": "1"},
        })
        self.protocol = result["protocolVersion"]
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, message):
        headers = {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "x-api-key": KEY,
        }
        if self.protocol:
            headers["mcp-protocol-version"] = self.protocol
        request = urllib.request.Request(URL, json.dumps(message).encode(), headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
            return json.loads(body) if body.strip() else None

    def rpc(self, method, params):
        self.next_id += 1
        reply = self.post({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]

    def tool(self, name, **arguments):
        result = self.rpc("tools/call", {"name": name, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(f"{name}: {result['content']}")
        return result["structuredContent"]


def first_sentence(text):
    end = text.find(". ")
    return text[: end + 1] if 0 < end < 200 else text[:120].strip()


def misremember(quote):
    """What a model does to a quote it paraphrases from memory: one character off."""
    middle = len(quote) // 2
    return quote[:middle] + ("x" if quote[middle] != "x" else "y") + quote[middle + 1:]


def draft_answer(question, results):
    """The 'LLM': quotes the first sentence of each of two results, the second misremembered."""
    quotable = [r for r in results if not set('"“”') & set(first_sentence(r["text"]))][:2]
    quotes = [first_sentence(quotable[0]["text"]), misremember(first_sentence(quotable[1]["text"]))]
    return (f"Q: {question}\nA: The label says \"{quotes[0]}\" [fp:{quotable[0]['fingerprint']}]. "
            f"It also says \"{quotes[1]}\" [fp:{quotable[1]['fingerprint']}].")


def repair(answer, report):
    """Replaces each quote that is not verbatim by the label's own passage; drops absent ones."""
    for check in report["quotes"]:
        if check["match"] in ("normalised", "near_miss"):
            answer = answer.replace(check["quote"], check["passage"]["text"], 1)
        elif check["match"] != "exact":
            answer = answer.replace(f"\"{check['quote']}\"", "[quote removed: not label text]", 1)
    return answer


def main():
    mcp = Mcp()
    tools = sorted(tool["name"] for tool in mcp.rpc("tools/list", {})["tools"])
    print("tools:", ", ".join(tools))
    question = "What should patients know about dizziness?"
    results = mcp.tool("search_labels", question=question, top_k=5)["results"]
    answer = draft_answer(question, results)
    report = mcp.tool("check_quote", answer=answer)
    print("draft check:", [check["match"] for check in report["quotes"]])
    if not report["summary"]["all_verbatim"]:
        answer = repair(answer, report)
        report = mcp.tool("check_quote", answer=answer)
        print("repaired check:", [check["match"] for check in report["quotes"]])
    if not report["summary"]["all_verbatim"]:
        sys.exit("the agent could not make every quote verbatim; it shows nothing")
    print(answer)
    for check in report["quotes"]:
        print(f"  source: {check['segment']['source']['url']} ({check['segment']['section']})")


if __name__ == "__main__":
    main()
