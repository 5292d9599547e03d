#!/usr/bin/env bash
# drugcite with curl (and jq): search, verify the first result's fingerprint, then check a
# quote of it — once verbatim, once misquoted — with POST /v1/verify/quote.
#   DRUGCITE_URL=http://127.0.0.1:8080 DRUGCITE_API_KEY=dc_… examples/curl.sh
set -euo pipefail
url="${DRUGCITE_URL:-http://127.0.0.1:8080}"
key="${DRUGCITE_API_KEY:?set DRUGCITE_API_KEY to a key with scopes search,verify}"

curl -fsS "$url/health"; echo

# 1. Search (needs the key).
search=$(curl -fsS "$url/v1/search" -H "x-api-key: $key" -H 'content-type: application/json' \
  -d '{"question": "dizziness", "top_k": 3}')
fingerprint=$(jq -r '.data.results[0].fingerprint' <<<"$search")
text=$(jq -r '.data.results[0].text' <<<"$search")
echo "cited: $(jq -r '.data.results[0].source.url' <<<"$search")"

# 2. Verify the fingerprint (no key needed): the exact official text comes back.
verified=$(curl -fsS "$url/v1/verify/$fingerprint")
[ "$(jq -r '.data.text' <<<"$verified")" = "$text" ] && echo "verify: exact text of the segment"

# 3. Check a quote of it, verbatim and misquoted.
quote=$(jq -rn --arg t "$text" '$t[0:60] | sub("\\s+$"; "")')
for q in "$quote" "${quote^^}" "${quote:0:20}xx${quote:22}"; do
  curl -fsS "$url/v1/verify/quote" -H 'content-type: application/json' \
    -d "$(jq -n --arg q "$q" --arg fp "$fingerprint" '{quote: $q, fingerprint: $fp}')" |
    jq -r '.data.quotes[0] | "quote check: \(.match) \(.normalisations) similarity=\(.similarity)"'
done
