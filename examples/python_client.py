#!/usr/bin/env python3
"""drugcite from Python's standard library: search, verify a fingerprint, check an answer.

    DRUGCITE_URL=http://127.0.0.1:8080 DRUGCITE_API_KEY=dc_... python3 examples/python_client.py

Exits non-zero if the service answers anything but what the steps expect.
"""
import json
import os
import sys
import urllib.error
import urllib.request

URL = os.environ.get("DRUGCITE_URL", "http://127.0.0.1:8080")
KEY = os.environ["DRUGCITE_API_KEY"]


def call(method, path, body=None, key=KEY):
    """One request; returns (HTTP status, decoded JSON body)."""
    headers = {"content-type": "application/json"}
    if key:
        headers["x-api-key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(URL + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def main():
    status, body = call("POST", "/v1/search", {"question": "liver injury", "top_k": 3})
    assert status == 200, body
    top = body["data"]["results"][0]
    print(f"search: {top['drug']['name']} / {top['section']} / {top['source']['url']}")

    status, body = call("GET", "/v1/verify/" + top["fingerprint"], key=None)
    assert status == 200 and body["data"]["verified"] and body["data"]["text"] == top["text"], body
    print("verify: the fingerprint resolves to the exact text")

    quote = top["text"][:80].strip()
    misquote = quote.replace(" ", "  ", 1)[:-3] + "xyz"
    answer = f'The label says "{quote}" [fp:{top["fingerprint"]}] and "{misquote}" [fp:{top["fingerprint"]}].'
    status, body = call("POST", "/v1/verify/quote", {"answer": answer})
    assert status == 200, body
    for check in body["data"]["quotes"]:
        print(f"quote check: {check['match']} (similarity {check['similarity']})")
        if check["diff"]:
            print("  diff: " + "".join(
                part["text"] if part["op"] == "same" else f"[{part['op']}:{part['text']}]"
                for part in check["diff"]))
    kinds = [check["match"] for check in body["data"]["quotes"]]
    assert kinds == ["exact", "near_miss"], kinds

    status, body = call("POST", "/v1/verify/quote", {"quote": ""})
    assert status == 400 and body["msg"] == "invalid data", body
    print("bad request: 400", body["detail"])


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        sys.exit(f"unexpected answer: {failure}")
