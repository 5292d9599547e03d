#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests, from Debian's packages (apt-get install postgresql),
# run as an unprivileged user on a free local port with its data in a temp dir.
#   scripts/postgres.sh start   prints "URL DIR": the server's URL and the dir to stop
#   scripts/postgres.sh stop DIR
# As root it runs the server as the `postgres` user the package creates (initdb refuses root).
set -euo pipefail
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -x "$bin/initdb" ] || { echo "error: PostgreSQL not found (apt-get install postgresql)" >&2; exit 1; }
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
start)
    dir="$(mktemp -d /tmp/drugcite-pg.XXXXXX)"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U drugcite --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300" >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://drugcite@127.0.0.1:$port/postgres $dir"
    ;;
stop)
    dir="${2:?usage: scripts/postgres.sh stop DIR}"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    rm -rf "$dir"
    ;;
*)
    echo "usage: scripts/postgres.sh start | stop DIR" >&2
    exit 2
    ;;
esac
